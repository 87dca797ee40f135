// Composition root of `major-vault front` (issue 13, "The front"): the one public HTTP service
// for every installation switched on in the Store. It signs people in (the shared
// authorization server; a sealed token, then GitHub, for each installation), answers
// `initialize`, `server/discover` and `tools/list` from the catalogue store while it wakes the
// installation's instance, forwards every other call to that instance over HTTP with the
// token unchanged, turns GitHub's webhooks into jobs, and serves the Setup URL and the pages.
// It never imports the instance (lint): instances are found through the InstanceLocator port.
import { githubSetupRoute } from '../front/github-setup-route.ts';
import { httpForward } from '../front/forward/http-forward.ts';
import type { InstanceKey, InstanceLocator } from '../front/forward/instance-locator.ts';
import {
  createRoutingFront,
  listenFront,
  shutdownDrainMs,
  type Front,
  type FrontAddress,
  type ListeningFront,
} from '../front/http-front.ts';
import type { ResourceOwner } from '../front/oauth/authorization-server.ts';
import { storedCatalogue, watchSourceVersions } from '../front/stored-catalogue.ts';
import { githubWebhook, githubWebhookPath } from '../front/webhook/github-webhook.ts';
import { hostedWebhookReceiver, type ForgetRights } from '../front/webhook/hosted-webhook-jobs.ts';
import type { Logger } from '../instance/log.ts';
import type { JobSender } from '../jobs/hosted-jobs.ts';
import { createGitHubAppClients } from '../repo-host/github/github-app.ts';
import type { GitHubSignIn } from '../repo-host/github/github-sign-in.ts';
import type { Store } from '../store/store.ts';
import { allTools } from '../tools/all-tools.ts';
import { SealedTokenSignIn } from '../tokens/sealed-token-sign-in.ts';
import { TokenSealer } from '../tokens/token-sealer.ts';
import { githubAuthorizationServer } from './github-authorization.ts';
import type { GitHubAppSettings } from './github-settings.ts';
import { processLogger } from './logger.ts';
import { frontSecrets, type OAuthSettings } from './oauth-settings.ts';
import { openPostgresStore } from './open-store.ts';
import { publicOriginOf } from './public-origin.ts';
import { quietWakes } from './quiet-wakes.ts';
import { allowedHostnamesFor } from './serve-installation.ts';
import { installationOfAddress } from './installation-name.ts';
import { createMetrics, type Metrics } from '../operations/metrics.ts';
import { databaseCheck } from '../operations/readiness.ts';
import { withOperations } from '../operations/with-operations.ts';

/** What `major-vault front` serves, and where. */
export interface FrontSettings {
  /** The GitHub App (every installation of it; their ids come from the Store). */
  app: GitHubAppSettings;
  /** The front's own database: the Store (installations, short records, catalogue store). */
  databaseUrl: string;
  /** The Store's schema; default `major_vault_store`. */
  storeSchema?: string;
  port: number;
  hostname: string;
  /**
   * `/metrics` on the public port needs `Authorization: Bearer <metricsToken>`; without one the
   * front serves no metrics (they name every installation and its traffic).
   */
  metricsToken?: string;
  /** The address people and GitHub reach the front at, e.g. `https://vault.example` (behind a TLS proxy); default where it listens. */
  publicUrl?: string;
  /** The front's secrets (MAJOR_VAULT_FRONT_SECRET): people sign in through the front. */
  oauth: OAuthSettings;
  /** How long one request to GitHub may take, in ms; default 15,000. */
  requestTimeoutMs?: number;
}

/** Where the front listens, for the InstanceLocator it starts (its instances take tokens for these addresses). */
export interface FrontOrigins {
  /** Where people reach it: the public address, else where it listens. */
  publicOrigin: URL;
  /** Where it listens, e.g. `http://127.0.0.1:8787`. */
  listening: URL;
}

/** The front's ports, chosen by the command (cli/main.ts). */
export interface FrontPorts {
  /** Where webhooks' jobs go: pg-boss on Postgres (jobs/), taken by `major-vault worker`. */
  jobs: JobSender;
  /**
   * Finds the installations' instances; made once the front listens, when its origins are
   * known, with the front's metrics (a locator that starts instances records each wake there).
   */
  instances(origins: FrontOrigins, metrics: Metrics): InstanceLocator;
  /** The front's metrics; default new ones (component `front`). */
  metrics?: Metrics;
  log?: Logger;
  /** How often the installations switched on are read again, in ms; default 5,000. */
  refreshMs?: number;
}

