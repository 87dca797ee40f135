import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync, unlinkSync, chmodSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alice,
  cloneBare,
  cloneCorpus,
  commit as fixtureCommit,
  corpusBundle,
  git,
  initRepo,
  makeRepo,
  tempDir,
} from '../../../test/support/git-fixture.ts';
import type { UsersFile } from '../../config/users-file.ts';
import { blobId } from '../git/blob-id.ts';
import { describeRepoHostContract, type ContractRepo } from '../repo-host.contract.ts';
import type { Person } from '../person.ts';
import { LocalRepoHost } from './local-repo-host.ts';

/**
 * Makes a work-tree repository from the contract's commits with one `git add -A` per commit
 * (the shared fixture adds file by file, which is slow for hundreds of files).
 */
function makeRepoQuickly(dir: string, commits: ContractRepo['commits']): void {
  initRepo(dir);
  for (const c of commits) {
    for (const [path, content] of Object.entries(c.files ?? {})) {
      const full = join(dir, path);
      if (content === null) rmSync(full);
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
    }
    git(dir, ['add', '-A']);
    const author = c.author ?? alice;
    const date = c.date ?? '2026-01-15T10:00:00+01:00';
    git(dir, ['commit', '-q', '-m', c.message], {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
      GIT_COMMITTER_DATE: date,
    });
  }
}

/** Builds the contract's repositories in a fresh folder, each with a work tree or bare. */
function buildRepos(repos: ContractRepo[], bare: boolean) {
  const dir = tempDir('mv-local-host-');
  const reposDir = join(dir.path, 'repos');
  mkdirSync(reposDir);
  for (const repo of repos) {
    if (!bare) {
      makeRepoQuickly(join(reposDir, repo.name), repo.commits);
    } else if (repo.commits.length === 0) {
      git(dir.path, ['init', '-q', '--bare', '-b', 'main', join(reposDir, repo.name)]);
    } else {
      makeRepoQuickly(join(dir.path, 'src', repo.name), repo.commits);
      cloneBare(join(dir.path, 'src', repo.name), join(reposDir, repo.name));
    }
  }
  // Folders that are not repositories, hidden or not, are skipped.
  mkdirSync(join(reposDir, 'not-a-repo'));
  makeRepo(join(reposDir, '.hidden'), [{ message: 'Hidden', files: { 'a.md': 'a' } }]);
  writeFileSync(join(reposDir, 'file.txt'), 'not a folder');
  return { reposDir, cleanup: dir.cleanup };
}

describeRepoHostContract('LocalRepoHost, work trees', async (repos) => {
  const built = buildRepos(repos, false);
  return {
    host: new LocalRepoHost({ reposDir: built.reposDir }),
    gitDirOf: (repo) => join(built.reposDir, repo, '.git'),
    cleanup: async () => built.cleanup(),
  };
});

describeRepoHostContract('LocalRepoHost, bare repositories', async (repos) => {
  const built = buildRepos(repos, true);
  return {
    host: new LocalRepoHost({ reposDir: built.reposDir }),
    gitDirOf: (repo) => join(built.reposDir, repo),
    cleanup: async () => built.cleanup(),
  };
});

const ada: Person = { login: 'ada', name: 'Ada Lovelace', email: 'ada@acme.example' };

/** `git status --porcelain` of a work tree: '' when clean. */
function status(dir: string): string {
  return git(dir, ['status', '--porcelain=v1', '--untracked-files=all']);
}

