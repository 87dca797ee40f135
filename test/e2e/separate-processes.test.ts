// The hosted shape as separate processes (issue 13), each a real child process: the operator's
// `major-vault installation on` for two installations of the App (acme and globex, two
// organisations on the GitHub stand-in), which makes each one's database and queues its
// indexing; `major-vault worker`, which indexes them and builds their catalogues from the
// queue; and `major-vault front`, which serves both and starts `major-vault instance` children
// on demand. People sign in through the front with the MCP SDK's client; tools/list comes from
// the catalogue store, reads and writes go through the forwarded instance, a push is indexed by
// the worker and seen by the instance, a token of one installation is refused at the other's
// address, and an instance that went idle exits and is started again by the next call.
// Postgres only.
import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../../src/demo/build-demo.ts';
import { startGitHubStandin } from '../../src/github-standin/standin.ts';
import type { GitHubStandin } from '../../src/github-standin/standin-api.ts';
import { dropInstallationDatabase, openInstallationDatabase } from '../../src/main/installation-database.ts';
import { openPostgresStore, type OpenedStore } from '../../src/main/open-store.ts';
import { readIndexHeads } from '../../src/note-index/index-heads.ts';
import { OAuthBrowser } from '../support/oauth-browser.ts';
import { tempDir } from '../support/git-fixture.ts';
import {
  checkoutRoot,
  createRunDatabase,
  hostedEnv,
  majorVaultCli,
  startFrontProcess,
  startWorkerProcess,
  stopProcess,
  type ProcessLogLine,
  type RunDatabase,
} from '../support/hosted-processes.ts';
import { connectWithSignIn, ScriptedOAuthClient } from '../support/scripted-oauth-client.ts';
import { readCalls, runCalls, writeCalls } from './demo-calls.ts';
import { call, finds, gitIn, testApp, within } from './github-fixture.ts';

const serverUrl = process.env['DATABASE_URL'];
/** How long an instance may stay without a request before it exits, in seconds. */
const idleSeconds = 4;

const people = [
  { login: 'maya', name: 'Maya Brenner', email: 'maya@acme.example', password: 'maya-pw' },
  { login: 'tom', name: 'Tom Okafor', email: 'tom@acme.example', password: 'tom-pw' },
  { login: 'carol', name: 'Carol Chen', email: 'carol@globex.example', password: 'carol-pw' },
];

