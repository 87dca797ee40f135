// Composition root of one installation served from a GitHub App (issue 11): the App's
// repositories mirrored in a data folder, PGlite (or a Postgres server) as the index, the
// installation, and its HTTP front with the webhook endpoint, in one process. Changes arrive
// as GitHub's webhooks; their work (fetch a mirror, re-index, relist) runs on the in-process
// queue. With `oauth` settings people sign in through the front's authorization server
// (issue 12) and the bearer token is a sealed token of the front; without, it is the
// person's GitHub user token, which the GitHub sign-in checks against the installation.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Front } from '../front/http-front.ts';
import { clientMetadataDocuments } from '../front/oauth/client-id-metadata-document.ts';
import { createAuthorizationServer } from '../front/oauth/authorization-server.ts';
import { githubWebhook, githubWebhookPath } from '../front/webhook/github-webhook.ts';
import { implementedTools } from '../instance/all-tools.ts';
import { Installation, type IndexProgress } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import type { Tool } from '../instance/tool.ts';
import { InProcessQueue } from '../jobs/in-process-queue.ts';
import { migrate } from '../note-index/migrate.ts';
import { sqlStore } from '../note-index/sql-store.ts';
import { startWorkerPool } from '../pool/worker-pool.ts';
import { createGitHubApp, type GitHubApp } from '../repo-host/github/github-app.ts';
import { GitHubUserAuthorization } from '../repo-host/github/github-user-authorization.ts';
import { GitHubWebhookChanges } from '../repo-host/github/webhook-changes.ts';
import { SealedTokenSignIn } from '../tokens/sealed-token-sign-in.ts';
import { TokenSealer } from '../tokens/token-sealer.ts';
import type { GitHubAppSettings } from './github-settings.ts';
import { openIndex } from './local.ts';
import { frontSecrets, type OAuthSettings } from './oauth-settings.ts';
import { processLogger } from './logger.ts';
import { serveInstallation } from './serve-installation.ts';

/** What `major-vault serve-github` serves, and where. */
export interface GitHubServeSettings {
  app: GitHubAppSettings;
  /** The installation's name (the address's path); default: the App's `owner`. */
  name?: string;
  /** Where the mirrors (`mirrors/`) and the PGlite index (`index/`) are kept. */
  dataDir: string;
  /** A Postgres server instead of PGlite; default `DATABASE_URL` from the environment. */
  databaseUrl?: string;
  schema?: string;
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
  close(): Promise<void>;
}

/**
 * `major-vault serve-github`: mirrors the App installation's repositories, opens the index and
 * the installation, and serves it over HTTP at `/<name>` with GitHub's webhooks at
 * `/webhooks/github`. Listens as soon as the repositories are listed and their `.vault/` read;
 * indexing goes on behind (calls wait for it). Throws an Error with a sentence for the
 * operator when a setting is wrong or GitHub refuses the App (e.g. no such installation).
 */
export async function serveGitHub(
  settings: GitHubServeSettings,
  options: { log?: Logger; onProgress?: IndexProgress; tools?: readonly Tool[]; matchBudgetMs?: number } = {},
): Promise<GitHubServer> {
  const log = options.log ?? processLogger();
  const name = settings.name ?? settings.app.owner;
  if (name === undefined || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new Error(
      name === undefined
        ? 'Give the installation a name with --name (the path of its address): the App is chosen by its installation id, which names no owner.'
        : `The installation name ${JSON.stringify(name)} cannot be an address; give one with --name, made of letters, digits, ".", "_" and "-".`,
    );
  }
  let publicOrigin: URL | null = null;
  if (settings.publicUrl !== undefined) {
    try {
      publicOrigin = new URL(new URL(settings.publicUrl).origin);
    } catch {
      throw new Error(
        `The public address ${JSON.stringify(settings.publicUrl)} is not a URL; give one such as https://vault.acme.example.`,
      );
    }
  }
  // Checked before anything starts: a bad secret is the operator's to fix.
  const sealer = settings.oauth ? new TokenSealer(frontSecrets(settings.oauth.secrets)) : null;
  const dataDir = resolve(settings.dataDir);
  mkdirSync(dataDir, { recursive: true });
  startWorkerPool();
  const app = createGitHubApp(
    { ...settings.app, dataDir, ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}) },
    { log },
  );
  const installationId = await app.api.installationId();
  // A configured id is not checked by GitHub until a token is asked for; say at once when it is wrong.
  const state = await app.api.installationState();
  if (state === 'deleted') {
    throw new Error(
      `The GitHub App ${settings.app.appId} has no installation ${installationId} (it was uninstalled, or the id is wrong): install the App again, or set MAJOR_VAULT_GITHUB_INSTALLATION_ID or MAJOR_VAULT_GITHUB_OWNER to the installation to serve.`,
    );
  }
  if (state === 'suspended') {
    log.warn(
      { event: 'installation_suspended', installationId },
      `the GitHub App's installation ${installationId} is suspended: no repositories are served until it is unsuspended`,
    );
  }
  await app.host.start();

  const index = await openIndex(
    {
      name,
      dataDir,
      ...(settings.databaseUrl !== undefined ? { databaseUrl: settings.databaseUrl } : {}),
      ...(settings.schema !== undefined ? { schema: settings.schema } : {}),
    },
    log,
  );
  if (index.note) log.warn(index.note);
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
  });
  let installation: Installation | null = null;
  try {
    await migrate(index.sql);
    installation = Installation.open({
      name,
      host: app.host,
      sql: index.sql,
      log,
      changes,
      queue,
      ...(options.matchBudgetMs !== undefined ? { matchBudgetMs: options.matchBudgetMs } : {}),
    });
    await installation.startInBackground(options.onProgress ? { onProgress: options.onProgress } : {});
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
      ...(publicOrigin ? { publicOrigin } : {}),
      ...(sealer && settings.oauth
        ? {
            oauth: (origin: URL) => {
              const issuer = publicOrigin ?? origin;
              // The MCP address, as the public address and where it listens: a token's audience must be one of them exactly.
              const addresses = new Set([new URL(`/${name}`, issuer).href, new URL(`/${name}`, origin).href]);
              const authorization = createAuthorizationServer({
                issuer,
                sealer,
                store: sqlStore(index.sql),
                upstream: new GitHubUserAuthorization({
                  clientId: app.config.clientId,
                  clientSecret: app.config.clientSecret,
                  apiUrl: app.config.apiUrl,
                  requestTimeoutMs: app.config.requestTimeoutMs,
                }),
                resourceFor: (resource) => (addresses.has(resource) ? { installationName: name } : null),
                clientDocuments: clientMetadataDocuments({
                  allowLoopback: settings.oauth?.allowLoopbackClientMetadata ?? false,
                  ...(settings.oauth?.clientMetadataCa !== undefined ? { ca: settings.oauth.clientMetadataCa } : {}),
                }),
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
      async close() {
        await served.close();
        await opened.close();
        await index.close();
        await app.host.close();
      },
    };
  } catch (error) {
    await installation?.close();
    await index.close();
    await app.host.close();
    throw error;
  }
}
