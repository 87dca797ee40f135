import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeRepo } from '../../../test/support/git-fixture.ts';
import { KeptCatFiles } from '../git/kept-cat-file.ts';
import { lookAtPaths } from './path-look.ts';

const dir = mkdtempSync(join(tmpdir(), 'mv-path-look-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lookAtPaths with a known state and a kept cat-file', () => {
  it('finds what the batch of its own finds: entries, blocked paths, index entries, absent folders', async () => {
    const [first] = makeRepo(dir, [
      { files: { 'a.md': 'a\n', 'notes/deep/b.md': 'b\n', 'notes/c.md': 'c\n', 'file.md': 'f\n' }, message: 'Notes' },
    ]);
    symlinkSync('a.md', join(dir, 'link.md'));
    git(dir, ['add', 'link.md']);
    git(dir, ['commit', '-q', '-m', 'Link']);
    const parent = git(dir, ['rev-parse', 'HEAD']);
    expect(parent).not.toBe(first);
    const gitDir = join(dir, '.git');
    // A file, a nested file, a link, a folder, a path below a file, paths in folders that do not exist, the root.
    const paths = ['a.md', 'notes/deep/b.md', 'link.md', 'notes/deep', 'file.md/x.md', 'new/folder/n.md', 'notes/new/n.md', 'top.md'];
    const kept = new KeptCatFiles();
    try {
      const own = await lookAtPaths(gitDir, parent, paths, { index: true });
      const known = await lookAtPaths(gitDir, parent, paths, {
        index: true,
        known: { head: parent },
        objects: (gitDir, names) => kept.objects(gitDir, names),
      });
      expect(known).toEqual(own);
      expect(known.entries.get('notes/deep')?.mode).toBe('040000');
      expect(known.blocked.get('file.md/x.md')).toBe('file.md');
      expect(known.indexOids.get('link.md')).toBe(own.entries.get('link.md')!.oid);
      // A head that moved on answers at once, with nothing read.
      const moved = await lookAtPaths(gitDir, first!, paths, {
        index: true,
        known: { head: parent },
        objects: () => Promise.reject(new Error('not asked')),
      });
      expect(moved.head).toBe(parent);
    } finally {
      kept.close();
    }
  });
});
