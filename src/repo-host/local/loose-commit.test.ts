import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeRepo } from '../../../test/support/git-fixture.ts';
import { fastImportCommit, type CommitFile, type CommitMeta } from './fast-import-commit.ts';
import { looseObjectsDir, writeLooseCommit } from './loose-commit.ts';
import { lookAtPaths } from './path-look.ts';

const dir = mkdtempSync(join(tmpdir(), 'mv-loose-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const meta = (parent: string | null): CommitMeta => ({
  parent,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  date: '1700000000 +0100',
  message: 'Edit notes\n\nWith a body.\n',
});

/** The same commit made both ways, each in its own clone of `source`: the loose one first, in a repository fast-import never touched. */
async function both(source: string, name: string, files: CommitFile[]): Promise<{ loose: string; imported: string; looseDir: string }> {
  const looseDir = join(dir, `${name}-loose`);
  const importDir = join(dir, `${name}-import`);
  execFileSync('git', ['clone', '-q', '--no-local', source, looseDir]);
  execFileSync('git', ['clone', '-q', '--no-local', source, importDir]);
  const parent = git(looseDir, ['rev-parse', 'HEAD']);
  const gitDir = join(looseDir, '.git');
  const look = await lookAtPaths(
    gitDir,
    parent,
    files.map((file) => file.path),
    { index: false },
  );
  const loose = await writeLooseCommit((await looseObjectsDir(gitDir))!, 'sha1', look.trees, files, meta(parent));
  const imported = await fastImportCommit(join(importDir, '.git'), files, meta(parent));
  return { loose, imported, looseDir };
}

const file = (path: string, text: string, mode = '100644'): CommitFile => ({ path, content: Buffer.from(text), mode });
const removed = (path: string): CommitFile => ({ path, content: null, mode: '100644' });

describe('writeLooseCommit', () => {
  const source = join(dir, 'source');
  makeRepo(source, [
    {
      files: {
        'a.md': 'a\n',
        'a-b.md': 'ab\n',
        'notes/deep/b.md': 'b\n',
        'notes/c.md': 'c\n',
        'file.md': 'f\n',
        'é/ü.md': 'u\n',
      },
      message: 'Notes',
    },
  ]);

  it('makes the commit fast-import makes: changed, new and removed files, new folders, Git order', async () => {
    const files = [
      file('notes/deep/b.md', 'b changed\n'),
      file('new/folder/n.md', 'n\n'),
      removed('notes/c.md'),
      file('a/x.md', 'x\n'),
      file('a0.md', 'zero\n'),
      file('run.sh', '#!/bin/sh\n', '100755'),
      file('é/ü.md', 'ü\n'),
    ];
    const { loose, imported, looseDir } = await both(source, 'mixed', files);
    expect(loose).toBe(imported);
    // Every object is there and well formed, in a repository where only this process wrote them.
    git(looseDir, ['update-ref', 'HEAD', loose]);
    expect(() => git(looseDir, ['fsck', '--strict', '--no-dangling'])).not.toThrow();
    expect(git(looseDir, ['show', `${loose}:a/x.md`])).toBe('x');
  });

  it('drops a folder left empty, keeps the root, and removes nothing below a file', async () => {
    const { loose, imported } = await both(source, 'empty', [removed('notes/deep/b.md'), removed('file.md/x.md')]);
    expect(loose).toBe(imported);
    const { loose: all, imported: allImported } = await both(source, 'all', [
      ...['a.md', 'a-b.md', 'notes/deep/b.md', 'notes/c.md', 'file.md', 'é/ü.md'].map(removed),
    ]);
    expect(all).toBe(allImported);
  });

  it('makes a first commit', async () => {
    const empty = join(dir, 'empty-repo');
    execFileSync('git', ['init', '-q', empty]);
    const files = [file('one.md', '1\n'), file('f/two.md', '2\n')];
    const loose = await writeLooseCommit((await looseObjectsDir(join(empty, '.git')))!, 'sha1', new Map(), files, meta(null));
    const other = join(dir, 'empty-import');
    execFileSync('git', ['init', '-q', other]);
    expect(loose).toBe(await fastImportCommit(join(other, '.git'), files, meta(null)));
    expect(git(empty, ['cat-file', '-p', `${loose}:f/two.md`])).toBe('2');
  });
});
