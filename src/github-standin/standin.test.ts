// The stand-in driven as the product drives GitHub: Octokit's own clients and `git`; every answer checked against GitHub's descriptions.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { checkOctokitAnswers, validateWebhookPayload, assertFaithful, type FidelityLog } from './fidelity.ts';
import { startGitHubStandin } from './standin.ts';
import type { GitHubStandin } from './standin-api.ts';

const execFileAsync = promisify(execFile);

/** A webhook receiver: records each delivery's headers and raw body, answers 202. */
async function startReceiver(): Promise<{
  url: string;
  received: { headers: Record<string, string | string[] | undefined>; body: string }[];
  server: Server;
}> {
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(202);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received, server };
}

/** Runs git without user configuration, asynchronously (the stand-in answers in this process); resolves with stdout trimmed. */
async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' },
  });
  return stdout.trim();
}

const app = {
  id: 4242,
  slug: 'major-vault-test',
  clientId: 'Iv1.standintest',
  clientSecret: 'secret-of-the-client',
  webhookSecret: 'hook-secret',
};
const people = [
  { login: 'alice', name: 'Alice Arden', email: 'alice@acme.example', password: 'alice-pw' },
  { login: 'bob', name: null, email: null, password: 'bob-pw' },
  { login: 'carol', name: 'Carol Chen', email: null, password: 'carol-pw' },
];

describe('GitHub stand-in', () => {
  let standin: GitHubStandin;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dir: ReturnType<typeof tempDir>;
  let installationId: number;
  const logs: FidelityLog[] = [];

  /** An Octokit whose every answer is checked against GitHub's OpenAPI description. */
  const checked = (octokit: Octokit) => {
    logs.push(checkOctokitAnswers(octokit, standin.apiUrl));
    return octokit;
  };
  const asApp = () =>
    checked(
      new Octokit({ baseUrl: standin.apiUrl, authStrategy: createAppAuth, auth: { appId: app.id, privateKey: standin.app.privateKey } }),
    );
  const asInstallation = () =>
    checked(
      new Octokit({
        baseUrl: standin.apiUrl,
        authStrategy: createAppAuth,
        auth: { appId: app.id, privateKey: standin.app.privateKey, installationId },
      }),
    );
  const asUser = (token: string) => checked(new Octokit({ baseUrl: standin.apiUrl, auth: token }));

  beforeAll(async () => {
    dir = tempDir('standin-');
    receiver = await startReceiver();
    standin = await startGitHubStandin({ dataDir: dir.path, app, people, webhookUrl: receiver.url });
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
    await standin?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
    dir?.cleanup();
    for (const log of logs) expect(log.failures()).toEqual([]);
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
    const octokit = checked(
      new Octokit({ baseUrl: standin.apiUrl, authStrategy: createAppAuth, auth: { appId: app.id, privateKey: other } }),
    );
    await expect(octokit.rest.apps.getAuthenticated()).rejects.toMatchObject({
      status: 401,
      response: { data: { message: 'A JSON web token could not be decoded' } },
    });
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
    await new Promise((resolve) => setTimeout(resolve, 50));
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
    // Non-fast-forward: rewrite the last commit and push without force.
    await git(work, ['commit', '-q', '--amend', '-m', 'Add c, amended']);
    await expect(git(work, ['push', '-q', 'origin', 'main'])).rejects.toThrow();
    await expect(git(work, ['push', '-q', '--force', 'origin', 'main'])).rejects.toThrow();
    // A reader cannot push.
    await git(work, ['remote', 'add', 'bob', remote('bob', 'bob-pw')]);
    await expect(git(work, ['push', '-q', 'bob', 'HEAD:refs/heads/other'])).rejects.toThrow(/denied|403/);
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
});
