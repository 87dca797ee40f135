// The hosted jobs on pg-boss against the Postgres server: bursts coalesce per repository,
// repositories run side by side, failures are retried with backoff, and a run whose worker was
// killed runs again after its expiry. Each test has a queue schema of its own, dropped after.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { fromPglite } from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../note-index/pglite-client.ts';
import type { HostedJob } from './hosted-jobs.ts';
import { PgBossJobs, singletonKeyOf, type QueueTiming } from './pg-boss-jobs.ts';

const databaseUrl = process.env['DATABASE_URL'];
const runTs = join(import.meta.dirname, '..', '..', 'bin', 'run-ts.js');
const childWorker = join(import.meta.dirname, '..', '..', 'test', 'support', 'queue-worker-child.ts');

/** Quick timing for tests: short polls, retries a second apart, no heartbeat. */
const quick: Partial<QueueTiming> = {
  pollingIntervalSeconds: 0.5,
  monitorIntervalSeconds: 1,
  retryDelaySeconds: 1,
  heartbeatSeconds: null,
};

const opened: PgBossJobs[] = [];
const schemas: string[] = [];

function newSchema(): string {
  const schema = `q_${randomBytes(5).toString('hex')}`;
  schemas.push(schema);
  return schema;
}

async function open(schema: string, timing: Partial<QueueTiming> = {}): Promise<PgBossJobs> {
  const jobs = await PgBossJobs.open({ database: { databaseUrl: databaseUrl! }, schema, worker: true, timing: { ...quick, ...timing } });
  opened.push(jobs);
  return jobs;
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Polls `check` every 25 ms until it is true; fails after `ms`. */
async function until(ms: number, check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`Not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  for (const jobs of opened.splice(0)) await jobs.close({ timeoutMs: 1000 });
  if (schemas.length === 0) return;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    for (const schema of schemas.splice(0)) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
});

describe('singletonKeyOf', () => {
  it('keys index-repo by installation and repository, the others by installation', () => {
    expect(singletonKeyOf({ name: 'index-repo', installationId: 7, repo: 'notes' })).toBe('7/notes');
    expect(singletonKeyOf({ name: 'build-catalogue', installationId: 7 })).toBe('7');
    expect(singletonKeyOf({ name: 'drop-installation', installationId: 12 })).toBe('12');
  });
});

describe.skipIf(!databaseUrl)('PgBossJobs on Postgres', () => {
  it('coalesces a burst of 50 sends for one repository into the run going on plus one, started after the last send', async () => {
    const jobs = await open(newSchema());
    const first = gate();
    const starts: number[] = [];
    let active = 0;
    let most = 0;
    await jobs.work('index-repo', 4, async () => {
      active += 1;
      most = Math.max(most, active);
      starts.push(Date.now());
      if (starts.length === 1) await first.opened;
      active -= 1;
    });
    const job: HostedJob = { name: 'index-repo', installationId: 1, repo: 'notes' };
    await jobs.send(job);
    await until(5000, () => starts.length === 1, 'the first run starts');
    await Promise.all(Array.from({ length: 50 }, () => jobs.send(job)));
    const lastSend = Date.now();
    first.open();
    await until(5000, () => starts.length === 2 && active === 0, 'the queued run runs');
    // Nothing else was queued: no third run comes (several polls later).
    await sleep(1500);
    expect(starts).toHaveLength(2);
    expect(starts[1]!).toBeGreaterThanOrEqual(lastSend);
    expect(most).toBe(1);
  });

  it('counts the jobs waiting per queue for the metrics, and tells a run when its job was queued', async () => {
    const jobs = await open(newSchema());
    const before = Date.now();
    for (const repo of ['a', 'b', 'c']) await jobs.send({ name: 'index-repo', installationId: 5, repo });
    await jobs.send({ name: 'build-catalogue', installationId: 5 });
    let stats = await jobs.queueStats();
    // The counts are pg-boss's monitor's (every second here).
    for (let i = 0; i < 100 && stats.find((queue) => queue.queue === 'index-repo')?.depth !== 3; i++) {
      await sleep(100);
      stats = await jobs.queueStats();
    }
    expect(stats).toEqual([
      { queue: 'index-repo', depth: 3, oldestAgeSeconds: expect.any(Number) },
      { queue: 'refresh-installation', depth: 0, oldestAgeSeconds: 0 },
      { queue: 'build-catalogue', depth: 1, oldestAgeSeconds: expect.any(Number) },
      { queue: 'drop-installation', depth: 0, oldestAgeSeconds: 0 },
    ]);
    const runs: Array<{ repo: string; queuedAt: Date; retry: number }> = [];
    await jobs.work('index-repo', 3, async (job, run) => {
      runs.push({ repo: job.repo, queuedAt: run.queuedAt, retry: run.retry });
    });
    await until(5000, () => runs.length === 3, 'the three runs');
    for (const run of runs) {
      expect(run.queuedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(run.queuedAt.getTime()).toBeLessThanOrEqual(Date.now());
      expect(run.retry).toBe(0);
    }
  });

  it('runs different repositories side by side, and sends of other names apart', async () => {
    const jobs = await open(newSchema());
    const both = gate();
    const running = new Set<string>();
    let together = 0;
    await jobs.work('index-repo', 2, async (job) => {
      running.add(job.repo);
      together = Math.max(together, running.size);
      if (running.size === 2) both.open();
      await Promise.race([both.opened, sleep(5000)]);
      running.delete(job.repo);
    });
    const catalogues: number[] = [];
    await jobs.work('build-catalogue', 1, async (job) => {
      catalogues.push(job.installationId);
    });
    await jobs.send({ name: 'index-repo', installationId: 1, repo: 'notes' });
    await jobs.send({ name: 'index-repo', installationId: 1, repo: 'plans' });
    await jobs.send({ name: 'build-catalogue', installationId: 1 });
    await jobs.send({ name: 'build-catalogue', installationId: 2 });
    await until(5000, () => together === 2, 'both repositories run at once');
    await until(5000, () => catalogues.length === 2, 'both installations get their catalogue');
    expect(catalogues.sort()).toEqual([1, 2]);
  });

  it('retries a failing job with exponential backoff', async () => {
    const jobs = await open(newSchema(), { retryLimit: 3 });
    const tries: number[] = [];
    let done = false;
    await jobs.work('refresh-installation', 1, async () => {
      tries.push(Date.now());
      if (tries.length <= 2) throw new Error(`GitHub said 502 (try ${tries.length})`);
      done = true;
    });
    await jobs.send({ name: 'refresh-installation', installationId: 3 });
    await until(15_000, () => done, 'the third try succeeds');
    const gaps = [tries[1]! - tries[0]!, tries[2]! - tries[1]!];
    // pg-boss's backoff: retryDelay × 2^n × (½ + ½·random) after the nth failure: 1–2 s, then 2–4 s.
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[1]).toBeGreaterThanOrEqual(1900);
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
  });

  it('runs a job again after its expiry when its worker process was killed mid-run', async () => {
    const schema = newSchema();
    // The queue's timing comes from the worker that opens it: runs expire after 2 s.
    const jobs = await open(schema, { expireInSeconds: 2 });
    const child = spawn(process.execPath, [runTs, childWorker, databaseUrl!, schema], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await until(20_000, () => lines.includes('READY'), 'the child worker is ready');
      await jobs.send({ name: 'index-repo', installationId: 4, repo: 'notes' });
      await until(10_000, () => lines.includes('STARTED notes'), 'the child starts the run');
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const killedAt = Date.now();
    const reruns: number[] = [];
    await jobs.work('index-repo', 1, async (job) => {
      reruns.push(Date.now());
      expect(job.repo).toBe('notes');
    });
    await until(15_000, () => reruns.length === 1, 'the abandoned run runs again');
    expect(reruns[0]! - killedAt).toBeLessThan(10_000);
  });
});

describe('PgBossJobs on PGlite (the embedded default could share the code)', () => {
  it("coalesces a burst through pg-boss's PGlite adapter too", async () => {
    // An empty database from the index's template: no initdb (seconds of CPU) per test.
    const db = await PGlite.create({ loadDataDir: (await pgliteTemplate()).tarball });
    const jobs = await PgBossJobs.open({ database: { db: fromPglite(db), backend: 'pglite' }, worker: true, timing: quick });
    try {
      const first = gate();
      const starts: number[] = [];
      await jobs.work('index-repo', 2, async () => {
        starts.push(Date.now());
        if (starts.length === 1) await first.opened;
      });
      const job: HostedJob = { name: 'index-repo', installationId: 1, repo: 'notes' };
      await jobs.send(job);
      await until(5000, () => starts.length === 1, 'the first run starts');
      for (let i = 0; i < 20; i++) await jobs.send(job);
      const lastSend = Date.now();
      first.open();
      await until(5000, () => starts.length === 2, 'the queued run runs');
      await sleep(1000);
      expect(starts).toHaveLength(2);
      expect(starts[1]!).toBeGreaterThanOrEqual(lastSend);
    } finally {
      await jobs.close({ timeoutMs: 1000 });
      await db.close();
    }
  });
});
