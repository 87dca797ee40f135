// `major-vault worker` against the GitHub stand-in and the Postgres server (needs DATABASE_URL):
// a push then an index-repo job makes the note searchable in the installation's own database,
// a `.vault/` change then build-catalogue changes the stored source and answers, a new
// installation is indexed by refresh-installation, drop-installation drops its database, and a
// worker killed mid-job loses nothing. Each test has its own stand-in (installation ids of its
// own), Store and queue schemas, dropped after.
import { execFile, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { storedCatalogueFor } from '../catalogue/catalogue-builder.ts';
import { startGitHubStandin } from '../github-standin/standin.ts';
import type { GitHubStandin } from '../github-standin/standin-api.ts';
import { silentLogger } from '../instance/log.ts';
import { createNoteIndex } from '../note-index/note-index.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import type { Store } from '../store/store.ts';
import { allTools } from '../tools/all-tools.ts';
import {
  createInstallationDatabase,
  dropInstallationDatabase,
  installationDatabaseName,
  openInstallationDatabase,
} from './installation-database.ts';
import { openPostgresStore, type OpenedStore } from './open-store.ts';
import { openJobSender } from './queue-settings.ts';
import { runWorker, type RunningWorker, type WorkerObservers, type WorkerSettings } from './worker.ts';

const databaseUrl = process.env['DATABASE_URL'];
const runTs = join(import.meta.dirname, '..', '..', 'bin', 'run-ts.js');
const workerChild = join(import.meta.dirname, '..', '..', 'test', 'support', 'worker-child.ts');
const bin = join(import.meta.dirname, '..', '..', 'bin', 'major-vault.js');

const app = {
  id: 4343,
  slug: 'major-vault-worker',
  clientId: 'Iv1.worker000000000',
  clientSecret: 'worker-secret',
  webhookSecret: 'worker-hooks',
};
const people = [{ login: 'alice', name: 'Alice Arden', email: 'alice@acme.example', password: 'alice-pw' }];

/** Quick queue timing: short polls and expiry, retries a second apart, no heartbeat (pg-boss takes 10 s or more). */
const quick: WorkerSettings['queueTiming'] = {
  pollingIntervalSeconds: 0.5,
  monitorIntervalSeconds: 1,
  retryDelaySeconds: 1,
  expireInSeconds: 5,
  heartbeatSeconds: null,
};

/** One test's world: the stand-in with acme's handbook and plans installed, the Store, the installation's database, and a worker. */
interface World {
  standin: GitHubStandin;
  installationId: number;
  store: Store;
  settings: WorkerSettings;
  /** The installation's database, as the instance would open it. */
  sql: SqlClient;
  worker: RunningWorker | null;
}

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startWorld(options: { startWorker?: boolean; observers?: WorkerObservers } = {}): Promise<World> {
  const dir = tempDir('mv-worker-');
  cleanups.push(() => dir.cleanup());
  // Installation ids of this test's own: their databases are named after them on a shared server.
  const firstInstallationId = randomInt(700_000_000, 799_000_000);
  const standin = await startGitHubStandin({ dataDir: join(dir.path, 'github'), app, people, webhookUrl: null, firstInstallationId });
  cleanups.push(() => standin.close());
  await standin.createRepo('acme', 'handbook', [
    {
      message: 'Start',
      author: 'alice',
      files: { 'README.md': '# Handbook\n', 'policies/travel.md': '# Travel\n\nThe per diem is 40 euros.\n' },
    },
  ]);
  await standin.createRepo('acme', 'plans', [
    { message: 'Plan', author: 'alice', files: { 'launch.md': '# Launch\n\nCodename bluefinch.\n' } },
  ]);
  const installationId = await standin.install('acme', 'all');
  standin.grant('acme', 'handbook', 'alice', 'push');
  const suffix = `${process.pid}_${randomInt(1_000_000)}`;
  const storeSchema = `t_wstore_${suffix}`;
  const queueSchema = `t_wqueue_${suffix}`;
  cleanups.push(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      for (const schema of [storeSchema, queueSchema]) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await admin.end();
    }
    await dropInstallationDatabase(databaseUrl!, installationId);
  });
  const opened: OpenedStore = await openPostgresStore(databaseUrl!, storeSchema);
  cleanups.push(() => opened.close());
  // What `major-vault installation on` does on a Postgres Store: the database, then the switch.
  await createInstallationDatabase(databaseUrl!, installationId);
  await opened.store.installations.seen(installationId, 'acme');
  await opened.store.installations.switchOn(installationId, 'acme');
  const sql = await openInstallationDatabase(databaseUrl!, installationId, { maxConnections: 1 });
  cleanups.push(() => sql.close().catch(() => undefined));
  const settings: WorkerSettings = {
    app: {
      appId: app.id,
      privateKey: standin.app.privateKey,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      webhookSecret: app.webhookSecret,
      apiUrl: standin.apiUrl,
      webUrl: standin.origin,
    },
    databaseUrl: databaseUrl!,
    storeSchema,
    queueSchema,
    dataDir: join(dir.path, 'worker'),
    concurrency: 2,
    queueTiming: quick,
  };
  const world: World = { standin, installationId, store: opened.store, settings, sql, worker: null };
  if (options.startWorker !== false) {
    world.worker = await runWorker(settings, { log: silentLogger(), ...(options.observers ? { observers: options.observers } : {}) });
    cleanups.push(() => world.worker?.close());
  }
  return world;
}

