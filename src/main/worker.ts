// Composition root of `major-vault worker` (issue 13, "The worker"): takes the hosted jobs from
// the Postgres-backed queue (pg-boss) and runs them for every installation of the GitHub App.
// Each installation has its mirrors in `<data>/installations/<id>/` (a GitHubRepoHost of its
// own) and its index in its own database; a few stay open, least recently used closed first.
// Every run is idempotent: the indexer's upserts are guarded by the snapshot they came from, and
// the catalogue builder stores answers before the source that points at them.
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildStoredCatalogues } from '../catalogue/catalogue-builder.ts';
import type { CatalogueRepo } from '../catalogue/catalogue.ts';
import { specialToolsOf } from '../special-tools/special-tools-of.ts';
import { implementedTools } from '../instance/all-tools.ts';
import type { Logger } from '../instance/log.ts';
import { readVaultConfig } from '../instance/vault-configs.ts';
import type { HostedJob, HostedJobName, JobSender } from '../jobs/hosted-jobs.ts';
import { PgBossJobs, type HostedJobRun, type HostedQueueStats, type QueueTiming } from '../jobs/pg-boss-jobs.ts';
import { readIndexHeads } from '../note-index/index-heads.ts';
import { removeRepo, syncRepo } from '../note-index/indexer.ts';
import { migrate } from '../note-index/migrate.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { listenOperations, type OperationsListener } from '../operations/listen-operations.ts';
import { createMetrics } from '../operations/metrics.ts';
import { runInRequestContext, setRequestInstallation } from '../operations/request-context.ts';
import { withOperations } from '../operations/with-operations.ts';
import { createGitHubApp, type GitHubApp } from '../repo-host/github/github-app.ts';
import type { Store } from '../store/store.ts';
import type { ToolDefinition } from '../tools/tool.ts';
import { isVaultError } from '../vault-error.ts';
import type { GitHubAppSettings } from './github-settings.ts';
import { dropInstallationDatabase, installationDatabaseName, openInstallationDatabase } from './installation-database.ts';
import { processLogger } from './logger.ts';
import { OpenInstallations } from './open-installations.ts';
import { openPostgresStore } from './open-store.ts';
import { queuePlace } from './queue-settings.ts';

/** What `major-vault worker` runs with. */
export interface WorkerSettings {
  /** The GitHub App; an installation id or owner in it is ignored (the worker serves every installation). */
  app: GitHubAppSettings;
  /**
   * The front's database: the Store in schema {@link storeSchema}, the server of every
   * installation's database, and the queue unless {@link queueDatabaseUrl}. Default `DATABASE_URL`.
   */
  databaseUrl?: string;
  /** The queue's database; default `MAJOR_VAULT_QUEUE_DATABASE_URL`, else {@link databaseUrl}. */
  queueDatabaseUrl?: string;
  /** The queue's schema; default `major_vault_queue`. */
  queueSchema?: string;
  /** The Store's schema; default `major_vault_store`. */
  storeSchema?: string;
  /** Where the mirrors are kept: `<dataDir>/installations/<id>/mirrors/`. */
  dataDir: string;
  /** How many repositories are indexed at once (default 4); the other jobs run one at a time each. */
  concurrency?: number;
  /** How many installations stay open while idle (default 4; each holds up to 2 connections to its database). */
  openInstallations?: number;
  /** How long one request to GitHub may take, in ms; default 15,000. */
  requestTimeoutMs?: number;
  /** The queue's retry, expiry and polling (tests shorten them); see QueueTiming. */
  queueTiming?: Partial<QueueTiming>;
  /**
   * Where the worker answers `/healthz`, `/readyz` (the Store's database and the queue answer)
   * and `/metrics` (jobs, their duration, queue depth and age, index lag per repository);
   * absent: nowhere (the worker has no other HTTP face). Port 0 picks a free one.
   */
  ops?: { port: number; hostname: string };
}

/** A running worker. */
export interface RunningWorker {
  /** The worker's queue, to send jobs through (the same queue the front and the operator send to). */
  jobs: JobSender;
  /** Each queue's depth and oldest waiting job as of the last monitor pass: for the metrics (operations/metrics.ts `observeQueues`). */
  queueStats(): Promise<HostedQueueStats[]>;
  /** Where `/healthz`, `/readyz` and `/metrics` are answered (e.g. `http://127.0.0.1:9464`), when {@link WorkerSettings.ops} was given. */
  opsOrigin: URL | null;
  /** Stops taking jobs, waits for the runs going on (up to 30 s), and closes everything. */
  close(): Promise<void>;
}

