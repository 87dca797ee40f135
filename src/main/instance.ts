// Composition root of `major-vault instance` (issue 13, "The instance"): one installation's
// tools served from its own Postgres database and its own mirrors, over HTTP at `/<name>`, for
// the hosted front to forward to. It checks every token itself (the front's sealed token,
// then GitHub, kept 15 minutes per token hash) and never trusts the front about the caller.
// The worker indexes pushes into the database; the instance polls the heads stored there and
// fetches its own mirrors (repo-host/index-heads-poll.ts). No authorization server, no
// webhooks: the front has those. With an idle time it stops by itself (scale to zero).
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { shutdownDrainMs } from '../front/http-front.ts';
import { implementedTools } from '../instance/all-tools.ts';
import type { IndexProgress, Installation } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import type { Tool } from '../instance/tool.ts';
import { InProcessQueue } from '../jobs/in-process-queue.ts';
import { readIndexHeads } from '../note-index/index-heads.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { createMetrics, type Metrics } from '../operations/metrics.ts';
import { databaseCheck } from '../operations/readiness.ts';
import { withOperations, type OperationsHandler } from '../operations/with-operations.ts';
import { startWorkerPool } from '../pool/worker-pool.ts';
import { createGitHubApp, type GitHubApp } from '../repo-host/github/github-app.ts';
import { IndexHeadsPoll } from '../repo-host/index-heads-poll.ts';
import { SealedTokenSignIn } from '../tokens/sealed-token-sign-in.ts';
import { TokenSealer } from '../tokens/token-sealer.ts';
import { startGitHubInstallation } from './github-installation.ts';
import type { GitHubAppSettings } from './github-settings.ts';
import { openInstallationDatabase } from './installation-database.ts';
import { checkInstallationName, installationOfAddress } from './installation-name.ts';
import { processLogger } from './logger.ts';
import { frontSecrets, type OAuthSettings } from './oauth-settings.ts';
import { openPostgresStore } from './open-store.ts';
import { publicOriginOf } from './public-origin.ts';
import { serveInstallation, type ServedInstallation } from './serve-installation.ts';

/** What `major-vault instance` serves, and where. */
export interface InstanceSettings {
  /** The GitHub App (its installation is the Store's record of `installation`). */
  app: GitHubAppSettings;
  /** The installation's name, as switched on in the Store (`major-vault installation on ID --name NAME`). */
  installation: string;
  /** Where this instance keeps its mirrors (`mirrors/`); one folder per installation. */
  dataDir: string;
  /** The front's database: the Store (in `storeSchema`), on the server that holds the installation's database. */
  databaseUrl: string;
  /** The Store's schema; default `major_vault_store`. */
  storeSchema?: string;
  port: number;
  /** The interface to listen on: loopback when the front starts it on the same machine; every interface in a container. */
  hostname: string;
  /**
   * The front's public address(es), e.g. `https://vault.acme.example`: a token is taken only
   * when its audience is `<public url>/<name>` for one of them (at least one).
   */
  publicUrls: readonly string[];
  /** The front's secrets, which open its sealed tokens (MAJOR_VAULT_FRONT_SECRET). */
  oauth: OAuthSettings;
  /** Stop after this long without a request, in ms (scale to zero); absent: never. */
  idleExitAfterMs?: number;
  /** How long one request to GitHub may take, in ms; default 15,000. */
  requestTimeoutMs?: number;
}

/** A running instance. */
export interface RunningInstance {
  name: string;
  installationId: number;
  /** The MCP address where it listens, e.g. `http://127.0.0.1:41234/acme`. */
  url: URL;
  installation: Installation;
  app: GitHubApp;
  /** Resolves when the instance went idle for its idle time (it closed itself first); never without one. */
  idle: Promise<void>;
  close(): Promise<void>;
}

/** How often the poll compares the database's heads with the mirrors', in ms (issue 13: once a second). */
const headsPollMs = 1000;

/**
 * `major-vault instance --installation NAME`: looks the installation up in the Store (it must
 * be switched on), mirrors its repositories in `dataDir`, opens its database
 * (`major_vault_installation_<id>`, made by switching it on) and serves it at `/<name>`.
 * Listens once the repositories are listed and their `.vault/` read (calls wait for the
 * index). Throws an Error with a sentence for the operator when a setting is wrong, the
 * installation is not on, or its database is missing.
 */