/** Polls `check` every 50 ms until it is true; fails after `ms`. */
async function until(ms: number, check: () => Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`Not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The notes of `repo` in the installation's database whose text holds `needle`. */
async function found(sql: SqlClient, repo: string, needle: string): Promise<string[]> {
  const notes = await createNoteIndex(sql).scanNotes([{ repo, prefixes: [''] }], { needle, caseSensitive: false, after: null, limit: 50 });
  return notes.map((note) => note.path);
}

async function indexedHead(sql: SqlClient, repo: string): Promise<string | null> {
  return (await createNoteIndex(sql).repoState(repo))?.head ?? null;
}

describe.skipIf(!databaseUrl)('the worker', () => {
  it('indexes a new installation on refresh-installation, then a push on index-repo, in the installation’s own database', async () => {
    const done: string[] = [];
    const indexed: Array<{ installation: string; repo: string; lagSeconds: number }> = [];
    const world = await startWorld({
      observers: {
        onJobDone: (record) => done.push(`${record.job} ${record.outcome}`),
        onIndexed: (record) => indexed.push(record),
      },
    });
    const { worker, sql, installationId } = world;
    await worker!.jobs.send({ name: 'refresh-installation', installationId });
    await until(15_000, async () => (await found(sql, 'plans', 'bluefinch')).length > 0, 'plans is indexed');
    expect(await found(sql, 'handbook', 'per diem')).toEqual(['policies/travel.md']);
    await until(5000, async () => (await world.store.catalogues.source(installationId)) !== null, 'the catalogue is built');
    expect((await world.store.catalogues.source(installationId))!.repos.map((repo) => repo.name)).toEqual(['handbook', 'plans']);

    const head = await world.standin.push('acme', 'handbook', {
      message: 'Add the zanzibar note',
      author: 'alice',
      files: { 'trips/zanzibar.md': '# Zanzibar\n\nThe spice islands trip is in May.\n' },
    });
    const pushed = Date.now();
    await worker!.jobs.send({ name: 'index-repo', installationId, repo: 'handbook' });
    await until(10_000, async () => (await found(sql, 'handbook', 'spice islands')).length > 0, 'the pushed note is searchable');
    expect(Date.now() - pushed).toBeLessThan(5000);
    expect(await indexedHead(sql, 'handbook')).toBe(head);
    // What the metrics are told: the runs, and how far behind the push the index was.
    await until(2000, async () => done.includes('index-repo completed'), 'the run is counted');
    expect(done).toContain('refresh-installation completed');
    expect(indexed).toEqual([{ installationId, installation: 'acme', repo: 'handbook', lagSeconds: expect.any(Number) }]);
    expect(indexed[0]!.lagSeconds).toBeLessThan(5);
    expect((await worker!.queueStats()).map((queue) => queue.queue)).toEqual([
      'index-repo',
      'refresh-installation',
      'build-catalogue',
      'drop-installation',
    ]);
  });

  it('builds the catalogue again after a .vault/ change: the stored source and the answers of the sets in use', async () => {
    const world = await startWorld();
    const { worker, installationId, store } = world;
    await worker!.jobs.send({ name: 'build-catalogue', installationId });
    await until(10_000, async () => (await store.catalogues.source(installationId)) !== null, 'the first catalogue');
    const first = (await store.catalogues.source(installationId))!;
    expect(first.repos.find((repo) => repo.name === 'handbook')).toEqual({
      name: 'handbook',
      summary: null,
      instructions: null,
      specialTools: [],
    });
    // The front answered someone who reads handbook only.
    await store.catalogues.putAnswer(installationId, first.version, ['handbook'], storedCatalogueFor(allTools, first.repos, ['handbook']));

    await world.standin.push('acme', 'handbook', {
      message: 'Describe the handbook',
      author: 'alice',
      files: {
        '.vault/settings.jsonc': '{ "summary": "How Acme works" }\n',
        '.vault/instructions.md': 'Quote the policy before you answer.\n',
      },
    });
    await worker!.jobs.send({ name: 'build-catalogue', installationId });
    await until(10_000, async () => (await store.catalogues.source(installationId))?.version !== first.version, 'a new version');
    const second = (await store.catalogues.source(installationId))!;
    expect(second.repos.find((repo) => repo.name === 'handbook')).toEqual({
      name: 'handbook',
      summary: 'How Acme works',
      instructions: 'Quote the policy before you answer.',
      specialTools: [],
    });
    const answer = await store.catalogues.answer(installationId, second.version, ['handbook']);
    expect(answer?.instructions).toContain('Quote the policy before you answer.');
    expect(JSON.stringify(answer?.tools)).toContain('How Acme works');
    // The old version's answer is gone: no one can reach it any more.
    expect(await store.catalogues.answer(installationId, first.version, ['handbook'])).toBeNull();
  });

  it('drops the installation’s database, catalogue and mirrors on drop-installation', async () => {
    const world = await startWorld();
    const { worker, installationId, store } = world;
    await worker!.jobs.send({ name: 'refresh-installation', installationId });
    await until(15_000, async () => (await store.catalogues.source(installationId)) !== null, 'indexed and catalogued');
    const mirrors = join(world.settings.dataDir, 'installations', String(installationId));
    expect(existsSync(mirrors)).toBe(true);
    await world.sql.close();
    await worker!.jobs.send({ name: 'drop-installation', installationId });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // The mirrors go last.
      await until(10_000, async () => !existsSync(mirrors), 'the installation is dropped');
      const databases = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [installationDatabaseName(installationId)]);
      expect(databases.rows).toHaveLength(0);
    } finally {
      await admin.end();
    }
    expect(await store.catalogues.source(installationId)).toBeNull();
  });

  it('skips the jobs of an installation that is not switched on', async () => {
    const world = await startWorld();
    const { worker, installationId, store, sql } = world;
    await store.installations.switchOff(installationId);
    await worker!.jobs.send({ name: 'refresh-installation', installationId });
    await worker!.jobs.send({ name: 'index-repo', installationId, repo: 'plans' });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await indexedHead(sql, 'plans')).toBeNull();
    expect(await store.catalogues.source(installationId)).toBeNull();
  });

  it('loses nothing when the worker process is killed mid-job: the job runs again and the index converges', async () => {
    const world = await startWorld({ startWorker: false });
    const { installationId, sql, settings } = world;
    const child = spawn(process.execPath, [runTs, workerChild, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    let ready = false;
    let started = false;
    createInterface({ input: child.stdout! }).on('line', (line) => (ready ||= line === 'READY'));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (line.includes('"event":"job_started"') && line.includes('"job":"index-repo"')) started = true;
    });
    await until(30_000, async () => ready, 'the child worker takes jobs');
    // A push of many notes, so the run takes a while: fetching and indexing them.
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`bulk/note-${i}.md`] = `# Note ${i}\n\nBulk line ${i} mentions quokka${i}.\n`;
    const head = await world.standin.push('acme', 'handbook', { message: 'Bulk notes', author: 'alice', files });
    // Sent as the front sends (the queue's timing is the child worker's: runs expire after 5 s).
    const jobs = await openJobSender({ databaseUrl: databaseUrl!, schema: settings.queueSchema! });
    cleanups.push(() => jobs.close({ timeoutMs: 0 }));
    await jobs.send({ name: 'index-repo', installationId, repo: 'handbook' });
    await until(15_000, async () => started, 'the child starts the index-repo run');
    child.kill('SIGKILL');
    await exited;
    // Killed mid-run: the index does not have the push yet.
    expect(await indexedHead(sql, 'handbook')).not.toBe(head);

    const restarted = await runWorker(settings, { log: silentLogger() });
    cleanups.push(() => restarted.close());
    await until(30_000, async () => (await indexedHead(sql, 'handbook')) === head, 'the run runs again after its expiry');
    expect(await found(sql, 'handbook', 'quokka599')).toEqual(['bulk/note-599.md']);
    expect((await createNoteIndex(sql).notePaths('handbook')).filter((path) => path.startsWith('bulk/'))).toHaveLength(600);
  });

  it('runs as an operator would: `installation on` makes the database and the `major-vault worker` process indexes it', async () => {
    const world = await startWorld({ startWorker: false });
    const { installationId } = world;
    // A database of this test's own, so the Store and the queue are in their default schemas.
    const name = `t_worker_cli_${process.pid}_${randomInt(1_000_000)}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    cleanups.push(async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    });
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    const env = {
      ...process.env,
      DATABASE_URL: url.href,
      MAJOR_VAULT_QUEUE_DATABASE_URL: '',
      MAJOR_VAULT_GITHUB_APP_ID: String(app.id),
      MAJOR_VAULT_GITHUB_PRIVATE_KEY: world.standin.app.privateKey,
      MAJOR_VAULT_GITHUB_CLIENT_ID: app.clientId,
      MAJOR_VAULT_GITHUB_CLIENT_SECRET: app.clientSecret,
      MAJOR_VAULT_GITHUB_WEBHOOK_SECRET: app.webhookSecret,
      MAJOR_VAULT_GITHUB_API_URL: world.standin.apiUrl,
      MAJOR_VAULT_GITHUB_WEB_URL: world.standin.origin,
    };
    const store = await openPostgresStore(url.href);
    cleanups.push(() => store.close());
    await store.store.installations.seen(installationId, 'acme');

    const child = spawn(
      process.execPath,
      [bin, 'worker', '--data', world.settings.dataDir, '--concurrency', '2', '--ops-port', '0', '--ops-host', '127.0.0.1'],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr!.resume();
    await until(30_000, async () => out.includes('Major Vault worker taking jobs'), 'the worker starts');

    const on = await promisify(execFile)(process.execPath, [bin, 'installation', 'on', String(installationId), '--name', 'acme'], { env });
    expect(on.stdout).toContain(`Installation ${installationId} (acme) is on, at /acme.`);
    expect(on.stdout).toContain(`Its database ${installationDatabaseName(installationId)} is ready`);
    await until(20_000, async () => (await found(world.sql, 'plans', 'bluefinch')).length > 0, 'the worker indexes the installation');
    await until(10_000, async () => (await store.store.catalogues.source(installationId)) !== null, 'and builds its catalogue');
    // Its operations port: alive, ready, and the jobs it ran in its metrics.
    const ops = /Health, readiness and metrics at (\S+)/.exec(out)![1]!;
    expect((await fetch(new URL('/healthz', ops))).status).toBe(200);
    const ready = await fetch(new URL('/readyz', ops));
    expect(ready.status, await ready.clone().text()).toBe(200);
    const metrics = await (await fetch(new URL('/metrics', ops))).text();
    expect(metrics).toMatch(/major_vault_jobs_total\{[^}]*queue="refresh-installation"[^}]*outcome="completed"[^}]*\} 1/);
    expect(metrics).toMatch(/major_vault_job_queue_depth\{[^}]*queue="index-repo"/);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