/** What the worker tells as it works, for the metrics (operations/metrics.ts); each optional. */
export interface WorkerObservers {
  /** A run ended: `completed`, or `failed` (the queue retries it), after `seconds` (`recordJob`). */
  onJobDone?(record: { job: HostedJobName; outcome: 'completed' | 'failed'; seconds: number }): void;
  /**
   * A repository's index now holds everything pushed before its run started: `lagSeconds` from
   * the job's queueing (the webhook's arrival, for a burst the first one not yet indexed) to the
   * end of the run (`recordIndexLag`, by the installation's name).
   */
  onIndexed?(record: { installationId: number; installation: string; repo: string; lagSeconds: number }): void;
}

/** One installation as the worker keeps it open: the App's adapter for it (mirrors, tokens) and its index database. */
interface OpenInstallation {
  id: number;
  app: GitHubApp;
  sql: SqlClient;
}

/** The refusal for an installation switched on without a database (the operator's command on another Store). */
class NoInstallationDatabase extends Error {}

/**
 * `major-vault worker`: opens the Store and the queue on the front's database and works on
 * the four hosted jobs (hosted-jobs.ts) until closed:
 * - `index-repo`: fetch the repository's mirror, then bring its index up to date (a
 *   repository the installation no longer has is removed from the index);
 * - `build-catalogue`: read every repository's `.vault/` (mirrors brought to GitHub's head
 *   first) and store the installation's catalogue source and answers;
 * - `refresh-installation`: list the repositories again, index the new and changed ones,
 *   remove the gone ones from the index, then build the catalogue;
 * - `drop-installation`: drop the installation's database, its catalogue and its mirrors.
 * A job for an installation that is not switched on (or has no database) is skipped, logged.
 * Throws an Error with a sentence when a setting is wrong or a database cannot be reached.
 */
