// search_history over a whole repository walks without rename detection and pairs renames
// afterwards: the commits and files it lists are those `git log -S` (with renames) gives.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSearches } from '../../src/repo-host/git/history/search-commits.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { searchHistory } from '../../src/instance/tools/search-history.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import { git, makeRepo, tempDir } from '../support/git-fixture.ts';
import { callTool, gitOnlyContext, reader } from './history-fixture.ts';

const note = (lines: string[]) => `${lines.join('\n')}\n`;
const body = ['# Plan', 'We sell the tea at 34 stores.', 'Line three.', 'Line four.', 'Line five.', 'Line six.'];

let temp: { path: string; cleanup: () => void };
let host: LocalRepoHost;
let ctx: ToolContext;
let repoDir: string;
let c: string[];

beforeAll(() => {
  temp = tempDir('mv-pickaxe-renames-');
  repoDir = join(temp.path, 'vault');
  c = makeRepo(repoDir, [
    { message: 'c0 plan', date: '2026-04-01T10:00:00+02:00', files: { 'plan.md': note(body), 'other.md': 'nothing\n' } },
    { message: 'c1 move only', date: '2026-04-02T10:00:00+02:00', renames: { 'plan.md': 'active/plan.md' } },
    {
      message: 'c2 move and add the text',
      date: '2026-04-03T10:00:00+02:00',
      renames: { 'active/plan.md': 'archive/plan.md' },
      files: { 'archive/plan.md': note([...body, 'Now 34 stores and more.']) },
    },
    {
      message: 'c3 move, text elsewhere',
      date: '2026-04-04T10:00:00+02:00',
      renames: { 'archive/plan.md': 'plan.md' },
      files: { 'other.md': 'now 34 Stores too\n' },
    },
    { message: 'c4 move into hiding', date: '2026-04-05T10:00:00+02:00', renames: { 'plan.md': '.trash/plan.md' } },
    {
      message: 'c5 move back out, lose one',
      date: '2026-04-06T10:00:00+02:00',
      renames: { '.trash/plan.md': 'plan.md' },
      files: { 'plan.md': note(body) },
    },
  ]);
  host = new LocalRepoHost({ reposDir: temp.path, as: reader });
  ctx = gitOnlyContext(host, ['vault']);
});

afterAll(async () => {
  await host?.close();
  temp?.cleanup();
});

describe('search_history: renames over the whole repository', () => {
  it('lists what git log -S with renames lists, a rename as one file with its own line counts', async () => {
    forgetSearches();
    const answer = await callTool(searchHistory, ctx, { repo: 'vault', text: '34 stores', limit: 50 });
    const listed = answer.commits.map((found) => [found.subject, found.files, found.files_total]);
    expect(listed).toEqual([
      // Seen without hidden files, the note came back from nowhere: an addition (git pairs it with .trash/plan.md).
      ['c5 move back out, lose one', [{ path: 'plan.md', added: 6, removed: 0, text: 'added' }], 1],
      // Into hiding: seen from the visible files, the note was deleted.
      ['c4 move into hiding', [{ path: 'plan.md', added: 0, removed: 7, text: 'removed' }], 1],
      ['c3 move, text elsewhere', [{ path: 'other.md', added: 1, removed: 1, text: 'added' }], 2],
      ['c2 move and add the text', [{ path: 'archive/plan.md', added: 1, removed: 0, text: 'added' }], 1],
      ['c0 plan', [{ path: 'plan.md', added: 6, removed: 0, text: 'added' }], 2],
    ]);
    // The same commits git itself finds, once the hidden-only view is taken into account:
    // git pairs c4 and c5 with the hidden path and so finds c5 (a count changed) but not c4.
    const byGit = git(repoDir, ['log', '-S34 stores', '--regexp-ignore-case', '--format=%s']).trim().split('\n');
    expect(byGit).toEqual(['c5 move back out, lose one', 'c3 move, text elsewhere', 'c2 move and add the text', 'c0 plan']);
    expect(c).toHaveLength(6);
  });

  it('pages over the dropped moves without a gap', async () => {
    forgetSearches();
    const pages: string[][] = [];
    for (let offset = 0; offset < 6; offset += 2) {
      const answer = await callTool(searchHistory, ctx, { repo: 'vault', text: '34 stores', limit: 2, offset });
      pages.push(answer.commits.map((found) => found.subject.split(' ')[0] ?? ''));
    }
    expect(pages).toEqual([['c5', 'c4'], ['c3', 'c2'], ['c0']]);
  });
});
