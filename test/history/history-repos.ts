// The repositories the history tests share: moves within and across folders, a rename on a
// merged branch, hidden and closed folders, odd file names, and uncommitted work.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alice, bob, chloe, cloneBare, commit, git, makeRepo } from '../support/git-fixture.ts';

/** The commits of {@link buildVault}, by name. */
export interface VaultCommits {
  create: string;
  editTwo: string;
  move: string;
  editFive: string;
  secret: string;
  deleteGone: string;
  empty: string;
  editOdd: string;
}

/** A file name with spaces, quotes, `#` and non-ASCII letters: Git quotes it in blame's output. */
export const oddName = 'notes/odd "name" #1 für.md';

/** A file name with a tab: search_history shows it exactly, and the tools take it back as given. */
export const tabName = 'notes/tab\there.md';

/** The plan note as created. */
export const planText = 'line one\nline two\nline three\nline four\nline five\nline six\n';

const settings = JSON.stringify({ format: 3, role: 'root', name: 'vault', prompts: [], resources: [], folders: ['notes/', 'archive/'] });

/**
 * `vault` (work tree, folders notes/ and archive/; the server's local time zone should be
 * Europe/Berlin, as the dates are +01:00):
 * create (01-10 09:00, Alice) → editTwo (01-11 23:59:59, Bob) → move notes/plan.md to
 * archive/2026/plan.md (01-12 00:00:00, Chloé) → editFive (01-13 10:00, Alice) → secret
 * (01-14, Bob: only .hidden/ and outside/) → deleteGone (01-15) → empty (01-16) → editOdd (01-17, Chloé).
 */
export function buildVault(dir: string): VaultCommits {
  const [create = '', editTwo = '', move = '', editFive = '', secret = '', deleteGone = '', empty = '', editOdd = ''] = makeRepo(dir, [
    {
      message: 'Create the plan',
      date: '2026-01-10T09:00:00+01:00',
      author: alice,
      files: {
        '.vault/settings.jsonc': settings,
        'notes/plan.md': planText,
        'notes/gone.md': 'bye\n',
        'notes/regex.md': 'sumXaXb\n',
        [oddName]: 'odd\n',
        [tabName]: 'tab\n',
        'outside/x.md': 'x\n',
        '.hidden/s.md': 's\n',
      },
    },
    {
      message: 'Edit line two',
      date: '2026-01-11T23:59:59+01:00',
      author: bob,
      files: { 'notes/plan.md': planText.replace('line two', 'line two, edited by Bob') },
    },
    {
      message: 'Move the plan to the archive',
      date: '2026-01-12T00:00:00+01:00',
      author: chloe,
      renames: { 'notes/plan.md': 'archive/2026/plan.md' },
    },
    {
      message: 'Edit line five after the move',
      date: '2026-01-13T10:00:00+01:00',
      author: alice,
      files: {
        'archive/2026/plan.md': planText.replace('line two', 'line two, edited by Bob').replace('line five', 'line five, after the move'),
      },
    },
    { message: 'Secret change', date: '2026-01-14T10:00:00+01:00', author: bob, files: { '.hidden/s.md': 's2\n', 'outside/x.md': 'x2\n' } },
    { message: 'Delete gone', date: '2026-01-15T10:00:00+01:00', author: alice, files: { 'notes/gone.md': null } },
    { message: 'Nothing at all', date: '2026-01-16T10:00:00+01:00', author: alice, allowEmpty: true },
    { message: 'Edit the odd file', date: '2026-01-17T10:00:00+01:00', author: chloe, files: { [oddName]: 'odd\nSum(a.b) here\n' } },
  ]);
  return { create, editTwo, move, editFive, secret, deleteGone, empty, editOdd };
}

/** The commits of {@link buildMerged}, by name. */
export interface MergedCommits {
  create: string;
  renameOnBranch: string;
  editOnMain: string;
  editOnBranch: string;
  merge: string;
  editAfterMerge: string;
}

/**
 * `merged` (plain repository): a/n.md created (02-01), renamed to c/n.md on branch feat
 * (02-02) while main edits its line 8 under the old name (02-03); feat edits line 1 (02-04);
 * main merges feat (02-05, no fast-forward), then edits line 4 (02-06).
 */
export function buildMerged(dir: string): MergedCommits {
  const stamp = (day: string) => `2026-02-${day}T10:00:00+01:00`;
  const lines = (replace: Record<number, string>) =>
    Array.from({ length: 8 }, (_, i) => replace[i + 1] ?? String(i + 1))
      .map((line) => `${line}\n`)
      .join('');
  const [create = ''] = makeRepo(dir, [{ message: 'Create n', date: stamp('01'), files: { 'a/n.md': lines({}), 'other.md': 'z\n' } }]);
  git(dir, ['checkout', '-q', '-b', 'feat']);
  const renameOnBranch = commit(dir, { message: 'Rename on the branch', date: stamp('02'), author: bob, renames: { 'a/n.md': 'c/n.md' } });
  git(dir, ['checkout', '-q', 'main']);
  const editOnMain = commit(dir, { message: 'Edit on main', date: stamp('03'), files: { 'a/n.md': lines({ 8: '8 main' }) } });
  git(dir, ['checkout', '-q', 'feat']);
  const editOnBranch = commit(dir, {
    message: 'Edit on the branch',
    date: stamp('04'),
    author: bob,
    files: { 'c/n.md': lines({ 1: '1 feat' }) },
  });
  git(dir, ['checkout', '-q', 'main']);
  const env = {
    GIT_AUTHOR_DATE: stamp('05'),
    GIT_COMMITTER_DATE: stamp('05'),
    GIT_AUTHOR_NAME: alice.name,
    GIT_AUTHOR_EMAIL: alice.email,
    GIT_COMMITTER_NAME: alice.name,
    GIT_COMMITTER_EMAIL: alice.email,
  };
  git(dir, ['merge', '-q', '--no-ff', '-m', 'Merge feat', 'feat'], env);
  const merge = git(dir, ['rev-parse', 'HEAD']);
  const editAfterMerge = commit(dir, {
    message: 'Edit after the merge',
    date: stamp('06'),
    files: { 'c/n.md': lines({ 1: '1 feat', 4: '4 after', 8: '8 main' }) },
  });
  return { create, renameOnBranch, editOnMain, editOnBranch, merge, editAfterMerge };
}

/** A bare clone of `source` at `dir` (history answered without a work tree). */
export function buildBare(source: string, dir: string): void {
  cloneBare(source, dir);
}

/**
 * `worktree` (plain): w.md created (01-10), line 2 edited (01-12); then, uncommitted, a
 * fourth line added to w.md and a new file new.md.
 */
export function buildWorkTree(dir: string): { create: string; edit: string } {
  const [create = '', edit = ''] = makeRepo(dir, [
    { message: 'Create w', date: '2026-01-10T10:00:00+01:00', files: { 'w.md': 'a\nb\nc\n' } },
    { message: 'Edit w', date: '2026-01-12T10:00:00+01:00', author: bob, files: { 'w.md': 'a\nB\nc\n' } },
  ]);
  writeFileSync(join(dir, 'w.md'), 'a\nB\nc\nd uncommitted\n');
  writeFileSync(join(dir, 'new.md'), 'fresh\nnote\n');
  return { create, edit };
}
