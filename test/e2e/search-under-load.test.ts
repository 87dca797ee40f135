// One heavy search never holds the server (issue 9, item 2): a regex that is slow over notes
// of megabyte-long lines runs on a worker thread under its time budget, so a small read_note
// sent while it runs answers first, and the search answers with what it found and a note.
// Also: search ignores Unicode normalisation (item 7), through the same server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { makeRepo, tempDir } from '../support/git-fixture.ts';
import { connectHttp, serveRepos, type ServedRepos } from './demo-fixture.ts';

/** One line of `length` characters over a small alphabet, ending in a match of {@link slowRegex}. */
function longLine(length: number, seed: number): string {
  const alphabet = 'abcd01XY,';
  const chars = new Array<string>(length);
  for (let i = 0; i < length; i++) chars[i] = alphabet[(i * 7919 + (i >> 3) + seed) % alphabet.length]!;
  return `${chars.join('')} dd42QQQ`;
}

/**
 * Linear in RE2, but finding where it matches in a 4 MB line takes RE2JS over a second on this
 * machine (the counted repeat multiplies its states); a machine three times as fast still
 * spends over 400 ms per dump.
 */
const slowRegex = '(\\w{1,20}\\d)+QQQ';

describe('a pathological search under load, over HTTP', () => {
  const dir = tempDir('mv-search-load-');
  let server: ServedRepos;
  let client: Client;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'repos', 'notes'), [
      {
        message: 'Notes, a data dump and a decomposed name',
        files: {
          'a-first.md': '# First\n\nrow x1QQQ here\n',
          'small.md': '# Small\n\nA short note.\n',
          'words.md': '# Words\n\nLa cre\u0300me bru\u0302le\u0301e, stored decomposed.\n',
          ...Object.fromEntries([1, 2, 3, 4].map((n) => [`dumps/dump-${n}.md`, `${longLine(4_000_000, n)}\n`])),
        },
      },
    ]);
    server = await serveRepos(join(dir.path, 'repos'), { matchBudgetMs: 2000 });
    client = await connectHttp(server.url, '2026-07-28');
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    dir.cleanup();
  });

  test('a small read_note answers while the search runs; the search answers what it found, and how to narrow it', async () => {
    let searchDone = false;
    const search = client.callTool({ name: 'search_notes', arguments: { repo: 'notes', query: slowRegex, regex: true } }).finally(() => {
      searchDone = true;
    });
    const readsBeforeSearch: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const read = await client.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'small.md' } });
      expect(read.isError, JSON.stringify(read.content)).toBeFalsy();
      expect(JSON.stringify(read.structuredContent)).toContain('A short note.');
      readsBeforeSearch.push(!searchDone);
    }
    const answer = (await search).structuredContent as { matches: Array<{ path: string; line: number }>; note?: string; hasMore: boolean };
    // The first small read answers while the search still runs (later ones may finish after
    // it on a loaded machine: the search's budget is wall time).
    expect(readsBeforeSearch[0]).toBe(true);
    // The regex needs over a second per dump: the budget ends in one of them.
    expect(answer.matches.map((match) => [match.path, match.line])[0]).toEqual(['a-first.md', 3]);
    expect(answer.note).toMatch(/stopped after its time budget of 2 s while reading dumps\/dump-\d\.md/);
    // Partial, and saying so; the advice names what would search on, not the search just made.
    expect(answer.hasMore).toBe(true);
    expect(answer.note).toMatch(/this answer is partial \(hasMore is true\)/);
    expect(answer.note).toMatch(/search dumps\/dump-\d\.md alone, with path "dumps\/dump-\d\.md"/);
    expect(answer.note).toMatch(/give path what comes after it, one at a time, to search the rest: "(dumps\/dump-\d\.md|small\.md)"/);
    expect(answer.note).toMatch(/read dumps\/dump-\d\.md with read_note, path "dumps\/dump-\d\.md"/);
  });

  test('a plain search finds text stored decomposed from its composed form, and the other way round', async () => {
    for (const query of ['crème brûlée', 'cre\u0300me bru\u0302le\u0301e']) {
      const result = await client.callTool({ name: 'search_notes', arguments: { repo: 'notes', query } });
      const matches = (result.structuredContent as { matches: Array<{ path: string; line: number; text: string }> }).matches;
      expect(matches).toEqual([
        { path: 'words.md', line: 3, text: 'La cre\u0300me bru\u0302le\u0301e, stored decomposed.', shortened: false },
      ]);
    }
    const refs = await client.callTool({ name: 'find_references', arguments: { repo: 'notes', values: ['Crème'] } });
    expect(refs.structuredContent).toMatchObject({
      counts: [{ value: 'Crème', lines: 1, capped: false }],
      references: [{ path: 'words.md', line: 3 }],
    });
  });
});

// One note alone, with a budget far below what matching it takes on any machine: the answer
// is partial whatever the machine's speed.
describe('a search of one note that outlasts its budget, over HTTP', () => {
  const dir = tempDir('mv-search-one-');
  let server: ServedRepos;
  let client: Client;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'repos', 'notes'), [{ message: 'A data dump', files: { 'dump.md': `${longLine(4_000_000, 2)}\n` } }]);
    server = await serveRepos(join(dir.path, 'repos'), { matchBudgetMs: 200 });
    client = await connectHttp(server.url, '2026-07-28');
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    dir.cleanup();
  });

  test('a search of one note that runs out of budget is partial, and does not advise the search it already is', async () => {
    const result = await client.callTool({
      name: 'search_notes',
      arguments: { repo: 'notes', path: 'dump.md', query: slowRegex, regex: true },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const answer = result.structuredContent as { matches: unknown[]; note?: string; hasMore: boolean; offset: number };
    expect(answer.matches).toEqual([]);
    expect(answer.hasMore).toBe(true);
    expect(answer.note).toMatch(/stopped after its time budget of 0.2 s while reading dump\.md/);
    expect(answer.note).not.toMatch(/alone|give path|narrow/);
    expect(answer.note).toMatch(/read dump\.md with read_note, path "dump\.md"/);
    expect(answer.note).toMatch(/make the regex start with literal text/);
  });
});
