// Composition root of `major-vault demo --hosted` (issue 12, "The hosted demo"): in one
// process, the GitHub stand-in holding organisation `acme` with the demo's repositories and
// people, and the Acme installation served from it by `serveGitHub` as it would be from
// github.com, on PGlite in the demo folder (or DATABASE_URL). Writes `<demo>/hosted.json`.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildDemo } from '../demo/build-demo.ts';
import { maya, tom, type DemoPerson } from '../demo/demo-commit.ts';
import { startGitHubStandin } from '../github-standin/standin.ts';
import type { GitHubStandin, StandinPermission } from '../github-standin/standin-api.ts';
import type { IndexProgress } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import { defaultDemoDir } from './demo.ts';
import { serveGitHub, type GitHubServer } from './github.ts';
import { defaultGitHubPort } from './names.ts';
import { ensurePortFree } from './port-free.ts';

/** The GitHub App the stand-in plays for the demo (its private key is made at each start). */
export const demoApp = {
  id: 424242,
  slug: 'major-vault-demo',
  clientId: 'Iv1.majorvaultdemo0',
  clientSecret: 'demo-client-secret',
  webhookSecret: 'demo-webhook-secret',
};

/** The demo's people on the stand-in, their Git passwords (examples for a server on loopback, never for real use) and rights. */
export const demoPeople: ReadonlyArray<{ person: DemoPerson; password: string; rights: Record<string, StandinPermission> }> = [
  { person: maya, password: 'demo-password-maya', rights: { handbook: 'push', projects: 'push' } },
  { person: tom, password: 'demo-password-tom', rights: { handbook: 'pull' } },
];

/** The organisation and its repositories, as the local demo builds them. */
export const organisation = 'acme';
const repositories = ['handbook', 'projects'] as const;

/** Options of {@link serveHostedDemo}. */
export interface HostedDemoSettings {
  /** The demo folder; default {@link defaultDemoDir}. Its `hosted/` holds the stand-in's repositories, the server's data and the front's secret. */
  dir?: string;
  /** The front's port (0: any free one). */
  port: number;
  /** The stand-in's port (0: any free one); default {@link defaultGitHubPort}. */
  githubPort?: number;
  /** A Postgres server for the index and the Store; default DATABASE_URL, else PGlite in `<dir>/hosted/data`. */
  databaseUrl?: string;
  /** Schemas on the Postgres server (tests): the index's (default `acme`'s) and the Store's. */
  schema?: string;
  storeSchema?: string;
}

/** `<demo>/hosted.json`: what a person needs to try the hosted demo. */
export interface HostedDemoInfo {
  /** The MCP address, e.g. `http://127.0.0.1:8787/acme`. */
  address: string;
  /** The front's origin, e.g. `http://127.0.0.1:8787`. */
  frontOrigin: string;
  /** The GitHub stand-in's origin, e.g. `http://127.0.0.1:8788` (REST at `/api/v3`). */
  githubOrigin: string;
  /** The App's installation on `acme`, as the stand-in numbers it. */
  installationId: number;
  /** The App's Setup URL on the front: the install status page. */
  setupUrl: string;
  /**
   * Each demo person: their login, name, the password the stand-in takes for `git push` over
   * HTTP, and per repository they can reach its clone URL (with login and password in it, so
   * `git clone` and later pushes from the clone act as them) and their permission.
   */
  people: Array<{
    login: string;
    name: string;
    password: string;
    repositories: Array<{ name: string; cloneUrl: string; permission: StandinPermission }>;
  }>;
}

/** A running hosted demo. */
export interface HostedDemo {
  info: HostedDemoInfo;
  /** Where {@link info} was written: `<demo>/hosted.json`. */
  infoFile: string;
  /** The front's secret: `<demo>/hosted/front-secret`, 32 bytes, made once. */
  frontSecretFile: string;
  standin: GitHubStandin;
  server: GitHubServer;
  /** Stops the server, then the stand-in. */
  close(): Promise<void>;
}

/**
 * Starts the hosted demo in `<dir>/hosted/`:
 * 1. the GitHub stand-in on 127.0.0.1:`githubPort`, with organisation `acme` holding `handbook`
 *    and `projects` as the local demo builds them (same commits, authors, dates and messages),
 *    people `maya` (push on both) and `tom` (pull on the handbook), and the App installed on
 *    `acme` for all repositories. The stand-in keeps its state in memory, so its repositories
 *    (`hosted/github/`) are made again at each start: what was pushed to them is gone;
 * 2. `serveGitHub` pointed at it (mirrors and PGlite index in `hosted/data/`, or DATABASE_URL),
 *    as installation `acme`, switched on in the Store under that name; the stand-in delivers
 *    its webhooks to the server's `/webhooks/github`;
 * 3. the front's secret in `hosted/front-secret` (32 random bytes, mode 0600, made once);
 * then writes `<dir>/hosted.json` ({@link HostedDemoInfo}). Both ports are checked before
 * anything is built: a taken one is refused with a sentence naming `--port` or `--github-port`.
 */
