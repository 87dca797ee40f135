// `major-vault demo --hosted` as a person tries it: hosted.json, the address, cloning and
// pushing as the demo people, and the install status page at the App's Setup URL. On PGlite,
// or on the Postgres server when DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/instance/log.ts';
import { serveHostedDemo, type HostedDemo, type HostedDemoInfo } from '../../src/main/demo-hosted.ts';
import { switchInstallationOff } from '../../src/main/installation-operator.ts';
import { runGitCommand } from '../../src/github-standin/standin-fixture.ts';
import { tempDir } from '../support/git-fixture.ts';
import { Client } from '@modelcontextprotocol/client';
import { OAuthBrowser } from '../support/oauth-browser.ts';
import { connectWithSignIn, ScriptedOAuthClient } from '../support/scripted-oauth-client.ts';
import { finds, within } from './github-fixture.ts';

const databaseUrl = process.env['DATABASE_URL'];

describe('major-vault demo --hosted', () => {
  const dir = tempDir('mv-hosted-demo-');
  const schema = `e2e_hosted_${randomBytes(5).toString('hex')}`;
  let demo: HostedDemo;
  let info: HostedDemoInfo;

  beforeAll(async () => {
    demo = await serveHostedDemo(
      { dir: dir.path, port: 0, githubPort: 0, ...(databaseUrl ? { schema, storeSchema: schema } : {}) },
      { log: silentLogger() },
    );
    info = JSON.parse(readFileSync(join(dir.path, 'hosted.json'), 'utf8')) as HostedDemoInfo;
    await demo.server.installation.ready();
  }, 90_000);

  let closed = false;

  afterAll(async () => {
    if (!closed) await demo?.close();
    if (databaseUrl) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    dir.cleanup();
  });

  it('writes hosted.json with the address, both origins and the people, and keeps the front secret private', () => {
    expect(info.address).toBe(`${info.frontOrigin}/acme`);
    expect(info.githubOrigin).toBe(demo.standin.origin);
    expect(info.people.map((person) => [person.login, person.repositories.map((repo) => `${repo.name}:${repo.permission}`)])).toEqual([
      ['maya', ['handbook:push', 'projects:push']],
      ['tom', ['handbook:pull']],
    ]);
    const maya = info.people[0]!;
    expect(new URL(maya.repositories[0]!.cloneUrl)).toMatchObject({
      username: 'maya',
      password: maya.password,
      pathname: '/acme/handbook.git',
    });
    const secret = statSync(join(dir.path, 'hosted', 'front-secret'));
    expect([secret.size, secret.mode & 0o777]).toEqual([32, 0o600]);
  });

  /** A client signed in as `login` through the front: consent, then the stand-in's GitHub sign-in. */
  const signIn = async (login: string): Promise<Client> => {
    const client = new Client({ name: `hosted demo test (${login})`, version: '1.0.0' });
    await connectWithSignIn(
      client,
      new URL(info.address),
      new ScriptedOAuthClient({ browser: new OAuthBrowser({ login, decision: 'approve' }) }),
    );
    return client;
  };

  it('answers at the address: 401 without a token; signed in through the front, tom sees the handbook only', async () => {
    const refused = await fetch(info.address, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
    // A GitHub token is not a token of this address (no token passthrough).
    const direct = await fetch(info.address, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${(await demo.standin.userToken('tom')).accessToken}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(direct.status).toBe(401);
    const tom = await signIn('tom');
    try {
      const repos = new Set(
        (await tom.listTools()).tools.flatMap((tool) => {
          const repo = tool.inputSchema.properties?.['repo'] as { anyOf?: Array<{ const: string }> } | undefined;
          return (repo?.anyOf ?? []).map((choice) => choice.const);
        }),
      );
      expect([...repos]).toEqual(['handbook']);
    } finally {
      await tom.close();
    }
  });

  it('clones the handbook with its history as maya, pushes as maya, and refuses tom’s push', async () => {
    const work = join(dir.path, 'handbook');
    const [maya, tom] = info.people;
    await runGitCommand(dir.path, ['clone', '-q', maya!.repositories[0]!.cloneUrl, work]);
    const authors = await runGitCommand(work, ['log', '--format=%an']);
    expect(new Set(authors.split('\n'))).toEqual(new Set(['Maya Brenner', 'Jonas Keller', 'Priya Natarajan', 'Tom Okafor']));
    writeFileSync(join(work, 'pushed.md'), '# Pushed\n\nThe word is hostedkestrel.\n');
    await runGitCommand(work, ['add', 'pushed.md']);
    await runGitCommand(work, ['-c', 'user.name=Maya Brenner', '-c', 'user.email=maya@acme.example', 'commit', '-q', '-m', 'Push']);
    await expect(runGitCommand(work, ['push', '-q', tom!.repositories[0]!.cloneUrl, 'HEAD:main'])).rejects.toThrow(/denied to tom|403/);
    await runGitCommand(work, ['push', '-q', 'origin', 'HEAD:main']);
    const reader = await signIn('maya');
    try {
      await within(20_000, () => finds(reader, 'hostedkestrel', 'pushed.md'), 'maya’s push is searchable');
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('answers the install status page: on for acme, pending for a new installation, unknown for none', async () => {
    const setup = (id: number | string) => fetch(`${info.frontOrigin}/github/setup?installation_id=${id}&setup_action=install`);
    const acme = await setup(info.installationId);
    expect(acme.status).toBe(200);
    expect(await acme.text()).toContain(info.address);

    // Installed elsewhere: the webhook and the setup redirect both record it, pending.
    const globex = await demo.standin.install('globex', 'all');
    const pending = await setup(globex);
    expect(pending.status).toBe(200);
    expect(await demo.server.store.installations.get(globex)).toMatchObject({ status: 'pending', account: 'globex', name: null });
    const initech = await demo.standin.install('initech', 'all');
    await within(20_000, async () => (await demo.server.store.installations.get(initech)) !== null, 'the webhook records initech');

    // An id GitHub does not know is not recorded.
    expect((await setup(987654)).status).toBe(404);
    expect(await demo.server.store.installations.get(987654)).toBeNull();
    expect((await setup('nope')).status).toBe(400);

    // GitHub unreachable: the Store answers what it knows, and an id it does not know is to be tried later.
    demo.standin.failNext({ path: /^\/app\/installations\/\d+$/ }, 502, 2);
    expect((await setup(info.installationId)).status).toBe(200);
    const later = await setup(123456);
    expect([later.status, later.headers.get('retry-after')]).toEqual([503, '30']);
  });

  it('keeps GitHub’s “no such installation” and limits look-ups of unknown ids, so random ids cannot spend the App’s budget', async () => {
    const setup = (id: number) => fetch(`${info.frontOrigin}/github/setup?installation_id=${id}&setup_action=install`);
    // 987654 was answered "no such installation" above: answered again without asking GitHub (which would now fail).
    demo.standin.failNext({ path: /^\/app\/installations\/987654$/ }, 502, 1);
    expect((await setup(987654)).status).toBe(404);
    // At most 10 look-ups of unknown ids a minute: the earlier tests spent some, random ids spend the rest.
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let id = 555000; id < 555012 && !limited; id++) {
      const answer = await setup(id);
      if (answer.status === 429) limited = answer;
      else statuses.push(answer.status);
    }
    expect(new Set(statuses)).toEqual(new Set([404]));
    expect(statuses.length).toBeLessThanOrEqual(10);
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited?.text()).toContain('Try again in');
    // A cached answer and a known installation still answer.
    expect((await setup(555000)).status).toBe(404);
    expect((await setup(info.installationId)).status).toBe(200);
  });

  it('refuses a port in use before building anything, naming --port or --github-port', async () => {
    const other = tempDir('mv-hosted-demo-ports-');
    try {
      const frontPort = Number(new URL(info.frontOrigin).port);
      const githubPort = Number(new URL(info.githubOrigin).port);
      await expect(serveHostedDemo({ dir: other.path, port: frontPort, githubPort: 0 }, { log: silentLogger() })).rejects.toThrow(
        `Port ${frontPort} on 127.0.0.1 (the demo's address) is in use by another program. Stop it, or choose another port with --port`,
      );
      await expect(serveHostedDemo({ dir: other.path, port: 0, githubPort }, { log: silentLogger() })).rejects.toThrow(
        `Port ${githubPort} on 127.0.0.1 (the GitHub stand-in) is in use by another program. Stop it, or choose another port with --github-port`,
      );
    } finally {
      other.cleanup();
    }
  });

  it('when its installation is switched off, says to switch it on with the folder or database it really uses', async () => {
    await demo.close();
    closed = true;
    const dataDir = join(dir.path, 'hosted', 'data');
    await switchInstallationOff(databaseUrl ? { databaseUrl, schema } : { dataDir }, info.installationId);
    const again = serveHostedDemo(
      { dir: dir.path, port: 0, githubPort: 0, ...(databaseUrl ? { schema, storeSchema: schema } : {}) },
      { log: silentLogger() },
    );
    await expect(again).rejects.toThrow(
      `switch it on with \`major-vault installation on ${info.installationId} --name acme\` (${databaseUrl ? 'with the same --database-url or DATABASE_URL' : `with --data ${dataDir}`})`,
    );
  }, 90_000);
});
