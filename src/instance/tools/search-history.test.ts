import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, openHistoryFixture, refusalOf, type HistoryFixture } from '../../../test/history/history-fixture.ts';
import {
  buildMerged,
  buildVault,
  buildWorkTree,
  oddName,
  tabName,
  type MergedCommits,
  type VaultCommits,
} from '../../../test/history/history-repos.ts';
import type { VaultErrorCode } from '../../vault-error.ts';
import type { ToolContext } from '../tool.ts';
import { searchHistory } from './search-history.ts';

// The fixtures' dates are +01:00: days and day boundaries are read in Berlin time.
process.env.TZ = 'Europe/Berlin';

const call = (ctx: ToolContext, args: Record<string, unknown>) => callTool(searchHistory, ctx, args);

async function commitsOf(ctx: ToolContext, args: Record<string, unknown>): Promise<string[]> {
  return (await call(ctx, { limit: 50, ...args })).commits.map((c) => c.commit);
}

const refusal = (ctx: ToolContext, args: Record<string, unknown>, code: VaultErrorCode) => refusalOf(searchHistory, ctx, args, code);

let fixture: HistoryFixture;
let ctx: ToolContext;
let vault: VaultCommits;
let merged: MergedCommits;
let worktree: { create: string; edit: string };

beforeAll(async () => {
  fixture = await openHistoryFixture((reposDir) => {
    vault = buildVault(join(reposDir, 'vault'));
    merged = buildMerged(join(reposDir, 'merged'));
    worktree = buildWorkTree(join(reposDir, 'worktree'));
  });
  ctx = await fixture.context();
});

afterAll(async () => {
  await fixture?.close();
});

describe('search_history: text', () => {
  it('finds the commits that added or removed the text, literally and ignoring case', async () => {
    const answer = await call(ctx, { repo: 'vault', text: 'SUM(a.b)' });
    expect(answer.commits).toEqual([
      {
        commit: vault.editOdd,
        date: '2026-01-17T10:00:00+01:00',
        author: 'Chloé Çelik',
        subject: 'Edit the odd file',
        files: [{ path: oddName, added: 1, removed: 0, text: 'added' }],
        files_total: 1,
      },
    ]);
    expect(answer).toMatchObject({ offset: 0, hasMore: false, repo: 'vault' });
    // "sumXaXb" would match the text read as a regular expression; taken literally, it does not.
    expect(answer.commits.some((c) => c.commit === vault.create)).toBe(false);
  });

  it('says which files gained and which lost the text', async () => {
    const answer = await call(ctx, { repo: 'vault', text: 'bye' });
    expect(answer.commits.map((c) => [c.commit, c.files])).toEqual([
      [vault.deleteGone, [{ path: 'notes/gone.md', added: 0, removed: 1, text: 'removed' }]],
      [vault.create, [{ path: 'notes/gone.md', added: 1, removed: 0, text: 'added' }]],
    ]);
    const moved = await call(ctx, { repo: 'vault', text: 'after the move' });
    expect(moved.commits.map((c) => c.commit)).toEqual([vault.editFive]);
  });

  it('lists only the matching files, and counts every visible file in files_total', async () => {
    const answer = await call(ctx, { repo: 'vault', text: 'line one' });
    expect(answer.commits).toHaveLength(1);
    expect(answer.commits[0]).toMatchObject({ commit: vault.create, files: [{ path: 'notes/plan.md', text: 'added' }] });
    // notes/plan.md, gone.md, regex.md, the odd file and the tab file; not .vault/, .hidden/ or outside/.
    expect(answer.commits[0]?.files_total).toBe(5);
  });

  it('never turns the text into an option', async () => {
    const target = join(fixture.reposDir, 'injected.txt');
    expect(await commitsOf(ctx, { repo: 'vault', text: `--output=${target}` })).toEqual([]);
    expect(await commitsOf(ctx, { repo: 'vault', author: `--output=${target}` })).toEqual([]);
    expect(await commitsOf(ctx, { repo: 'vault', path: 'notes/--output=x' })).toEqual([]);
    expect(existsSync(target)).toBe(false);
  });
});