/** A running front. */
export interface HostedFront {
  /** Where it listens. */
  origin: URL;
  /** Where people reach it (the public address, else {@link origin}). */
  publicOrigin: URL;
  /** Where GitHub delivers the App's webhooks: `<public origin>/webhooks/github`. */
  webhookUrl: URL;
  store: Store;
  instances: InstanceLocator;
  /** The MCP address of installation `name`: `<public origin>/<name>`. */
  addressOf(name: string): URL;
  /** Stops listening, stops the instances it started, closes the Store. */
  close(): Promise<void>;
}

/** One installation switched on, as the front serves it. */
interface Served {
  key: InstanceKey;
  address: FrontAddress;
  /** GitHub's sign-in for the installation: who a token is, kept 15 minutes per token hash. */
  github: GitHubSignIn;
}

/** Unknown names re-read the Store at most this often, in ms: a stream of wrong addresses costs one query a second. */
const unknownRefreshMs = 1000;

/**
 * `major-vault front`: serves every installation switched on in the Store at `/<name>` (the
 * list read every `refreshMs`, and at once, at most once a second, when an unknown name is
 * asked), with the authorization server, `/webhooks/github` (deliveries become jobs through
 * `jobs`), `/github/setup` (the install status page) and the pages. Throws an Error with a
 * sentence for the operator when a setting is wrong or the Store cannot be opened.
 */
