// The GitHub App adapter against the GitHub stand-in: the RepoHost contract, sign-in, and GitHub's failures.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { startGitHubStandin } from '../../github-standin/standin.ts';
import type { GitHubStandin, StandinPerson } from '../../github-standin/standin-api.ts';
import { isVaultError } from '../../vault-error.ts';
import { bindToCaller } from '../caller-repo-host.ts';
import type { Person } from '../person.ts';
import type { Change } from '../repo-host.ts';
import { describeRepoHostContract, type ContractHost, type ContractRepo } from '../repo-host.contract.ts';
import { createGitHubApp, type GitHubApp } from './github-app.ts';
import { GitHubUnavailable } from './github-failure.ts';
import { tokenHash } from './github-sign-in.ts';

const OWNER = 'acme';

/** The contract's callers (see ContractTraits), and two more for sign-in. */
const people: StandinPerson[] = [
  { login: 'ada', name: 'Ada Lovelace', email: 'ada@acme.example', password: 'pw-ada' },
  ...['bob', 'chloe', 'dan'].map((login) => ({ login, name: login, email: `${login}@acme.example`, password: `pw-${login}` })),
  { login: 'reader', name: null, email: null, password: 'pw-reader' },
  { login: 'outsider', name: 'Out Sider', email: 'out@elsewhere.example', password: 'pw-outsider' },
];

/** A running stand-in with `repos` in the organisation `acme`, the App installed on all of it, and the adapter over it. */
interface World {
  standin: GitHubStandin;
  app: GitHubApp;
  installationId: number;
  tokens: Map<string, string>;
  dir: ReturnType<typeof tempDir>;
  close(): Promise<void>;
}

async function makeWorld(
  repos: ContractRepo[],
  permission: (login: string, repo: string) => 'pull' | 'push' | null = () => 'push',
): Promise<World> {
  const dir = tempDir('mv-github-host-');
  const standin = await startGitHubStandin({
    dataDir: join(dir.path, 'standin'),
    app: { id: 4242, slug: 'major-vault', clientId: 'Iv1.contract', clientSecret: 'client-secret', webhookSecret: 'webhook-secret' },
    people,
  });
  for (const repo of repos) {
    await standin.createRepo(OWNER, repo.name, []);
    if (repo.commits.length > 0) {
      // Binary files and chosen dates: made by git, pushed straight into the stand-in's bare repository.
      const work = join(dir.path, 'work', repo.name);
      makeRepo(work, repo.commits);
      git(work, ['push', '-q', '--force', standin.gitDir(OWNER, repo.name), 'main:main']);
    }
  }
  const installationId = await standin.install(
    OWNER,
    repos.map((repo) => repo.name),
  );
  for (const person of people)
    for (const repo of repos) {
      const granted = permission(person.login, repo.name);
      if (person.login !== 'outsider' && granted !== null) standin.grant(OWNER, repo.name, person.login, granted);
    }
  const tokens = new Map<string, string>();
  for (const person of people) tokens.set(person.login, (await standin.userToken(person.login)).accessToken);
  const app = createGitHubApp({
    appId: standin.app.id,
    privateKey: standin.app.privateKey,
    clientId: standin.app.clientId,
    clientSecret: standin.app.clientSecret,
    webhookSecret: standin.app.webhookSecret,
    apiUrl: standin.apiUrl,
    webUrl: standin.origin,
    owner: OWNER,
    dataDir: join(dir.path, 'data'),
    requestTimeoutMs: 3_000,
  });
  await app.host.start();
  return {
    standin,
    app,
    installationId,
    tokens,
    dir,
    close: async () => {
      await app.host.close();
      await standin.close();
      dir.cleanup();
    },
  };
}