export async function serveHostedDemo(
  settings: HostedDemoSettings,
  options: { log?: Logger; onProgress?: IndexProgress } = {},
): Promise<HostedDemo> {
  const dir = resolve(settings.dir ?? defaultDemoDir());
  await ensurePortFree('127.0.0.1', settings.port, "the demo's address", '--port');
  await ensurePortFree('127.0.0.1', settings.githubPort ?? defaultGitHubPort, 'the GitHub stand-in', '--github-port');
  const hostedDir = join(dir, 'hosted');
  mkdirSync(hostedDir, { recursive: true });
  const frontSecretFile = ensureFrontSecret(join(hostedDir, 'front-secret'));
  const githubDir = join(hostedDir, 'github');
  rmSync(githubDir, { recursive: true, force: true });
  const standin = await startGitHubStandin({
    dataDir: githubDir,
    port: settings.githubPort ?? defaultGitHubPort,
    app: demoApp,
    people: demoPeople.map(({ person, password }) => ({ login: person.login, name: person.name, email: person.email, password })),
    webhookUrl: null,
  });
  let server: GitHubServer;
  try {
    await fillStandin(standin);
    const installationId = await standin.install(organisation, 'all');
    for (const { person, rights } of demoPeople) {
      for (const [repo, permission] of Object.entries(rights)) standin.grant(organisation, repo, person.login, permission);
    }
    server = await serveGitHub(
      {
        app: {
          appId: demoApp.id,
          privateKey: standin.app.privateKey,
          clientId: demoApp.clientId,
          clientSecret: demoApp.clientSecret,
          webhookSecret: demoApp.webhookSecret,
          apiUrl: standin.apiUrl,
          webUrl: standin.origin,
          installationId,
        },
        name: organisation,
        dataDir: join(hostedDir, 'data'),
        port: settings.port,
        hostname: '127.0.0.1',
        ...(settings.databaseUrl !== undefined ? { databaseUrl: settings.databaseUrl } : {}),
        ...(settings.schema !== undefined ? { schema: settings.schema } : {}),
        ...(settings.storeSchema !== undefined ? { storeSchema: settings.storeSchema } : {}),
        // People sign in through the front (consent, then the stand-in's GitHub sign-in). On one
        // machine a client may describe itself by a metadata document on loopback.
        oauth: { secrets: [readFileSync(frontSecretFile).toString('base64url')], allowLoopbackClientMetadata: true },
      },
      { ...(options.log ? { log: options.log } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
    );
  } catch (error) {
    await standin.close();
    throw error;
  }
  standin.setWebhookUrl(server.webhookUrl.href);
  const info = describeHostedDemo(standin, server.localUrl, server.installationId);
  const infoFile = join(dir, 'hosted.json');
  writeFileSync(infoFile, `${JSON.stringify(info, null, 2)}\n`);
  return {
    info,
    infoFile,
    frontSecretFile,
    standin,
    server,
    async close() {
      await server.close();
      await standin.close();
    },
  };
}

/**
 * What `hosted.json` says of a hosted demo whose MCP address is `address` (`<front>/acme`):
 * both origins, the installation's Setup URL, and each person with their rights and clone URLs.
 */
export function describeHostedDemo(standin: GitHubStandin, address: URL, installationId: number): HostedDemoInfo {
  const frontOrigin = new URL(address.origin);
  return {
    address: address.href,
    frontOrigin: frontOrigin.origin,
    githubOrigin: standin.origin,
    installationId,
    setupUrl: new URL(`/github/setup?installation_id=${installationId}&setup_action=install`, frontOrigin).href,
    people: demoPeople.map(({ person, password, rights }) => ({
      login: person.login,
      name: person.name,
      password,
      repositories: Object.entries(rights).map(([name, permission]) => ({
        name,
        cloneUrl: standin.cloneUrl(organisation, name, person.login),
        permission,
      })),
    })),
  };
}

/**
 * Creates `acme`'s repositories in the stand-in from the demo built afresh in a temporary
 * folder (not the local demo's `acme/`, which may carry edits): the same input gives the same
 * commits at every start, so the server's mirrors and index stay valid across restarts.
 */
export async function fillStandin(standin: GitHubStandin): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'mv-hosted-demo-'));
  try {
    const layout = await buildDemo(scratch);
    for (const name of repositories) await standin.createRepo(organisation, name, [], { from: join(layout.reposDir, name) });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The front's secret at `path`: 32 random bytes made once (mode 0600) and kept, so what the
 * front seals with it stays valid across restarts. Returns `path`. Throws when the file is
 * there but is not 32 bytes (delete it to make a new one).
 */
export function ensureFrontSecret(path: string): string {
  if (existsSync(path)) {
    if (statSync(path).size !== 32 || readFileSync(path).length !== 32) {
      throw new Error(`The front's secret ${path} is not 32 bytes; delete it and start again to make a new one.`);
    }
    chmodSync(path, 0o600);
    return path;
  }
  writeFileSync(path, randomBytes(32), { mode: 0o600, flag: 'wx' });
  return path;
}
