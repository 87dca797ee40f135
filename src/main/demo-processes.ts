// Composition root of `major-vault demo --hosted --processes` (issue 13): the hosted demo as the
// hosted service runs, in separate processes on a Postgres server. This process holds the GitHub
// stand-in (organisation `acme`, people maya and tom, as `demo --hosted`) and plays the operator
// once (`installation on`: the installation's database, its first indexing queued); then it
// starts `major-vault worker` and `major-vault front` as child processes, configured only
// through their environment, exactly as README "Deployment" describes, and the front starts an
// instance process for `acme` on its first call.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGitHubStandin } from '../github-standin/standin.ts';
import type { GitHubStandin } from '../github-standin/standin-api.ts';
import type { Logger } from '../instance/log.ts';
import {
  demoApp,
  demoPeople,
  describeHostedDemo,
  ensureFrontSecret,
  fillStandin,
  organisation,
  type HostedDemoInfo,
} from './demo-hosted.ts';
import { defaultGitHubPort } from './names.ts';
import { defaultDemoDir } from './demo.ts';
import { githubEnvironment } from './github-settings.ts';
import { switchInstallationOn } from './installation-operator.ts';
import { frontSecretVariable } from './oauth-settings.ts';
import { openPostgresStore } from './open-store.ts';
import { ensurePortFree } from './port-free.ts';

/** The command every child runs: this checkout's `bin/major-vault.js`. */
const cli = fileURLToPath(new URL('../../bin/major-vault.js', import.meta.url));

/** Options of {@link serveProcessesDemo}. */
export interface ProcessesDemoSettings {
  /** The demo folder; default {@link defaultDemoDir}. `hosted/` in it holds the stand-in, the front's secret and `processes/` (mirrors). */
  dir?: string;
  /** The front's port. */
  port: number;
  /** The stand-in's port; default {@link defaultGitHubPort}. */
  githubPort?: number;
  /** The front's database on the Postgres server (the Store and the queue); `acme`'s database is made beside it. */
  databaseUrl: string;
  /** How long the instance may go without a request before it stops, in seconds; default 300. */
  idleExitAfterSeconds?: number;
  /** Tests: the id the stand-in gives the installation (its database is named by it); default the stand-in's own. */
  installationId?: number;
}

/** A running demo in processes. */
export interface ProcessesDemo {
  info: HostedDemoInfo;
  /** `<demo>/hosted.json`. */
  infoFile: string;
  standin: GitHubStandin;
  front: ChildProcess;
  worker: ChildProcess;
  /** Stops the front (and its instance), the worker, then the stand-in. */
  close(): Promise<void>;
}

/**
 * Starts the demo in processes: the stand-in as {@link serveHostedDemo} fills it, `acme`
 * recorded and switched on in the Store of `databaseUrl` (its database made and migrated, its
 * indexing queued), then the worker and the front as children of this process, their output on
 * this one's. Resolves once the front answers `/readyz`. Throws a sentence when a port is taken
 * or a child stops before it is ready.
 */
export async function serveProcessesDemo(settings: ProcessesDemoSettings, options: { log?: Logger } = {}): Promise<ProcessesDemo> {
  const dir = resolve(settings.dir ?? defaultDemoDir());
  const githubPort = settings.githubPort ?? defaultGitHubPort;
  await ensurePortFree('127.0.0.1', settings.port, "the demo's address", '--port');
  await ensurePortFree('127.0.0.1', githubPort, 'the GitHub stand-in', '--github-port');
  const hostedDir = join(dir, 'hosted');
  const processesDir = join(hostedDir, 'processes');
  mkdirSync(join(processesDir, 'instances'), { recursive: true });
  mkdirSync(join(processesDir, 'worker'), { recursive: true });
  const frontSecret = readFileSync(ensureFrontSecret(join(hostedDir, 'front-secret'))).toString('base64url');
  const githubDir = join(hostedDir, 'github');
  rmSync(githubDir, { recursive: true, force: true });
  const standin = await startGitHubStandin({
    dataDir: githubDir,
    port: githubPort,
    app: demoApp,
    people: demoPeople.map(({ person, password }) => ({ login: person.login, name: person.name, email: person.email, password })),
    webhookUrl: null,
    ...(settings.installationId !== undefined ? { firstInstallationId: settings.installationId } : {}),
  });
  const children: ChildProcess[] = [];
  const stopChildren = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }),
    );
  };
  try {
    await fillStandin(standin);
    const installationId = await standin.install(organisation, 'all');
    for (const { person, rights } of demoPeople) {
      for (const [repo, permission] of Object.entries(rights)) standin.grant(organisation, repo, person.login, permission);
    }
    // The operator's part: GitHub told the front of the installation; it is switched on as `acme`.
    const opened = await openPostgresStore(settings.databaseUrl);
    try {
      await opened.store.installations.seen(installationId, organisation);
    } finally {
      await opened.close();
    }
    await switchInstallationOn({ databaseUrl: settings.databaseUrl }, installationId, organisation);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: settings.databaseUrl,
      [frontSecretVariable]: frontSecret,
      [githubEnvironment.appId]: String(demoApp.id),
      [githubEnvironment.privateKey]: standin.app.privateKey,
      [githubEnvironment.clientId]: demoApp.clientId,
      [githubEnvironment.clientSecret]: demoApp.clientSecret,
      [githubEnvironment.webhookSecret]: demoApp.webhookSecret,
      [githubEnvironment.apiUrl]: standin.apiUrl,
      [githubEnvironment.webUrl]: standin.origin,
    };
    delete env[githubEnvironment.installationId];
    delete env[githubEnvironment.owner];
    const start = (args: string[]) => {
      const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
      children.push(child);
      return child;
    };
    const worker = start(['worker', '--data', join(processesDir, 'worker')]);
    const front = start([
      'front',
      '--port',
      String(settings.port),
      '--host',
      '127.0.0.1',
      '--instances',
      'local',
      '--data',
      join(processesDir, 'instances'),
      '--idle-exit-after',
      String(settings.idleExitAfterSeconds ?? 300),
    ]);
    const frontOrigin = new URL(`http://127.0.0.1:${settings.port}`);
    await untilReady(frontOrigin, [front, worker]);
    standin.setWebhookUrl(new URL('/webhooks/github', frontOrigin).href);
    const info = describeHostedDemo(standin, new URL(`/${organisation}`, frontOrigin), installationId);
    const infoFile = join(dir, 'hosted.json');
    writeFileSync(infoFile, `${JSON.stringify(info, null, 2)}\n`);
    options.log?.info({ event: 'demo_processes_started', front: front.pid, worker: worker.pid }, 'the front and the worker are running');
    return {
      info,
      infoFile,
      standin,
      front,
      worker,
      async close() {
        await stopChildren();
        await standin.close();
      },
    };
  } catch (error) {
    await stopChildren();
    await standin.close();
    throw error;
  }
}

/** Waits until the front at `origin` answers `/readyz` with 200; throws when one of `children` exits first, or after 2 minutes. */
async function untilReady(origin: URL, children: readonly ChildProcess[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const gone = children.find((child) => child.exitCode !== null || child.signalCode !== null);
    if (gone)
      throw new Error(`A process of the demo stopped while starting (${gone.spawnargs.slice(2, 3).join(' ')}); its output is above.`);
    const ready = await fetch(new URL('/readyz', origin)).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`The front did not become ready at ${origin.href} within 2 minutes; its output is above.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