/** The adapter as the contract drives it: a change without a credential carries that of the person its author's login names. */
function creditingAuthors(world: World): ContractHost['host'] {
  const host = world.app.host;
  return new Proxy(host, {
    get(target, key) {
      if (key === 'commit')
        return (repo: string, change: Change, ...rest: [ReadonlyMap<string, string | null>?]) =>
          target.commit(repo, { ...change, credential: change.credential ?? world.tokens.get(change.author.login) ?? null }, ...rest);
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describeRepoHostContract(
  'GitHub App over the stand-in',
  async (repos) => {
    const world = await makeWorld(repos);
    return {
      host: creditingAuthors(world),
      credential: world.tokens.get('ada'),
      gitDirOf: (repo) => world.standin.gitDir(OWNER, repo),
      cleanup: () => world.close(),
    };
  },
  { author: 'credential', committer: 'GitHub <noreply@github.com>' },
);

const ada: Person = { login: 'ada', name: 'Ada Lovelace', email: 'ada@acme.example' };

describe('GitHub sign-in', () => {
  let world: World;
  beforeAll(async () => {
    world = await makeWorld(
      [
        { name: 'notes', commits: [{ message: 'Start', files: { 'a.md': '# A\n' } }] },
        { name: 'secret', commits: [{ message: 'Start', files: { 's.md': '# S\n' } }] },
      ],
      (login, repo) =>
        login === 'ada' ? 'push' : login === 'reader' && repo === 'notes' ? 'pull' : login === 'bob' && repo === 'notes' ? 'push' : null,
    );
  }, 60_000);
  afterAll(() => world?.close());

  it('answers each person with their own rights, and a repository they cannot read appears nowhere', async () => {
    const signIn = world.app.signIn;
    expect(signIn.requiresToken).toBe(true);
    const adaAccess = await signIn.authenticate(world.tokens.get('ada'));
    expect(adaAccess?.person).toEqual(ada);
    expect([...adaAccess!.read].sort()).toEqual(['notes', 'secret']);
    expect([...adaAccess!.write].sort()).toEqual(['notes', 'secret']);
    expect(adaAccess!.credential).toBe(world.tokens.get('ada'));
    const reader = await signIn.authenticate(world.tokens.get('reader'));
    expect([...reader!.read]).toEqual(['notes']);
    expect(reader!.write.size).toBe(0);
    // No profile name or public e-mail: the login, and GitHub's noreply address.
    expect(reader!.person.name).toBe('reader');
    expect(reader!.person.email).toMatch(/^\d+\+reader@users\.noreply\.github\.com$/);
    const bob = await signIn.authenticate(world.tokens.get('bob'));
    expect([...bob!.read]).toEqual(['notes']);
    expect([...bob!.write]).toEqual(['notes']);
    const outsider = await signIn.authenticate(world.tokens.get('outsider'));
    expect(outsider?.read.size).toBe(0);
  });

  it('refuses a missing, empty or unknown token', async () => {
    const signIn = world.app.signIn;
    expect(await signIn.authenticate(undefined)).toBeNull();
    expect(await signIn.authenticate('')).toBeNull();
    expect(await signIn.authenticate('ghu_not-a-token-the-stand-in-gave')).toBeNull();
  });

  it('keeps answers by the hash of the token, and a revoked token is unauthenticated at once once forgotten', async () => {
    const signIn = world.app.signIn;
    const token = world.tokens.get('chloe')!;
    world.standin.grant(OWNER, 'notes', 'chloe', 'pull');
    expect([...(await signIn.authenticate(token))!.read]).toEqual(['notes']);
    // Kept: a change of rights shows after the answer is forgotten (15 minutes, or a webhook).
    world.standin.grant(OWNER, 'notes', 'chloe', null);
    expect([...(await signIn.authenticate(token))!.read]).toEqual(['notes']);
    const kept = (signIn as unknown as { kept: { keys(): IterableIterator<string> } }).kept;
    expect([...kept.keys()]).toContain(tokenHash(token));
    expect([...kept.keys()].some((key) => key.includes(token))).toBe(false);
    signIn.forgetAccess({ login: 'CHLOE' });
    expect((await signIn.authenticate(token))!.read.size).toBe(0);
    await world.standin.revokeAuthorization('chloe');
    signIn.forgetAccess({ tokenHash: tokenHash(token) });
    expect(await signIn.authenticate(token)).toBeNull();
  });

  it("keeps no answer past the token's expiry, which GitHub names on every answer to it", async () => {
    const signIn = world.app.signIn;
    const { accessToken } = await world.standin.userToken('bob');
    world.standin.expireToken(accessToken, Date.now() + 2_000);
    expect([...(await signIn.authenticate(accessToken))!.read]).toEqual(['notes']);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await signIn.authenticate(accessToken)).toBeNull();
  });

  it('fails clearly, not as "no access", when GitHub answers 5xx or not at all', async () => {
    const signIn = world.app.signIn;
    signIn.forgetAccess('all');
    world.standin.failNext({ method: 'GET', path: /^\/user$/ }, 502);
    await expect(signIn.authenticate(world.tokens.get('ada'))).rejects.toBeInstanceOf(GitHubUnavailable);
    world.standin.failNext({ method: 'GET', path: /^\/user\/installations\// }, 'timeout');
    await expect(signIn.authenticate(world.tokens.get('ada'))).rejects.toThrow(/did not answer in time/);
    expect((await signIn.authenticate(world.tokens.get('ada')))?.read.size).toBe(2);
  }, 15_000);

  it('drops a repository removed from the installation once the kept answers are forgotten (the webhook does it)', async () => {
    const signIn = world.app.signIn;
    signIn.forgetAccess('all');
    expect([...(await signIn.authenticate(world.tokens.get('ada')))!.read].sort()).toEqual(['notes', 'secret']);
    await world.standin.setInstallationRepos(world.installationId, [], ['secret']);
    signIn.forgetAccess('all');
    expect([...(await signIn.authenticate(world.tokens.get('ada')))!.read]).toEqual(['notes']);
    await world.standin.setInstallationRepos(world.installationId, ['secret'], []);
  });
});

describe('GitHub App adapter, beyond the contract', () => {
  let world: World;
  beforeAll(async () => {
    world = await makeWorld([
      { name: 'notes', commits: [{ message: 'Start', files: { 'a.md': '# A\n' } }] },
      { name: 'later', commits: [{ message: 'Start', files: { 'l.md': '# L\n' } }] },
    ]);
  }, 60_000);
  afterAll(() => world?.close());

  it('keeps starting, refreshing and sign-in out of a caller’s reach', () => {
    const bound = bindToCaller(world.app.host, world.tokens.get('ada')!);
    for (const member of ['start', 'refresh', 'reloadRepos', 'close', 'forgetAccess', 'authenticate']) {
      expect((bound as unknown as Record<string, unknown>)[member], member).toBeUndefined();
      expect(member in bound, member).toBe(false);
    }
    expect(typeof bound.snapshot).toBe('function');
  });

  it('refuses a commit without the person’s credential, and writes nothing', async () => {
    const head = await world.app.host.head('notes');
    await expect(
      world.app.host.commit('notes', { parent: head, author: ada, message: 'x', files: [{ path: 'x.md', content: Buffer.from('x') }] }),
    ).rejects.toSatisfy((error) => isVaultError(error, 'unauthorized'));
    expect(await world.app.host.head('notes')).toBe(head);
  });

  it('refuses a person who may only read, as forbidden, and writes nothing', async () => {
    world.standin.grant(OWNER, 'notes', 'reader', 'pull');
    const head = await world.app.host.head('notes');
    await expect(
      world.app.host.commit('notes', {
        parent: head,
        author: ada,
        message: 'x',
        files: [{ path: 'x.md', content: Buffer.from('x') }],
        credential: world.tokens.get('reader'),
      }),
    ).rejects.toSatisfy((error) => isVaultError(error, 'forbidden'));
    expect(await world.app.host.head('notes')).toBe(head);
  });

  it('sees a push from outside after refresh, and head() fetches a mirror that is behind', async () => {
    const host = world.app.host;
    const pushed = await world.standin.push(OWNER, 'notes', {
      message: 'From outside',
      author: 'bob',
      files: { 'outside.md': '# Outside\n' },
    });
    // The mirror has not fetched yet; head() asks GitHub and brings the mirror along.
    expect(await host.head('notes')).toBe(pushed);
    expect((await host.snapshot('notes')).head).toBe(pushed);
    const again = await world.standin.push(OWNER, 'notes', { message: 'Again', author: 'bob', files: { 'again.md': '# Again\n' } });
    await host.refresh('notes');
    expect((await host.readFile('notes', 'again.md'))?.toString()).toBe('# Again\n');
    expect((await host.snapshot('notes')).head).toBe(again);
  });

  it('follows a forced push that rewrites history', async () => {
    const host = world.app.host;
    const before = (await host.history('notes')).noteCommits('a.md');
    expect((await before).commits.length).toBe(1);
    const start = git(world.dir.path, [`--git-dir=${world.standin.gitDir(OWNER, 'notes')}`, 'rev-list', '--max-parents=0', 'main']);
    const forced = await world.standin.forcePush(OWNER, 'notes', start, [
      { message: 'Rewritten', author: 'ada', files: { 'r.md': '# R\n' } },
    ]);
    await host.refresh('notes');
    expect((await host.snapshot('notes')).head).toBe(forced);
    expect(await host.readFile('notes', 'outside.md')).toBeNull();
    expect((await host.readFile('notes', 'r.md'))?.toString()).toBe('# R\n');
  });

  it('answers a compare-and-swap that fails upstream with head_moved, naming a head the mirror holds', async () => {
    const host = world.app.host;
    const head = await host.head('notes');
    const pushed = await world.standin.push(OWNER, 'notes', { message: 'Racing', author: 'bob', files: { 'race.md': '# Race\n' } });
    const result = await host.commit('notes', {
      parent: head,
      author: ada,
      message: 'Late',
      files: [{ path: 'late.md', content: Buffer.from('late\n') }],
      credential: world.tokens.get('ada'),
    });
    expect(result).toEqual({ ok: false, conflict: 'head_moved', head: pushed });
    expect((await host.describeConflict('notes', head!, pushed, ['race.md'])).changed).toEqual(['race.md']);
  });

  it('turns GitHub failing a commit (401, 5xx, a timeout) into a clear error, with nothing half-written', async () => {
    const host = world.app.host;
    const head = await host.head('notes');
    const change = (credential: string | undefined): Change => ({
      parent: head,
      author: ada,
      message: 'Failing',
      files: [{ path: 'failing.md', content: Buffer.from('f\n') }],
      credential,
    });
    await expect(host.commit('notes', change('ghu_revoked-or-made-up'))).rejects.toSatisfy((error) => isVaultError(error, 'unauthorized'));
    world.standin.failNext({ method: 'POST', path: /^\/api\/graphql$/ }, 502);
    await expect(host.commit('notes', change(world.tokens.get('ada')))).rejects.toBeInstanceOf(GitHubUnavailable);
    world.standin.failNext({ method: 'POST', path: /^\/api\/graphql$/ }, 'timeout');
    await expect(host.commit('notes', change(world.tokens.get('ada')))).rejects.toThrow(/did not answer in time/);
    expect(await host.head('notes')).toBe(head);
    expect(await host.readFile('notes', 'failing.md')).toBeNull();
  }, 20_000);

  it('makes the first commit of an empty repository, several files in one, authored by the person, and refuses those who may not', async () => {
    const host = world.app.host;
    await world.standin.createRepo(OWNER, 'fresh', []);
    await world.standin.setInstallationRepos(world.installationId, ['fresh'], []);
    await host.reloadRepos();
    world.standin.grant(OWNER, 'fresh', 'ada', 'push');
    world.standin.grant(OWNER, 'fresh', 'reader', 'pull');
    const change = (credential: string | undefined): Change => ({
      parent: null,
      author: ada,
      message: 'First notes\n\nTwo of them.',
      files: [
        { path: 'one.md', content: Buffer.from('# One\n') },
        { path: 'Café ☕/two.md', content: Buffer.from('# Two\n') },
      ],
      credential,
    });
    await expect(host.commit('fresh', change(world.tokens.get('reader')))).rejects.toSatisfy((error) => isVaultError(error, 'forbidden'));
    await expect(host.commit('fresh', change('ghu_made-up'))).rejects.toSatisfy((error) => isVaultError(error, 'unauthorized'));
    expect(await host.head('fresh')).toBeNull();
    const result = await host.commit('fresh', change(world.tokens.get('ada')));
    if (!result.ok) throw new Error('refused');
    const gitDir = world.standin.gitDir(OWNER, 'fresh');
    expect(git(world.dir.path, [`--git-dir=${gitDir}`, 'rev-parse', 'refs/heads/main'])).toBe(result.commit);
    expect(git(world.dir.path, [`--git-dir=${gitDir}`, 'log', '--format=%an <%ae>|%B', result.commit])).toBe(
      'Ada Lovelace <ada@acme.example>|First notes\n\nTwo of them.',
    );
    expect((await host.snapshot('fresh')).files.map((file) => file.path)).toEqual(['Café ☕/two.md', 'one.md']);
    // Too late: the branch exists now.
    expect(await host.commit('fresh', change(world.tokens.get('ada')))).toEqual({ ok: false, conflict: 'head_moved', head: result.commit });
  });

  it('never starts a new history when the default branch is gone from a repository that has commits', async () => {
    const host = world.app.host;
    await world.standin.createRepo(OWNER, 'renamed', [{ message: 'Start', author: 'ada', files: { 'a.md': '# A\n' } }]);
    await world.standin.setInstallationRepos(world.installationId, ['renamed'], []);
    await host.reloadRepos();
    world.standin.grant(OWNER, 'renamed', 'ada', 'push');
    // Renamed on GitHub (main -> trunk) while the installation's listing still says main.
    const gitDir = world.standin.gitDir(OWNER, 'renamed');
    const start = git(world.dir.path, [`--git-dir=${gitDir}`, 'rev-parse', 'refs/heads/main']);
    git(world.dir.path, [`--git-dir=${gitDir}`, 'branch', '-m', 'main', 'trunk']);
    await host.refresh('renamed');
    expect(await host.head('renamed')).toBeNull();
    const refusal = host.commit('renamed', {
      parent: null,
      author: ada,
      message: 'A new note',
      files: [{ path: 'b.md', content: Buffer.from('# B\n') }],
      credential: world.tokens.get('ada'),
    });
    await expect(refusal).rejects.toSatisfy((error) => isVaultError(error, 'conflict'));
    await expect(refusal).rejects.toThrow(/not on GitHub any more \(renamed or deleted\), so nothing was written/);
    expect(git(world.dir.path, [`--git-dir=${gitDir}`, 'for-each-ref', '--format=%(refname) %(objectname)'])).toBe(
      `refs/heads/trunk ${start}`,
    );
    await world.standin.setInstallationRepos(world.installationId, [], ['renamed']);
    await host.reloadRepos();
  });

  it('serves nothing while the installation is suspended, keeping the mirrors, and everything again once it is back', async () => {
    const host = world.app.host;
    const before = (await host.listRepos()).map((repo) => repo.name);
    await world.standin.setInstallationState(world.installationId, 'suspend');
    expect(await host.reloadRepos()).toEqual([]);
    await expect(host.snapshot('notes')).rejects.toSatisfy((error) => isVaultError(error, 'repo_not_found'));
    await world.standin.setInstallationState(world.installationId, 'unsuspend');
    expect((await host.reloadRepos()).map((repo) => repo.name)).toEqual(before);
    expect((await host.readFile('notes', 'a.md'))?.toString()).toBe('# A\n');
  });

  it('drops a repository removed from the installation, and serves one added, after a reload', async () => {
    const host = world.app.host;
    expect((await host.listRepos()).map((repo) => repo.name)).toEqual(['fresh', 'later', 'notes']);
    await world.standin.setInstallationRepos(world.installationId, [], ['later']);
    // Until reloaded (a webhook, or 15 minutes), the kept listing stands.
    expect((await host.listRepos()).map((repo) => repo.name)).toEqual(['fresh', 'later', 'notes']);
    expect((await host.reloadRepos()).map((repo) => repo.name)).toEqual(['fresh', 'notes']);
    await expect(host.snapshot('later')).rejects.toSatisfy((error) => isVaultError(error, 'repo_not_found'));
    await expect(host.refresh('nope')).rejects.toSatisfy((error) => isVaultError(error, 'repo_not_found'));
    await world.standin.setInstallationRepos(world.installationId, ['later'], []);
    await host.refresh('later');
    expect((await host.readFile('later', 'l.md'))?.toString()).toBe('# L\n');
  });
});
