// The mirrors: bare clones that follow the upstream's branches, forced pushes and deletions, with the token never on disk.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit, git, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { GitHubUnavailable } from './github-failure.ts';
import { GitHubMirrors } from './github-mirrors.ts';

/** The upstream is a folder reached as `file://<dir>/<owner>/<name>.git`: the same fetch as over HTTP, minus the server. */
describe('GitHubMirrors', () => {
  let dir: ReturnType<typeof tempDir>;
  let work: string;
  let upstream: string;
  let mirrors: GitHubMirrors;
  const source = { name: 'notes', fullName: 'acme/notes', defaultBranch: 'main' };
  const token = 'ghs_secret-installation-token';
  /** How many fetches asked for the token (one each). */
  let fetches = 0;

  beforeAll(() => {
    dir = tempDir('mv-mirrors-');
    work = join(dir.path, 'work');
    upstream = join(dir.path, 'web', 'acme', 'notes.git');
    makeRepo(work, [{ message: 'Start', files: { 'a.md': '# A\n' } }]);
    execFileSync('git', ['clone', '-q', '--bare', work, upstream]);
    mirrors = new GitHubMirrors({
      dir: join(dir.path, 'mirrors'),
      webUrl: `file://${join(dir.path, 'web')}`,
      token: async () => (fetches++, token),
    });
  });
  afterAll(() => dir.cleanup());

  const mirrorGit = (args: string[]) => git(dir.path, [`--git-dir=${mirrors.gitDir('notes')}`, ...args]);
  const upstreamHead = () => git(dir.path, [`--git-dir=${upstream}`, 'rev-parse', 'refs/heads/main']);
  const push = (args: string[]) => git(work, ['push', '-q', ...args]);

  it('makes a bare mirror named <repo>.git, with HEAD on the default branch, leaving no temporary folder', async () => {
    expect(await mirrors.has('notes')).toBe(false);
    await mirrors.ensure(source);
    expect(mirrors.gitDir('notes')).toBe(join(dir.path, 'mirrors', 'notes.git'));
    expect(mirrorGit(['rev-parse', '--is-bare-repository'])).toBe('true');
    expect(mirrorGit(['symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
    expect(mirrorGit(['rev-parse', 'HEAD'])).toBe(upstreamHead());
    expect(readdirSync(join(dir.path, 'mirrors'))).toEqual(['notes.git']);
  });

  it('keeps the token out of the mirror: no remote, no URL, nothing in its config', async () => {
    const config = readFileSync(join(mirrors.gitDir('notes'), 'config'), 'utf8');
    expect(config).not.toContain(token);
    expect(config).not.toContain('remote');
    expect(config).not.toContain('extraheader');
    expect(existsSync(join(mirrors.gitDir('notes'), 'FETCH_HEAD'))).toBe(false);
  });

  it('follows new commits, a forced push that rewrites history, new and deleted branches', async () => {
    push([upstream, 'main']);
    const first = upstreamHead();
    commit(work, { message: 'Second', files: { 'b.md': '# B\n' } });
    git(work, ['branch', 'side']);
    push([upstream, 'main', 'side']);
    await mirrors.fetch(source);
    expect(mirrorGit(['rev-parse', 'HEAD'])).toBe(upstreamHead());
    expect(mirrorGit(['rev-parse', 'refs/heads/side'])).toBe(upstreamHead());
    // A forced push: main goes back to the first commit and gets another one instead.
    git(work, ['reset', '-q', '--hard', first]);
    commit(work, { message: 'Rewritten', files: { 'c.md': '# C\n' } });
    push(['--force', upstream, 'main', ':side']);
    await mirrors.fetch(source);
    expect(mirrorGit(['rev-parse', 'HEAD'])).toBe(upstreamHead());
    expect(mirrorGit(['log', '--format=%s', 'HEAD'])).toBe('Rewritten\nStart');
    expect(mirrorGit(['for-each-ref', '--format=%(refname)'])).toBe('refs/heads/main');
  });

  it('runs a burst of fetch requests as at most two fetches, each caller seeing a fetch that started after it asked', async () => {
    commit(work, { message: 'Burst', files: { 'd.md': '# D\n' } });
    push([upstream, 'main']);
    const before = fetches;
    await Promise.all(Array.from({ length: 10 }, () => mirrors.fetch(source)));
    expect(fetches - before).toBe(1);
    expect(mirrorGit(['rev-parse', 'HEAD'])).toBe(upstreamHead());
    // While one runs, the others asked meanwhile share one more.
    const running = mirrors.fetch(source);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([running, ...Array.from({ length: 5 }, () => mirrors.fetch(source))]);
    expect(fetches - before).toBe(3);
  });

  it('points HEAD at a new default branch', async () => {
    push([upstream, 'main:trunk']);
    await mirrors.fetch({ ...source, defaultBranch: 'trunk' });
    expect(mirrorGit(['symbolic-ref', 'HEAD'])).toBe('refs/heads/trunk');
    await mirrors.fetch(source);
    expect(mirrorGit(['symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
  });

  it('mirrors an empty repository as one with no head', async () => {
    const empty = join(dir.path, 'web', 'acme', 'empty.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', empty]);
    const emptySource = { name: 'empty', fullName: 'acme/empty', defaultBranch: 'main' };
    await mirrors.fetch(emptySource);
    expect(git(dir.path, [`--git-dir=${mirrors.gitDir('empty')}`, 'for-each-ref'])).toBe('');
  });

  it('fails clearly when the repository cannot be fetched, and leaves no half-made mirror', async () => {
    const missing = { name: 'gone', fullName: 'acme/gone', defaultBranch: 'main' };
    await expect(mirrors.fetch(missing)).rejects.toBeInstanceOf(GitHubUnavailable);
    await expect(mirrors.fetch(missing)).rejects.toThrow(/Could not fetch the repository "acme\/gone" from GitHub/);
    expect(await mirrors.has('gone')).toBe(false);
    expect(readdirSync(join(dir.path, 'mirrors')).sort()).toEqual(['empty.git', 'notes.git']);
  });

  it('gives up on a connection that hangs after its stall time, so the repository is not held', async () => {
    // A server that takes the request and never answers, as a GitHub that hangs.
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const stalled = new GitHubMirrors({
        dir: join(dir.path, 'mirrors'),
        webUrl: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`,
        token: async () => token,
        stallSeconds: 2,
      });
      // Git's low-speed limit ends it, long before the fetch's two-minute limit (which would
      // outlast the test's own).
      await expect(stalled.fetch(source)).rejects.toBeInstanceOf(GitHubUnavailable);
      expect(mirrorGit(['rev-parse', 'HEAD'])).toBe(upstreamHead());
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });

  it('removes a mirror', async () => {
    await mirrors.remove('empty');
    expect(await mirrors.has('empty')).toBe(false);
  });
});
