import { describe, expect, test } from 'vitest';
import { byteCache } from '../../byte-cache.ts';
import { GIT_FACTS_CACHE_BYTES, gitFactsBytes, type GitFacts } from './base-view.ts';

function factsOf(count: number): GitFacts {
  const facts: GitFacts = { head: 'a'.repeat(40), times: new Map(), sizes: new Map() };
  for (let i = 0; i < count; i++) {
    const path = `Folder/Note number ${i}.md`;
    facts.times.set(path, { ctime: new Date(0), mtime: new Date(0) });
    facts.sizes.set(path, i);
  }
  return facts;
}

describe('gitFactsBytes', () => {
  test('counts every path, so a cache of facts drops repositories once over its bytes', () => {
    const small = factsOf(1_000);
    expect(gitFactsBytes(factsOf(2_000))).toBeGreaterThan(1.9 * gitFactsBytes(small));
    const cache = byteCache<string, GitFacts>({ maxBytes: Math.floor(2.5 * gitFactsBytes(small)), sizeOf: gitFactsBytes });
    for (const repo of ['one', 'two', 'three']) cache.set(repo, factsOf(1_000));
    expect([...cache.keys()].sort()).toEqual(['three', 'two']);
  });

  test('a repository of 20,000 files fits the bound; one of 100,000 does not', () => {
    expect(gitFactsBytes(factsOf(20_000))).toBeLessThan(GIT_FACTS_CACHE_BYTES);
    expect(gitFactsBytes(factsOf(100_000))).toBeGreaterThan(GIT_FACTS_CACHE_BYTES);
  });
});
