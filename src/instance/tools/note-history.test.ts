import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, openHistoryFixture, refusalOf, type HistoryFixture } from '../../../test/history/history-fixture.ts';
import {
  buildBare,
  buildMerged,
  buildVault,
  buildWorkTree,
  oddName,
  planText,
  type MergedCommits,
  type VaultCommits,
} from '../../../test/history/history-repos.ts';
import type { VaultErrorCode } from '../../vault-error.ts';
import type { ToolContext } from '../tool.ts';
import { noteHistory } from './note-history.ts';

// The fixtures' dates are +01:00: days and day boundaries are read in Berlin time.
process.env.TZ = 'Europe/Berlin';

const call = (ctx: ToolContext, args: Record<string, unknown>) => callTool(noteHistory, ctx, args);

const refusal = (ctx: ToolContext, args: Record<string, unknown>, code: VaultErrorCode) => refusalOf(noteHistory, ctx, args, code);

let fixture: HistoryFixture;
let ctx: ToolContext;
let vault: VaultCommits;
let merged: MergedCommits;

beforeAll(async () => {
  fixture = await openHistoryFixture((reposDir) => {
    vault = buildVault(join(reposDir, 'vault'));
    merged = buildMerged(join(reposDir, 'merged'));
    buildBare(join(reposDir, 'merged'), join(reposDir, 'merged-bare'));
    buildWorkTree(join(reposDir, 'worktree'));
  });
  ctx = await fixture.context();
});

afterAll(async () => {
  await fixture?.close();
});

describe('note_history: the list', () => {
  it('follows a note across a move between folders, newest first, with the path after each commit', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md' });
    expect(answer.commits.map((c) => [c.commit, c.path, c.added, c.removed])).toEqual([
      [vault.editFive, 'archive/2026/plan.md', 1, 1],
      [vault.move, 'archive/2026/plan.md', 0, 0],
      [vault.editTwo, 'notes/plan.md', 1, 1],
      [vault.create, 'notes/plan.md', 6, 0],
    ]);
    expect(answer.commits[1]).toMatchObject({
      author: 'Chloé Çelik',
      subject: 'Move the plan to the archive',
      date: '2026-01-12T00:00:00+01:00',
    });
    expect(answer).toMatchObject({ path: 'archive/2026/plan.md', offset: 0, hasMore: false, repo: 'vault' });
  });

  it('pages newest first and names the next offset', async () => {
    const first = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', limit: 2 });
    expect(first.commits.map((c) => c.commit)).toEqual([vault.editFive, vault.move]);
    expect(first.hasMore).toBe(true);
    expect(first.note).toContain('offset 2');
    const second = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', limit: 2, offset: 2 });
    expect(second.commits.map((c) => c.commit)).toEqual([vault.editTwo, vault.create]);
    expect(second).toMatchObject({ offset: 2, hasMore: false });
    const past = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', limit: 3, offset: 10 });
    expect(past.commits).toEqual([]);
    // Past the end says so, as list_notes does, in the list and the diff mode alike.
    const pastNote =
      'offset 10 is past the last of the 4 commits: call note_history again with offset 0 for the first page, or offset 3 for the last.';
    expect(past.note).toBe(pastNote);
    const pastDiff = await call(ctx, {
      repo: 'vault',
      path: 'archive/2026/plan.md',
      limit: 3,
      offset: 10,
      since: '2026-01-01',
      diff: true,
    });
    expect(pastDiff.note).toContain(pastNote);
  });

  it('counts since from the start of that day in local time', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', since: '2026-01-12' });
    expect(answer.commits.map((c) => c.commit)).toEqual([vault.editFive, vault.move]);
    const dayBefore = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', since: '2026-01-11' });
    expect(dayBefore.commits.map((c) => c.commit)).toEqual([vault.editFive, vault.move, vault.editTwo]);
    const later = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', since: '2026-03-01' });
    expect(later.commits).toEqual([]);
    expect(later.note).toContain('No commit');
  });

  it('keeps the history of a deleted note under the path it had last', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'notes/gone.md' });
    expect(answer.commits.map((c) => [c.commit, c.path])).toEqual([
      [vault.deleteGone, 'notes/gone.md'],
      [vault.create, 'notes/gone.md'],
    ]);
  });

  it('gives file names with spaces, quotes, # and tabs exactly', async () => {
    const answer = await call(ctx, { repo: 'vault', path: oddName });
    expect(answer.commits.map((c) => [c.commit, c.path])).toEqual([
      [vault.editOdd, oddName],
      [vault.create, oddName],
    ]);
  });

  it('finds the note without .md', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'notes/gone' });
    expect(answer.path).toBe('notes/gone.md');
    expect(answer.commits).toHaveLength(2);
  });

  it('follows a rename made on a merged branch, with the edits made on both sides meanwhile', async () => {
    for (const repo of ['merged', 'merged-bare']) {
      const answer = await call(ctx, { repo, path: 'c/n.md' });
      expect(answer.commits.map((c) => [c.commit, c.path])).toEqual([
        [merged.editAfterMerge, 'c/n.md'],
        [merged.editOnBranch, 'c/n.md'],
        [merged.editOnMain, 'a/n.md'],
        [merged.renameOnBranch, 'c/n.md'],
        [merged.create, 'a/n.md'],
      ]);
    }
    const paged = await call(ctx, { repo: 'merged', path: 'c/n.md', limit: 2, offset: 2 });
    expect(paged.commits.map((c) => c.commit)).toEqual([merged.editOnMain, merged.renameOnBranch]);
    expect(paged.hasMore).toBe(true);
  });

  it('gives every page as a slice of the one list, whatever the page size, with or without the rename on it', async () => {
    const whole = (await call(ctx, { repo: 'merged', path: 'c/n.md' })).commits.map((c) => c.commit);
    for (const limit of [1, 2, 3, 4]) {
      const paged: string[] = [];
      for (let offset = 0; offset < whole.length; offset += limit)
        paged.push(...(await call(ctx, { repo: 'merged', path: 'c/n.md', limit, offset })).commits.map((c) => c.commit));
      expect(paged).toEqual(whole);
    }
  });
});

