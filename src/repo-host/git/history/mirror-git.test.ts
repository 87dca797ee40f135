import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, initRepo, makeRepo, tempDir } from '../../../../test/support/git-fixture.ts';
import type { Mirror } from '../mirror.ts';
import { headCommit } from './mirror-git.ts';

describe('headCommit', () => {
  it('reads what git rev-parse HEAD reads: a loose ref, a packed one, a detached HEAD, an unborn branch, a linked work tree', async () => {
    const temp = tempDir('mv-head-');
    try {
      const dir = join(temp.path, 'r');
      initRepo(dir);
      const mirror = (workTree: string): Mirror => ({ gitDir: join(workTree, '.git'), workTree });
      expect(await headCommit(mirror(dir))).toBeNull();
      const [first = '', second = ''] = makeRepo(join(temp.path, 'r2'), [
        { message: 'one', files: { 'a.md': 'a\n' } },
        { message: 'two', files: { 'a.md': 'b\n' } },
      ]);
      const r2 = join(temp.path, 'r2');
      expect(await headCommit(mirror(r2))).toBe(second);
      git(r2, ['pack-refs', '--all']);
      expect(await headCommit(mirror(r2))).toBe(second);
      git(r2, ['checkout', '-q', '--detach', first]);
      expect(await headCommit(mirror(r2))).toBe(first);
      git(r2, ['worktree', 'add', '-q', join(temp.path, 'linked'), second]);
      const linkedGitDir = git(join(temp.path, 'linked'), ['rev-parse', '--absolute-git-dir']);
      expect(await headCommit({ gitDir: linkedGitDir, workTree: join(temp.path, 'linked') })).toBe(second);
    } finally {
      temp.cleanup();
    }
  });
});
