// The hosted jobs on a Postgres-backed queue (issue 13, "The worker"): pg-boss 12 in a schema of
// its own. Each job name is a queue with policy `stately` and one singleton key per repository
// (`index-repo`) or installation (the others), so a burst of sends for one key costs at most the
// run going on plus one queued run, which starts after the last send and so sees everything
// sent before it. A run that fails is retried with exponential backoff; a run whose worker died
// (killed, out of memory) is taken again once its heartbeat stops or it expires.
import { PgBoss, type ConstructorOptions, type Db, type Job, type JobWithMetadata, type QueueOptions } from 'pg-boss';
import { z } from 'zod';
import type { HostedJob, HostedJobName, JobSender } from './hosted-jobs.ts';

/** The Postgres schema the queue lives in, unless told otherwise (DESIGN: `major_vault_queue` of DATABASE_URL's database). */
export const defaultQueueSchema = 'major_vault_queue';

/** Every job name, each a queue of its own. */
export const hostedJobNames: readonly HostedJobName[] = ['index-repo', 'refresh-installation', 'build-catalogue', 'drop-installation'];

/** Where the queue's tables are: a Postgres server (pg-boss's own pool), or a database handed in (PGlite through pg-boss's adapter). */
export type QueueDatabase =
  | {
      /** e.g. `postgres://mv@db:5432/major_vault`. */
      databaseUrl: string;
      /** The pool's size; default 2 for a process that only sends, the concurrency plus 3 for a worker. */
      maxConnections?: number;
    }
  | {
      /** An open database in pg-boss's `executeSql` form, e.g. `fromPglite(pglite)` from `pg-boss`. */
      db: Db;
      /** `pglite` for PGlite (one connection, no table partitioning). */
      backend: 'pglite' | 'postgres';
    };

/** How jobs are retried and given up on; every value in seconds except {@link retryLimit}. */
export interface QueueTiming {
  /** How many times a failed or abandoned run is tried again (default 8). */
  retryLimit: number;
  /** The first retry's delay; each next one doubles, with jitter (pg-boss `retryBackoff`) (default 2). */
  retryDelaySeconds: number;
  /** The longest delay between two tries (default 300). */
  retryDelayMaxSeconds: number;
  /** How long one run may take before it counts as failed and is tried again (default 900: a first index of a large repository). */
  expireInSeconds: number;
  /**
   * How often a running job tells the queue it is alive; a run whose heartbeats stop for this
   * long (its worker was killed) is tried again without waiting for {@link expireInSeconds}.
   * pg-boss takes 10 or more; null: none (default 30).
   */
  heartbeatSeconds: number | null;
  /** How often the worker looks for expired runs and stopped heartbeats (pg-boss `monitorIntervalSeconds`, default 10). */
  monitorIntervalSeconds: number;
  /** How often an idle worker looks for jobs when no notification woke it (default 2; 0.5 or more). */
  pollingIntervalSeconds: number;
}

/** The timing of a queue nobody tuned: see each field of {@link QueueTiming}. */
export const defaultQueueTiming: QueueTiming = {
  retryLimit: 8,
  retryDelaySeconds: 2,
  retryDelayMaxSeconds: 300,
  expireInSeconds: 900,
  heartbeatSeconds: 30,
  monitorIntervalSeconds: 10,
  pollingIntervalSeconds: 2,
};

/** What {@link PgBossJobs.open} is given. */
export interface PgBossJobsOptions {
  database: QueueDatabase;
  /** The schema of the queue's tables; default {@link defaultQueueSchema}. A plain identifier. */
  schema?: string;
  /**
   * True for the worker: it sets the queues' timing, and watches for expired runs and stopped
   * heartbeats (pg-boss `supervise`). A process that only sends (the front, the operator's
   * command) leaves it false.
   */
  worker?: boolean;
  timing?: Partial<QueueTiming>;
  /** Where the queue's own failures go (a lost connection, a run that failed and will be retried); default: nowhere. */
  onError?: (error: Error, context: { job?: HostedJobName }) => void;
}

/** What a run knows of its job besides its data. */
export interface HostedJobRun {
  /** Aborted when the queue stops or gives the run up (it expired). */
  signal: AbortSignal;
  /** When the job was queued: for a coalesced burst, the first send that nothing ran after yet (so now minus this is how far behind the run is). */
  queuedAt: Date;
  /** 0 for the first try, then 1, 2, … for each retry. */
  retry: number;
}

/** Runs one job; a rejection fails the run, which is then retried with backoff (see {@link QueueTiming}). */
export type HostedJobHandler<N extends HostedJobName> = (job: Extract<HostedJob, { name: N }>, run: HostedJobRun) => Promise<void>;