describe('LocalRepoHost with a work tree', () => {
  let dir: ReturnType<typeof tempDir>;
  let reposDir: string;
  let notes: string;
  let host: LocalRepoHost;

  beforeAll(() => {
    dir = tempDir('mv-local-wt-');
    reposDir = join(dir.path, 'repos');
    notes = join(reposDir, 'notes');
    makeRepo(notes, [
      {
        message: 'Start',
        files: {
          'a.md': '# A\n',
          'b.md': '# B\n',
          'folder/c.md': '# C\n',
          'folder/deep/d.md': '# D\n',
          'keep.md': '# Keep\n',
          'run.sh': '#!/bin/sh\n',
        },
      },
    ]);
    chmodSync(join(notes, 'run.sh'), 0o755);
    fixtureCommit(notes, { message: 'Executable', files: { 'run.sh': '#!/bin/sh\necho hi\n' } });
    expect(git(notes, ['ls-files', '-s', 'run.sh'])).toMatch(/^100755 /);
    writeFileSync(join(dir.path, 'secret.txt'), 'outside the repository\n');
    host = new LocalRepoHost({ reposDir });
  });
  afterAll(() => dir.cleanup());

  it('snapshots uncommitted edits, deletions and untracked files as the editor shows them', async () => {
    const clean = await host.snapshot('notes');
    writeFileSync(join(notes, 'a.md'), '# A, edited\n');
    unlinkSync(join(notes, 'b.md'));
    mkdirSync(join(notes, 'new folder'), { recursive: true });
    writeFileSync(join(notes, 'new folder/ünïcode #1.md'), '# New\n');
    writeFileSync(join(notes, '.gitignore'), 'ignored.md\n');
    writeFileSync(join(notes, 'ignored.md'), 'ignored\n');
    try {
      const snapshot = await host.snapshot('notes');
      const byPath = new Map(snapshot.files.map((file) => [file.path, file.oid]));
      expect(byPath.get('a.md')).toBe(blobId(Buffer.from('# A, edited\n')));
      expect(byPath.has('b.md')).toBe(false);
      expect(byPath.get('new folder/ünïcode #1.md')).toBe(blobId(Buffer.from('# New\n')));
      expect(byPath.has('ignored.md')).toBe(false);
      expect(byPath.get('folder/c.md')).toBe(blobId(Buffer.from('# C\n')));
      expect(snapshot.head).toBe(clean.head);
      expect(snapshot.fingerprint).not.toBe(clean.fingerprint);
      expect(await host.fingerprint('notes')).toBe(snapshot.fingerprint);

      // Work-tree contents are not in the object database; readBlobs still serves them.
      const blobs = await host.readBlobs('notes', [
        byPath.get('a.md')!,
        byPath.get('new folder/ünïcode #1.md')!,
        byPath.get('folder/c.md')!,
      ]);
      expect(blobs.map((blob) => blob.toString('utf8'))).toEqual(['# A, edited\n', '# New\n', '# C\n']);
      expect((await host.readFile('notes', 'a.md'))?.toString('utf8')).toBe('# A, edited\n');
      expect(await host.readFile('notes', 'b.md')).toBeNull();

      // A second edit of an already modified file changes the fingerprint too.
      writeFileSync(join(notes, 'a.md'), '# A, edited twice, longer\n');
      expect(await host.fingerprint('notes')).not.toBe(snapshot.fingerprint);
    } finally {
      git(notes, ['checkout', '--', 'a.md', 'b.md']);
      rmSync(join(notes, 'new folder'), { recursive: true });
      rmSync(join(notes, '.gitignore'));
      rmSync(join(notes, 'ignored.md'));
    }
    // Back to the committed state (git checkout rewrote the index, so the fingerprint is new).
    const restored = await host.snapshot('notes');
    expect(restored.files).toEqual(clean.files);
    expect(await host.fingerprint('notes')).toBe(restored.fingerprint);
  });

  it('shares one snapshot between callers at once, and takes a new one as soon as a file or the branch moves', async () => {
    // Git itself says how often it ran `git status` (GIT_TRACE, which every git the host starts inherits).
    const trace = join(dir.path, 'git-trace');
    const statusRuns = () => (existsSync(trace) ? (readFileSync(trace, 'utf8').match(/trace: built-in: git status/g)?.length ?? 0) : 0);
    const fresh = new LocalRepoHost({ reposDir });
    process.env['GIT_TRACE'] = trace;
    let first, second;
    try {
      [first, second] = await Promise.all([fresh.snapshot('notes'), fresh.snapshot('notes'), fresh.snapshot('notes')]);
      // Asked again with nothing moved: the last snapshot, without git status.
      await fresh.snapshot('notes');
    } finally {
      delete process.env['GIT_TRACE'];
      await fresh.close();
    }
    expect(statusRuns()).toBe(1);
    expect(second).toEqual(first);
    // Each caller's copy is its own.
    first.files.length = 0;
    expect((await host.snapshot('notes')).files).toEqual(second.files);

    writeFileSync(join(notes, 'keep.md'), '# Keep, edited\n');
    try {
      const edited = await host.snapshot('notes');
      expect(edited.files.find((file) => file.path === 'keep.md')?.oid).toBe(blobId(Buffer.from('# Keep, edited\n')));
      expect(edited.fingerprint).not.toBe(second.fingerprint);
    } finally {
      git(notes, ['checkout', '--', 'keep.md']);
    }
    expect((await host.snapshot('notes')).files).toEqual(second.files);

    // A commit made outside Major Vault moves the branch: the next snapshot has it.
    fixtureCommit(notes, { message: 'Outside', files: { 'outside.md': '# Outside\n' } });
    const moved = await host.snapshot('notes');
    expect(moved.head).not.toBe(second.head);
    expect(moved.files.some((file) => file.path === 'outside.md')).toBe(true);
  });

  /**
   * A snapshot of `notes` by `fresh` with git traced into `trace`: it must start no `git status`
   * or `ls-files`, and equal what a new host finds. Returns it.
   */
  async function carriedSnapshot(fresh: LocalRepoHost, trace: string) {
    process.env['GIT_TRACE'] = trace;
    let after;
    try {
      after = await fresh.snapshot('notes');
    } finally {
      delete process.env['GIT_TRACE'];
    }
    const runs = existsSync(trace) ? (readFileSync(trace, 'utf8').match(/trace: built-in: git (?:status|ls-files)/g)?.length ?? 0) : 0;
    expect(runs).toBe(0);
    const truth = await new LocalRepoHost({ reposDir }).snapshot('notes');
    expect(after.head).toBe(truth.head);
    expect(after.files).toEqual(truth.files);
    expect([...(after.uncommitted ?? [])].sort()).toEqual([...(truth.uncommitted ?? [])].sort());
    return after;
  }

  it('carries its snapshot over its own commit without git status, as git finds it, and still sees a later edit', async () => {
    const fresh = new LocalRepoHost({ reposDir });
    const start = git(notes, ['rev-parse', 'HEAD']).trim();
    try {
      writeFileSync(join(notes, 'b.md'), '# B, edited by hand\n');
      const before = await fresh.snapshot('notes');
      const result = await fresh.commit('notes', {
        parent: before.head,
        author: ada,
        message: 'Own commit',
        files: [
          { path: 'new/deep/n.md', content: Buffer.from('# N\n') },
          { path: 'a.md', content: null },
          { path: 'keep.md', content: Buffer.from('# Keep, by the tool\n') },
        ],
      });
      expect(result.ok).toBe(true);
      const after = await carriedSnapshot(fresh, join(dir.path, 'git-trace-own-commit'));
      expect(after.head).toBe(result.ok ? result.commit : null);
      expect(after.uncommitted?.has('b.md')).toBe(true);
      expect((await fresh.readBlobs('notes', [after.files.find((file) => file.path === 'b.md')!.oid]))[0]!.toString()).toBe(
        '# B, edited by hand\n',
      );

      // An edit after the commit shows at once.
      writeFileSync(join(notes, 'folder/c.md'), '# C, edited later\n');
      const edited = await fresh.snapshot('notes');
      expect(edited.files.find((file) => file.path === 'folder/c.md')?.oid).toBe(blobId(Buffer.from('# C, edited later\n')));
      expect(edited.fingerprint).not.toBe(after.fingerprint);
    } finally {
      await fresh.close();
      git(notes, ['reset', '-q', '--hard', start]);
      rmSync(join(notes, 'new'), { recursive: true, force: true });
    }
  });

  it('carries its snapshot over a commit of more files than it reads back at once', async () => {
    const fresh = new LocalRepoHost({ reposDir });
    const start = git(notes, ['rev-parse', 'HEAD']).trim();
    try {
      const before = await fresh.snapshot('notes');
      const files = Array.from({ length: 40 }, (_, i) => ({ path: `many/${i % 3}/n-${i}.md`, content: Buffer.from(`# N ${i}\n`) }));
      const result = await fresh.commit('notes', {
        parent: before.head,
        author: ada,
        message: 'Many files',
        files: [...files, { path: 'keep.md', content: Buffer.from('# Keep, again\n') }],
      });
      expect(result.ok).toBe(true);
      await carriedSnapshot(fresh, join(dir.path, 'git-trace-own-commit-many'));
    } finally {
      await fresh.close();
      git(notes, ['reset', '-q', '--hard', start]);
      rmSync(join(notes, 'many'), { recursive: true, force: true });
    }
  });

  it('reads a symbolic link inside the repository, saying where it leads, and one pointing outside as absent', async () => {
    symlinkSync('folder/c.md', join(notes, 'link-inside.md'));
    symlinkSync(join(dir.path, 'secret.txt'), join(notes, 'link-outside.md'));
    symlinkSync('../../secret.txt', join(notes, 'folder/relative-outside.md'));
    symlinkSync('.git/config', join(notes, 'link-git.md'));
    try {
      expect((await host.readFile('notes', 'link-inside.md'))?.toString('utf8')).toBe('# C\n');
      expect(await host.readFileEntry('notes', 'link-inside.md')).toEqual({ content: Buffer.from('# C\n'), target: 'folder/c.md' });
      expect(await host.readFileEntry('notes', 'folder/c.md')).toEqual({ content: Buffer.from('# C\n') });
      expect(await host.readFileEntry('notes', 'link-outside.md')).toBeNull();
      expect(await host.readFile('notes', 'link-outside.md')).toBeNull();
      expect(await host.readFile('notes', 'folder/relative-outside.md')).toBeNull();
      expect(await host.readFile('notes', 'link-git.md')).toBeNull();
      const snapshot = await host.snapshot('notes');
      const byPath = new Map(snapshot.files.map((file) => [file.path, file.oid]));
      expect(byPath.get('link-inside.md')).toBe(blobId(Buffer.from('# C\n')));
      expect(snapshot.files.find((file) => file.path === 'link-inside.md')?.target).toBe('folder/c.md');
      expect(snapshot.files.find((file) => file.path === 'folder/c.md')?.target).toBeUndefined();
      expect(byPath.has('link-outside.md')).toBe(false);
      expect(byPath.has('folder/relative-outside.md')).toBe(false);
      expect(byPath.has('link-git.md')).toBe(false);
    } finally {
      for (const link of ['link-inside.md', 'link-outside.md', 'folder/relative-outside.md', 'link-git.md']) unlinkSync(join(notes, link));
    }
  });

  it('refuses to write through a folder that links outside the repository', async () => {
    symlinkSync(dir.path, join(notes, 'escape'));
    try {
      const head = (await host.snapshot('notes')).head;
      await expect(
        host.commit('notes', {
          parent: head,
          author: ada,
          message: 'Escape',
          files: [{ path: 'escape/secret.txt', content: Buffer.from('overwritten\n') }],
        }),
      ).rejects.toMatchObject({ code: 'invalid_path' });
      expect(readFileSync(join(dir.path, 'secret.txt'), 'utf8')).toBe('outside the repository\n');
      expect((await host.snapshot('notes')).head).toBe(head);
    } finally {
      unlinkSync(join(notes, 'escape'));
    }
  });

  it('writes a commit into the work tree and the index, leaving git status clean', async () => {
    const before = await host.snapshot('notes');
    const result = await host.commit('notes', {
      parent: before.head,
      author: ada,
      message: 'Rework',
      files: [
        { path: 'a.md', content: Buffer.from('# A, committed\n') },
        { path: 'new/deeper/e.md', content: Buffer.from('# E\n') },
        { path: 'folder/deep/d.md', content: null },
        { path: 'run.sh', content: Buffer.from('#!/bin/sh\necho changed\n') },
      ],
    });
    expect(result.ok).toBe(true);
    expect(readFileSync(join(notes, 'a.md'), 'utf8')).toBe('# A, committed\n');
    expect(readFileSync(join(notes, 'new/deeper/e.md'), 'utf8')).toBe('# E\n');
    expect(existsSync(join(notes, 'folder/deep'))).toBe(false);
    expect(existsSync(join(notes, 'folder/c.md'))).toBe(true);
    expect(statSync(join(notes, 'run.sh')).mode & 0o111).not.toBe(0);
    expect(git(notes, ['ls-files', '-s', 'run.sh'])).toMatch(/^100755 /);
    expect(status(notes)).toBe('');
    expect(git(notes, ['diff-files', '--name-only'])).toBe('');
    expect(git(notes, ['log', '-1', '--format=%an <%ae>'])).toBe('Ada Lovelace <ada@acme.example>');
  });

  it('refuses with worktree_dirty when a changed file has uncommitted edits', async () => {
    const before = await host.snapshot('notes');
    writeFileSync(join(notes, 'keep.md'), '# Keep, edited by hand\n');
    try {
      const result = await host.commit('notes', {
        parent: before.head,
        author: ada,
        message: 'Clobber',
        files: [{ path: 'keep.md', content: Buffer.from('# Keep, by the tool\n') }],
      });
      expect(result).toEqual({ ok: false, conflict: 'worktree_dirty', head: before.head, path: 'keep.md' });
      expect(readFileSync(join(notes, 'keep.md'), 'utf8')).toBe('# Keep, edited by hand\n');
      expect(git(notes, ['rev-parse', 'HEAD'])).toBe(before.head);

      // Deleting it, or creating over an untracked file, is refused the same way.
      const deletion = await host.commit('notes', {
        parent: before.head,
        author: ada,
        message: 'Delete',
        files: [{ path: 'keep.md', content: null }],
      });
      expect(deletion).toMatchObject({ ok: false, conflict: 'worktree_dirty', path: 'keep.md' });
      writeFileSync(join(notes, 'untracked.md'), 'mine\n');
      const creation = await host.commit('notes', {
        parent: before.head,
        author: ada,
        message: 'Create',
        files: [{ path: 'untracked.md', content: Buffer.from('theirs\n') }],
      });
      expect(creation).toMatchObject({ ok: false, conflict: 'worktree_dirty', path: 'untracked.md' });
      expect(readFileSync(join(notes, 'untracked.md'), 'utf8')).toBe('mine\n');
    } finally {
      rmSync(join(notes, 'untracked.md'), { force: true });
    }
  });

  it('commits over uncommitted edits when the change was prepared from exactly that content', async () => {
    const before = await host.snapshot('notes');
    const onDisk = Buffer.from('# Keep, edited by hand\n');
    expect(readFileSync(join(notes, 'keep.md'))).toEqual(onDisk);
    // Prepared from an older content: still refused.
    const stale = await host.commit(
      'notes',
      { parent: before.head, author: ada, message: 'Edit', files: [{ path: 'keep.md', content: Buffer.from('x\n') }] },
      new Map([['keep.md', blobId(Buffer.from('# Keep\n'))]]),
    );
    expect(stale).toMatchObject({ ok: false, conflict: 'worktree_dirty', path: 'keep.md' });
    // Other uncommitted work stays untouched by the commit.
    writeFileSync(join(notes, 'folder/c.md'), '# C, my own edit\n');
    const result = await host.commit(
      'notes',
      {
        parent: before.head,
        author: ada,
        message: 'Edit',
        files: [{ path: 'keep.md', content: Buffer.from('# Keep, edited by hand\n\nAnd by the tool.\n') }],
      },
      new Map([['keep.md', blobId(onDisk)]]),
    );
    expect(result.ok).toBe(true);
    expect(readFileSync(join(notes, 'keep.md'), 'utf8')).toBe('# Keep, edited by hand\n\nAnd by the tool.\n');
    expect(readFileSync(join(notes, 'folder/c.md'), 'utf8')).toBe('# C, my own edit\n');
    expect(status(notes)).toBe('M folder/c.md');
    git(notes, ['checkout', '--', 'folder/c.md']);
    expect(status(notes)).toBe('');
  });

  it('refuses a path with staged changes, and keeps the staged work of other paths', async () => {
    const before = await host.snapshot('notes');
    const headC = readFileSync(join(notes, 'folder/c.md'));
    writeFileSync(join(notes, 'folder/c.md'), '# C, staged\n');
    git(notes, ['add', 'folder/c.md']);
    writeFileSync(join(notes, 'folder/c.md'), headC); // disk as HEAD, index staged
    writeFileSync(join(notes, 'b.md'), '# B, staged\n');
    git(notes, ['add', 'b.md']);
    try {
      const refused = await host.commit('notes', {
        parent: before.head,
        author: ada,
        message: 'C',
        files: [{ path: 'folder/c.md', content: Buffer.from('# C, tool\n') }],
      });
      expect(refused).toMatchObject({ ok: false, conflict: 'worktree_dirty', path: 'folder/c.md' });
      const result = await host.commit('notes', {
        parent: before.head,
        author: ada,
        message: 'A',
        files: [{ path: 'a.md', content: Buffer.from('# A, again\n') }],
      });
      expect(result.ok).toBe(true);
      expect(git(notes, ['diff', '--cached', '--name-only'])).toBe('b.md\nfolder/c.md');
    } finally {
      git(notes, ['reset', '-q', '--hard']);
    }
    expect(status(notes)).toBe('');
  });

  it('answers every caller with the one person when there is no users file', async () => {
    const me: Person = { login: 'me', name: 'Me Myself', email: 'me@example.com' };
    const single = new LocalRepoHost({ reposDir, as: me });
    expect(single.requiresToken).toBe(false);
    for (const token of [undefined, '', 'anything']) {
      const access = await single.authenticate(token);
      expect(access?.person).toEqual(me);
      expect([...access!.read]).toEqual(['notes']);
      expect([...access!.write]).toEqual(['notes']);
    }
    const fallback = await new LocalRepoHost({ reposDir }).authenticate(undefined);
    expect(fallback?.person.name.length).toBeGreaterThan(0);
  });

  it('checks tokens against the users file, with read and write lists', async () => {
    makeRepo(join(reposDir, 'handbook'), [{ message: 'Start', author: alice, files: { 'x.md': 'x' } }]);
    const users: UsersFile = {
      path: 'users.jsonc',
      users: [
        { login: 'ada', name: 'Ada', email: 'ada@acme.example', token: 'token-ada-0123456789', read: ['*'], write: ['notes'] },
        { login: 'bob', name: 'Bob', email: 'bob@acme.example', token: 'token-bob-0123456789', read: ['handbook', 'gone'], write: [] },
        { login: 'cy', name: 'Cy', email: 'cy@acme.example', token: 'token-cy', read: [], write: ['handbook'] },
        { login: 'dee', name: 'Dee', email: 'dee@acme.example', token: 'token-dee', read: [], write: ['*'] },
      ],
    };
    const multi = new LocalRepoHost({ reposDir, users });
    expect(multi.requiresToken).toBe(true);
    expect(await multi.authenticate(undefined)).toBeNull();
    expect(await multi.authenticate('')).toBeNull();
    expect(await multi.authenticate('token-ada')).toBeNull();
    expect(await multi.authenticate('token-ada-0123456789x')).toBeNull();
    const adaAccess = await multi.authenticate('token-ada-0123456789');
    expect(adaAccess?.person).toEqual({ login: 'ada', name: 'Ada', email: 'ada@acme.example' });
    expect([...adaAccess!.read].sort()).toEqual(['handbook', 'notes']);
    expect([...adaAccess!.write]).toEqual(['notes']);
    const bobAccess = await multi.authenticate('token-bob-0123456789');
    expect([...bobAccess!.read]).toEqual(['handbook']);
    expect(bobAccess!.write.size).toBe(0);
    const cyAccess = await multi.authenticate('token-cy');
    expect([...cyAccess!.read]).toEqual(['handbook']);
    expect([...cyAccess!.write]).toEqual(['handbook']);
    const deeAccess = await multi.authenticate('token-dee');
    expect([...deeAccess!.read].sort()).toEqual(['handbook', 'notes']);
    rmSync(join(reposDir, 'handbook'), { recursive: true });
  });
});

