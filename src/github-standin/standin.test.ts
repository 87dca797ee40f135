// The stand-in driven as the product drives GitHub: Octokit's own clients and `git`; every answer checked against GitHub's descriptions.
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFaithful, checkOctokitAnswers, validateWebhookPayload } from './fidelity.ts';
import type { GitHubStandin } from './standin-api.ts';
import { FIXTURE_APP, runGitCommand, startStandinFixture, type StandinFixture } from './standin-fixture.ts';

const git = runGitCommand;
const app = FIXTURE_APP;

describe('GitHub stand-in', () => {
  let fixture: StandinFixture;
  let standin: GitHubStandin;
  let receiver: StandinFixture['receiver'];
  let dir: { path: string };
  let installationId: number;
  const asApp = () => fixture.asApp();
  const asInstallation = () => fixture.asInstallation(installationId);
  const asUser = (token: string) => fixture.asUser(token);

  beforeAll(async () => {
    fixture = await startStandinFixture();
    standin = fixture.standin;
    receiver = fixture.receiver;
    dir = { path: fixture.dataDir };
    await standin.createRepo('acme', 'notes', [
      { message: 'Start the notes', author: 'alice', files: { 'README.md': '# Notes\n', 'docs/a.md': 'A\n' } },
      { message: 'Add b', author: 'bob', files: { 'docs/b.md': 'B\n' } },
    ]);
    await standin.createRepo('acme', 'secret', [{ message: 'Secret start', author: 'alice', files: { 'x.md': 'x\n' } }]);
    await standin.createRepo('acme', 'elsewhere', [{ message: 'Not installed', author: 'alice', files: { 'y.md': 'y\n' } }]);
    installationId = await standin.install('acme', ['notes', 'secret']);
    standin.grant('acme', 'notes', 'alice', 'push');
    standin.grant('acme', 'notes', 'bob', 'pull');
    standin.grant('acme', 'secret', 'alice', 'admin');
  });

  afterAll(async () => {
    await fixture?.close();
    expect(fixture.fidelityFailures()).toEqual([]);
  });

  it('answers the App with its JWT and gives installation tokens', async () => {
    const octokit = asApp();
    const { data: me } = await octokit.rest.apps.getAuthenticated();
    expect(me?.id).toBe(app.id);
    const { data: installations } = await octokit.rest.apps.listInstallations();
    expect(installations.map((entry) => entry.id)).toEqual([installationId]);
    const { data: found } = await octokit.rest.apps.getOrgInstallation({ org: 'acme' });
    expect(found.id).toBe(installationId);
    const { data: byRepo } = await octokit.rest.apps.getRepoInstallation({ owner: 'acme', repo: 'notes' });
    expect(byRepo.id).toBe(installationId);
    await expect(octokit.rest.apps.getRepoInstallation({ owner: 'acme', repo: 'elsewhere' })).rejects.toMatchObject({ status: 404 });
    const { data: token } = await octokit.rest.apps.createInstallationAccessToken({ installation_id: installationId });
    expect(token.token).toMatch(/^ghs_/);
    expect(Date.parse(token.expires_at) - Date.now()).toBeGreaterThan(3_500_000);
  });

  it('refuses a JWT signed with another key', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const octokit = new Octokit({
      baseUrl: standin.apiUrl,
      log: quiet,
      authStrategy: createAppAuth,
      auth: { appId: app.id, privateKey: other },
    });
    const log = checkOctokitAnswers(octokit, standin.apiUrl);
    await expect(octokit.rest.apps.getAuthenticated()).rejects.toMatchObject({
      status: 401,
      response: { data: { message: 'A JSON web token could not be decoded' } },
    });
    expect(log.failures()).toEqual([]);
  });

  it('lists the installation repositories with pagination', async () => {
    const octokit = asInstallation();
    const { data, headers } = await octokit.rest.apps.listReposAccessibleToInstallation({ per_page: 1 });
    expect(data.total_count).toBe(2);
    expect(headers.link).toContain('rel="next"');
    const all = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 1 });
    expect(all.map((repo) => repo.full_name)).toEqual(['acme/notes', 'acme/secret']);
    const { data: repo } = await octokit.rest.repos.get({ owner: 'acme', repo: 'notes' });
    expect(repo.default_branch).toBe('main');
    await expect(octokit.rest.repos.get({ owner: 'acme', repo: 'elsewhere' })).rejects.toMatchObject({ status: 404 });
    const { data: ref } = await octokit.rest.git.getRef({ owner: 'acme', repo: 'notes', ref: 'heads/main' });
    expect(ref.object.sha).toBe(await git(standin.gitDir('acme', 'notes'), ['rev-parse', 'main']));
    expect(headers['x-ratelimit-remaining']).toBeDefined();
    expect(headers['x-github-request-id']).toBeDefined();
  });

  it('clones with an installation token, and refuses one for a repository outside the installation', async () => {
    const { data } = await asApp().rest.apps.createInstallationAccessToken({ installation_id: installationId });
    const header = `Authorization: Basic ${Buffer.from(`x-access-token:${data.token}`).toString('base64')}`;
    const target = `${dir.path}/clone-notes`;
    await git(dir.path, ['-c', `http.extraHeader=${header}`, 'clone', '-q', '--bare', `${standin.origin}/acme/notes.git`, target]);
    expect(await git(target, ['log', '--format=%s', 'main'])).toBe('Add b\nStart the notes');
    await expect(
      git(dir.path, [
        '-c',
        `http.extraHeader=${header}`,
        'clone',
        '-q',
        '--bare',
        `${standin.origin}/acme/elsewhere.git`,
        `${dir.path}/no`,
      ]),
    ).rejects.toThrow(/not found/i);
    await expect(git(dir.path, ['clone', '-q', '--bare', `${standin.origin}/acme/notes.git`, `${dir.path}/anon`])).rejects.toThrow();
    const { accessToken } = await standin.userToken('bob');
    const asBob = `Authorization: Basic ${Buffer.from(`x-access-token:${accessToken}`).toString('base64')}`;
    await git(dir.path, [
      '-c',
      `http.extraHeader=${asBob}`,
      'clone',
      '-q',
      '--bare',
      `${standin.origin}/acme/notes.git`,
      `${dir.path}/bob-clone`,
    ]);
    await expect(
      git(dir.path, [
        '-c',
        `http.extraHeader=${asBob}`,
        'clone',
        '-q',
        '--bare',
        `${standin.origin}/acme/secret.git`,
        `${dir.path}/bob-secret`,
      ]),
    ).rejects.toThrow(/not found/i);
  });

  it('answers a user token: /user, installations and repositories with permissions', async () => {
    const { accessToken } = await standin.userToken('bob');
    const octokit = asUser(accessToken);
    const { data: me } = await octokit.rest.users.getAuthenticated();
    expect(me).toMatchObject({ login: 'bob', name: null, email: null, type: 'User' });
    const { data: installs } = await octokit.rest.apps.listInstallationsForAuthenticatedUser();
    expect(installs.installations.map((entry) => entry.id)).toEqual([installationId]);
    const { data: repos } = await octokit.rest.apps.listInstallationReposForAuthenticatedUser({ installation_id: installationId });
    expect(repos.repositories.map((repo) => [repo.full_name, repo.permissions?.push, repo.permissions?.pull])).toEqual([
      ['acme/notes', false, true],
    ]);
    const alice = asUser((await standin.userToken('alice')).accessToken);
    const { data: hers } = await alice.rest.apps.listInstallationReposForAuthenticatedUser({ installation_id: installationId });
    expect(hers.repositories.map((repo) => [repo.full_name, repo.permissions?.push, repo.permissions?.admin])).toEqual([
      ['acme/notes', true, false],
      ['acme/secret', true, true],
    ]);
    await expect(asUser('ghu_notatokenatallnotatokenatallnotat').rest.users.getAuthenticated()).rejects.toMatchObject({
      status: 401,
      response: { data: { message: 'Bad credentials' } },
    });
  });

  it('takes a push by a person with push permission, refuses a non-fast-forward and a reader, and sends a signed push webhook', async () => {
    const work = `${dir.path}/work`;
    const remote = (login: string, password: string) =>
      `http://${login}:${password}@${standin.origin.replace('http://', '')}/acme/notes.git`;
    await git(dir.path, ['clone', '-q', remote('alice', 'alice-pw'), work]);
    await git(work, ['config', 'user.name', 'Alice Arden']);
    await git(work, ['config', 'user.email', 'alice@acme.example']);
    await writeFile(`${work}/docs/c.md`, 'C\n');
    await git(work, ['add', 'docs/c.md']);
    await git(work, ['commit', '-q', '-m', 'Add c']);
    const before = standin.deliveries().length;
    await git(work, ['push', '-q', 'origin', 'main']);
    await standin.webhooksSettled();
    const pushes = standin.deliveries().slice(before);
    expect(pushes.map((delivery) => delivery.event)).toEqual(['push']);
    const payload = pushes[0]?.payload as {
      commits: { message: string; added: string[]; author: { username?: string } }[];
      pusher: { name: string };
    };
    expect(payload.commits.map((commit) => [commit.message, commit.added, commit.author.username])).toEqual([
      ['Add c', ['docs/c.md'], 'alice'],
    ]);
    expect(payload.pusher.name).toBe('alice');
    assertFaithful(validateWebhookPayload('push', pushes[0]!.payload), 'the push payload');
    // A tag: its own push, listing no commits, the tagged commit as head.
    await git(work, ['tag', '-a', 'v1', '-m', 'Version 1']);
    await git(work, ['push', '-q', 'origin', 'v1']);
    await standin.webhooksSettled();
    const tagPush = standin.deliveries().at(-1)!;
    expect(tagPush.payload).toMatchObject({
      ref: 'refs/tags/v1',
      created: true,
      commits: [],
      head_commit: { id: await git(work, ['rev-parse', 'HEAD']) },
    });
    assertFaithful(validateWebhookPayload('push', tagPush.payload), 'the push payload of a tag');
    // Non-fast-forward: rewrite the last commit and push without force.
    await git(work, ['commit', '-q', '--amend', '-m', 'Add c, amended']);
    await expect(git(work, ['push', '-q', 'origin', 'main'])).rejects.toThrow();
    await expect(git(work, ['push', '-q', '--force', 'origin', 'main'])).rejects.toThrow();
    // A reader cannot push.
    await git(work, ['remote', 'add', 'bob', remote('bob', 'bob-pw')]);
    await expect(git(work, ['push', '-q', 'bob', 'HEAD:refs/heads/other'])).rejects.toThrow(/denied|403/);
  });

  it('creates a repository from a local one, commits kept as they are, and gives clone URLs with and without a person', async () => {
    const source = `${dir.path}/source`;
    await git(dir.path, ['init', '-q', '-b', 'main', source]);
    await writeFile(`${source}/a.md`, 'A\n');
    await git(source, ['add', 'a.md']);
    await git(source, ['-c', 'user.name=Jonas Keller', '-c', 'user.email=jonas@acme.example', 'commit', '-q', '-m', 'From elsewhere']);
    const head = await git(source, ['rev-parse', 'HEAD']);
    await standin.createRepo('acme', 'imported', [{ message: 'On top', author: 'alice', files: { 'b.md': 'B\n' } }], { from: source });
    const gitDir = standin.gitDir('acme', 'imported');
    expect(await git(gitDir, ['rev-parse', 'main~1'])).toBe(head);
    expect(await git(gitDir, ['log', '--format=%an|%s', 'main'])).toBe('Alice Arden|On top\nJonas Keller|From elsewhere');
    expect(standin.cloneUrl('acme', 'imported')).toBe(`${standin.origin}/acme/imported.git`);
    const asAlice = new URL(standin.cloneUrl('acme', 'imported', 'alice'));
    expect([asAlice.username, asAlice.password, asAlice.pathname]).toEqual(['alice', 'alice-pw', '/acme/imported.git']);
    expect(() => standin.cloneUrl('acme', 'imported', 'nobody')).toThrow(/No demo person/);
    expect(() => standin.cloneUrl('acme', 'missing')).toThrow(/no repository acme\/missing/);
  });

  it('pushes and force-pushes through the handle with webhooks validated against GitHub’s schemas', async () => {
    const head = await standin
      .push('acme', 'notes', { message: 'Handle push', author: 'carol', files: { 'e.md': 'E\n' } })
      .catch((error: Error) => error);
    expect(head).toBeInstanceOf(Error); // carol has no access
    standin.grant('acme', 'notes', 'carol', 'push');
    const pushed = await standin.push('acme', 'notes', { message: 'Handle push', author: 'carol', files: { 'e.md': 'E\n' } });
    expect(await git(standin.gitDir('acme', 'notes'), ['rev-parse', 'main'])).toBe(pushed);
    expect(await git(standin.gitDir('acme', 'notes'), ['log', '-1', '--format=%an <%ae>', 'main'])).toBe(
      `Carol Chen <1003+carol@users.noreply.github.com>`,
    );
    const root = await git(standin.gitDir('acme', 'notes'), ['rev-list', '--max-parents=0', 'main']);
    const forced = await standin.forcePush('acme', 'notes', root, [
      { message: 'Rewrite', author: 'alice', files: { 'docs/a.md': 'A2\n' } },
    ]);
    const last = standin.deliveries().at(-1)!;
    expect(last.payload).toMatchObject({ forced: true, after: forced });
    for (const delivery of standin.deliveries())
      assertFaithful(validateWebhookPayload(delivery.event, delivery.payload), `the ${delivery.event}.${delivery.action} payload`);
  });

  it('signs deliveries so @octokit/webhooks verifies them, and redelivers the same id and body', async () => {
    const { Webhooks } = await import('@octokit/webhooks');
    const verifier = new Webhooks({ secret: app.webhookSecret });
    expect(receiver.received.length).toBeGreaterThan(0);
    for (const delivery of receiver.received) {
      expect(await verifier.verify(delivery.body, String(delivery.headers['x-hub-signature-256']))).toBe(true);
      expect(delivery.headers['x-github-hook-installation-target-id']).toBe(String(app.id));
      expect(delivery.headers['user-agent']).toMatch(/^GitHub-Hookshot\//);
    }
    const first = standin.deliveries()[0]!;
    const count = receiver.received.length;
    await standin.redeliver(first.id);
    const again = receiver.received[count]!;
    expect(again.headers['x-github-delivery']).toBe(first.id);
    expect(again.body).toBe(receiver.received.find((delivery) => delivery.headers['x-github-delivery'] === first.id)?.body);
  });

  it('answers 404 with GitHub’s body for an unknown route, and injected faults', async () => {
    const response = await fetch(`${standin.apiUrl}/nothing/here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    const octokit = asInstallation();
    standin.failNext({ method: 'GET', path: /^\/repos\/acme\/notes$/ }, 503);
    await expect(octokit.rest.repos.get({ owner: 'acme', repo: 'notes' })).rejects.toMatchObject({ status: 503 });
    standin.failNext({ path: /^\/repos\/acme\/notes$/ }, 422);
    await expect(octokit.rest.repos.get({ owner: 'acme', repo: 'notes' })).rejects.toMatchObject({
      status: 422,
      response: { data: { message: 'Validation Failed' } },
    });
    standin.failNext({ path: /^\/repos\/acme\/notes$/ }, 'timeout');
    const timedOut = await octokit.rest.repos
      .get({ owner: 'acme', repo: 'notes', request: { signal: AbortSignal.timeout(300) } })
      .catch((error: Error) => error);
    expect(timedOut).toBeInstanceOf(Error);
    const { data } = await octokit.rest.repos.get({ owner: 'acme', repo: 'notes' });
    expect(data.name).toBe('notes');
  });

  it('makes the first commit of an empty repository with the contents API, then updates with the blob sha', async () => {
    await standin.createRepo('acme', 'empty', []);
    await standin.setInstallationRepos(installationId, ['empty'], []);
    standin.grant('acme', 'empty', 'alice', 'push');
    const octokit = asUser((await standin.userToken('alice')).accessToken);
    const content = Buffer.from('# First\n').toString('base64');
    const { status, data } = await octokit.rest.repos.createOrUpdateFileContents({
      owner: 'acme',
      repo: 'empty',
      path: 'notes/first.md',
      message: 'First note',
      content,
    });
    expect(status).toBe(201);
    expect(data.commit.author).toMatchObject({ name: 'Alice Arden', email: 'alice@acme.example' });
    expect(await git(standin.gitDir('acme', 'empty'), ['rev-parse', 'main'])).toBe(data.commit.sha);
    const push = standin.deliveries().at(-1)!;
    expect(push.payload).toMatchObject({ created: true, after: data.commit.sha });
    assertFaithful(validateWebhookPayload('push', push.payload), 'the push payload of a first commit');
    await expect(
      octokit.rest.repos.createOrUpdateFileContents({ owner: 'acme', repo: 'empty', path: 'notes/first.md', message: 'No sha', content }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      octokit.rest.repos.createOrUpdateFileContents({
        owner: 'acme',
        repo: 'empty',
        path: 'notes/first.md',
        message: 'Bad sha',
        content,
        sha: 'f'.repeat(40),
      }),
    ).rejects.toMatchObject({ status: 409 });
    const update = await octokit.rest.repos.createOrUpdateFileContents({
      owner: 'acme',
      repo: 'empty',
      path: 'notes/first.md',
      message: 'Second',
      content: Buffer.from('# Second\n').toString('base64'),
      sha: data.content?.sha,
    });
    expect(update.status).toBe(200);
    const bob = asUser((await standin.userToken('bob')).accessToken);
    await expect(
      bob.rest.repos.createOrUpdateFileContents({ owner: 'acme', repo: 'empty', path: 'x.md', message: 'x', content }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('narrows an installation token to the repositories asked for, and refuses one outside the installation', async () => {
    const app = asApp();
    const { data } = await app.rest.apps.createInstallationAccessToken({ installation_id: installationId, repositories: ['notes'] });
    expect(data.repository_selection).toBe('selected');
    expect(data.repositories?.map((repo) => repo.name)).toEqual(['notes']);
    const narrowed = asUser(data.token);
    const { data: listed } = await narrowed.rest.apps.listReposAccessibleToInstallation();
    expect(listed.repositories.map((repo) => repo.name)).toEqual(['notes']);
    await expect(narrowed.rest.repos.get({ owner: 'acme', repo: 'secret' })).rejects.toMatchObject({ status: 404 });
    await expect(
      app.rest.apps.createInstallationAccessToken({ installation_id: installationId, repositories: ['elsewhere'] }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('answers 401 Bad credentials once a token expired', async () => {
    const { accessToken } = await standin.userToken('alice');
    const user = asUser(accessToken);
    await user.rest.users.getAuthenticated();
    standin.expireToken(accessToken);
    await expect(user.rest.users.getAuthenticated()).rejects.toMatchObject({
      status: 401,
      response: { data: { message: 'Bad credentials' } },
    });
    const { data } = await asApp().rest.apps.createInstallationAccessToken({ installation_id: installationId });
    standin.expireToken(data.token);
    await expect(asUser(data.token).rest.apps.listReposAccessibleToInstallation()).rejects.toMatchObject({ status: 401 });
    expect(() => standin.expireToken('ghu_never')).toThrow(/no such token/);
  });

  it('takes a push of 3,000 files and lists them all in the push webhook', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) files[`bulk/n${String(i).padStart(4, '0')}.md`] = `Note ${i}\n`;
    const head = await standin.push('acme', 'notes', { message: 'Bulk import', author: 'alice', files });
    const push = standin.deliveries().at(-1)!;
    const commits = (push.payload as { commits: { id: string; added: string[] }[] }).commits;
    expect(commits.at(-1)?.id).toBe(head);
    expect(commits.at(-1)?.added).toHaveLength(3000);
    assertFaithful(validateWebhookPayload('push', push.payload), 'the push payload of 3,000 files');
  });
});