export async function serveFront(settings: FrontSettings, ports: FrontPorts): Promise<HostedFront> {
  const log = ports.log ?? processLogger();
  const configuredPublic = settings.publicUrl !== undefined ? publicOriginOf(settings.publicUrl) : undefined;
  const sealer = new TokenSealer(frontSecrets(settings.oauth.secrets));
  const github = createGitHubAppClients(
    { ...settings.app, ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}) },
    { log },
  );
  const opened = await openPostgresStore(settings.databaseUrl, settings.storeSchema);
  const { store } = opened;
  // Which catalogue version is current, read every second: a call reads no source from the store.
  const versions = watchSourceVersions(store.catalogues, { log });
  // Instances woken by a catalogue answer start once a burst of answers is over.
  const wakes = quietWakes({ log });

  let front: Front | null = null;
  let origins: FrontOrigins | null = null;
  let instances: InstanceLocator | null = null;
  /** The installations switched on, by name as switched on. */
  let served = new Map<string, Served>();
  let lastRefresh = 0;
  let refreshing: Promise<void> | null = null;

  /** A new entry for installation `id` under `name`: its sign-in, catalogue, and forward to its instance. */
  const serve = (id: number, name: string, at: FrontOrigins, locator: InstanceLocator): Served => {
    const key: InstanceKey = { id, name };
    const signIn = github.signInFor(id);
    // A token is for this address, as people reach it or where the front listens.
    const audiences = new Set([new URL(`/${name}`, at.publicOrigin).href, new URL(`/${name}`, at.listening).href]);
    const catalogue = storedCatalogue({ catalogues: store.catalogues, installationId: id, tools: allTools, versions });
    // Once the answer is sent: starting an instance (a local child's spawn, then its start's
    // CPU) takes the process for milliseconds, and the caller must not wait for it.
    const wake = () =>
      void locator
        .locate(key)
        .catch((error: unknown) =>
          log.warn({ event: 'instance_wake_failed', installation: name, err: error }, `could not wake the instance of ${name}`),
        );
    return {
      key,
      github: signIn,
      address: {
        name,
        signIn: new SealedTokenSignIn(sealer, audiences, signIn),
        // The handshake and the list come from the store at once; the instance wakes meanwhile.
        catalogue: async (access) => {
          try {
            return await catalogue(access);
          } catch (error) {
            setImmediate(wake);
            throw error;
          }
        },
        catalogueAnswered: () => wakes.add(name, wake),
        forward: httpForward({ installation: key, instances: locator, log }),
      },
    };
  };

  /** Reads the installations switched on again; an entry whose id and name stay is kept (its caches with it). */
  const refresh = (): Promise<void> =>
    (refreshing ??= (async () => {
      try {
        if (origins === null || instances === null) return;
        const records = await store.installations.list();
        const next = new Map<string, Served>();
        for (const record of records) {
          if (record.status !== 'on' || record.name === null) continue;
          const kept = served.get(record.name);
          next.set(record.name, kept !== undefined && kept.key.id === record.id ? kept : serve(record.id, record.name, origins, instances));
        }
        served = next;
        lastRefresh = Date.now();
      } catch (error) {
        log.warn({ event: 'installations_unreadable', err: error }, 'could not read the installations switched on');
      } finally {
        refreshing = null;
      }
    })());

  const lookup = async (name: string): Promise<Served | null> => {
    const known = served.get(name);
    if (known !== undefined) return known;
    if (Date.now() - lastRefresh >= unknownRefreshMs) await refresh();
    return served.get(name) ?? null;
  };

  const forgetRights = ({ installationId, login }: ForgetRights) => {
    for (const entry of served.values()) {
      if (installationId !== null && entry.key.id !== installationId) continue;
      entry.github.forgetAccess(login === null ? 'all' : { login });
      front?.forgetAccess(entry.key.name);
    }
  };

  const build = (at: FrontOrigins): Front => {
    const resourceFor = async (resource: string): Promise<ResourceOwner | null> => {
      let url: URL;
      try {
        url = new URL(resource);
      } catch {
        return null;
      }
      if (url.origin !== at.publicOrigin.origin && url.origin !== at.listening.origin) return null;
      const name = url.pathname.slice(1);
      const entry = await lookup(name);
      return entry !== null && url.href === new URL(`/${name}`, url.origin).href ? { installationName: name } : null;
    };
    return createRoutingFront({
      addressFor: async (name) => (await lookup(name))?.address ?? null,
      log,
      allowedHostnames: allowedHostnamesFor(settings.hostname, configuredPublic),
      ...(configuredPublic ? { publicOrigin: configuredPublic } : {}),
      authorization: githubAuthorizationServer({
        issuer: at.publicOrigin,
        sealer,
        store,
        app: github.config,
        oauth: settings.oauth,
        resourceFor,
        log,
      }),
      webhook: githubWebhook({
        secret: settings.app.webhookSecret,
        receive: hostedWebhookReceiver({ jobs: ports.jobs, installations: store.installations, forgetRights, log }),
        log,
      }),
      installStatus: githubSetupRoute({ installations: store.installations, confirm: (id) => github.api.appInstallation(id), log }),
    });
  };

  const metrics = ports.metrics ?? createMetrics({ component: 'front', log });
  // /healthz, /readyz (the Store answers), /metrics, and a request id on every line (passed on to the instance).
  const operations = withOperations(
    (request) => (front ? front.fetch(request) : Promise.resolve(new Response('Starting.', { status: 503 }))),
    {
      metrics,
      readiness: [databaseCheck(opened.sql, { name: 'store' })],
      log,
      installationOf: installationOfAddress,
      toolNames: allTools.map((tool) => tool.name),
      serveMetrics: settings.metricsToken !== undefined,
      ...(settings.metricsToken !== undefined ? { metricsToken: settings.metricsToken } : {}),
    },
  );
  let listening: ListeningFront;
  try {
    // The front needs its own origin (port 0 picks one): it is built once it listens, before any request is read.
    listening = await listenFront(
      {
        fetch: operations.fetch,
        forgetAccess: (name) => front?.forgetAccess(name),
        maxBodyBytes: (path) => front?.maxBodyBytes(path),
        close: () => front?.close() ?? Promise.resolve(),
      },
      { port: settings.port, hostname: settings.hostname, log },
    );
  } catch (error) {
    await versions.close();
    await opened.close();
    throw error;
  }
  const at: FrontOrigins = { publicOrigin: configuredPublic ?? listening.origin, listening: listening.origin };
  origins = at;
  const locator = ports.instances(at, metrics);
  instances = locator;
  front = build(at);
  await refresh();
  const timer = setInterval(() => void refresh(), ports.refreshMs ?? 5000);
  timer.unref();
  const server = listening;
  return {
    origin: listening.origin,
    publicOrigin: at.publicOrigin,
    webhookUrl: new URL(githubWebhookPath, at.publicOrigin),
    store,
    instances: locator,
    addressOf: (name) => new URL(`/${name}`, at.publicOrigin),
    async close() {
      operations.shutDown();
      clearInterval(timer);
      wakes.close();
      await versions.close();
      // The calls in progress finish first (they may need their instance), up to shutdownDrainMs.
      await server.close({ drainMs: shutdownDrainMs });
      await locator.close();
      await refreshing;
      await opened.close();
    },
  };
}
