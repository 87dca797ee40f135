// Recovery from a server killed mid-commit, case by case: the state such a crash leaves is built
// by hand (a commit landed with update-ref behind the work tree's back, the journal, a lock of a
// process that is gone, a temporary), then a fresh host is started on it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { git, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { blobId } from '../git/blob-id.ts';
import { journalPath, tempName, writeJournal, type CommitJournal } from './commit-journal.ts';
import { serverFolder } from './index-lock.ts';
import { formatOwner, thisProcess, type LockOwner } from './lock-owner.ts';
import { LocalRepoHost } from './local-repo-host.ts';

const ada = { login: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };

/** A process that ran and is gone: its id is free (or names a later process, which the start time tells apart). */
function deadOwner(): LockOwner {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return { pid: pid!, start: 'ticks:1', host: hostname() };
}

/** Makes commit `files` on top of HEAD with Git's plumbing and lands it with update-ref, leaving the work tree and the index alone. */
function landBehindTheWorkTree(repo: string, files: Record<string, string | null>): string {
  const index = join(repo, '.git', 'crash-test-index');
  const env = { GIT_INDEX_FILE: index };
  git(repo, ['read-tree', 'HEAD'], env);
  for (const [path, content] of Object.entries(files)) {
    if (content === null) git(repo, ['update-index', '--force-remove', '--', path], env);
    else {
      const oid = spawnSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo, input: content, encoding: 'utf8' }).stdout.trim();
      git(repo, ['update-index', '--add', '--cacheinfo', `100644,${oid},${path}`], env);
    }
  }
  const tree = git(repo, ['write-tree'], env);
  const commit = git(repo, ['commit-tree', tree, '-p', 'HEAD', '-m', 'The interrupted write'], {
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@x',
    GIT_COMMITTER_NAME: 'A',
    GIT_COMMITTER_EMAIL: 'a@x',
  });
  git(repo, ['update-ref', 'HEAD', commit]);
  return commit;
}

function oidOf(text: string): string {
  return blobId(Buffer.from(text));
}