describe('note_history: diff since a day', () => {
  it('diffs from the last commit before that day, under the name the note had then', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', since: '2026-01-12', diff: true });
    expect(answer.commits.map((c) => c.commit)).toEqual([vault.editFive, vault.move]);
    expect(answer.diff).toMatchObject({
      since: '2026-01-12',
      base: vault.editTwo,
      base_path: 'notes/plan.md',
      from_line: 1,
      truncated: false,
    });
    const content = answer.diff?.content ?? '';
    expect(content).toContain('--- a/notes/plan.md\n+++ b/archive/2026/plan.md\n');
    expect(content).toContain('-line five\n+line five, after the move\n');
    expect(content).not.toContain('+line two');
    expect(answer.diff?.total_lines).toBe(content.split('\n').length - 1);
  });

  it('windows the diff by from_line and to_line', async () => {
    const whole = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', since: '2026-01-11', diff: true });
    expect(whole.diff?.base).toBe(vault.create);
    const lines = (whole.diff?.content ?? '').split('\n');
    const part = await call(ctx, {
      repo: 'vault',
      path: 'archive/2026/plan.md',
      since: '2026-01-11',
      diff: true,
      from_line: 3,
      to_line: 4,
    });
    expect(part.diff).toMatchObject({ from_line: 3, to_line: 4, total_lines: whole.diff?.total_lines });
    expect(part.diff?.content).toBe(`${lines[2]}\n${lines[3]}\n`);
  });

  it('starts from nothing when no commit is older than the day', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', since: '2025-12-01', diff: true });
    expect(answer.diff?.base).toMatch(/^[0-9a-f]{40}$/);
    expect(answer.diff?.content).toContain('--- /dev/null\n+++ b/archive/2026/plan.md\n');
    expect(answer.note).toContain('no commit before');
  });

  it('includes the uncommitted changes of a work tree', async () => {
    const answer = await call(ctx, { repo: 'worktree', path: 'w.md', since: '2026-01-11', diff: true });
    expect(answer.diff?.content).toContain('-b\n+B\n c\n+d uncommitted\n');
  });
});

