// The RepoHost contract: behaviour every adapter must show, run against each one (local, and a GitHub stand-in).
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isVaultError } from '../vault-error.ts';
import type { FixtureCommit } from '../../test/support/git-fixture.ts';
import { alice, bob } from '../../test/support/git-fixture.ts';
import { blobId } from './git/blob-id.ts';
import type { Person } from './person.ts';
import type { CommitSearch, NoteBlame } from './history.ts';
import type { RepoHost } from './repo-host.ts';

/** A repository the contract needs: its name and the commits to make in it, oldest first (none: an empty repository). */
export interface ContractRepo {
  name: string;
  commits: FixtureCommit[];
}

/**
 * What an adapter's factory gives the contract: the host over exactly those repositories
 * (with its `close`, which stops its background work: the adapter's own, not the port's), and
 * how to clean up.
 */
export interface ContractHost {
  host: RepoHost & { close(): Promise<void> };
  /** A caller's credential that may write every contract repository (hosted: a person's token); default: a made-up one (the local adapter checks none). */
  credential?: string;
  /**
   * The Git folder where the repository's commits land (locally the repository itself; for
   * the GitHub adapter, the stand-in's bare repository), for the suite to check commits with
   * the `git` program. The port itself never hands it out.
   */
  gitDirOf(repo: string): string;
  cleanup: () => Promise<void>;
}

/**
 * How an adapter's commits name people, where adapters differ by nature. `author`: `change`
 * (default, local): the change's author, who is also the committer; `credential` (GitHub):
 * the owner of the change's credential, whatever the change says (GitHub names the token's
 * user and refuses to be told otherwise), committed by `committer` (`Name <email>`). For a
 * `credential` host, the factory's host gives every change without a credential the
 * credential of the person whose login is the change's author's (the contract's callers are
 * `ada`, Ada Lovelace <ada@acme.example>, and `bob`, `chloe`, `dan` named by their login with
 * `<login>@acme.example`), and `ContractHost.credential` is Ada's.
 */
export interface ContractTraits {
  author?: 'change' | 'credential';
  committer?: string;
}

/** File names that must survive every step exactly: scripts, spaces, `#`, quotes, tabs, glob characters. */
export const awkwardNames = [
  'Café ☕/Crème brûlée.md',
  '日本語/ノート.md',
  'with space/a b c.md',
  'hash#tag.md',
  "quote\"s and 'single'.md",
  'tab\there.md',
  'glob*[x]?.md',
  'emoji 🎉.md',
  'Straße/Ärger.md',
] as const;

const manyCount = 2000;

/** The repositories every run of the contract starts from. */
export function contractRepos(): ContractRepo[] {
  const many: Record<string, string> = {};
  for (let i = 0; i < manyCount; i++) many[`many/note-${String(i).padStart(4, '0')}.md`] = `# Note ${i}\n\n${'x'.repeat(i)}\n`;
  const awkward: Record<string, string> = {};
  for (const name of awkwardNames) awkward[name] = `# ${name}\n`;
  return [
    {
      name: 'projects',
      commits: [
        {
          message: 'Start',
          author: alice,
          files: {
            'README.md': '# Projects\n',
            'active/plan.md': '# Plan\n\nFirst.\n',
            'binary.bin': Buffer.from([0, 1, 2, 255, 0, 10, 13]),
          },
        },
        { message: 'Awkward names', author: bob, files: awkward },
        { message: 'Many notes', author: alice, files: many },
      ],
    },
    { name: 'handbook', commits: [{ message: 'Start', author: alice, files: { 'onboarding/first-week.md': '# First week\n' } }] },
    { name: 'empty', commits: [] },
  ];
}

const ada: Person = { login: 'ada', name: 'Ada Lovelace', email: 'ada@acme.example' };

/** Runs git against the host's mirror of a repository (the contract reads what really landed). */
function gitIn(gitDir: string, args: string[]): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  }).trim();
}

/**
 * Declares the RepoHost contract suite for one adapter. `makeHost` builds a host holding
 * exactly `repos` (see {@link contractRepos}), each on branch `main`; it is called once per
 * `describe` block, so tests that commit get a fresh host.
 */
