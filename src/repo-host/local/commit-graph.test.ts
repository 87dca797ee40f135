import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commit, git, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { CommitGraphKeeper } from './commit-graph.ts';

describe('CommitGraphKeeper', () => {
  it('writes a commit-graph with changed-path filters, and a new layer once the head moves', async () => {
    const temp = tempDir('mv-graph-');
    const keeper = new CommitGraphKeeper();
    try {
      const dir = join(temp.path, 'r');
      makeRepo(dir, [{ message: 'one', files: { 'a.md': 'a\n' } }]);
      const gitDir = join(dir, '.git');
      const chain = join(gitDir, 'objects', 'info', 'commit-graphs', 'commit-graph-chain');
      keeper.refresh(gitDir);
      await expect.poll(() => existsSync(chain), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => git(dir, ['commit-graph', 'verify']), { timeout: 10_000 }).toBe('');
      const before = readFileSync(chain, 'utf8');
      commit(dir, { message: 'two', files: { 'b.md': 'b\n' } });
      // Looked at once a second at most: ask until it has looked again.
      await expect
        .poll(
          () => {
            keeper.refresh(gitDir);
            return readFileSync(chain, 'utf8') !== before;
          },
          { timeout: 10_000, interval: 250 },
        )
        .toBe(true);
      // Git reads the new commit from the graph: its Bloom filter answers a path-limited log.
      expect(git(dir, ['log', '--format=%s', '--', 'b.md'])).toBe('two');
    } finally {
      await keeper.close();
      temp.cleanup();
    }
  });
});
