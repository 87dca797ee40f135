// The work tree's watch and the fingerprint it gates: every kind of change made outside the
// server (in place, in new and removed folders, through git) moves the fingerprint at once.
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, git, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { LocalRepoHost } from './local-repo-host.ts';
import { WorkTreeWatch } from './work-tree-watch.ts';

describe('WorkTreeWatch', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir('mv-watch-');
    mkdirSync(join(dir.path, 'tree', 'a', 'b'), { recursive: true });
    mkdirSync(join(dir.path, 'tree', '.git', 'objects'), { recursive: true });
    writeFileSync(join(dir.path, 'tree', 'a', 'b', 'note.md'), 'one\n');
  });
  afterAll(() => dir.cleanup());

  /** Whether `change` moved the watch's change count, once the watch has settled before and after. */
  async function changedBy(watch: WorkTreeWatch, change: () => void): Promise<boolean> {
    await watch.settle();
    const before = watch.changes;
    change();
    await watch.settle();
    return watch.changes > before;
  }

  it('counts writes in nested folders, in folders made later, and leaves .git alone', async () => {
    const root = join(dir.path, 'tree');
    const watch = new WorkTreeWatch(root);
    try {
      expect(watch.healthy).toBe(false);
      await watch.start();
      expect(watch.healthy).toBe(true);
      await watch.settle();
      const moved = (change: () => void) => changedBy(watch, change);
      expect(await moved(() => writeFileSync(join(root, 'a', 'b', 'note.md'), 'two\n'))).toBe(true);
      expect(await moved(() => writeFileSync(join(root, '.git', 'objects', 'x'), 'git at work\n'))).toBe(false);
      expect(await moved(() => mkdirSync(join(root, 'new', 'deeper'), { recursive: true }))).toBe(true);
      // The new folder is watched once its creation was seen.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await moved(() => writeFileSync(join(root, 'new', 'deeper', 'late.md'), 'late\n'))).toBe(true);
      expect(await moved(() => chmodSync(join(root, 'new', 'deeper', 'late.md'), 0o600))).toBe(true);
      expect(await moved(() => rmSync(join(root, 'new'), { recursive: true }))).toBe(true);
      expect(watch.healthy).toBe(true);
    } finally {
      watch.close();
    }
    expect(watch.healthy).toBe(false);
  });

  it('lets go of a removed folder and those below it, and only of those', async () => {
    const root = join(dir.path, 'forget');
    for (const folder of ['gone/inner', 'gone-not', 'gonex', 'kept']) mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, 'kept', 'file'), 'a file beside folders\n');
    const watch = new WorkTreeWatch(root);
    try {
      await watch.start();
      await watch.settle();
      const moved = (change: () => void) => changedBy(watch, change);
      // A removed file and a removed folder whose names begin the names of folders that stay.
      expect(await moved(() => rmSync(join(root, 'kept', 'file')))).toBe(true);
      expect(await moved(() => rmSync(join(root, 'gone'), { recursive: true }))).toBe(true);
      for (const folder of ['gone-not', 'gonex', 'kept'])
        expect(await moved(() => writeFileSync(join(root, folder, 'note.md'), `in ${folder}\n`)), folder).toBe(true);
      // The removed folder made again (and below it) is watched anew.
      expect(await moved(() => mkdirSync(join(root, 'gone', 'inner'), { recursive: true }))).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await watch.settle();
      expect(await moved(() => writeFileSync(join(root, 'gone', 'inner', 'note.md'), 'back\n'))).toBe(true);
      expect(watch.healthy).toBe(true);
    } finally {
      watch.close();
    }
  });
});

describe('LocalRepoHost.fingerprint with a watched work tree', () => {
  let dir: ReturnType<typeof tempDir>;
  let notes: string;
  let host: LocalRepoHost;
  beforeAll(() => {
    dir = tempDir('mv-watch-host-');
    notes = join(dir.path, 'notes');
    makeRepo(notes, [{ message: 'Start', files: { 'a.md': '# A\n', 'folder/b.md': '# B\n' } }]);
    host = new LocalRepoHost({ reposDir: dir.path });
  });
  afterAll(async () => {
    await host.close();
    dir.cleanup();
  });

  it('moves at once for every change made outside the server, and stays put while nothing changes', async () => {
    let last = await host.fingerprint('notes');
    expect(await host.fingerprint('notes')).toBe(last);
    const changes: Array<[string, () => void]> = [
      ['an edit in place of a note in a folder', () => writeFileSync(join(notes, 'folder', 'b.md'), '# B, edited\n')],
      ['a second edit of the same note', () => writeFileSync(join(notes, 'folder', 'b.md'), '# B, edited twice\n')],
      [
        'a note in a new folder',
        () => {
          mkdirSync(join(notes, 'new'));
          writeFileSync(join(notes, 'new', 'c.md'), '# C\n');
        },
      ],
      ['a renamed folder', () => renameSync(join(notes, 'new'), join(notes, 'renamed'))],
      ['a removed folder', () => rmSync(join(notes, 'renamed'), { recursive: true })],
      [
        'a commit made with git',
        () => {
          git(notes, ['add', '-A']);
          git(notes, ['commit', '-q', '-m', 'Edit'], {
            GIT_AUTHOR_NAME: alice.name,
            GIT_AUTHOR_EMAIL: alice.email,
            GIT_COMMITTER_NAME: alice.name,
            GIT_COMMITTER_EMAIL: alice.email,
          });
        },
      ],
      ['another branch checked out', () => git(notes, ['checkout', '-q', '-b', 'other'])],
    ];
    for (const [what, change] of changes) {
      change();
      const now = await host.fingerprint('notes');
      expect(now, what).not.toBe(last);
      expect(await host.fingerprint('notes'), `${what}, asked again`).toBe(now);
      expect((await host.snapshot('notes')).fingerprint, `${what}, by the snapshot`).toBe(now);
      // The listing's branch and head, answered from what the fingerprint saw, are git's.
      const [listed] = await host.listRepos();
      expect(listed, what).toEqual({
        name: 'notes',
        defaultBranch: git(notes, ['branch', '--show-current']).trim(),
        head: git(notes, ['rev-parse', 'HEAD']).trim(),
      });
      last = now;
    }
  });
});