export function describeRepoHostContract(
  name: string,
  makeHost: (repos: ContractRepo[]) => Promise<ContractHost>,
  traits: ContractTraits = {},
): void {
  const byCredential = traits.author === 'credential';
  describe(`RepoHost contract: ${name}`, () => {
    describe('reading', () => {
      let made: ContractHost;
      let host: ContractHost['host'];
      beforeAll(async () => {
        made = await makeHost(contractRepos());
        host = made.host;
      });
      afterAll(async () => {
        await host.close();
        await made.cleanup();
      });

      it('lists the repositories sorted by name, with branch and head', async () => {
        const repos = await host.listRepos();
        expect(repos.map((repo) => repo.name)).toEqual(['empty', 'handbook', 'projects']);
        for (const repo of repos) expect(repo.defaultBranch).toBe('main');
        expect(repos.find((repo) => repo.name === 'empty')?.head).toBeNull();
        const projects = repos.find((repo) => repo.name === 'projects')!;
        expect(projects.head).toMatch(/^[0-9a-f]{40}$/);
        const gitDir = made.gitDirOf('projects');
        expect(gitIn(gitDir, ['rev-parse', 'refs/heads/main'])).toBe(projects.head);
      });

      it('snapshots every file with the blob id of its content', async () => {
        const snapshot = await host.snapshot('projects');
        const byPath = new Map(snapshot.files.map((file) => [file.path, file.oid]));
        expect(byPath.size).toBe(3 + awkwardNames.length + manyCount);
        expect(byPath.get('active/plan.md')).toBe(blobId(Buffer.from('# Plan\n\nFirst.\n')));
        expect(byPath.get('binary.bin')).toBe(blobId(Buffer.from([0, 1, 2, 255, 0, 10, 13])));
        for (const awkward of awkwardNames) expect(byPath.get(awkward), awkward).toBe(blobId(Buffer.from(`# ${awkward}\n`)));
        expect(snapshot.files.some((file) => file.path.startsWith('.git/'))).toBe(false);
        const paths = snapshot.files.map((file) => file.path);
        expect(paths).toEqual([...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        expect(snapshot.head).toBe((await host.listRepos()).find((repo) => repo.name === 'projects')?.head);
      });

      it('gives a fingerprint that stays the same while nothing changes', async () => {
        const first = await host.snapshot('projects');
        expect(await host.fingerprint('projects')).toBe(first.fingerprint);
        expect((await host.snapshot('projects')).fingerprint).toBe(first.fingerprint);
        expect(await host.fingerprint('handbook')).not.toBe(first.fingerprint);
      });

      it('snapshots an empty repository as no head and no files', async () => {
        const snapshot = await host.snapshot('empty');
        expect(snapshot.head).toBeNull();
        expect(snapshot.files).toEqual([]);
        expect(await host.readFile('empty', 'anything.md')).toBeNull();
      });

      it('reads many blobs in the order asked, duplicates included', async () => {
        const snapshot = await host.snapshot('projects');
        const files = [...snapshot.files].reverse();
        const oids = [...files.map((file) => file.oid), files[0]!.oid];
        const blobs = await host.readBlobs('projects', oids);
        expect(blobs).toHaveLength(oids.length);
        blobs.forEach((blob, i) => expect(blobId(blob)).toBe(oids[i]));
        expect(blobs.at(-1)!.equals(blobs[0]!)).toBe(true);
        expect(await host.readBlobs('projects', [])).toEqual([]);
      });

      it('refuses a blob that is not there', async () => {
        await expect(host.readBlobs('projects', ['0123456789012345678901234567890123456789'])).rejects.toThrow();
      });

      it('reads a file by path, exactly, and null when absent', async () => {
        expect((await host.readFile('projects', 'active/plan.md'))?.toString('utf8')).toBe('# Plan\n\nFirst.\n');
        expect(await host.readFile('projects', 'binary.bin')).toEqual(Buffer.from([0, 1, 2, 255, 0, 10, 13]));
        for (const awkward of awkwardNames)
          expect((await host.readFile('projects', awkward))?.toString('utf8'), awkward).toBe(`# ${awkward}\n`);
        expect(await host.readFile('projects', 'active/missing.md')).toBeNull();
        expect(await host.readFile('projects', 'active')).toBeNull();
      });

      it('refuses paths that leave the repository or reach into .git', async () => {
        for (const bad of ['../handbook/onboarding/first-week.md', '/etc/passwd', '.git/config', 'a/../../x.md', '']) {
          await expect(host.readFile('projects', bad), bad).rejects.toSatisfy((error) => isVaultError(error, 'invalid_path'));
        }
      });

      it('answers repo_not_found for a repository it does not have', async () => {
        for (const call of [
          () => host.snapshot('nope'),
          () => host.fingerprint('nope'),
          () => host.readFile('nope', 'a.md'),
          () => host.readBlobs('nope', []),
          () => host.commit('nope', { parent: null, files: [], author: ada, message: 'x' }),
          () => host.snapshot('../projects'),
          () => host.snapshot('.hidden'),
        ]) {
          await expect(call()).rejects.toSatisfy((error) => isVaultError(error, 'repo_not_found'));
        }
      });
    });

    describe('committing', () => {
      let made: ContractHost;
      let host: ContractHost['host'];
      beforeAll(async () => {
        made = await makeHost(contractRepos());
        host = made.host;
      });
      afterAll(async () => {
        await host.close();
        await made.cleanup();
      });

      it('makes exactly one commit with the author, the tree and the message', async () => {
        const before = await host.snapshot('handbook');
        const change = {
          parent: before.head,
          author: ada,
          message: 'Add the second week\n\nWhat happens after the first one.',
          files: [
            { path: 'onboarding/second-week.md', content: Buffer.from('# Second week\n') },
            { path: 'onboarding/first-week.md', content: Buffer.from('# First week\n\nUpdated.\n') },
            { path: 'Café ☕/tab\there #1.md', content: Buffer.from('odd\n') },
          ],
        };
        const result = await host.commit('handbook', change);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const gitDir = made.gitDirOf('handbook');
        expect(gitIn(gitDir, ['rev-parse', 'refs/heads/main'])).toBe(result.commit);
        expect(gitIn(gitDir, ['rev-list', '--count', `${before.head}..${result.commit}`])).toBe('1');
        expect(gitIn(gitDir, ['rev-parse', `${result.commit}^`])).toBe(before.head);
        expect(gitIn(gitDir, ['log', '-1', '--format=%an <%ae>|%cn <%ce>', result.commit])).toBe(
          `Ada Lovelace <ada@acme.example>|${traits.committer ?? 'Ada Lovelace <ada@acme.example>'}`,
        );
        expect(gitIn(gitDir, ['log', '-1', '--format=%B', result.commit])).toBe('Add the second week\n\nWhat happens after the first one.');
        expect(gitIn(gitDir, ['show', `${result.commit}:onboarding/first-week.md`])).toBe('# First week\n\nUpdated.');
        expect(
          gitIn(gitDir, ['-c', 'core.quotepath=false', 'ls-tree', '-r', '--name-only', '-z', result.commit])
            .split('\0')
            .filter(Boolean)
            .sort(),
        ).toEqual(['Café ☕/tab\there #1.md', 'onboarding/first-week.md', 'onboarding/second-week.md'].sort());
        const after = await host.snapshot('handbook');
        expect(after.head).toBe(result.commit);
        expect(after.fingerprint).not.toBe(before.fingerprint);
        expect(after.files.find((file) => file.path === 'Café ☕/tab\there #1.md')?.oid).toBe(blobId(Buffer.from('odd\n')));
        expect((await host.readFile('handbook', 'onboarding/second-week.md'))?.toString('utf8')).toBe('# Second week\n');
      });

      it('deletes files and keeps bytes exact', async () => {
        const before = await host.snapshot('handbook');
        const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x23, 0x0d, 0x0a, 0x00, 0xff]);
        const result = await host.commit('handbook', {
          parent: before.head,
          author: ada,
          message: 'Replace the second week',
          files: [
            { path: 'onboarding/second-week.md', content: null },
            { path: 'raw.bin', content: bytes },
          ],
        });
        expect(result.ok).toBe(true);
        expect(await host.readFile('handbook', 'onboarding/second-week.md')).toBeNull();
        expect(await host.readFile('handbook', 'raw.bin')).toEqual(bytes);
        const paths = (await host.snapshot('handbook')).files.map((file) => file.path);
        expect(paths).not.toContain('onboarding/second-week.md');
        expect(paths).toContain('raw.bin');
      });

      it('refuses with head_moved when the head is not the parent, and changes nothing', async () => {
        const before = await host.snapshot('handbook');
        const gitDir = made.gitDirOf('handbook');
        const stale = gitIn(gitDir, ['rev-parse', `${before.head}^`]);
        const result = await host.commit('handbook', {
          parent: stale,
          author: ada,
          message: 'Late',
          files: [{ path: 'late.md', content: Buffer.from('late\n') }],
        });
        expect(result).toEqual({ ok: false, conflict: 'head_moved', head: before.head });
        const after = await host.snapshot('handbook');
        expect(after.head).toBe(before.head);
        expect(after.fingerprint).toBe(before.fingerprint);
        expect(await host.readFile('handbook', 'late.md')).toBeNull();
      });

      it('refuses a file where a folder is, or inside a file, and changes nothing', async () => {
        const before = await host.snapshot('handbook');
        for (const files of [
          [{ path: 'onboarding', content: Buffer.from('x') }],
          [{ path: 'raw.bin/inner.md', content: Buffer.from('x') }],
          [
            { path: 'new', content: Buffer.from('x') },
            { path: 'new/inner.md', content: Buffer.from('x') },
          ],
        ]) {
          await expect(
            host.commit('handbook', { parent: before.head, author: ada, message: 'Clash', files }),
            files[0]!.path,
          ).rejects.toSatisfy((error) => isVaultError(error, 'exists'));
        }
        expect((await host.snapshot('handbook')).head).toBe(before.head);
      });

      it('makes no commit for a change that changes nothing', async () => {
        const before = await host.snapshot('handbook');
        const result = await host.commit('handbook', {
          parent: before.head,
          author: ada,
          message: 'Same',
          files: [{ path: 'raw.bin', content: await host.readFile('handbook', 'raw.bin') }],
        });
        expect(result).toEqual({ ok: true, commit: before.head });
      });

      it('commits into an empty repository', async () => {
        const result = await host.commit('empty', {
          parent: null,
          author: ada,
          message: 'First note',
          files: [{ path: 'first.md', content: Buffer.from('# First\n') }],
        });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect((await host.listRepos()).find((repo) => repo.name === 'empty')?.head).toBe(result.commit);
        const again = await host.commit('empty', {
          parent: null,
          author: ada,
          message: 'Again',
          files: [{ path: 'second.md', content: Buffer.from('# Second\n') }],
        });
        expect(again).toEqual({ ok: false, conflict: 'head_moved', head: result.commit });
      });

      it.skipIf(byCredential)('strips control characters from the author, keeping every letter', async () => {
        const before = await host.snapshot('handbook');
        const author: Person = { login: 'eve', name: 'Chloé\r\nCommitter: Mallory <m@evil>\u0000 Çelik', email: 'chloe@acme.example>\nX' };
        const result = await host.commit('handbook', {
          parent: before.head,
          author,
          message: 'Signed',
          files: [{ path: 'signed.md', content: Buffer.from('x\n') }],
        });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const gitDir = made.gitDirOf('handbook');
        const raw = gitIn(gitDir, ['cat-file', 'commit', result.commit]);
        const header = raw.split('\n\n')[0]!.split('\n');
        expect(header.filter((line) => line.startsWith('author ') || line.startsWith('committer '))).toHaveLength(2);
        const authorLine = header.find((line) => line.startsWith('author '))!;
        expect(authorLine).toMatch(/^author Chloé Committer: Mallory m@evil Çelik <chloe@acme\.example X> \d+ [+-]\d{4}$/);
      });

      it.skipIf(byCredential)('commits for an author whose name Git would trim to nothing, under their login', async () => {
        const before = await host.snapshot('handbook');
        const result = await host.commit('handbook', {
          parent: before.head,
          author: { login: 'dot', name: ' .\n', email: '' },
          message: 'Dot',
          files: [{ path: 'dot.md', content: Buffer.from('.\n') }],
        });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const gitDir = made.gitDirOf('handbook');
        expect(gitIn(gitDir, ['log', '-1', '--format=%an|%ae', result.commit])).toBe('dot|');
      });

      it.runIf(byCredential)('names the owner of the credential as the author, whatever the change says', async () => {
        const before = await host.snapshot('handbook');
        const author: Person = { login: 'eve', name: 'Chloé\r\nCommitter: Mallory <m@evil>\u0000 Çelik', email: 'chloe@acme.example>\nX' };
        const result = await host.commit('handbook', {
          parent: before.head,
          author,
          message: 'Signed',
          files: [{ path: 'signed.md', content: Buffer.from('x\n') }],
          credential: made.credential,
        });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const raw = gitIn(made.gitDirOf('handbook'), ['cat-file', 'commit', result.commit]);
        const header = raw.split('\n\n')[0]!.split('\n');
        expect(header.filter((line) => line.startsWith('author ') || line.startsWith('committer '))).toHaveLength(2);
        expect(header.find((line) => line.startsWith('author '))).toMatch(/^author Ada Lovelace <ada@acme\.example> \d+ [+-]\d{4}$/);
      });

      // Four callers race for one branch and retry each refusal, so the commits made grow with
      // the contention: on the GitHub stand-in (a fetch of the mirror and a commit over HTTP
      // each try) the test takes about 20 s on a quiet 2-core machine and over 60 s beside the
      // rest of the suite under load. It checks that none is lost, not how fast they land.
      it('lands 20 concurrent commits from several callers, none lost', { timeout: 240_000 }, async () => {
        const callers = ['ada', 'bob', 'chloe', 'dan'];
        const perCaller = 5;
        const before = await host.snapshot('projects');
        const attempts = { conflicts: 0 };
        await Promise.all(
          callers.map(async (login) => {
            for (let i = 0; i < perCaller; i++) {
              for (;;) {
                const head = (await host.snapshot('projects')).head;
                const result = await host.commit('projects', {
                  parent: head,
                  author: { login, name: login, email: `${login}@acme.example` },
                  message: `${login} ${i}`,
                  files: [{ path: `concurrent/${login}-${i}.md`, content: Buffer.from(`${login} ${i}\n`) }],
                });
                if (result.ok) break;
                expect(result.conflict).toBe('head_moved');
                attempts.conflicts++;
              }
            }
          }),
        );
        const after = await host.snapshot('projects');
        const gitDir = made.gitDirOf('projects');
        expect(gitIn(gitDir, ['rev-list', '--count', `${before.head}..${after.head}`])).toBe(String(callers.length * perCaller));
        const paths = new Set(after.files.map((file) => file.path));
        for (const login of callers) for (let i = 0; i < perCaller; i++) expect(paths.has(`concurrent/${login}-${i}.md`)).toBe(true);
      });
    });

    describe('blob sizes', () => {
      let made: ContractHost;
      let host: ContractHost['host'];
      beforeAll(async () => {
        made = await makeHost(contractRepos());
        host = made.host;
      });
      afterAll(async () => {
        await host.close();
        await made.cleanup();
      });

      it('gives the size in bytes of each blob asked, once per id', async () => {
        const snapshot = await host.snapshot('projects');
        const oidOf = (path: string) => snapshot.files.find((file) => file.path === path)!.oid;
        const plan = oidOf('active/plan.md');
        const binary = oidOf('binary.bin');
        const awkward = oidOf(awkwardNames[0]);
        const sizes = await host.blobSizes('projects', [plan, binary, plan, awkward]);
        expect(sizes).toEqual(
          new Map([
            [plan, Buffer.byteLength('# Plan\n\nFirst.\n')],
            [binary, 7],
            [awkward, Buffer.byteLength(`# ${awkwardNames[0]}\n`)],
          ]),
        );
        const all = await host.blobSizes(
          'projects',
          snapshot.files.map((file) => file.oid),
        );
        expect(all.size).toBe(new Set(snapshot.files.map((file) => file.oid)).size);
      });

      it('leaves out ids the repository does not hold and ids of other objects', async () => {
        const snapshot = await host.snapshot('projects');
        const missing = '0123456789012345678901234567890123456789';
        const sizes = await host.blobSizes('projects', [missing, snapshot.head!, snapshot.files[0]!.oid]);
        expect([...sizes.keys()]).toEqual([snapshot.files[0]!.oid]);
        expect(await host.blobSizes('projects', [])).toEqual(new Map());
        expect(await host.blobSizes('handbook', [snapshot.files[0]!.oid])).toEqual(new Map());
      });

      it('refuses a repository the installation does not have', async () => {
        await expect(host.blobSizes('no-such-repo', ['0123456789012345678901234567890123456789'])).rejects.toSatisfy((error) =>
          isVaultError(error, 'repo_not_found'),
        );
      });
    });

    describe('history', () => {
      let made: ContractHost;
      let host: ContractHost['host'];
      beforeAll(async () => {
        made = await makeHost(historyRepos());
        host = made.host;
      });
      afterAll(async () => {
        await host.close();
        await made.cleanup();
      });

      it("follows a rename in a note's log, newest first", async () => {
        const history = await host.history('journal');
        const log = await history.noteCommits('archive/plan.md');
        expect(log.complete).toBe(true);
        expect(log.commits.map((c) => [c.subject, c.author, c.path, c.previousPath, c.status])).toEqual([
          ['Close the plan', bob.name, 'archive/plan.md', 'archive/plan.md', 'M'],
          ['Move the plan', alice.name, 'archive/plan.md', 'notes/plan.md', 'R'],
          ['Add the rocket', bob.name, 'notes/plan.md', 'notes/plan.md', 'M'],
          ['Start', alice.name, 'notes/plan.md', null, 'A'],
        ]);
        expect(log.commits.map((c) => c.time)).toEqual(['13', '12', '11', '10'].map((day) => historyTime(day)));
        expect(log.commits[0]?.added).toBe(1);
        const recent = await history.noteCommits('archive/plan.md', { since: historyTime('12') });
        expect(recent.commits.map((c) => c.subject)).toEqual(['Close the plan', 'Move the plan']);
        expect((await history.noteCommits('archive/plan.md', { maxCount: 1 })).complete).toBe(false);
        expect(await history.hasFileHistory('notes/plan.md')).toBe(true);
        expect(await history.hasFileHistory('nothing.md')).toBe(false);
        expect((await history.noteCommits('nothing.md')).commits).toEqual([]);
      });

      it("gives a note's text at a commit, by its blob", async () => {
        const history = await host.history('journal');
        const log = await history.noteCommits('archive/plan.md');
        const texts = await Promise.all(
          log.commits.map(async (c) => (c.blob === null ? null : (await history.readBlob(c.blob)).toString('utf8'))),
        );
        expect(texts).toEqual([planText(3), planText(2), planText(2), planText(1)]);
        const first = log.commits[3]?.commit ?? '';
        expect(await history.resolveCommit(first.slice(0, 12))).toBe(first);
        expect(await history.resolveCommit(first)).toBe(first);
        expect(await history.resolveCommit('0000000')).toBeNull();
        expect(await history.resolveCommit('--all')).toBeNull();
        expect(await history.emptyTree()).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
      });

      it('finds commits by text (pickaxe, case ignored), author, time and path', async () => {
        const history = await host.history('journal');
        const subjects = async (search: Partial<CommitSearch>, describeAhead = false) => {
          const result = await history.searchCommits(
            { roots: [''], openRoots: [''], skip: 0, maxCount: 10, filesPerCommit: 20, ...search },
            { describeAhead },
          );
          const found = await result.describe(result.matches);
          expect(found.map((c) => c.commit)).toEqual(result.matches.map((c) => c.commit));
          return found;
        };
        for (const ahead of [false, true]) {
          const rocket = await subjects({ text: 'ACME rocket' }, ahead);
          expect(rocket.map((c) => [c.subject, c.author, c.files, c.filesTotal])).toEqual([
            ['Add the rocket', bob.name, [{ path: 'notes/plan.md', added: 1, removed: 1, text: 'added' }], 1],
          ]);
        }
        expect((await subjects({ text: 'no such words' })).map((c) => c.subject)).toEqual([]);
        expect((await subjects({ author: 'BOB' })).map((c) => c.subject)).toEqual(['Close the plan', 'Add the rocket']);
        expect((await subjects({ since: historyTime('11'), until: historyTime('12') })).map((c) => c.subject)).toEqual([
          'Move the plan',
          'Add the rocket',
        ]);
        const archived = await subjects({ roots: ['archive'] });
        expect(archived.map((c) => [c.subject, c.files.map((f) => f.path)])).toEqual([
          ['Close the plan', ['archive/plan.md']],
          ['Move the plan', ['archive/plan.md']],
        ]);
        const paged = await history.searchCommits({ roots: [''], openRoots: [''], skip: 1, maxCount: 2, filesPerCommit: 20 });
        expect((await paged.describe(paged.matches)).map((c) => c.subject)).toEqual(['Move the plan', 'Add the rocket']);
      });

      it('blames lines, following the rename, for the whole note or a range', async () => {
        const history = await host.history('journal');
        const content = (await host.readFile('journal', 'archive/plan.md')) as Buffer;
        const runs = (blame: NoteBlame | null) => blame?.runs.map((run) => [run.from_line, run.to_line, run.subject, run.path]);
        const whole = await history.blame('archive/plan.md', content);
        expect(whole?.totalLines).toBe(8);
        expect(runs(whole)).toEqual([
          [1, 4, 'Start', 'notes/plan.md'],
          [5, 5, 'Add the rocket', 'notes/plan.md'],
          [6, 7, 'Start', 'notes/plan.md'],
          [8, 8, 'Close the plan', 'archive/plan.md'],
        ]);
        expect(whole?.runs[1]?.content).toBe('The Acme rocket launches in May.');
        expect(runs(await history.blame('archive/plan.md', content, 5, 6))).toEqual([
          [5, 5, 'Add the rocket', 'notes/plan.md'],
          [6, 6, 'Start', 'notes/plan.md'],
        ]);
        const early = history.startWholeBlame('archive/plan.md');
        expect(runs(await history.blame('archive/plan.md', content, undefined, undefined, early))).toEqual(runs(whole));
        // Fed ahead, the early blame is taken; fed other text, blame runs its own on the content given.
        const fedAhead = history.startWholeBlame('archive/plan.md');
        fedAhead.feed(Buffer.from(content));
        expect(runs(await history.blame('archive/plan.md', content, undefined, undefined, fedAhead))).toEqual(runs(whole));
        const fedOther = history.startWholeBlame('archive/plan.md');
        fedOther.feed(Buffer.from('Something else entirely.\n'));
        expect(runs(await history.blame('archive/plan.md', content, undefined, undefined, fedOther))).toEqual(runs(whole));
        expect(await history.blame('archive/plan.md', Buffer.from([0, 1, 2]))).toBeNull();
      });

      it('diffs a note since a moment, from its name then', async () => {
        const history = await host.history('journal');
        const { commits } = await history.noteCommits('archive/plan.md');
        const now = await host.readFile('journal', 'archive/plan.md');
        const sinceMove = await history.noteDiffSince('archive/plan.md', historyTime('13'), commits, now);
        expect(sinceMove).toMatchObject({
          base: commits[1]?.commit,
          basePath: 'archive/plan.md',
          existedAtBase: true,
          hiddenAtBase: false,
          existsNow: true,
          binary: false,
        });
        expect(sinceMove.diff).toContain('--- a/archive/plan.md\n+++ b/archive/plan.md\n');
        expect(sinceMove.diff).toContain('\n+Done.\n');
        const sinceRocket = await history.noteDiffSince('archive/plan.md', historyTime('12'), commits, now);
        expect(sinceRocket).toMatchObject({ base: commits[2]?.commit, basePath: 'notes/plan.md', existedAtBase: true });
        expect(sinceRocket.diff).toContain('--- a/notes/plan.md\n+++ b/archive/plan.md\n');
        const hidden = await history.noteDiffSince(
          'archive/plan.md',
          historyTime('12'),
          commits,
          now,
          (path) => !path.startsWith('notes/'),
        );
        expect(hidden).toMatchObject({ basePath: 'archive/plan.md', existedAtBase: false, hiddenAtBase: true });
        const before = await history.noteDiffSince('archive/plan.md', historyTime('01'), commits, now);
        expect(before).toMatchObject({ base: null, existedAtBase: false });
        expect(before.diff).toContain('--- /dev/null\n');
      });

      it('answers an empty repository with no history, and refuses an unknown one', async () => {
        const history = await host.history('empty');
        expect(await history.noteCommits('a.md')).toEqual({ commits: [], complete: true });
        expect(await history.hasFileHistory('a.md')).toBe(false);
        const search = await history.searchCommits({ text: 'a', roots: [''], openRoots: [''], skip: 0, maxCount: 10, filesPerCommit: 20 });
        expect(search.matches).toEqual([]);
        expect(await search.describe([])).toEqual([]);
        await expect(host.history('nope')).rejects.toSatisfy((error) => isVaultError(error, 'repo_not_found'));
      });
    });

    describe('committing with the caller’s credential', () => {
      let made: ContractHost;
      beforeAll(async () => {
        made = await makeHost(contractRepos());
      });
      afterAll(async () => {
        await made.host.close();
        await made.cleanup();
      });

      it('lands a change that carries the caller’s credential, authored by the change’s author', async () => {
        const { host } = made;
        const head = (await host.listRepos()).find((repo) => repo.name === 'handbook')!.head;
        const result = await host.commit('handbook', {
          parent: head,
          files: [{ path: 'onboarding/second-week.md', content: Buffer.from('# Second week\n') }],
          author: ada,
          message: 'Add the second week',
          credential: made.credential ?? 'contract-caller-credential',
        });
        if (!result.ok) throw new Error(`the commit was refused: ${result.conflict}`);
        const gitDir = made.gitDirOf('handbook');
        expect(gitIn(gitDir, ['log', '-1', '--format=%an <%ae>%n%s', result.commit])).toBe(
          `${ada.name} <${ada.email}>\nAdd the second week`,
        );
        expect((await host.readFile('handbook', 'onboarding/second-week.md'))?.toString('utf8')).toBe('# Second week\n');
      });
    });

    describe('reads for writes and tools', () => {
      let made: ContractHost;
      let host: ContractHost['host'];
      beforeAll(async () => {
        made = await makeHost(contractRepos());
        host = made.host;
      });
      afterAll(async () => {
        await host.close();
        await made.cleanup();
      });

      /** Commits `files` (content strings) on top of the current head of `repo`; the new commit. */
      async function commitFiles(repo: string, message: string, files: Record<string, string>): Promise<string> {
        const parent = await host.head(repo);
        const result = await host.commit(repo, {
          parent,
          author: ada,
          message,
          files: Object.entries(files).map(([path, content]) => ({ path, content: Buffer.from(content) })),
        });
        if (!result.ok) throw new Error(`commit refused: ${result.conflict}`);
        return result.commit;
      }

      it('gives the head as listRepos and snapshot do, null for an empty repository, and the new head after a commit', async () => {
        const listed = await host.listRepos();
        expect(await host.head('projects')).toBe(listed.find((repo) => repo.name === 'projects')!.head);
        expect(await host.head('projects')).toBe((await host.snapshot('projects')).head);
        expect(await host.head('empty')).toBeNull();
        const commit = await commitFiles('handbook', 'Head moves', { 'head/moves.md': 'x\n' });
        expect(await host.head('handbook')).toBe(commit);
        await expect(host.head('nope')).rejects.toSatisfy((e: unknown) => isVaultError(e, 'repo_not_found'));
      });

      it('reads current files with their blob ids, every path a key, absent ones null', async () => {
        const head = await host.head('projects');
        const files = await host.currentFiles('projects', head, ['README.md', 'binary.bin', awkwardNames[5], 'missing.md']);
        expect([...files.keys()]).toEqual(['README.md', 'binary.bin', awkwardNames[5], 'missing.md']);
        expect(files.get('README.md')).toEqual({ oid: blobId(Buffer.from('# Projects\n')), content: Buffer.from('# Projects\n') });
        expect(files.get('binary.bin')?.content).toEqual(Buffer.from([0, 1, 2, 255, 0, 10, 13]));
        expect(files.get(awkwardNames[5])?.content.toString()).toBe(`# ${awkwardNames[5]}\n`);
        expect(files.get('missing.md')).toBeNull();
        expect((await host.currentFiles('empty', null, ['a.md'])).get('a.md')).toBeNull();
      });

      it('reads files at a given commit, leaving absent paths out', async () => {
        const before = (await host.head('handbook'))!;
        const after = await commitFiles('handbook', 'Change first week', { 'onboarding/first-week.md': '# First week\n\nNew.\n' });
        const old = await host.filesAt('handbook', before, ['onboarding/first-week.md', 'onboarding', 'missing.md']);
        expect([...old.keys()]).toEqual(['onboarding/first-week.md']);
        expect(old.get('onboarding/first-week.md')!.content.toString()).toBe('# First week\n');
        expect(old.get('onboarding/first-week.md')!.oid).toBe(blobId(Buffer.from('# First week\n')));
        expect(
          (await host.filesAt('handbook', after, ['onboarding/first-week.md'])).get('onboarding/first-week.md')!.content.toString(),
        ).toBe('# First week\n\nNew.\n');
        expect((await host.filesAt('empty', null, ['a.md'])).size).toBe(0);
      });

      it('answers its lookup choices as booleans, and folds no case on a case-sensitive checkout', async () => {
        expect(typeof (await host.keepsUncommittedChanges('projects'))).toBe('boolean');
        expect(typeof (await host.pathReadsAreCheap('projects'))).toBe('boolean');
        expect(await host.foldsCase('projects')).toBe(false);
      });

      it('lists the entries directly in a folder, sorted, and none for a missing folder or a file', async () => {
        const head = await host.head('projects');
        const root = await host.folderEntries('projects', head, '');
        expect(root.filter((entry) => ['README.md', 'active', 'binary.bin', 'many'].includes(entry.path))).toEqual([
          { path: 'README.md', kind: 'file' },
          { path: 'active', kind: 'folder' },
          { path: 'binary.bin', kind: 'file' },
          { path: 'many', kind: 'folder' },
        ]);
        expect(root.map((entry) => entry.path)).toEqual([...root.map((entry) => entry.path)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
        expect(root.some((entry) => entry.path === '.git')).toBe(false);
        expect(await host.folderEntries('projects', head, 'active')).toEqual([{ path: 'active/plan.md', kind: 'file' }]);
        expect(await host.folderEntries('projects', head, 'Café ☕')).toEqual([{ path: 'Café ☕/Crème brûlée.md', kind: 'file' }]);
        expect(await host.folderEntries('projects', head, 'nowhere')).toEqual([]);
        expect(await host.folderEntries('projects', head, 'README.md')).toEqual([]);
        expect(await host.folderEntries('empty', null, '')).toEqual([]);
      });

      it('finds no symbolic link on paths that have none', async () => {
        const head = await host.head('projects');
        expect((await host.linksOnPaths('projects', head, ['active/plan.md', 'active/new.md', 'nowhere/x.md'])).size).toBe(0);
        expect((await host.linksOnPaths('empty', null, ['a.md'])).size).toBe(0);
      });

      it('names the last commit that changed a file or a folder, and null for a path never committed', async () => {
        const first = await commitFiles('handbook', 'Last commit one', { 'last/a.md': 'a\n', 'last/b.md': 'b\n' });
        const second = await commitFiles('handbook', 'Last commit two', { 'last/b.md': 'b2\n' });
        expect(await host.lastCommit('handbook', second, 'last/a.md')).toBe(first);
        expect(await host.lastCommit('handbook', second, 'last/b.md')).toBe(second);
        expect(await host.lastCommit('handbook', second, 'last')).toBe(second);
        expect(await host.lastCommit('handbook', first, 'last/b.md')).toBe(first);
        expect(await host.lastCommit('handbook', second, 'last/never.md')).toBeNull();
      });

      it('describes what landed between two heads, and the commits that touched one path', async () => {
        const from = (await host.head('handbook'))!;
        const one = await commitFiles('handbook', 'Conflict one', { 'conflict/a.md': 'a\n' });
        const two = await commitFiles('handbook', 'Conflict two', { 'conflict/b.md': 'b\n' });
        const described = await host.describeConflict('handbook', from, two, ['conflict/a.md', 'conflict/c.md']);
        expect(described.commits.map((line) => [line.author, line.subject])).toEqual([
          [ada.name, 'Conflict two'],
          [ada.name, 'Conflict one'],
        ]);
        expect(two.startsWith(described.commits[0]!.shortId)).toBe(true);
        expect(one.startsWith(described.commits[1]!.shortId)).toBe(true);
        expect(described.changed).toEqual(['conflict/a.md']);
        const touching = await host.commitsTouching('handbook', from, two, 'conflict/a.md');
        expect(touching.map((line) => line.subject)).toEqual(['Conflict one']);
        expect((await host.commitsTouching('handbook', null, two, 'conflict/b.md')).map((line) => line.subject)).toEqual(['Conflict two']);
        expect(await host.commitsTouching('handbook', two, two, 'conflict/a.md')).toEqual([]);
      });

      it('gives each committed file its first and last commit dates, and every blob its size', async () => {
        const head = (await host.head('projects'))!;
        const times = await host.fileTimes('projects', head);
        const readme = times.get('README.md')!;
        expect(readme.ctime).toBeInstanceOf(Date);
        expect(readme.ctime.getTime()).toBe(readme.mtime.getTime());
        expect(times.has('many/note-0001.md')).toBe(true);
        const first = await commitFiles('handbook', 'Times one', { 'times/t.md': '1\n' });
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const second = await commitFiles('handbook', 'Times two', { 'times/t.md': '2\n' });
        const t = (await host.fileTimes('handbook', second)).get('times/t.md')!;
        expect(t.mtime.getTime()).toBeGreaterThan(t.ctime.getTime());
        expect((await host.fileTimes('handbook', first)).get('times/t.md')!.mtime.getTime()).toBe(t.ctime.getTime());
        const sizes = await host.fileSizes('projects', head);
        expect(sizes.get('README.md')).toBe('# Projects\n'.length);
        expect(sizes.get('binary.bin')).toBe(7);
        expect(sizes.get('many/note-0010.md')).toBe(Buffer.byteLength(`# Note 10\n\n${'x'.repeat(10)}\n`));
      });
    });
  });
}

/** The note of the history repository in its `version` (1: first, 2: with the rocket, 3: closed), eight lines at the end. */
function planText(version: 1 | 2 | 3): string {
  const lines = [
    '# Plan',
    '',
    'Goals for the quarter.',
    '',
    version === 1 ? 'Launch something.' : 'The Acme rocket launches in May.',
    '',
    'Owner: Alice.',
  ];
  return `${[...lines, ...(version === 3 ? ['Done.'] : [])].join('\n')}\n`;
}

/** Epoch seconds of noon on day `day` (two digits) of January 2026, UTC: when the history repository's commits were made. */
function historyTime(day: string): number {
  return Date.parse(`2026-01-${day}T12:00:00Z`) / 1000;
}

/**
 * The repositories the history contract reads: `journal`, whose note was written, edited,
 * moved (Git sees a rename) and edited again on four days, and `empty`.
 */
export function historyRepos(): ContractRepo[] {
  const at = (day: string) => `2026-01-${day}T12:00:00+00:00`;
  return [
    {
      name: 'journal',
      commits: [
        { message: 'Start', author: alice, date: at('10'), files: { 'notes/plan.md': planText(1), 'other.md': '# Other\n' } },
        { message: 'Add the rocket', author: bob, date: at('11'), files: { 'notes/plan.md': planText(2) } },
        { message: 'Move the plan', author: alice, date: at('12'), files: { 'notes/plan.md': null, 'archive/plan.md': planText(2) } },
        { message: 'Close the plan', author: bob, date: at('13'), files: { 'archive/plan.md': planText(3) } },
      ],
    },
    { name: 'empty', commits: [] },
  ];
}
