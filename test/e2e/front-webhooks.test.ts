// The hosted front in this process (no instance is reached here), with the GitHub stand-in
// delivering its webhooks to it: deliveries become jobs for the installations switched on,
// installations GitHub tells of are recorded, the list of addresses follows the Store, and the
// Setup URL answers. Postgres only: the front keeps the Store there.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceUrlTemplate } from '../../src/front/forward/instance-url-template.ts';
import { startGitHubStandin } from '../../src/github-standin/standin.ts';
import type { GitHubStandin } from '../../src/github-standin/standin-api.ts';
import { silentLogger } from '../../src/instance/log.ts';
import type { HostedJob } from '../../src/jobs/hosted-jobs.ts';
import { serveFront, type HostedFront } from '../../src/main/front.ts';
import { tempDir } from '../support/git-fixture.ts';
import { testApp, within } from './github-fixture.ts';

const serverUrl = process.env['DATABASE_URL'];

describe.skipIf(!serverUrl)('the hosted front: webhooks to jobs, installations, addresses', () => {
  const dir = tempDir('mv-front-webhooks-');
  const storeSchema = `e2e_front_${randomBytes(5).toString('hex')}`;
  const jobs: HostedJob[] = [];
  let standin: GitHubStandin;
  let front: HostedFront;
  let acme: number;

  beforeAll(async () => {
    standin = await startGitHubStandin({
      dataDir: join(dir.path, 'github'),
      app: testApp,
      people: [{ login: 'alice', name: 'Alice Arden', email: 'alice@acme.example', password: 'alice-pw' }],
      webhookUrl: null,
    });
    await standin.createRepo('acme', 'handbook', [{ message: 'Start', author: 'alice', files: { 'README.md': '# Handbook\n' } }]);
    acme = await standin.install('acme', 'all');
    standin.grant('acme', 'handbook', 'alice', 'push');
    front = await serveFront(
      {
        app: {
          appId: testApp.id,
          privateKey: standin.app.privateKey,
          clientId: testApp.clientId,
          clientSecret: testApp.clientSecret,
          webhookSecret: testApp.webhookSecret,
          apiUrl: standin.apiUrl,
          webUrl: standin.origin,
        },
        databaseUrl: serverUrl!,
        storeSchema,
        port: 0,
        hostname: '127.0.0.1',
        oauth: { secrets: [randomBytes(32).toString('base64url')] },
      },
      {
        jobs: { send: async (job) => void jobs.push(job) },
        // No instance is called in this test.
        instances: () => instanceUrlTemplate('http://127.0.0.1:9/{name}'),
        log: silentLogger(),
        refreshMs: 200,
      },
    );
    await front.store.installations.seen(acme, 'acme');
    await front.store.installations.switchOn(acme, 'acme');
    standin.setWebhookUrl(front.webhookUrl.href);
  }, 60_000);

  afterAll(async () => {
    await front?.close();
    await standin?.close();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${storeSchema}" CASCADE`);
    await admin.end();
    dir.cleanup();
  });

  /** The jobs queued by what `act` makes the stand-in deliver. */
  const jobsOf = async (act: () => Promise<unknown>): Promise<HostedJob[]> => {
    jobs.length = 0;
    await act();
    await standin.webhooksSettled();
    return [...jobs];
  };

  it('queues index-repo for a push to the default branch, and build-catalogue when it touches .vault/', async () => {
    const note = { message: 'A note', author: 'alice', files: { 'notes/a.md': '# A\n' } };
    expect(await jobsOf(() => standin.push('acme', 'handbook', note))).toEqual([
      { name: 'index-repo', installationId: acme, repo: 'handbook' },
    ]);
    const settings = { message: 'Settings', author: 'alice', files: { '.vault/settings.jsonc': '{ "summary": "The handbook." }\n' } };
    expect(await jobsOf(() => standin.push('acme', 'handbook', settings))).toEqual([
      { name: 'index-repo', installationId: acme, repo: 'handbook' },
      { name: 'build-catalogue', installationId: acme },
    ]);
    expect(await jobsOf(() => standin.push('acme', 'handbook', { ...note, files: { 'b.md': '# B\n' } }, { branch: 'draft' }))).toEqual([]);
  });

  it('refreshes an installation whose repositories changed; records a new one, pending, with no job', async () => {
    expect(await jobsOf(() => standin.createRepo('acme', 'plans', []))).toEqual([{ name: 'refresh-installation', installationId: acme }]);
    let globex = 0;
    expect(
      await jobsOf(async () => {
        globex = await standin.install('globex', 'all');
      }),
    ).toEqual([]);
    expect(await front.store.installations.get(globex)).toMatchObject({ status: 'pending', account: 'globex' });
    expect(await jobsOf(() => standin.setInstallationState(globex, 'deleted'))).toEqual([
      { name: 'drop-installation', installationId: globex },
    ]);
  });

  it('serves the addresses of the installations switched on, following the Store', async () => {
    const post = (name: string) =>
      fetch(front.addressOf(name), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post('acme')).status).toBe(401);
    expect((await post('initech')).status).toBe(404);
    const initech = await standin.install('initech', 'all');
    await standin.webhooksSettled();
    await front.store.installations.switchOn(initech, 'initech');
    // Asked for by name, it is looked up at once (at most once a second).
    await within(3000, async () => (await post('initech')).status === 401, 'initech is served once switched on');
    await front.store.installations.switchOff(initech);
    await within(3000, async () => (await post('initech')).status === 404, 'initech is not served once switched off');

    const setup = await fetch(new URL(`/github/setup?installation_id=${acme}&setup_action=install`, front.origin));
    expect(setup.status).toBe(200);
    expect(await setup.text()).toContain(front.addressOf('acme').href);
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/acme', front.origin));
    expect(((await metadata.json()) as { authorization_servers: string[] }).authorization_servers).toEqual([front.origin.origin]);
  });
});