describe.skipIf(corpusBundle('obsidian-help') === null)('LocalRepoHost on the obsidian-help corpus', () => {
  let dir: ReturnType<typeof tempDir>;
  let host: LocalRepoHost;
  let help: string;
  beforeAll(() => {
    dir = tempDir('mv-local-corpus-');
    help = join(dir.path, 'help');
    cloneCorpus('obsidian-help', help);
    host = new LocalRepoHost({ reposDir: dir.path });
  });
  // Closed first: its background work (the commit-graph write, the kept cat-file) ends before the folder goes.
  afterAll(async () => {
    await host?.close();
    dir.cleanup();
  });

  it('snapshots every file and reads all their blobs in one call', async () => {
    const snapshot = await host.snapshot('help');
    const listed = git(help, ['ls-files', '-z']).split('\0').filter(Boolean);
    expect(snapshot.files.map((file) => file.path).sort()).toEqual(listed.sort());
    const blobs = await host.readBlobs(
      'help',
      snapshot.files.map((file) => file.oid),
    );
    blobs.forEach((blob, i) => expect(blobId(blob)).toBe(snapshot.files[i]!.oid));
  });

  it('commits into the corpus, keeping git status clean', async () => {
    const snapshot = await host.snapshot('help');
    const target = snapshot.files.find((file) => file.path.endsWith('.md') && /[^\x00-\x7f]/.test(file.path))!;
    const [content] = await host.readBlobs('help', [target.oid]);
    const result = await host.commit('help', {
      parent: snapshot.head,
      author: ada,
      message: 'Touch',
      files: [{ path: target.path, content: Buffer.concat([content!, Buffer.from('\nTouched.\n')]) }],
    });
    expect(result.ok).toBe(true);
    expect(status(help)).toBe('');
    expect((await host.readFile('help', target.path))!.toString('utf8').endsWith('\nTouched.\n')).toBe(true);
  });
});

