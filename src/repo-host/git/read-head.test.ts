// read-head.ts: the branch and its commit read from Git's files are what git answers, in each
// layout it reads, and it steps aside (undefined) for the layouts it does not.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cloneBare, commit, git, initRepo, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { readBranchFiles, readHeadFiles } from './read-head.ts';

let dir: { path: string; cleanup: () => void };
beforeEach(() => {
  dir = tempDir('mv-read-head-');
});
afterEach(() => dir.cleanup());

/** What git says: `symbolic-ref -q HEAD` (else `HEAD`) and `rev-parse --verify <ref>^{commit}` (else null). */
function gitAnswers(gitDir: string): { ref: string; head: string | null } {
  let ref = 'HEAD';
  try {
    ref = git(gitDir, ['--git-dir', gitDir, 'symbolic-ref', '-q', 'HEAD']);
  } catch {
    // detached
  }
  let head: string | null = null;
  try {
    head = git(gitDir, ['--git-dir', gitDir, 'rev-parse', '-q', '--verify', `${ref}^{commit}`]);
  } catch {
    // no commit yet
  }
  return { ref, head };
}

describe('the branch read from Git files', () => {
  test('a branch with commits, as a loose ref and once packed', async () => {
    const repo = join(dir.path, 'notes');
    makeRepo(repo, [{ files: { 'a.md': 'a' }, message: 'one' }]);
    const gitDir = join(repo, '.git');
    expect(await readBranchFiles(gitDir)).toEqual(gitAnswers(gitDir));
    git(repo, ['pack-refs', '--all']);
    expect(await readBranchFiles(gitDir)).toEqual(gitAnswers(gitDir));
    commit(repo, { files: { 'b.md': 'b' }, message: 'two' });
    expect(await readBranchFiles(gitDir)).toEqual(gitAnswers(gitDir));
    expect(await readHeadFiles(gitDir)).toBe(gitAnswers(gitDir).head);
  });

  test('an empty repository, a detached HEAD and a bare repository', async () => {
    const repo = join(dir.path, 'notes');
    initRepo(repo);
    const gitDir = join(repo, '.git');
    expect(await readBranchFiles(gitDir)).toEqual({ ref: 'refs/heads/main', head: null });
    expect(await readBranchFiles(gitDir)).toEqual(gitAnswers(gitDir));
    const [first] = [commit(repo, { files: { 'a.md': 'a' }, message: 'one' })];
    commit(repo, { files: { 'b.md': 'b' }, message: 'two' });
    git(repo, ['checkout', '-q', '--detach', first!]);
    expect(await readBranchFiles(gitDir)).toEqual({ ref: 'HEAD', head: first });
    expect(await readBranchFiles(gitDir)).toEqual(gitAnswers(gitDir));
    const bare = join(dir.path, 'bare.git');
    cloneBare(repo, bare);
    expect(await readBranchFiles(bare)).toEqual(gitAnswers(bare));
  });

  test('a linked work tree is left to git', async () => {
    const repo = join(dir.path, 'notes');
    makeRepo(repo, [{ files: { 'a.md': 'a' }, message: 'one' }]);
    git(repo, ['worktree', 'add', '-q', join(dir.path, 'linked'), '-b', 'side']);
    expect(await readBranchFiles(join(repo, '.git', 'worktrees', 'linked'))).toBeUndefined();
  });
});