describe.skipIf(!serverUrl)('the front and the instances as separate processes, on Postgres', () => {
  const dir = tempDir('mv-separate-');
  /** The front's own database, made for this run: the Store in its default schema. */
  let frontDatabase: RunDatabase | undefined;
  /** Installation ids of this run only: their databases are named by id on the shared server. */
  const firstInstallationId = 800_000_000 + Math.floor(Math.random() * 100_000_000);
  const secret = randomBytes(32).toString('base64url');
  const metricsToken = randomBytes(16).toString('hex');
  let standin: GitHubStandin;
  let opened: OpenedStore;
  let front: ChildProcess;
  let worker: ChildProcess;
  let origin: string;
  const ids: Record<string, number> = {};
  const lines: ProcessLogLine[] = [];
  const clients: Client[] = [];

  const address = (name: string) => new URL(`/${name}`, origin);
  const events = (event: string, installation: string) =>
    lines.filter((line) => line.event === event && line.installation === installation).length;

  /** A client signed in as `login` at installation `name` through the front; its provider holds the tokens. */
  const signIn = async (login: string, name: string) => {
    const client = new Client({ name: `separate processes (${login})`, version: '1.0.0' });
    const provider = new ScriptedOAuthClient({ browser: new OAuthBrowser({ login, decision: 'approve' }) });
    await connectWithSignIn(client, address(name), provider);
    clients.push(client);
    return { client, provider };
  };

  /** The repositories the listed tools offer in their `repo` field. */
  const listedRepos = async (client: Client): Promise<string[]> => {
    const { tools } = await client.listTools();
    const repo = tools.find((tool) => tool.name === 'read_note')!.inputSchema.properties?.['repo'] as { anyOf?: Array<{ const: string }> };
    return (repo.anyOf ?? []).map((choice) => choice.const);
  };

  beforeAll(async () => {
    frontDatabase = await createRunDatabase(serverUrl!, 'mv_front_e2e_');

    standin = await startGitHubStandin({ dataDir: join(dir.path, 'github'), app: testApp, people, webhookUrl: null, firstInstallationId });
    // acme: the demo's handbook and projects (the calls of demo-calls.ts fit them); globex: a wiki and a runbook.
    const demo = await buildDemo(join(dir.path, 'demo'));
    for (const repo of ['handbook', 'projects']) await standin.createRepo('acme', repo, [], { from: join(demo.reposDir, repo) });
    await standin.createRepo('globex', 'wiki', [
      {
        message: 'Start the wiki',
        author: 'carol',
        files: { 'README.md': '# Wiki\n', 'guides/deploy.md': '# Deploy\n\nThe deploy word is quillfeather.\n' },
      },
    ]);
    await standin.createRepo('globex', 'runbook', [
      { message: 'Start the runbook', author: 'carol', files: { 'oncall.md': '# On call\n\nPage the team.\n' } },
    ]);
    ids['acme'] = await standin.install('acme', 'all');
    ids['globex'] = await standin.install('globex', 'all');
    standin.grant('acme', 'handbook', 'maya', 'push');
    standin.grant('acme', 'projects', 'maya', 'push');
    standin.grant('acme', 'handbook', 'tom', 'pull');
    standin.grant('globex', 'wiki', 'carol', 'push');
    standin.grant('globex', 'runbook', 'carol', 'pull');
    // Maya may read globex's wiki too: her acme token is still no token of globex's address.
    standin.grant('globex', 'wiki', 'maya', 'pull');

    const env = { ...hostedEnv({ standin, app: testApp, frontUrl: frontDatabase.url, secret }), MAJOR_VAULT_METRICS_TOKEN: metricsToken };
    // GitHub told the front of both (its Setup URL, or their installation webhooks).
    opened = await openPostgresStore(frontDatabase.url);
    for (const [name, id] of Object.entries(ids)) await opened.store.installations.seen(id, name);
    // The operator switches both on: each gets its database, and the worker is asked to index it.
    for (const [name, id] of Object.entries(ids)) {
      await new Promise<void>((resolve, reject) =>
        execFile(
          process.execPath,
          [majorVaultCli, 'installation', 'on', String(id), '--name', name],
          { cwd: checkoutRoot, env },
          (error, stdout, stderr) => (error ? reject(new Error(`installation on ${name} failed: ${stderr}`)) : resolve()),
        ),
      );
    }

    worker = startWorkerProcess({ env, dataDir: join(dir.path, 'worker'), onLine: (line) => lines.push(line) });
    mkdirSync(join(dir.path, 'instances'));
    // The front's and its instances' log lines (they share its standard error).
    ({ front, origin } = await startFrontProcess({
      env,
      dataDir: join(dir.path, 'instances'),
      idleSeconds,
      onLine: (line) => lines.push(line),
    }));
    standin.setWebhookUrl(new URL('/webhooks/github', origin).href);
    // The worker indexed both installations and built their catalogues.
    for (const id of Object.values(ids)) {
      await within(120_000, async () => (await opened.store.catalogues.source(id)) !== null, `installation ${id} indexed by the worker`);
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    for (const child of [front, worker]) await stopProcess(child);
    await opened?.close();
    await standin?.close();
    if (serverUrl) {
      for (const id of Object.values(ids)) await dropInstallationDatabase(serverUrl, id);
      await frontDatabase?.drop();
    }
    dir.cleanup();
  }, 60_000);

  it('signs maya in through the front; tools/list is answered from the catalogue store; reads and writes go through her instance', async () => {
    const { client, provider } = await signIn('maya', 'acme');
    expect(await listedRepos(client)).toEqual(['handbook', 'projects']);
    // The answer for her set, as the worker's catalogue builder (or the front) stored it.
    const source = (await opened.store.catalogues.source(ids['acme']!))!;
    expect(await opened.store.catalogues.answer(ids['acme']!, source.version, ['handbook', 'projects'])).not.toBeNull();
    expect(client.getInstructions()).toContain('handbook');

    const listed = new Set((await client.listTools()).tools.map((tool) => tool.name));
    const read = await runCalls(client, readCalls, listed);
    expect(read.length).toBe(readCalls.length);
    const written = await runCalls(client, writeCalls, listed);
    expect(written).toEqual(['edit_note', 'create_note', 'move_note']);
    // The commits were made on the stand-in with her token: authored by her.
    expect(gitIn(standin.gitDir('acme', 'projects'), ['log', '-2', '--format=%an'])).toBe('Maya Brenner\nMaya Brenner');
    expect(gitIn(standin.gitDir('acme', 'handbook'), ['log', '-1', '--format=%an|%s'])).toMatch(/^Maya Brenner\|Renamed the team page/);
    // The next read sees the write.
    const plan = await call(client, 'read_note', { repo: 'projects', path: 'active/launch/plan.md' });
    expect(plan['content']).toContain('32 stores in the first month');
    expect(events('instance_started', 'acme')).toBeGreaterThanOrEqual(1);

    // Each process answers its probes; a request's id reaches the instance and comes back.
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${origin}/readyz`)).json()).toMatchObject({ status: 'ready', checks: { store: { ok: true } } });
    const requestId = `e2e-${randomBytes(4).toString('hex')}`;
    const forwarded = await fetch(address('acme'), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.tokens()!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'x-request-id': requestId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'tree', arguments: {} } }),
    });
    expect(forwarded.status).toBe(200);
    expect(forwarded.headers.get('x-request-id')).toBe(requestId);
    await forwarded.text();
    // The front's metrics name every installation: on its public port only with the operator's token.
    expect((await fetch(`${origin}/metrics`)).status).toBe(401);
    const metrics = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
    expect(metrics).toMatch(/major_vault_instance_wakes_total\{[^}]*installation="acme"[^}]*\} [1-9]/);
  }, 180_000);

  it("answers each person with their own rights, and refuses one installation's token at the other's address", async () => {
    const tom = await signIn('tom', 'acme');
    expect(await listedRepos(tom.client)).toEqual(['handbook']);
    const carol = await signIn('carol', 'globex');
    expect(await listedRepos(carol.client)).toEqual(['runbook', 'wiki']);
    const found = await call(carol.client, 'search_notes', { query: 'quillfeather' });
    expect(JSON.stringify(found)).toContain('guides/deploy.md');

    const maya = await signIn('maya', 'acme');
    const token = maya.provider.tokens()!.access_token;
    const ask = (name: string) =>
      fetch(address(name), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await ask('acme')).status).toBe(200);
    const refused = await ask('globex');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/globex"`);
    expect((await ask('initech')).status).toBe(404);

    // The instance checks every token itself: called directly, it takes maya's token for its
    // own address and refuses carol's, which is for globex's. (A call first, so one runs.)
    await call(maya.client, 'read_note', { repo: 'handbook', path: 'README.md' });
    const instance = lines.filter((line) => line.event === 'instance_started' && line.installation === 'acme').at(-1)!.origin!;
    const direct = (bearer: string) =>
      fetch(new URL('/acme', instance), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    const answered = await direct(token);
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-request-id')).toMatch(/./);
    expect(await (await fetch(new URL('/readyz', instance))).json()).toMatchObject({ status: 'ready', checks: { database: { ok: true } } });
    expect((await direct(carol.provider.tokens()!.access_token)).status).toBe(401);
  }, 120_000);

  it('indexes a push in the worker, and the awake instance sees it within a few seconds', async () => {
    const { client } = await signIn('carol', 'globex');
    await call(client, 'read_note', { repo: 'wiki', path: 'README.md' });
    const head = await standin.push('globex', 'wiki', {
      message: 'Add a runbook link',
      author: 'carol',
      files: { 'guides/rollback.md': '# Rollback\n\nThe rollback word is emberlark.\n' },
    });
    // The webhook went to the front, the job to the worker, the index into globex's database.
    const sql = await openInstallationDatabase(frontDatabase!.url, ids['globex']!);
    try {
      await within(30_000, async () => (await readIndexHeads(sql)).get('wiki') === head, 'the worker indexed the push');
    } finally {
      await sql.close();
    }
    await within(20_000, () => finds(client, 'emberlark', 'guides/rollback.md'), 'the instance answers with the push');
  }, 90_000);

  it('stops an idle instance, answers tools/list from the store while none runs, and starts it again on the next call', async () => {
    const { client } = await signIn('carol', 'globex');
    await call(client, 'read_note', { repo: 'wiki', path: 'guides/deploy.md' });
    const started = events('instance_started', 'globex');
    await within(
      (idleSeconds + 20) * 1000,
      async () => events('instance_exited', 'globex') >= started,
      'the globex instance exits when idle',
    );

    // Nothing runs for globex now: the list comes from the store, before any instance listens.
    expect(await listedRepos(client)).toEqual(['runbook', 'wiki']);
    expect(events('instance_started', 'globex')).toBe(started);
    // The call after it is answered by the instance the list woke (or the call started).
    const note = await call(client, 'read_note', { repo: 'runbook', path: 'oncall.md' });
    expect(note['content']).toContain('Page the team.');
    await within(10_000, async () => events('instance_started', 'globex') === started + 1, 'one new globex instance');
  }, 120_000);
});
