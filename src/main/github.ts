// Composition root of one installation served from a GitHub App (issue 11): the App's
// repositories mirrored in a data folder, PGlite (or a Postgres server) as the index, the
// installation, and its HTTP front with the webhook endpoint, in one process. Changes arrive
// as GitHub's webhooks; their work (fetch a mirror, re-index, relist) runs on the in-process
// queue. With `oauth` settings people sign in through the front's authorization server
// (issue 12) and the bearer token is a sealed token of the front; without, it is the
// person's GitHub user token, which the GitHub sign-in checks against the installation. The
// Store records the App's installations (its Setup URL and `installation` webhooks); this
// process serves one, and starting it switches that one on under its name.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { githubSetupRoute } from '../front/github-setup-route.ts';
import type { Front } from '../front/http-front.ts';
import { githubWebhook, githubWebhookPath } from '../front/webhook/github-webhook.ts';
import { implementedTools } from '../instance/all-tools.ts';
import type { Installation, IndexProgress } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import type { Tool } from '../instance/tool.ts';
import { InProcessQueue } from '../jobs/in-process-queue.ts';
import { migrate } from '../note-index/migrate.ts';
import { sqlStore } from '../note-index/sql-store.ts';
import { startWorkerPool } from '../pool/worker-pool.ts';
import { createGitHubApp, type GitHubApp } from '../repo-host/github/github-app.ts';
import { GitHubWebhookChanges } from '../repo-host/github/webhook-changes.ts';
import { SealedTokenSignIn } from '../tokens/sealed-token-sign-in.ts';
import { TokenSealer } from '../tokens/token-sealer.ts';
import type { GitHubAppSettings } from './github-settings.ts';
import type { Store } from '../store/store.ts';
import { checkInstallationName } from './installation-name.ts';
import { openIndex, type OpenedIndex } from './local.ts';
import { frontSecrets, type OAuthSettings } from './oauth-settings.ts';
import { processLogger } from './logger.ts';
import { openPostgresStore, type OpenedStore } from './open-store.ts';
import { serveInstallation } from './serve-installation.ts';
import { githubAuthorizationServer } from './github-authorization.ts';
import { startGitHubInstallation } from './github-installation.ts';
import { publicOriginOf } from './public-origin.ts';

/** What `major-vault serve-github` serves, and where. */
export interface GitHubServeSettings {
  app: GitHubAppSettings;
  /**
   * The installation's name (the address's path). Default: the name the Store has it switched
   * on under, else the App's `owner`, else the account GitHub says it is installed on.
   */
  name?: string;
  /** Where the mirrors (`mirrors/`) and the PGlite index (`index/`) are kept. */
  dataDir: string;
  /** A Postgres server instead of PGlite; default `DATABASE_URL` from the environment. */
  databaseUrl?: string;
  /** The index's schema on the Postgres server; default: named after the installation. */
  schema?: string;
  /** The Store's schema on the Postgres server; default `major_vault_store` (open-store.ts). */
  storeSchema?: string;
  port: number;
  /** The interface to listen on; GitHub must reach it for the webhooks (behind a proxy: any). */
  hostname: string;
  /** How long one request to GitHub may take, in ms; default 15,000. */
  requestTimeoutMs?: number;
  /**
   * The address people and GitHub reach the server at, e.g. `https://vault.acme.example`
   * (behind a TLS proxy): its name is accepted in `Host` and `Origin`, and the announced
   * addresses use it. Default: where the server listens.
   */
  publicUrl?: string;
  /**
   * Sign-in through the front (issue 12): the front is the OAuth authorization server (issuer:
   * the public address, else where it listens), issues sealed tokens, and takes only those
   * as bearer tokens. Absent: a bearer token is the person's GitHub user token.
   */
  oauth?: OAuthSettings;
}

/** A running GitHub-backed server. */
export interface GitHubServer {
  name: string;
  /** The MCP address, `<origin>/<name>`, on the public address when one was given. */
  url: URL;
  /** The MCP address where the server listens (the same as `url` without a public address). */
  localUrl: URL;
  /** Where GitHub delivers the App's webhooks, `<origin>/webhooks/github` (behind a proxy: its public origin). */
  webhookUrl: URL;
  installationId: number;
  installation: Installation;
  app: GitHubApp;
  /** The Store: the App's installations (this one on under `name`) and the front's short records. */
  store: Store;
  close(): Promise<void>;
}

