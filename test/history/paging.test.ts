// search_history paged through a text search: every page as one long page gives it, hidden-only
// matches skipped across page ends, later pages going on from the scan kept, a new head starting afresh.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAhead } from '../../src/repo-host/git/history/pickaxe-scan.ts';
import { forgetSearches } from '../../src/repo-host/git/history/search-commits.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { searchHistory } from '../../src/instance/tools/search-history.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import { commit, makeRepo, tempDir } from '../support/git-fixture.ts';
import { callTool, gitOnlyContext, reader } from './history-fixture.ts';

let temp: { path: string; cleanup: () => void };
let host: LocalRepoHost;
let ctx: ToolContext;
let repoDir: string;
let c: string[];

beforeAll(() => {
  temp = tempDir('mv-paging-');
  repoDir = join(temp.path, 'plain');
  c = makeRepo(repoDir, [
    { message: 'c1', date: '2026-03-01T10:00:00+01:00', files: { 'a.md': 'a quokka\n' } },
    { message: 'c2 hidden', date: '2026-03-02T10:00:00+01:00', files: { '.hidden/h.md': 'quokka\n' } },
    { message: 'c3', date: '2026-03-03T10:00:00+01:00', files: { 'b.md': 'quokka quokka\n', 'c.md': 'no\n' } },
    { message: 'c4 hidden', date: '2026-03-04T10:00:00+01:00', files: { '.obsidian/x.md': 'quokka\n' } },
    { message: 'c5 hidden', date: '2026-03-05T10:00:00+01:00', files: { '.hidden/h.md': 'nothing\n' } },
    { message: 'c6', date: '2026-03-06T10:00:00+01:00', files: { 'a.md': 'a\n', 'b.md': 'quokka quokka quokka\n' } },
    { message: 'c7', date: '2026-03-07T10:00:00+01:00', files: { 'd.md': 'QUOKKA\n' } },
  ]);
  host = new LocalRepoHost({ reposDir: temp.path, as: reader });
  ctx = gitOnlyContext(host, ['plain']);
});

afterAll(async () => {
  await host?.close();
  temp?.cleanup();
});

const page = async (limit: number, offset: number) => {
  const answer = await callTool(searchHistory, ctx, { repo: 'plain', text: 'quokka', limit, offset });
  return { commits: answer.commits.map((found) => found.subject), hasMore: answer.hasMore };
};

describe('search_history: paging a text search', () => {
  it('gives page by page what one long page gives, hidden-only matches left out', async () => {
    forgetSearches();
    expect(await page(50, 0)).toEqual({ commits: ['c7', 'c6', 'c3', 'c1'], hasMore: false });
    for (const kept of [false, true]) {
      if (!kept) forgetSearches();
      expect(await page(1, 0)).toEqual({ commits: ['c7'], hasMore: true });
      expect(await page(1, 1)).toEqual({ commits: ['c6'], hasMore: true });
      expect(await page(1, 2)).toEqual({ commits: ['c3'], hasMore: true });
      expect(await page(1, 3)).toEqual({ commits: ['c1'], hasMore: false });
    }
    forgetSearches();
    expect(await page(2, 0)).toEqual({ commits: ['c7', 'c6'], hasMore: true });
    expect(await page(2, 2)).toEqual({ commits: ['c3', 'c1'], hasMore: false });
  });

  it.each([0, 1, 300])('gives the same pages when the walk reads %i commits ahead of the page asked', async (matches) => {
    const before = { ...readAhead };
    readAhead.matches = matches;
    try {
      forgetSearches();
      const pages = [];
      for (let offset = 0; offset < 5; offset += 1) pages.push(await page(1, offset));
      expect(pages).toEqual([
        { commits: ['c7'], hasMore: true },
        { commits: ['c6'], hasMore: true },
        { commits: ['c3'], hasMore: true },
        { commits: ['c1'], hasMore: false },
        { commits: [], hasMore: false },
      ]);
      forgetSearches();
      expect(await page(2, 2)).toEqual({ commits: ['c3', 'c1'], hasMore: false });
      expect(await page(2, 0)).toEqual({ commits: ['c7', 'c6'], hasMore: true });
    } finally {
      Object.assign(readAhead, before);
    }
  });

  it('answers pages asked at the same time from one walk', async () => {
    const before = { ...readAhead };
    readAhead.matches = 0;
    try {
      forgetSearches();
      const pages = await Promise.all([page(1, 3), page(1, 0), page(2, 1), page(1, 2)]);
      expect(pages).toEqual([
        { commits: ['c1'], hasMore: false },
        { commits: ['c7'], hasMore: true },
        { commits: ['c6', 'c3'], hasMore: true },
        { commits: ['c3'], hasMore: true },
      ]);
    } finally {
      Object.assign(readAhead, before);
    }
  });

  it('answers a later page asked first, and says which files gained or lost the text on it', async () => {
    forgetSearches();
    expect(await page(1, 2)).toEqual({ commits: ['c3'], hasMore: true });
    const answer = await callTool(searchHistory, ctx, { repo: 'plain', text: 'quokka', limit: 1, offset: 1 });
    expect(answer.commits[0]?.files).toEqual([
      { path: 'a.md', added: 1, removed: 1, text: 'removed' },
      { path: 'b.md', added: 1, removed: 1, text: 'added' },
    ]);
    expect(answer.commits[0]?.files_total).toBe(2);
  });

  it('starts afresh once the branch has a new commit', async () => {
    forgetSearches();
    expect(await page(1, 0)).toEqual({ commits: ['c7'], hasMore: true });
    expect(await page(1, 1)).toEqual({ commits: ['c6'], hasMore: true });
    commit(repoDir, { message: 'c8', date: '2026-03-08T10:00:00+01:00', files: { 'e.md': 'quokka\n' } });
    expect(await page(1, 1)).toEqual({ commits: ['c7'], hasMore: true });
    expect(await page(1, 4)).toEqual({ commits: ['c1'], hasMore: false });
    expect(c).toHaveLength(7);
  });
});