export async function serveInstance(
  settings: InstanceSettings,
  options: { log?: Logger; onProgress?: IndexProgress; tools?: readonly Tool[]; pollIntervalMs?: number; metrics?: Metrics } = {},
): Promise<RunningInstance> {
  const log = options.log ?? processLogger();
  checkInstallationName(settings.installation);
  if (settings.publicUrls.length === 0) {
    throw new Error(
      "Give the front's public address with --public-url (e.g. https://vault.acme.example): a token is taken only for an address there.",
    );
  }
  const publicOrigins = settings.publicUrls.map(publicOriginOf);
  const sealer = new TokenSealer(frontSecrets(settings.oauth.secrets));
  if (settings.idleExitAfterMs !== undefined && !(settings.idleExitAfterMs > 0)) {
    throw new Error('The idle time (--idle-exit-after) is a number of seconds above 0.');
  }

  const opened = await openPostgresStore(settings.databaseUrl, settings.storeSchema);
  const record = await opened.store.installations.byName(settings.installation).finally(() => opened.close());
  if (record === null || record.status !== 'on' || record.name === null) {
    const state =
      record === null ? 'is not switched on here (`major-vault installation list` shows the installations)' : `is ${record.status}`;
    throw new Error(
      `The installation ${JSON.stringify(settings.installation)} ${state}: switch it on with \`major-vault installation on ID --name ${settings.installation}\` (with the same DATABASE_URL), then start the instance again.`,
    );
  }
  const name = record.name;
  const installationId = record.id;
  const addresses = new Set(publicOrigins.map((origin) => new URL(`/${name}`, origin).href));

  const dataDir = resolve(settings.dataDir);
  mkdirSync(dataDir, { recursive: true });
  startWorkerPool();
  const app = createGitHubApp(
    {
      ...settings.app,
      installationId,
      dataDir,
      ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
    },
    { log },
  );
  let sql: SqlClient | null = null;
  let installation: Installation | null = null;
  let served: ServedInstallation | null = null;
  let operations: OperationsHandler | null = null;
  try {
    await app.host.start();
    sql = await openInstallationDatabase(settings.databaseUrl, installationId);
    const database = sql;
    const changes = new IndexHeadsPoll({
      indexHeads: () => readIndexHeads(database),
      mirrorHeads: async () => new Map((await app.host.listRepos()).map((repo) => [repo.name, repo.head])),
      fetchMirror: (repo) => app.host.refresh(repo),
      reloadRepos: async () => {
        await app.host.reloadRepos();
      },
      // Repositories came or went: who may read what may have changed too.
      onListed: () => {
        app.signIn.forgetAccess('all');
        served?.front.forgetAccess();
      },
      onError: (error) => log.warn({ event: 'changes_poll_failed', err: error }, 'comparing the index heads with the mirrors failed'),
      intervalMs: options.pollIntervalMs ?? headsPollMs,
    });
    installation = await startGitHubInstallation({
      name,
      host: app.host,
      sql: database,
      changes,
      queue: new InProcessQueue(),
      log,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const tools = options.tools ?? implementedTools;
    served = await serveInstallation({
      name,
      installation,
      signIn: new SealedTokenSignIn(sealer, addresses, app.signIn),
      hostname: settings.hostname,
      port: settings.port,
      tools,
      log,
      // /healthz, /readyz (its database answers), /metrics, and a request id on every line.
      wrapFetch: (fetch) => {
        operations = withOperations(fetch, {
          metrics: options.metrics ?? createMetrics({ component: 'instance', log }),
          readiness: [databaseCheck(database)],
          log,
          installationOf: (url) => (installationOfAddress(url) === name ? name : undefined),
          toolNames: tools.map((tool) => tool.name),
        });
        return operations.fetch;
      },
    });
  } catch (error) {
    await installation?.close();
    await sql?.close();
    await app.host.close();
    throw error;
  }

  const running = { installation, served, sql };
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      stopIdleWatch();
      operations?.shutDown();
      await running.served.close({ drainMs: shutdownDrainMs });
      await running.installation.close();
      await running.sql.close();
      await app.host.close();
    })());
  const { idle, stop: stopIdleWatch } = watchIdle(running.served, settings.idleExitAfterMs, async () => {
    log.info({ event: 'instance_idle', installation: name, idleMs: settings.idleExitAfterMs }, `no request for a while: stopping ${name}`);
    await close();
  });
  return { name, installationId, url: running.served.url, installation: running.installation, app, idle, close };
}

/**
 * Resolves (after `onIdle` finished) once `served` went `idleMs` without a request in
 * progress or begun; never when `idleMs` is absent. A request counts from its start to the
 * end of its answer (a stream too).
 */
function watchIdle(
  served: ServedInstallation,
  idleMs: number | undefined,
  onIdle: () => Promise<void>,
): { idle: Promise<void>; stop(): void } {
  if (idleMs === undefined) return { idle: new Promise<void>(() => undefined), stop: () => undefined };
  let active = 0;
  let lastActivity = Date.now();
  served.server.on('request', (_request, response) => {
    active += 1;
    lastActivity = Date.now();
    response.once('close', () => {
      active -= 1;
      lastActivity = Date.now();
    });
  });
  let timer: NodeJS.Timeout | null = null;
  const idle = new Promise<void>((resolveIdle) => {
    const check = () => {
      timer = null;
      const quietFor = Date.now() - lastActivity;
      if (active === 0 && quietFor >= idleMs) {
        void onIdle().finally(resolveIdle);
        return;
      }
      timer = setTimeout(check, Math.max(50, Math.min(1000, idleMs - (active === 0 ? quietFor : 0))));
    };
    timer = setTimeout(check, Math.min(1000, idleMs));
  });
  return {
    idle,
    stop: () => {
      if (timer !== null) clearTimeout(timer);
    },
  };
}