/**
 * `major-vault serve-github`: mirrors the App installation's repositories, opens the index and
 * the installation, and serves it over HTTP at `/<name>` with GitHub's webhooks at
 * `/webhooks/github`. Listens as soon as the repositories are listed and their `.vault/` read;
 * indexing goes on behind (calls wait for it). Throws an Error with a sentence for the
 * operator when a setting is wrong or GitHub refuses the App (e.g. no such installation).
 *
 * Installations: at start the installation is recorded in the Store (`seen`) and switched on
 * under its name ({@link GitHubServeSettings.name}); one the operator switched off is not
 * served (the start is refused, saying how to switch it on), and a name another installation
 * has is refused. GitHub's `installation` webhooks record every installation they name, and
 * the App's Setup URL (`/github/setup`) answers the install status page.
 */
export async function serveGitHub(
  settings: GitHubServeSettings,
  options: { log?: Logger; onProgress?: IndexProgress; tools?: readonly Tool[]; matchBudgetMs?: number } = {},
): Promise<GitHubServer> {
  const log = options.log ?? processLogger();
  if (settings.name !== undefined) checkInstallationName(settings.name);
  const publicOrigin = settings.publicUrl !== undefined ? publicOriginOf(settings.publicUrl) : null;
  // Checked before anything starts: a bad secret is the operator's to fix.
  const oauth = settings.oauth;
  const sealer = oauth ? new TokenSealer(frontSecrets(oauth.secrets)) : null;
  const dataDir = resolve(settings.dataDir);
  mkdirSync(dataDir, { recursive: true });
  startWorkerPool();
  const app = createGitHubApp(
    { ...settings.app, dataDir, ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}) },
    { log },
  );
  const installationId = await app.api.installationId();
  // A configured id is not checked by GitHub until a token is asked for; say at once when it is wrong.
  const described = await app.api.appInstallation(installationId);
  if (described === null) {
    throw new Error(
      `The GitHub App ${settings.app.appId} has no installation ${installationId} (it was uninstalled, or the id is wrong): install the App again, or set MAJOR_VAULT_GITHUB_INSTALLATION_ID or MAJOR_VAULT_GITHUB_OWNER to the installation to serve.`,
    );
  }
  if (described.suspended) {
    log.warn(
      { event: 'installation_suspended', installationId },
      `the GitHub App's installation ${installationId} is suspended: no repositories are served until it is unsuspended`,
    );
  }
  await app.host.start();

  // The Store first: the installation's name may come from it, and a Postgres index's schema is named after it.
  const databaseUrl = settings.databaseUrl || process.env['DATABASE_URL'] || undefined;
  let storeOnServer: OpenedStore | null = null;
  let index: OpenedIndex | null = null;
  const openIndexAs = (name: string) =>
    openIndex(
      {
        name,
        dataDir,
        ...(databaseUrl !== undefined ? { databaseUrl } : {}),
        ...(settings.schema !== undefined ? { schema: settings.schema } : {}),
      },
      log,
    );
  let store: Store;
  let name: string;
  try {
    if (databaseUrl !== undefined) {
      storeOnServer = await openPostgresStore(databaseUrl, settings.storeSchema);
      store = storeOnServer.store;
    } else {
      // PGlite: the Store lives in the index database, whose place does not depend on the name.
      index = await openIndexAs(settings.name ?? settings.app.owner ?? 'installation');
      await migrate(index.sql);
      store = sqlStore(index.sql);
    }
    // Where the operator's command finds this Store: the command it is told to run must work as written.
    const storePlace =
      databaseUrl !== undefined
        ? 'with the same --database-url or DATABASE_URL'
        : `with --data ${/^[\w./-]+$/.test(dataDir) ? dataDir : JSON.stringify(dataDir)}`;
    name = await switchOnAtStart(store, installationId, described.account, settings, storePlace);
    index ??= await openIndexAs(name);
  } catch (error) {
    await index?.close();
    await storeOnServer?.close();
    await app.host.close();
    throw error;
  }
  const closeStore = async () => {
    await storeOnServer?.close();
  };
  if (index.note) log.warn(index.note);
  const openedIndex = index;
  // One queue for the index updates and the webhooks' jobs (their names differ).
  const queue = new InProcessQueue();
  let front: Front | null = null;
  const changes = new GitHubWebhookChanges({
    installationId,
    queue,
    target: {
      fetchMirror: (repo) => app.host.refresh(repo),
      reloadRepos: async () => {
        await app.host.reloadRepos();
      },
      forgetRights: (login) => app.signIn.forgetAccess(login === null ? 'all' : { login }),
    },
    onError: (error, job) => log.warn({ err: error, event: 'webhook_job_failed', job }, `a webhook's work failed: ${job}`),
    // The front keeps who a token is for a few seconds too: rights that changed count at once.
    onRightsForgotten: () => front?.forgetAccess(),
    onInstallationSeen: async (id, account) => {
      await store.installations.seen(id, account);
    },
  });
  let installation: Installation | null = null;
  try {
    installation = await startGitHubInstallation({
      name,
      host: app.host,
      sql: openedIndex.sql,
      changes,
      queue,
      log,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.matchBudgetMs !== undefined ? { matchBudgetMs: options.matchBudgetMs } : {}),
    });
    const webhook = githubWebhook({ secret: settings.app.webhookSecret, receive: (delivery) => changes.receive(delivery), log });
    const served = await serveInstallation({
      name,
      installation,
      signIn: app.signIn,
      hostname: settings.hostname,
      port: settings.port,
      tools: options.tools ?? implementedTools,
      log,
      webhook,
      installStatus: githubSetupRoute({ installations: store.installations, confirm: (id) => app.api.appInstallation(id), log }),
      ...(publicOrigin ? { publicOrigin } : {}),
      ...(sealer && oauth
        ? {
            oauth: (origin: URL) => {
              const issuer = publicOrigin ?? origin;
              // The MCP address, as the public address and where it listens: a token's audience must be one of them exactly.
              const addresses = new Set([new URL(`/${name}`, issuer).href, new URL(`/${name}`, origin).href]);
              const authorization = githubAuthorizationServer({
                issuer,
                sealer,
                store,
                app: app.config,
                oauth,
                resourceFor: (resource) => (addresses.has(resource) ? { installationName: name } : null),
                log,
              });
              return { signIn: new SealedTokenSignIn(sealer, addresses, app.signIn), authorization };
            },
          }
        : {}),
    });
    front = served.front;
    const opened = installation;
    return {
      name,
      url: publicOrigin ? new URL(`/${name}`, publicOrigin) : served.url,
      webhookUrl: new URL(githubWebhookPath, publicOrigin ?? served.origin),
      localUrl: served.url,
      installationId,
      installation: opened,
      app,
      store,
      async close(closeOptions: { drainMs?: number } = {}) {
        await served.close(closeOptions);
        await opened.close();
        await openedIndex.close();
        await closeStore();
        await app.host.close();
      },
    };
  } catch (error) {
    await installation?.close();
    await openedIndex.close();
    await closeStore();
    await app.host.close();
    throw error;
  }
}

