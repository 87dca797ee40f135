// readVaults: the first answers' `.vault/` read without a whole snapshot (LocalRepoHost
// pathsUnder) is the one read from a snapshot, with uncommitted edits in a work tree, in a
// bare repository and without any `.vault/`.
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cloneBare, git, makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import { readVaults } from './read-vaults.ts';

let dir: { path: string; cleanup: () => void };
let host: LocalRepoHost;
beforeEach(() => {
  dir = tempDir('mv-read-vaults-');
});
afterEach(async () => {
  await host?.close();
  dir.cleanup();
});

/** The same host without pathsUnder: readVaults then reads `.vault/` from a snapshot. */
function withoutPathsUnder(inner: LocalRepoHost): RepoHost {
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'pathsUnder') return undefined;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const settings = (summary: string) => `{ "summary": ${JSON.stringify(summary)} }\n`;

async function expectSameAnswers(): Promise<void> {
  const access = await host.authenticate(undefined);
  const early = await readVaults(host, access!);
  // A fresh host: nothing of the first read kept.
  const other = new LocalRepoHost({ reposDir: join(dir.path, 'repos') });
  try {
    expect(early).toEqual(await readVaults(withoutPathsUnder(other), access!));
  } finally {
    await other.close();
  }
  for (const name of early.keys()) {
    const fromSnapshot = (await host.snapshot(name)).files.map((file) => file.path).filter((path) => path.startsWith('.vault/'));
    expect(await host.pathsUnder(name, '.vault')).toEqual(fromSnapshot);
  }
}

describe('the first answers read .vault/ without a whole snapshot', () => {
  test('with uncommitted edits in a work tree: changed, deleted, new, staged and ignored files', async () => {
    const repo = join(dir.path, 'repos', 'notes');
    makeRepo(repo, [
      {
        files: {
          '.vault/settings.jsonc': settings('committed'),
          '.vault/instructions.md': 'Committed instructions.\n',
          '.vault/types/person.md': '---\nname: text\n---\n',
          '.gitignore': '.vault/ignored.md\n',
          'a.md': 'a',
        },
        message: 'one',
      },
    ]);
    host = new LocalRepoHost({ reposDir: join(dir.path, 'repos') });
    await expectSameAnswers();
    writeFileSync(join(repo, '.vault/settings.jsonc'), settings('edited, not committed'));
    unlinkSync(join(repo, '.vault/instructions.md'));
    mkdirSync(join(repo, '.vault/tools'), { recursive: true });
    writeFileSync(join(repo, '.vault/tools/new.md'), 'An untracked tool.\n');
    writeFileSync(join(repo, '.vault/types/staged.md'), '---\ntitle: text\n---\n');
    git(repo, ['add', '.vault/types/staged.md']);
    writeFileSync(join(repo, '.vault/ignored.md'), 'ignored\n');
    writeFileSync(join(repo, 'b.md'), 'an edit outside .vault/');
    await expectSameAnswers();
    const access = await host.authenticate(undefined);
    expect((await readVaults(host, access!)).get('notes')?.config.settings.summary).toBe('edited, not committed');
  });

  test('a bare repository, a repository without .vault/ and one whose .vault/ went from the work tree', async () => {
    const source = join(dir.path, 'source');
    makeRepo(source, [{ files: { '.vault/settings.jsonc': settings('bare'), 'a.md': 'a' }, message: 'one' }]);
    cloneBare(source, join(dir.path, 'repos', 'archive.git'));
    makeRepo(join(dir.path, 'repos', 'plain'), [{ files: { 'a.md': 'a' }, message: 'one' }]);
    const gone = join(dir.path, 'repos', 'gone');
    makeRepo(gone, [{ files: { '.vault/settings.jsonc': settings('deleted on disk'), 'a.md': 'a' }, message: 'one' }]);
    rmSync(join(gone, '.vault'), { recursive: true });
    host = new LocalRepoHost({ reposDir: join(dir.path, 'repos') });
    await expectSameAnswers();
    const access = await host.authenticate(undefined);
    const vaults = await readVaults(host, access!);
    expect([...vaults.keys()]).toEqual(['archive', 'gone', 'plain']);
    expect(vaults.get('archive')?.config.settings.summary).toBe('bare');
    expect(await host.pathsUnder('gone', '.vault')).toEqual([]);
  });
});