describe('note_history: at', () => {
  it('gives the note as it was right after a commit, under its name then, by a short hash too', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', at: vault.editTwo.slice(0, 9) });
    expect(answer.version).toEqual({
      commit: vault.editTwo,
      date: '2026-01-11T23:59:59+01:00',
      path: 'notes/plan.md',
      from_line: 1,
      to_line: 6,
      total_lines: 6,
      content: planText.replace('line two', 'line two, edited by Bob'),
      truncated: false,
    });
    expect(answer.commits).toEqual([]);
    const window = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', at: vault.create, from_line: 2, to_line: 3 });
    expect(window.version).toMatchObject({ from_line: 2, to_line: 3, content: 'line two\nline three\n' });
  });

  it('refuses a commit that did not change the note, listing those that did', async () => {
    const message = await refusal(ctx, { repo: 'vault', path: 'archive/2026/plan.md', at: vault.editOdd }, 'commit_not_for_note');
    expect(message).toContain(vault.editFive.slice(0, 12));
    expect(message).toContain(vault.create.slice(0, 12));
  });

  it('refuses a commit that does not exist', async () => {
    await refusal(ctx, { repo: 'vault', path: 'archive/2026/plan.md', at: 'deadbeef' }, 'unknown_commit');
  });

  it('answers the commit that deleted a note with the one before it', async () => {
    const message = await refusal(ctx, { repo: 'vault', path: 'notes/gone.md', at: vault.deleteGone }, 'note_not_found');
    expect(message).toContain(vault.create.slice(0, 12));
    const last = await call(ctx, { repo: 'vault', path: 'notes/gone.md', at: vault.create });
    expect(last.version?.content).toBe('bye\n');
  });
});