export async function runWorker(
  settings: WorkerSettings,
  options: { log?: Logger; tools?: readonly ToolDefinition[]; observers?: WorkerObservers } = {},
): Promise<RunningWorker> {
  const metrics = createMetrics({ component: 'worker', ...(options.log ? { log: options.log } : {}) });
  const observers: WorkerObservers = {
    onJobDone: (record) => {
      metrics.recordJob(record.job, record.outcome, record.seconds);
      options.observers?.onJobDone?.(record);
    },
    onIndexed: (record) => {
      metrics.recordIndexLag(record.installation, record.repo, record.lagSeconds);
      options.observers?.onIndexed?.(record);
    },
  };
  const log = options.log ?? processLogger();
  const tools = options.tools ?? implementedTools;
  const concurrency = settings.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`--concurrency is a whole number of 1 or more, not ${concurrency}.`);
  const keepOpen = settings.openInstallations ?? 4;
  if (!Number.isInteger(keepOpen) || keepOpen < 1) throw new Error(`--open-installations is a whole number of 1 or more, not ${keepOpen}.`);
  const databaseUrl = settings.databaseUrl || process.env['DATABASE_URL'];
  if (!databaseUrl) {
    throw new Error(
      "The worker needs the front's Postgres database (the installations, the catalogue store and the job queue): give --database-url or set DATABASE_URL.",
    );
  }
  const dataDir = resolve(settings.dataDir);
  mkdirSync(join(dataDir, 'installations'), { recursive: true });
  const installationDir = (id: number) => join(dataDir, 'installations', String(id));

  const opened = await openPostgresStore(databaseUrl, settings.storeSchema);
  const store: Store = opened.store;
  const installations = new OpenInstallations<OpenInstallation>({
    max: keepOpen,
    open: async (id) => {
      let sql: SqlClient;
      try {
        sql = await openInstallationDatabase(databaseUrl, id, { maxConnections: 2 });
      } catch (error) {
        if ((error as { cause?: { code?: string } }).cause?.code === '3D000') throw new NoInstallationDatabase((error as Error).message);
        throw error;
      }
      try {
        // A newer release may bring a migration; applied once, under an advisory lock.
        await migrate(sql);
      } catch (error) {
        await sql.close();
        throw error;
      }
      const { installationId: _, owner: __, ...app } = settings.app;
      const github = createGitHubApp(
        {
          ...app,
          installationId: id,
          dataDir: installationDir(id),
          ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
        },
        { log },
      );
      return { id, app: github, sql };
    },
    close: async (installation) => {
      await installation.app.host.close();
      await installation.sql.close();
    },
    onCloseError: (error, id) => log.warn({ err: error, installationId: id }, `closing installation ${id} failed`),
  });

  /** Runs `work` with installation `id` open, when it is switched on and has a database; otherwise says why it is skipped. */
  const withInstallation = async (job: HostedJob, work: (installation: OpenInstallation, name: string) => Promise<void>): Promise<void> => {
    const record = await store.installations.get(job.installationId);
    if (record?.status !== 'on') {
      log.info(
        { event: 'job_skipped', job: job.name, installationId: job.installationId, status: record?.status ?? 'unknown' },
        `${job.name} skipped: installation ${job.installationId} is not switched on`,
      );
      return;
    }
    try {
      const name = record.name ?? String(job.installationId);
      setRequestInstallation(name);
      await installations.use(job.installationId, (installation) => work(installation, name));
    } catch (error) {
      if (!(error instanceof NoInstallationDatabase)) throw error;
      log.warn(
        { event: 'job_skipped', job: job.name, installationId: job.installationId, database: installationDatabaseName(job.installationId) },
        `${job.name} skipped: ${error.message}`,
      );
    }
  };

  /** Brings `repo`'s index up to its mirror (true); a repository the installation lost is removed from the index instead (false). */
  const indexRepo = async (installation: OpenInstallation, repo: string, fetch: 'fetch' | 'if-moved'): Promise<boolean> => {
    const { app, sql, id } = installation;
    const started = performance.now();
    try {
      // After a push GitHub has moved: fetch. Otherwise ask GitHub where the branch is, and fetch only when it moved.
      if (fetch === 'fetch') await app.host.refresh(repo);
      else await app.host.head(repo);
    } catch (error) {
      if (!isVaultError(error, 'repo_not_found')) throw error;
      await removeRepo(sql, repo);
      log.info({ event: 'index_removed', installationId: id, repo }, `${repo} left installation ${id}: removed from its index`);
      return false;
    }
    const result = await syncRepo(sql, app.host, repo);
    if (result.changed > 0 || result.removed > 0) {
      log.info(
        {
          event: 'index_updated',
          installationId: id,
          repo,
          head: result.head,
          changed: result.changed,
          removed: result.removed,
          durationMs: Math.round(performance.now() - started),
        },
        `indexed ${result.changed} changed and ${result.removed} removed files of ${repo}`,
      );
    }
    return true;
  };

  /** Reads every repository's `.vault/` (mirrors at GitHub's head) and stores the catalogue. */
  const buildCatalogue = async (installation: OpenInstallation): Promise<void> => {
    const { app, id } = installation;
    const repos: CatalogueRepo[] = [];
    for (const info of await app.host.listRepos()) {
      try {
        await app.host.head(info.name);
        const { config } = await readVaultConfig(app.host, info.name);
        repos.push({
          name: info.name,
          summary: config.settings.summary,
          instructions: config.instructions,
          specialTools: specialToolsOf(config).specs,
        });
      } catch (error) {
        // Gone since the listing: it is not in the catalogue.
        if (!isVaultError(error, 'repo_not_found')) throw error;
      }
    }
    const built = await buildStoredCatalogues({ store: store.catalogues, installationId: id, tools, repos });
    log.info(
      {
        event: 'catalogue_built',
        installationId: id,
        version: built.version,
        changed: built.changed,
        answers: built.answers,
        pruned: built.pruned,
      },
      `catalogue of installation ${id}: ${built.changed ? `version ${built.version.slice(0, 12)}, ${built.answers} answers` : 'unchanged'}`,
    );
  };

  /** Lists the repositories again: the gone ones leave the index, every other one is brought up to date; then the catalogue. */
  const refreshInstallation = async (installation: OpenInstallation): Promise<void> => {
    const { app, sql, id } = installation;
    const listed = await app.host.reloadRepos();
    const names = new Set(listed.map((info) => info.name));
    // A suspended installation lists nothing for now: keep its index for when it is back.
    const suspended = listed.length === 0 && (await app.api.installationState()) === 'suspended';
    if (!suspended) {
      for (const name of (await readIndexHeads(sql)).keys()) {
        if (names.has(name)) continue;
        await removeRepo(sql, name);
        log.info({ event: 'index_removed', installationId: id, repo: name }, `${name} left installation ${id}: removed from its index`);
      }
    }
    for (const info of listed) await indexRepo(installation, info.name, 'if-moved');
    await buildCatalogue(installation);
  };

  const dropInstallation = async (id: number): Promise<void> => {
    const name = (await store.installations.get(id))?.name;
    if (name) metrics.forgetInstallation(name);
    // The catalogue first: the front stops answering for it before its database goes.
    await store.catalogues.drop(id);
    await installations.forget(id);
    await dropInstallationDatabase(databaseUrl, id);
    rmSync(installationDir(id), { recursive: true, force: true });
    log.info({ event: 'installation_dropped', installationId: id }, `installation ${id} dropped: its database, catalogue and mirrors`);
  };

  const place = queuePlace(databaseUrl, {
    ...(settings.queueDatabaseUrl !== undefined ? { queueDatabaseUrl: settings.queueDatabaseUrl } : {}),
    ...(settings.queueSchema !== undefined ? { queueSchema: settings.queueSchema } : {}),
  });
  let jobs: PgBossJobs;
  try {
    jobs = await PgBossJobs.open({
      database: { databaseUrl: place.databaseUrl, maxConnections: Math.min(10, concurrency + 4) },
      schema: place.schema,
      worker: true,
      ...(settings.queueTiming !== undefined ? { timing: settings.queueTiming } : {}),
      onError: (error, context) => log.warn({ event: 'job_failed', err: error, ...context }, error.message),
    });
  } catch (error) {
    await opened.close();
    throw error;
  }

  /** Runs one job, says what it took, and tells the observers. */
  const timed =
    <N extends HostedJobName>(run: (job: Extract<HostedJob, { name: N }>, context: HostedJobRun) => Promise<void>) =>
    (job: Extract<HostedJob, { name: N }>, context: HostedJobRun): Promise<void> =>
      // Every line a run logs carries one request id (a new one per run) and, once known, the installation's name.
      runInRequestContext({}, async () => {
        const fields = { job: job.name, installationId: job.installationId, ...('repo' in job ? { repo: job.repo } : {}) };
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        log.debug({ event: 'job_started', ...fields, retry: context.retry }, `${job.name} started`);
        try {
          await run(job, context);
        } catch (error) {
          observers.onJobDone?.({ job: job.name, outcome: 'failed', seconds: seconds() });
          throw error;
        }
        observers.onJobDone?.({ job: job.name, outcome: 'completed', seconds: seconds() });
        log.debug({ event: 'job_done', ...fields, durationMs: Math.round(seconds() * 1000) }, `${job.name} done`);
      });
  try {
    await jobs.work(
      'index-repo',
      concurrency,
      timed((job, context) =>
        withInstallation(job, async (installation, name) => {
          if (!(await indexRepo(installation, job.repo, 'fetch'))) return;
          const lagSeconds = Math.max(0, (Date.now() - context.queuedAt.getTime()) / 1000);
          observers.onIndexed?.({ installationId: job.installationId, installation: name, repo: job.repo, lagSeconds });
        }),
      ),
    );
    await jobs.work(
      'build-catalogue',
      1,
      timed((job) => withInstallation(job, (installation) => buildCatalogue(installation))),
    );
    await jobs.work(
      'refresh-installation',
      1,
      timed((job) => withInstallation(job, (installation) => refreshInstallation(installation))),
    );
    await jobs.work(
      'drop-installation',
      1,
      timed((job) => dropInstallation(job.installationId)),
    );
  } catch (error) {
    await jobs.close({ timeoutMs: 0 });
    await opened.close();
    throw error;
  }
  metrics.observeQueues(() => jobs.queueStats());
  const operations = withOperations(null, {
    metrics,
    log,
    readiness: [
      { name: 'database', check: async () => void (await store.installations.get(0)) },
      { name: 'queue', check: async () => void (await jobs.queueStats()) },
    ],
  });
  let listener: OperationsListener | null = null;
  if (settings.ops !== undefined) {
    try {
      listener = await listenOperations(operations, { ...settings.ops, log });
    } catch (error) {
      await jobs.close({ timeoutMs: 0 });
      await opened.close();
      throw new Error(
        `The worker's operations port ${settings.ops.hostname}:${settings.ops.port} cannot be listened on (${(error as Error).message}): give another with --ops-port.`,
        { cause: error },
      );
    }
  }
  log.info(
    { event: 'worker_started', concurrency, queueSchema: place.schema, ops: listener?.origin.href ?? null },
    'the worker takes jobs',
  );

  let closing: Promise<void> | null = null;
  return {
    jobs,
    queueStats: () => jobs.queueStats(),
    opsOrigin: listener?.origin ?? null,
    close() {
      closing ??= (async () => {
        operations.shutDown();
        await jobs.close();
        await installations.closeAll();
        await opened.close();
        await listener?.close();
      })();
      return closing;
    },
  };
}
