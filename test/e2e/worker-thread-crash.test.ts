// A worker thread that dies under a call (a crash, out of memory) gives that call a clear
// refusal, not a crashed server: here a pool thread is ended while it matches a slow regular
// expression over megabyte-long lines; the search is refused with a sentence saying what
// happened and what to do, and the next calls (a read, the same kind of search) answer.
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { poolTasksInProgress, workerPoolThreads } from '../../src/pool/worker-pool.ts';
import { makeRepo, tempDir } from '../support/git-fixture.ts';
import { connectHttp, serveRepos, type ServedRepos } from './demo-fixture.ts';

/** One line of `length` characters over a small alphabet; RE2JS takes seconds to run the regex below over it. */
function longLine(length: number, seed: number): string {
  const alphabet = 'abcd01XY,';
  const chars = new Array<string>(length);
  for (let i = 0; i < length; i++) chars[i] = alphabet[(i * 7919 + (i >> 3) + seed) % alphabet.length]!;
  return `${chars.join('')} dd42QQQ`;
}

describe('a worker thread that dies under a call', () => {
  const dir = tempDir('mv-thread-crash-');
  let server: ServedRepos;
  let client: Client;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'repos', 'notes'), [
      {
        message: 'A short note and data dumps',
        files: {
          'small.md': '# Small\n\nA short note about QQQ.\n',
          ...Object.fromEntries([1, 2, 3].map((n) => [`dumps/dump-${n}.md`, `${longLine(4_000_000, n)}\n`])),
        },
      },
    ]);
    server = await serveRepos(join(dir.path, 'repos'), { matchBudgetMs: 120_000 });
    client = await connectHttp(server.url, '2026-07-28');
  }, 300_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    dir.cleanup();
  });

  test('the call is refused saying so; the server answers the next calls', async () => {
    // The index first (its build parses the dumps on the same pool), so the only pool task below is the search's.
    const tree = await client.callTool({ name: 'tree', arguments: { repo: 'notes' } });
    expect(JSON.stringify(tree.structuredContent)).toContain('dumps/');
    const search = client.callTool({
      name: 'search_notes',
      arguments: { repo: 'notes', query: '(\\w+\\d)+QQQ', regex: true, path: 'dumps' },
    });
    let answered = false;
    void search.finally(() => (answered = true));
    // Once the matching is on the pool (it takes seconds there), its threads are ended.
    const waitingSince = Date.now();
    while (poolTasksInProgress() === 0 && Date.now() - waitingSince < 120_000) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    await Promise.all(workerPoolThreads().map((thread) => thread.terminate()));
    const refused = await search;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('stopped before it finished');
    expect(JSON.stringify(refused.content)).toContain('Try the call again');

    const read = await client.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'small.md' } });
    expect(read.isError).toBeFalsy();
    expect(JSON.stringify(read.structuredContent)).toContain('A short note about QQQ.');
    const again = await client.callTool({ name: 'search_notes', arguments: { repo: 'notes', query: 'short note' } });
    expect(again.isError).toBeFalsy();
    expect((again.structuredContent as { matches: Array<{ path: string }> }).matches.map((match) => match.path)).toEqual(['small.md']);
  }, 300_000);
});