describe('note_history: blame', () => {
  it('follows the move, so the moving commit takes the blame for no line', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', blame: true });
    expect(answer.blame?.map((run) => [run.from_line, run.to_line, run.commit, run.path])).toEqual([
      [1, 1, vault.create, 'notes/plan.md'],
      [2, 2, vault.editTwo, 'notes/plan.md'],
      [3, 4, vault.create, 'notes/plan.md'],
      [5, 5, vault.editFive, 'archive/2026/plan.md'],
      [6, 6, vault.create, 'notes/plan.md'],
    ]);
    expect(answer.blame?.[1]).toMatchObject({
      author: 'Bob Brandt',
      subject: 'Edit line two',
      date: '2026-01-11T23:59:59+01:00',
      content: 'line two, edited by Bob',
    });
    expect(answer.blame?.[2]?.content).toBe('line three\nline four');
  });

  it('gives the same blame whichever spelling of the path names the note, in a work tree and a bare repository', async () => {
    // Git starts on the path as given while the path is looked up; other spellings find the note first.
    for (const repo of ['merged', 'merged-bare']) {
      const exact = await call(ctx, { repo, path: 'c/n.md', blame: true });
      expect(exact.blame).toHaveLength(5);
      for (const path of ['c/n', `${repo}/c/n.md`, `${repo}/c/n`, ' c/n.md ']) {
        expect(await call(ctx, { repo, path, blame: true }), path).toEqual(exact);
      }
    }
    // Refused as before, and nothing is left waiting.
    await refusal(ctx, { repo: 'vault', path: '.hidden/s.md', blame: true }, 'hidden_path');
    await refusal(ctx, { repo: 'vault', path: 'outside/x.md', blame: true }, 'outside_folders');
    await refusal(ctx, { repo: 'vault', path: 'notes/gone', blame: true }, 'note_not_found');
  });

  it('narrows to from_line and to_line', async () => {
    const answer = await call(ctx, { repo: 'vault', path: 'archive/2026/plan.md', blame: true, from_line: 2, to_line: 3 });
    expect(answer.blame?.map((run) => [run.from_line, run.to_line, run.commit])).toEqual([
      [2, 2, vault.editTwo],
      [3, 3, vault.create],
    ]);
    await refusal(ctx, { repo: 'vault', path: 'archive/2026/plan.md', blame: true, from_line: 40 }, 'bad_arguments');
  });

  it('blames across a rename on a merged branch, in a work tree and a bare repository', async () => {
    for (const repo of ['merged', 'merged-bare']) {
      const answer = await call(ctx, { repo, path: 'c/n.md' });
      expect(answer.commits).toHaveLength(5);
      const blame = await call(ctx, { repo, path: 'c/n.md', blame: true });
      expect(blame.blame?.map((run) => [run.from_line, run.to_line, run.commit])).toEqual([
        [1, 1, merged.editOnBranch],
        [2, 3, merged.create],
        [4, 4, merged.editAfterMerge],
        [5, 7, merged.create],
        [8, 8, merged.editOnMain],
      ]);
      expect(blame.blame?.[4]?.path).toBe('a/n.md');
    }
  });

  it('leaves uncommitted lines without a commit', async () => {
    const answer = await call(ctx, { repo: 'worktree', path: 'w.md', blame: true });
    expect(answer.blame?.map((run) => [run.from_line, run.to_line, run.author ?? null])).toEqual([
      [1, 1, 'Alice Arden'],
      [2, 2, 'Bob Brandt'],
      [3, 3, 'Alice Arden'],
      [4, 4, null],
    ]);
    expect(answer.blame?.[3]).toEqual({ from_line: 4, to_line: 4, content: 'd uncommitted' });
    const fresh = await call(ctx, { repo: 'worktree', path: 'new.md', blame: true });
    expect(fresh.blame).toEqual([{ from_line: 1, to_line: 2, content: 'fresh\nnote' }]);
    const list = await call(ctx, { repo: 'worktree', path: 'new.md' });
    expect(list.commits).toEqual([]);
    expect(list.note).toContain('not been committed');
  });

  it('gives odd file names exactly', async () => {
    const answer = await call(ctx, { repo: 'vault', path: oddName, blame: true });
    expect(answer.blame?.map((run) => run.path)).toEqual([oddName, oddName]);
  });

  it('refuses to blame a note that no longer exists', async () => {
    await refusal(ctx, { repo: 'vault', path: 'notes/gone.md', blame: true }, 'note_not_found');
  });
});

describe('note_history: refusals', () => {
  const path = 'archive/2026/plan.md';
  it.each([
    [{ at: 'abcdef1', since: '2026-01-12' }, 'drop since'],
    [{ at: 'abcdef1', since: '2026-01-12', diff: true }, 'drop since and diff'],
    [{ blame: true, since: '2026-01-12' }, 'drop since'],
    [{ blame: true, diff: true, since: '2026-01-12' }, 'drop since and diff'],
    [{ blame: true, at: 'abcdef1' }, 'drop at'],
    [{ diff: true }, 'diff needs since'],
    [{ from_line: 2 }, 'drop them'],
    [{ blame: true, from_line: 3, to_line: 2 }, 'to_line 2 is before from_line 3'],
    [{ since: '2026-02-30' }, 'not a day that exists'],
  ])('refuses %o', async (args, words) => {
    expect(await refusal(ctx, { repo: 'vault', path, ...args }, 'bad_arguments')).toContain(words);
  });

  it('refuses hidden paths, paths outside the open folders, unknown notes and repositories', async () => {
    await refusal(ctx, { repo: 'vault', path: '.hidden/s.md' }, 'hidden_path');
    expect(await refusal(ctx, { repo: 'vault', path: 'outside/x.md' }, 'outside_folders')).toContain('"notes/"');
    await refusal(ctx, { repo: 'vault', path: 'notes/never.md' }, 'note_not_found');
    await refusal(ctx, { repo: 'vault', path: '../vault/notes/gone.md' }, 'invalid_path');
    expect(await refusal(ctx, { repo: 'nope', path: 'a.md' }, 'repo_not_found')).toContain('"vault"');
    const onlyMerged = await fixture.context(['merged']);
    await refusal(onlyMerged, { repo: 'vault', path }, 'repo_not_found');
  });
});