describe('recovery from a server killed during a commit', () => {
  let dir: { path: string; cleanup: () => void };
  let reposDir: string;
  let repo: string;
  let start: string;
  const sentences: string[] = [];
  const host = () => new LocalRepoHost({ reposDir, as: ada, onRecovery: (sentence) => sentences.push(sentence) });

  beforeEach(() => {
    dir = tempDir('mv-recover-');
    reposDir = join(dir.path, 'repos');
    repo = join(reposDir, 'vault');
    makeRepo(repo, [{ message: 'Start', files: { 'notes/a.md': 'one\n', 'notes/b.md': 'bee\n', 'notes/gone.md': 'gone\n' } }]);
    start = git(repo, ['rev-parse', 'HEAD']);
    sentences.length = 0;
    mkdirSync(serverFolder(join(repo, '.git')), { recursive: true });
  });
  afterEach(() => dir.cleanup());

  /** The journal, lock and a half-written temporary that a server killed after staging leaves. */
  async function crashState(commit: string, owner: LockOwner): Promise<CommitJournal> {
    const journal: CommitJournal = {
      owner,
      token: '0badc0de',
      old: start,
      new: commit,
      paths: [
        { path: 'notes/a.md', before: oidOf('one\n') },
        { path: 'notes/b.md', before: oidOf('bee\n') },
        { path: 'notes/new.md', before: null },
        { path: 'notes/gone.md', before: oidOf('gone\n') },
      ],
    };
    await writeJournal(join(repo, '.git'), journal);
    writeFileSync(join(repo, '.git', 'index.lock'), formatOwner(owner));
    writeFileSync(join(repo, 'notes', tempName(journal.token, 'notes/new.md')), 'half of it');
    writeFileSync(join(repo, '.git', `index.mv-${journal.token}`), 'a copy of the index');
    return journal;
  }

  it('finishes a commit already on the branch: files placed, index set, lock, journal and temporaries gone', async () => {
    const commit = landBehindTheWorkTree(repo, {
      'notes/a.md': 'one\ntwo\n',
      'notes/b.md': 'bee\nsting\n',
      'notes/new.md': 'new\n',
      'notes/gone.md': null,
    });
    await crashState(commit, deadOwner());
    // Before recovery the work tree lags: git would call the earlier commit's change undone.
    expect(git(repo, ['status', '--porcelain'])).not.toBe('');

    const first = host();
    expect((await first.readFile('vault', 'notes/a.md'))?.toString()).toBe('one\ntwo\n');
    expect(readFileSync(join(repo, 'notes', 'b.md'), 'utf8')).toBe('bee\nsting\n');
    expect(readFileSync(join(repo, 'notes', 'new.md'), 'utf8')).toBe('new\n');
    expect(existsSync(join(repo, 'notes', 'gone.md'))).toBe(false);
    expect(git(repo, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(false);
    expect(existsSync(journalPath(join(repo, '.git')))).toBe(false);
    expect(readdirSync(join(repo, '.git')).filter((name) => name.startsWith('index.mv-'))).toEqual([]);
    expect(sentences.join('\n')).toMatch(/removed the \.git\/index\.lock that Major Vault process \d+ left/);
    expect(sentences.join('\n')).toContain(`finished placing the commit ${commit.slice(0, 7)}`);

    // The next write builds on the commit instead of reverting it.
    const next = await first.commit(
      'vault',
      { parent: commit, author: ada, message: 'Three', files: [{ path: 'notes/a.md', content: Buffer.from('one\ntwo\nthree\n') }] },
      new Map([['notes/a.md', oidOf('one\ntwo\n')]]),
    );
    expect(next.ok).toBe(true);
    expect(git(repo, ['show', 'HEAD:notes/b.md'])).toBe('bee\nsting');
    expect(git(repo, ['status', '--porcelain'])).toBe('');
    await first.close();
  });

  it('never writes over an edit made after the crash; that path shows as the person’s change against the head', async () => {
    const commit = landBehindTheWorkTree(repo, {
      'notes/a.md': 'one\ntwo\n',
      'notes/b.md': 'bee\nsting\n',
      'notes/new.md': 'new\n',
      'notes/gone.md': null,
    });
    await crashState(commit, deadOwner());
    writeFileSync(join(repo, 'notes', 'b.md'), 'bee, edited by hand after the crash\n');
    const recovering = host();
    await recovering.recoverInterruptedCommits();
    expect(readFileSync(join(repo, 'notes', 'b.md'), 'utf8')).toBe('bee, edited by hand after the crash\n');
    expect(readFileSync(join(repo, 'notes', 'a.md'), 'utf8')).toBe('one\ntwo\n');
    expect(git(repo, ['status', '--porcelain'])).toBe('M notes/b.md');
    expect(sentences.join('\n')).toContain('left alone, since edited after the crash: "notes/b.md"');
    await recovering.close();
  });

  it('drops a commit that never landed: the work tree stays as it was, the temporaries go', async () => {
    await crashState('0123456789abcdef0123456789abcdef01234567', deadOwner());
    const recovering = host();
    await recovering.recoverInterruptedCommits();
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe(start);
    expect(readFileSync(join(repo, 'notes', 'a.md'), 'utf8')).toBe('one\n');
    expect(git(repo, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(false);
    expect(existsSync(journalPath(join(repo, '.git')))).toBe(false);
    expect(sentences.join('\n')).toContain('it never landed on the branch');
    await recovering.close();
  });

  it('removes its own stale lock (no journal: killed before staging) and writes at once', async () => {
    writeFileSync(join(repo, '.git', 'index.lock'), formatOwner(deadOwner()));
    const writer = host();
    const result = await writer.commit(
      'vault',
      { parent: start, author: ada, message: 'After', files: [{ path: 'notes/a.md', content: Buffer.from('one\nafter\n') }] },
      new Map([['notes/a.md', oidOf('one\n')]]),
    );
    expect(result.ok).toBe(true);
    expect(git(repo, ['status', '--porcelain'])).toBe('');
    expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(false);
    await writer.close();
  });

  it('never removes a lock it did not make, and the refusal names its real age', async () => {
    const lock = join(repo, '.git', 'index.lock');
    writeFileSync(lock, ''); // Git's own (a crashed git, or one waiting for its editor)
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000 - 5 * 60_000);
    utimesSync(lock, twoHoursAgo, twoHoursAgo);
    const writer = host();
    await writer.recoverInterruptedCommits();
    const refused = writer.commit(
      'vault',
      { parent: start, author: ada, message: 'Blocked', files: [{ path: 'notes/a.md', content: Buffer.from('blocked\n') }] },
      new Map([['notes/a.md', oidOf('one\n')]]),
    );
    await expect(refused).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/another program holds its \.git\/index\.lock, made 2 h 5 min ago.*delete \.git\/index\.lock/),
    });
    expect(existsSync(lock)).toBe(true);
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe(start);
    await writer.close();
  }, 20_000);

  it('a write that gets the lock after another program held it finishes the dead journal first, and asks for a new preparation', async () => {
    const commit = landBehindTheWorkTree(repo, { 'notes/a.md': 'one\ntwo\n' });
    const journal = await crashState(commit, deadOwner());
    // Someone deleted the crashed server's lock by hand; then a git command held it for an hour.
    const lock = join(repo, '.git', 'index.lock');
    writeFileSync(lock, '');
    const anHourAgo = new Date(Date.now() - 3600_000);
    utimesSync(lock, anHourAgo, anHourAgo);
    const writer = host();
    setTimeout(() => rmSync(lock, { force: true }), 500);
    // Prepared from the lagging file, as a write would be without recovery.
    const result = await writer.commit(
      'vault',
      { parent: commit, author: ada, message: 'Lagging', files: [{ path: 'notes/a.md', content: Buffer.from('one\nlagging\n') }] },
      new Map([['notes/a.md', oidOf('one\n')]]),
    );
    expect(result).toMatchObject({ ok: false, conflict: 'worktree_dirty', path: 'notes/a.md' });
    expect(readFileSync(join(repo, 'notes', 'a.md'), 'utf8')).toBe('one\ntwo\n');
    expect(git(repo, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(existsSync(journalPath(join(repo, '.git')))).toBe(false);
    expect(existsSync(join(repo, 'notes', tempName(journal.token, 'notes/new.md')))).toBe(false);
    await writer.close();
  }, 20_000);

  it('when finishing fails, reads go on and writes are refused until it succeeds', async () => {
    const commit = landBehindTheWorkTree(repo, { 'blocked/x.md': 'x\n' });
    await writeJournal(join(repo, '.git'), {
      owner: deadOwner(),
      token: '0badc0de',
      old: start,
      new: commit,
      paths: [{ path: 'blocked/x.md', before: null }],
    });
    writeFileSync(join(repo, 'blocked'), 'a file where the commit needs a folder\n');
    const writer = host();
    expect((await writer.readFile('vault', 'notes/a.md'))?.toString()).toBe('one\n');
    const refused = writer.commit(
      'vault',
      { parent: commit, author: ada, message: 'Blocked', files: [{ path: 'notes/a.md', content: Buffer.from('one\nmore\n') }] },
      new Map([['notes/a.md', oidOf('one\n')]]),
    );
    await expect(refused).rejects.toThrow();
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe(commit);
    expect(sentences.filter((sentence) => sentence.includes('failed (writes are refused until it succeeds)'))).toHaveLength(1);
    rmSync(join(repo, 'blocked'));
    const result = await writer.commit(
      'vault',
      { parent: commit, author: ada, message: 'Now', files: [{ path: 'notes/a.md', content: Buffer.from('one\nmore\n') }] },
      new Map([['notes/a.md', oidOf('one\n')]]),
    );
    expect(result.ok).toBe(true);
    expect(readFileSync(join(repo, 'blocked', 'x.md'), 'utf8')).toBe('x\n');
    expect(git(repo, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    await writer.close();
  }, 20_000);

  it('leaves the lock and the journal of a live server alone (a second server on the same work tree)', async () => {
    const commit = landBehindTheWorkTree(repo, { 'notes/a.md': 'one\ntwo\n' });
    await crashState(commit, thisProcess()); // this process stands in for the other server, mid-commit
    const other = host();
    await other.recoverInterruptedCommits();
    expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(true);
    expect(existsSync(journalPath(join(repo, '.git')))).toBe(true);
    expect(readFileSync(join(repo, 'notes', 'a.md'), 'utf8')).toBe('one\n');
    const refused = other.commit(
      'vault',
      { parent: commit, author: ada, message: 'Blocked', files: [{ path: 'notes/b.md', content: Buffer.from('b\n') }] },
      new Map([['notes/b.md', oidOf('bee\n')]]),
    );
    await expect(refused).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`another Major Vault server (process ${process.pid}) has been committing there for`),
    });
    expect(sentences).toEqual([]);
    await other.close();
  }, 20_000);
});