describe('LocalRepoHost commits into a work tree without leaving it behind', () => {
  let dir: ReturnType<typeof tempDir>;
  let notes: string;
  let host: LocalRepoHost;
  const japanese = (count: number) => 'あいうえおかきくけこ'.repeat(Math.ceil(count / 10)).slice(0, count);

  beforeAll(() => {
    dir = tempDir('mv-local-safe-');
    notes = join(dir.path, 'repos', 'notes');
    makeRepo(notes, [{ message: 'Start', files: { 'notes/a.md': '# A\n', 'plain.md': 'plain\n' } }]);
    host = new LocalRepoHost({ reposDir: join(dir.path, 'repos') });
  });
  afterAll(() => dir.cleanup());

  it('writes a file whose name is long but legal (225 bytes of Japanese), leaving no temporary file', async () => {
    const path = `notes/${japanese(75)}.md`;
    expect(Buffer.byteLength(path.split('/')[1]!)).toBe(228);
    const before = git(notes, ['rev-parse', 'HEAD']);
    const result = await host.commit('notes', {
      parent: before,
      author: ada,
      message: 'Long name',
      files: [{ path, content: Buffer.from('# Long\n') }],
    });
    expect(result).toEqual({ ok: true, commit: git(notes, ['rev-parse', 'HEAD']) });
    expect(readFileSync(join(notes, path), 'utf8')).toBe('# Long\n');
    expect(git(notes, ['show', `HEAD:${path}`])).toBe('# Long');
    expect(status(notes)).toBe('');
    expect(git(notes, ['diff-files', '--name-only'])).toBe('');
    expect(existsSync(join(notes, '.git', 'index.lock'))).toBe(false);
  });

  it('refuses a name longer than 255 bytes up front, and writes nothing', async () => {
    const path = `notes/${japanese(86)}.md`;
    const before = git(notes, ['rev-parse', 'HEAD']);
    await expect(
      host.commit('notes', { parent: before, author: ada, message: 'Too long', files: [{ path, content: Buffer.from('x\n') }] }),
    ).rejects.toMatchObject({
      code: 'invalid_path',
      message: expect.stringContaining('261 bytes'),
    });
    expect(git(notes, ['rev-parse', 'HEAD'])).toBe(before);
    expect(status(notes)).toBe('');
  });

  it('refuses a file in the work tree where a folder of the path should be, before the branch moves', async () => {
    writeFileSync(join(notes, 'loose'), 'an untracked file\n');
    try {
      const before = git(notes, ['rev-parse', 'HEAD']);
      await expect(
        host.commit('notes', {
          parent: before,
          author: ada,
          message: 'Inside',
          files: [{ path: 'loose/x.md', content: Buffer.from('x\n') }],
        }),
      ).rejects.toMatchObject({
        code: 'exists',
        message: expect.stringContaining('"loose" is a file, not a folder'),
      });
      expect(git(notes, ['rev-parse', 'HEAD'])).toBe(before);
      expect(status(notes)).toBe('?? loose');
      expect(existsSync(join(notes, '.git', 'index.lock'))).toBe(false);
    } finally {
      rmSync(join(notes, 'loose'));
    }
  });

  it('refuses to create a file where the change was prepared believing the path free but a symbolic link is there', async () => {
    symlinkSync('../../outside.md', join(notes, 'notes', 'link-out.md'));
    git(notes, ['add', 'notes/link-out.md']);
    git(notes, ['commit', '-q', '-m', 'Link out']);
    const before = git(notes, ['rev-parse', 'HEAD']);
    const refused = host.commit(
      'notes',
      { parent: before, author: ada, message: 'Over the link', files: [{ path: 'notes/link-out.md', content: Buffer.from('x\n') }] },
      new Map([['notes/link-out.md', null]]),
    );
    await expect(refused).rejects.toMatchObject({ code: 'exists', details: { path: 'notes/link-out.md' } });
    expect(git(notes, ['rev-parse', 'HEAD'])).toBe(before);
    expect(git(notes, ['ls-files', '-s', 'notes/link-out.md'])).toMatch(/^120000 /);
    expect(status(notes)).toBe('');
  });

  it('writes the work tree even when the change undoes an uncommitted edit and so needs no commit', async () => {
    const before = git(notes, ['rev-parse', 'HEAD']);
    writeFileSync(join(notes, 'plain.md'), 'plain, edited by hand\n');
    const result = await host.commit(
      'notes',
      {
        parent: before,
        author: ada,
        message: 'Back',
        files: [{ path: 'plain.md', content: Buffer.from(git(notes, ['show', 'HEAD:plain.md']) + '\n') }],
      },
      new Map([['plain.md', blobId(Buffer.from('plain, edited by hand\n'))]]),
    );
    expect(result).toEqual({ ok: true, commit: before });
    expect(readFileSync(join(notes, 'plain.md'), 'utf8')).toBe(git(notes, ['show', 'HEAD:plain.md']) + '\n');
    expect(status(notes)).toBe('');
  });

  it('waits for another process holding index.lock, and gives up with a conflict when it stays', async () => {
    const lock = join(notes, '.git', 'index.lock');
    const before = git(notes, ['rev-parse', 'HEAD']);
    writeFileSync(lock, '');
    setTimeout(() => rmSync(lock), 300);
    const waited = await host.commit('notes', {
      parent: before,
      author: ada,
      message: 'After the lock',
      files: [{ path: 'plain.md', content: Buffer.from('plain, later\n') }],
    });
    expect(waited.ok).toBe(true);
    expect(status(notes)).toBe('');
    // A lock that stays (a crashed git): a clear conflict after a few seconds, nothing written.
    writeFileSync(lock, '');
    try {
      const head = git(notes, ['rev-parse', 'HEAD']);
      const refused = host.commit('notes', {
        parent: head,
        author: ada,
        message: 'Blocked',
        files: [{ path: 'plain.md', content: Buffer.from('blocked\n') }],
      });
      await expect(refused).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('index.lock') });
      expect(git(notes, ['rev-parse', 'HEAD'])).toBe(head);
      expect(readFileSync(join(notes, 'plain.md'), 'utf8')).toBe('plain, later\n');
    } finally {
      rmSync(lock);
    }
  }, 15_000);

  it('authors a single-person commit with the repository’s own Git identity', async () => {
    git(notes, ['config', 'user.name', 'Scratch Tester']);
    git(notes, ['config', 'user.email', 'scratch@example.com']);
    const access = await host.authenticate(undefined);
    const before = git(notes, ['rev-parse', 'HEAD']);
    const result = await host.commit('notes', {
      parent: before,
      author: access!.person,
      message: 'Mine',
      files: [{ path: 'mine.md', content: Buffer.from('mine\n') }],
    });
    expect(result.ok).toBe(true);
    expect(git(notes, ['log', '-1', '--format=%an <%ae>|%cn <%ce>'])).toBe(
      'Scratch Tester <scratch@example.com>|Scratch Tester <scratch@example.com>',
    );
    // Someone else named in the change, or a host run --as someone, keeps that person.
    const other = await host.commit('notes', {
      parent: result.ok ? result.commit : null,
      author: ada,
      message: 'Ada',
      files: [{ path: 'ada.md', content: Buffer.from('ada\n') }],
    });
    expect(other.ok).toBe(true);
    expect(git(notes, ['log', '-1', '--format=%an'])).toBe('Ada Lovelace');
    const asHost = new LocalRepoHost({ reposDir: join(dir.path, 'repos'), as: ada });
    const asAccess = await asHost.authenticate(undefined);
    const third = await asHost.commit('notes', {
      parent: git(notes, ['rev-parse', 'HEAD']),
      author: asAccess!.person,
      message: 'As',
      files: [{ path: 'as.md', content: Buffer.from('as\n') }],
    });
    expect(third.ok).toBe(true);
    expect(git(notes, ['log', '-1', '--format=%an'])).toBe('Ada Lovelace');
  });
});