/**
 * Records the served installation in the Store and switches it on at start; returns its name:
 * `settings.name`, else the name it is on under, else the App's `owner`, else its account.
 * Throws a sentence when the operator switched it off (its command to switch it on names
 * `storePlace`, e.g. `with --data /srv/mv/data`), when no name can be found, or when
 * the name is another installation's.
 */
async function switchOnAtStart(
  store: Store,
  installationId: number,
  account: string | null,
  settings: GitHubServeSettings,
  storePlace: string,
): Promise<string> {
  const record = await store.installations.seen(installationId, account);
  if (record.status === 'off') {
    throw new Error(
      `The installation ${installationId}${record.account ? ` (${record.account})` : ''} is switched off: switch it on with \`major-vault installation on ${installationId} --name ${record.name ?? 'NAME'}\` (${storePlace}), then start the server again.`,
    );
  }
  const name = settings.name ?? (record.status === 'on' ? record.name : null) ?? settings.app.owner ?? account;
  if (name === null || name === undefined) {
    throw new Error('Give the installation a name with --name (the path of its address): GitHub names no account it is installed on.');
  }
  checkInstallationName(name);
  try {
    await store.installations.switchOn(installationId, name);
  } catch (error) {
    throw new Error(`Cannot serve installation ${installationId} as ${JSON.stringify(name)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return name;
}