/** One queue's state for the metrics: jobs waiting (queued or waiting to retry) and how long the oldest ready one has waited, in seconds. */
export interface HostedQueueStats {
  queue: HostedJobName;
  depth: number;
  oldestAgeSeconds: number;
}

/** The data of each job as it is stored (the job less its name), parsed again when taken: a row is outside input. */
const jobData = {
  'index-repo': z.object({ installationId: z.number().int().positive(), repo: z.string().min(1) }),
  'refresh-installation': z.object({ installationId: z.number().int().positive() }),
  'build-catalogue': z.object({ installationId: z.number().int().positive() }),
  'drop-installation': z.object({ installationId: z.number().int().positive() }),
} satisfies Record<HostedJobName, z.ZodType>;

/**
 * The key runs of one job coalesce and never overlap under: `<installationId>/<repo>` for
 * `index-repo`, `<installationId>` for the others (one queue per name, so keys of two names never meet).
 */
export function singletonKeyOf(job: HostedJob): string {
  return job.name === 'index-repo' ? `${job.installationId}/${job.repo}` : String(job.installationId);
}

/**
 * The hosted jobs on pg-boss: {@link send} for whoever sends (it is the {@link JobSender} of
 * the front and the operator's command), {@link work} for the worker. Opening installs or
 * migrates pg-boss's schema (an advisory lock keeps two processes from doing it at once) and
 * creates the four queues (policy `stately`) when missing.
 */
export class PgBossJobs implements JobSender {
  private readonly workerIds = new Set<string>();
  private closed = false;

  private readonly boss: PgBoss;
  readonly schema: string;
  readonly timing: QueueTiming;
  private readonly onError: NonNullable<PgBossJobsOptions['onError']>;

  private constructor(boss: PgBoss, schema: string, timing: QueueTiming, onError: NonNullable<PgBossJobsOptions['onError']>) {
    this.boss = boss;
    this.schema = schema;
    this.timing = timing;
    this.onError = onError;
  }

  /**
   * Starts pg-boss on `options.database` and makes sure every queue exists with policy
   * `stately` (a worker also sets their timing). Throws when the database cannot be reached,
   * or when a queue of one of the job names exists with another policy (made by something else
   * in the same schema: give the queue a schema of its own).
   */
  static async open(options: PgBossJobsOptions): Promise<PgBossJobs> {
    const schema = options.schema ?? defaultQueueSchema;
    if (!/^[a-z_][a-z0-9_]*$/.test(schema))
      throw new Error(`The queue's schema ${JSON.stringify(schema)} is not a plain lower-case identifier (letters, digits, _).`);
    const timing = { ...defaultQueueTiming, ...options.timing };
    const worker = options.worker ?? false;
    const database = options.database;
    const connection: ConstructorOptions =
      'databaseUrl' in database
        ? {
            connectionString: database.databaseUrl,
            max: database.maxConnections ?? (worker ? 6 : 2),
            application_name: worker ? 'major-vault-worker' : 'major-vault-jobs',
            useListenNotify: worker,
          }
        : { db: database.db, backend: database.backend, useListenNotify: worker && database.backend === 'pglite' };
    const boss = new PgBoss({
      ...connection,
      schema,
      supervise: worker,
      schedule: false,
      monitorIntervalSeconds: timing.monitorIntervalSeconds,
      superviseIntervalSeconds: timing.monitorIntervalSeconds,
      openTelemetry: { enabled: false },
    });
    // An 'error' event nobody listens to would throw; the queue keeps going after each one.
    boss.on('error', (error: Error & { queue?: string }) => {
      const job = hostedJobNames.find((name) => name === error.queue);
      options.onError?.(error, job !== undefined ? { job } : {});
    });
    await boss.start();
    const jobs = new PgBossJobs(boss, schema, timing, options.onError ?? (() => undefined));
    try {
      for (const name of hostedJobNames) await jobs.ensureQueue(name, worker);
    } catch (error) {
      await boss.stop({ graceful: false }).catch(() => undefined);
      throw error;
    }
    return jobs;
  }

  /**
   * Queues `job` under its {@link singletonKeyOf} key. Resolves once the queue holds it, or
   * holds an equal job that has not started yet (then this send joins it: that run starts
   * after this call). Rejects when the queue cannot be reached.
   */
  async send(job: HostedJob): Promise<void> {
    if (this.closed) throw new Error('The job queue is closed.');
    const { name, ...data } = job;
    await this.boss.send(name, data, { singletonKey: singletonKeyOf(job) });
  }

