// The embedded installation's index: a large first build runs in a child process that borrows the folder's lock.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { openIndexEarly } from './early-index.ts';
import { lockIndexDir } from './index-lock.ts';
import { openLocalInstallation } from './local.ts';
import { silentLogger } from '../instance/log.ts';

describe('openLocalInstallation with PGlite', () => {
  const dir = tempDir('mv-local-');
  const reposDir = join(dir.path, 'repos');
  const dataDir = join(dir.path, 'data');
  // The suite may run with DATABASE_URL set; these tests are about the PGlite folder.
  const databaseUrl = process.env['DATABASE_URL'];

  beforeAll(() => {
    delete process.env['DATABASE_URL'];
    makeRepo(join(reposDir, 'notes'), [
      { message: 'Notes', files: { 'a.md': '# A\n\nSee [[b]].\n', 'b.md': '# B\n\nThe budget.\n', 'c.png': Buffer.from([1, 2, 3]) } },
    ]);
  });

  afterAll(() => {
    if (databaseUrl !== undefined) process.env['DATABASE_URL'] = databaseUrl;
    dir.cleanup();
  });

  it('builds a new index in a child process, then serves it and keeps the lock', async () => {
    const progress: Array<[string, number, number]> = [];
    const local = await openLocalInstallation(
      { reposDir, dataDir },
      { childBuildFiles: 1, poll: true, onProgress: (repo, done, total) => progress.push([repo, done, total]), log: silentLogger() },
    );
    try {
      expect(local.indexNote).toBeNull();
      expect(local.installation.repoNames()).toEqual(['notes']);
      // Nothing was left to index in this process: the child had built it all.
      expect(progress.filter(([, , total]) => total > 0)).toEqual([]);
      expect((await local.installation.index.getNote('notes', 'a.md'))?.content).toBe('# A\n\nSee [[b]].\n');
      expect(
        (
          await local.installation.index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
            needle: 'budget',
            caseSensitive: false,
            after: null,
            limit: 5,
          })
        ).map((n) => n.path),
      ).toEqual(['b.md']);
      expect(readFileSync(join(dataDir, 'index.lock'), 'utf8')).toBe(String(process.pid));
    } finally {
      await local.close();
    }
    expect(existsSync(join(dataDir, 'index.lock'))).toBe(false);
  });

  it('indexes what changed since in this process', async () => {
    writeFileSync(join(reposDir, 'notes', 'd.md'), '# D\n');
    const progress: Array<[string, number, number]> = [];
    const local = await openLocalInstallation(
      { reposDir, dataDir },
      { childBuildFiles: 1, poll: false, onProgress: (repo, done, total) => progress.push([repo, done, total]) },
    );
    try {
      expect(progress.at(-1)).toEqual(['notes', 1, 1]);
      expect(await local.installation.index.notePaths('notes')).toEqual(['a.md', 'b.md', 'd.md']);
    } finally {
      await local.close();
    }
  });
});

describe('openIndexEarly', () => {
  const dir = tempDir('mv-early-');
  const reposDir = join(dir.path, 'repos');
  const dataDir = join(dir.path, 'data');
  const databaseUrl = process.env['DATABASE_URL'];

  beforeAll(async () => {
    delete process.env['DATABASE_URL'];
    makeRepo(join(reposDir, 'notes'), [{ message: 'Notes', files: { 'a.md': '# A\n\nThe budget.\n' } }]);
    // A first start builds the index; the early opening is for the starts after it.
    await (await openLocalInstallation({ reposDir, dataDir }, { poll: false, log: silentLogger() })).close();
  });

  afterAll(() => {
    if (databaseUrl !== undefined) process.env['DATABASE_URL'] = databaseUrl;
    dir.cleanup();
  });

  it('opens the index before the installation asks, which then takes it over with the folder lock', async () => {
    openIndexEarly({ reposDir, dataDir });
    // The early opening holds the folder at once: another opener finds it taken.
    await expect.poll(() => existsSync(join(dataDir, 'index.lock'))).toBe(true);
    expect(await lockIndexDir(dataDir, 0)).toBeNull();
    const local = await openLocalInstallation({ reposDir, dataDir }, { poll: false, log: silentLogger() });
    try {
      expect(local.indexNote).toBeNull();
      expect((await local.installation.index.getNote('notes', 'a.md'))?.content).toBe('# A\n\nThe budget.\n');
    } finally {
      await local.close();
    }
    expect(existsSync(join(dataDir, 'index.lock'))).toBe(false);
  });

  it('leaves a folder without an index, or one in use, to the installation', async () => {
    const empty = join(dir.path, 'empty-data');
    openIndexEarly({ reposDir, dataDir: empty });
    expect(existsSync(join(empty, 'index.lock'))).toBe(false);

    const held = await lockIndexDir(dataDir, 0);
    try {
      openIndexEarly({ reposDir, dataDir });
      const local = await openLocalInstallation({ reposDir, dataDir }, { poll: false, log: silentLogger() });
      try {
        // As without the early opening: a temporary index in memory, and a sentence saying so.
        expect(local.indexNote).toMatch(/in use by another major-vault process/);
      } finally {
        await local.close();
      }
    } finally {
      held!.release();
    }
  });
});

describe('lockIndexDir', () => {
  const dir = tempDir('mv-lock-');
  afterAll(() => dir.cleanup());

  it('lends a folder locked by the parent process to its child only', async () => {
    writeFileSync(join(dir.path, 'index.lock'), String(process.ppid));
    expect(await lockIndexDir(dir.path, 0)).toBeNull();
    expect(await lockIndexDir(dir.path, 0, { lentBy: process.ppid + 1 })).toBeNull();
    const lent = await lockIndexDir(dir.path, 0, { lentBy: process.ppid });
    expect(lent).not.toBeNull();
    lent!.release();
    expect(readFileSync(join(dir.path, 'index.lock'), 'utf8')).toBe(String(process.ppid));
  });
});