describe('search_history: author, time, path', () => {
  it('matches part of the name or e-mail, case ignored, taken literally', async () => {
    expect(await commitsOf(ctx, { repo: 'vault', author: 'BOB@ACME' })).toEqual([vault.editTwo]);
    expect(await commitsOf(ctx, { repo: 'vault', author: 'chloé' })).toEqual([vault.editOdd, vault.move]);
    expect(await commitsOf(ctx, { repo: 'vault', author: 'arden' })).toEqual([vault.deleteGone, vault.editFive, vault.create]);
    // As a regular expression "alice.acme" would match alice@acme.example.
    expect(await commitsOf(ctx, { repo: 'vault', author: 'alice.acme' })).toEqual([]);
  });

  it('reads since and until in local time, a day in until counting to its end', async () => {
    expect(await commitsOf(ctx, { repo: 'vault', since: '2026-01-12', until: '2026-01-13' })).toEqual([vault.editFive, vault.move]);
    expect(await commitsOf(ctx, { repo: 'vault', until: '2026-01-11' })).toEqual([vault.editTwo, vault.create]);
    expect(await commitsOf(ctx, { repo: 'vault', until: '2026-01-11T23:59' })).toEqual([vault.create]);
    expect(await commitsOf(ctx, { repo: 'vault', since: '2026-01-11T23:59', until: '2026-01-12T00:00' })).toEqual([
      vault.move,
      vault.editTwo,
    ]);
    expect(await refusal(ctx, { repo: 'vault', since: '2026-01-13', until: '2026-01-12' }, 'bad_arguments')).toContain('after until');
    await refusal(ctx, { repo: 'vault', since: '2026-01-32' }, 'bad_arguments');
    await refusal(ctx, { repo: 'vault', since: '2026-01-12T24:00' }, 'bad_arguments');
  });

  it('limits to a folder or a note, with a move in or out listed under its new path', async () => {
    const archive = await call(ctx, { repo: 'vault', path: 'archive' });
    expect(archive.commits.map((c) => [c.commit, c.files.map((f) => f.path)])).toEqual([
      [vault.editFive, ['archive/2026/plan.md']],
      [vault.move, ['archive/2026/plan.md']],
    ]);
    expect(await commitsOf(ctx, { repo: 'vault', path: 'notes/plan.md' })).toEqual([vault.move, vault.editTwo, vault.create]);
    // Seen from the archive alone, the move brought the text in.
    const text = await call(ctx, { repo: 'vault', path: 'archive/', text: 'line' });
    expect(text.commits.map((c) => [c.commit, c.files.map((f) => f.text)])).toEqual([[vault.move, ['added']]]);
  });

  it('never shows hidden or closed paths, nor a commit that touched only those', async () => {
    const all = await call(ctx, { repo: 'vault', limit: 50 });
    expect(all.commits.map((c) => c.commit)).toEqual([
      vault.editOdd,
      vault.deleteGone,
      vault.editFive,
      vault.move,
      vault.editTwo,
      vault.create,
    ]);
    const paths = all.commits.flatMap((c) => c.files.map((f) => f.path));
    expect(paths.some((p) => p.startsWith('.') || p.startsWith('outside/'))).toBe(false);
    expect(paths).toContain(tabName);
    expect(await commitsOf(ctx, { repo: 'vault', text: 's2' })).toEqual([]);
    await refusal(ctx, { repo: 'vault', path: '.hidden' }, 'hidden_path');
    expect(await refusal(ctx, { repo: 'vault', path: 'outside' }, 'outside_folders')).toContain('"archive/"');
  });

  it('pages newest first', async () => {
    const first = await call(ctx, { repo: 'vault', limit: 2 });
    expect(first.commits.map((c) => c.commit)).toEqual([vault.editOdd, vault.deleteGone]);
    expect(first.hasMore).toBe(true);
    expect(first.note).toContain('offset 2');
    const last = await call(ctx, { repo: 'vault', limit: 2, offset: 4 });
    expect(last.commits.map((c) => c.commit)).toEqual([vault.editTwo, vault.create]);
    expect(last).toMatchObject({ offset: 4, hasMore: false });
    const past = await call(ctx, { repo: 'vault', limit: 2, offset: 10 });
    expect(past).toMatchObject({ commits: [], offset: 10, hasMore: false });
    expect(past.note).toBe(
      'offset 10 is past the last of the 6 commits: call search_history again with offset 0 for the first page, or offset 4 for the last.',
    );
    expect((await call(ctx, { repo: 'vault', text: 'no such text anywhere', offset: 10 })).note).toContain('No commit matches.');
  });

  it('lists merge commits against their first parent, and root commits', async () => {
    const answer = await call(ctx, { repo: 'merged', limit: 50 });
    expect(answer.commits.map((c) => c.commit)).toEqual([
      merged.editAfterMerge,
      merged.merge,
      merged.editOnBranch,
      merged.editOnMain,
      merged.renameOnBranch,
      merged.create,
    ]);
    expect(answer.commits[1]?.files).toEqual([{ path: 'c/n.md', added: 1, removed: 1 }]);
    expect(answer.commits[5]?.files.map((f) => f.path)).toEqual(['a/n.md', 'other.md']);
    expect(await commitsOf(ctx, { repo: 'merged', text: '8 MAIN' })).toEqual([merged.editOnMain]);
  });
});

describe('search_history: across repositories', () => {
  it('merges every readable repository newest first, naming files <repo>/<path>', async () => {
    const answer = await call(ctx, { until: '2026-01-12', limit: 50 });
    expect(answer.repo).toBeUndefined();
    expect(answer.commits.map((c) => c.commit)).toEqual([worktree.edit, vault.move, vault.editTwo, worktree.create, vault.create]);
    expect(answer.commits[0]?.files).toEqual([{ path: 'worktree/w.md', added: 1, removed: 1, repo: 'worktree' }]);
    const paged = await call(ctx, { until: '2026-01-12', limit: 2, offset: 2 });
    expect(paged.commits.map((c) => c.commit)).toEqual([vault.editTwo, worktree.create]);
    expect(paged.hasMore).toBe(true);
    const past = await call(ctx, { until: '2026-01-12', limit: 2, offset: 9 });
    expect(past.note).toBe(
      'offset 9 is past the last of the 5 commits: call search_history again with offset 0 for the first page, or offset 4 for the last.',
    );
  });

  it('leaves out the repositories the person cannot read', async () => {
    const onlyVault = await fixture.context(['vault']);
    const answer = await call(onlyVault, { until: '2026-01-12', limit: 50 });
    expect(answer.commits.map((c) => c.commit)).toEqual([vault.move, vault.editTwo, vault.create]);
    await refusal(onlyVault, { repo: 'merged' }, 'repo_not_found');
  });

  it('takes a path starting with a repository name', async () => {
    expect(await commitsOf(ctx, { path: 'vault/archive' })).toEqual([vault.editFive, vault.move]);
  });
});