  /**
   * Works on the jobs named `name` in this process, `concurrency` runs at a time (runs of one
   * key never overlap, whatever the number of workers and processes). `handler` gets the
   * parsed job and a signal aborted when the queue stops or gives the run up; a rejection
   * fails the run (retried with backoff). A row whose data does not parse is reported through
   * `onError` and completed: retrying it would not make it parse.
   */
  async work<N extends HostedJobName>(name: N, concurrency: number, handler: HostedJobHandler<N>): Promise<void> {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error(`Work on ${name} with 1 or more runs at a time, not ${concurrency}.`);
    const schema = jobData[name];
    for (let i = 0; i < concurrency; i++) {
      // One pg-boss worker per run at a time, so each knows its own id (see the notice below).
      const self: { id: string | null } = { id: null };
      const id = await this.boss.work(
        name,
        {
          batchSize: 1,
          localConcurrency: 1,
          includeMetadata: true,
          pollingIntervalSeconds: this.timing.pollingIntervalSeconds,
          // Notifications wake a worker for new jobs only: retries and held-back runs are found by polling.
          notifyPollingIntervalSeconds: this.timing.pollingIntervalSeconds,
        },
        async ([row]: JobWithMetadata<unknown>[]) => {
          if (row === undefined) return;
          const parsed = schema.safeParse(row.data);
          if (!parsed.success) {
            this.reportMalformed(name, row, parsed.error);
            return;
          }
          try {
            const run: HostedJobRun = { signal: row.signal, queuedAt: new Date(row.createdOn), retry: row.retryCount };
            await handler({ name, ...parsed.data } as Extract<HostedJob, { name: N }>, run);
          } catch (error) {
            const reason = error instanceof Error ? error : new Error(String(error));
            const tries = row.retryCount < this.timing.retryLimit ? 'it will be tried again' : 'it failed for good';
            this.onError(
              new Error(`A ${name} job (${row.id}, try ${row.retryCount + 1}) failed: ${reason.message}; ${tries}.`, { cause: reason }),
              {
                job: name,
              },
            );
            throw reason;
          } finally {
            // A run of a key may have held back the next one (stately): look again at once
            // instead of after the polling interval.
            if (self.id !== null) this.boss.notifyWorker(self.id);
          }
        },
      );
      self.id = id;
      this.workerIds.add(id);
    }
  }

  /**
   * Each job name's queue as pg-boss's last monitor pass counted it (a worker runs one every
   * `monitorIntervalSeconds`): for the metrics' queue depth and oldest age.
   */
  async queueStats(): Promise<HostedQueueStats[]> {
    const queues = await this.boss.getQueues([...hostedJobNames]);
    return hostedJobNames.map((name) => {
      const queue = queues.find((found) => found.name === name);
      return { queue: name, depth: queue?.queuedCount ?? 0, oldestAgeSeconds: queue?.readyOldestSeconds ?? 0 };
    });
  }

  private reportMalformed(name: HostedJobName, row: Job<unknown>, error: z.ZodError): void {
    this.onError(new Error(`A ${name} job (${row.id}) has data that is not a job's: ${error.message}; it is dropped.`), {
      job: name,
    });
  }

  /**
   * Stops taking jobs and waits up to `timeoutMs` (default 30 s) for the runs going on; a run
   * still going then is left to expire and run again elsewhere. Closes pg-boss's pool.
   */
  async close(options: { timeoutMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.boss.stop({ graceful: true, close: true, timeout: options.timeoutMs ?? 30_000 });
  }

  /** Creates queue `name` when missing; a worker also sets its timing. Throws when it exists with another policy. */
  private async ensureQueue(name: HostedJobName, worker: boolean): Promise<void> {
    const options: QueueOptions = {
      retryLimit: this.timing.retryLimit,
      retryDelay: this.timing.retryDelaySeconds,
      retryBackoff: true,
      retryDelayMax: this.timing.retryDelayMaxSeconds,
      expireInSeconds: this.timing.expireInSeconds,
      ...(this.timing.heartbeatSeconds !== null ? { heartbeatSeconds: this.timing.heartbeatSeconds } : {}),
    };
    await this.boss.createQueue(name, { ...options, policy: 'stately', notify: true });
    const queue = await this.boss.getQueue(name);
    if (queue?.policy !== 'stately') {
      throw new Error(
        `The queue ${name} in schema ${this.schema} has policy ${queue?.policy ?? 'none'}, not stately: it was made by something else. Give Major Vault's queue a schema of its own.`,
      );
    }
    if (worker) await this.boss.updateQueue(name, { ...options, notify: true });
  }
}
