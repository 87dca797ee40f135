// The `major-vault` command: serve, stdio, index, demo, and the hosted front and instance. Parses the command line (commander)
// and hands typed settings to the composition roots in src/main/.
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { logLevels, type Logger } from '../instance/log.ts';
import type { LocalServer, LocalSettings } from '../main/local.ts';
import type { HostedFront } from '../main/front.ts';
import { defaultGitHubPort, frontSecretVariable, githubEnvironment, queueDatabaseVariable } from '../main/names.ts';
import { applyGitRunnerSetting, reportGitRunnerTrouble } from '../main/git-runner-setting.ts';
import { processLogger } from '../main/logger.ts';
import { terminalText } from '../main/terminal-text.ts';
import { indexProgress, type ProgressDisplay } from './index-progress.ts';

/** The options every command that opens an installation shares. */
interface InstallationOptions {
  repos: string;
  name?: string;
  data?: string;
  users?: string;
  databaseUrl?: string;
  logLevel?: string;
}

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535)
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one).');
  return number;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(number)) throw new InvalidArgumentError('give a whole number of 1 or more.');
  return number;
}

function installationId(value: string): number {
  const number = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(number))
    throw new InvalidArgumentError(
      'an installation id is a whole number, as GitHub gives it (`major-vault installation list` shows them).',
    );
  return number;
}

function addInstallationOptions(command: Command, withUsers: boolean): Command {
  command
    .requiredOption('--repos <dir>', 'the folder whose sub-folders are the Git repositories (each with a work tree, or bare)')
    .option('--name <name>', 'the installation name, the path of the MCP address (default: the folder name of --repos)')
    .option('--data <dir>', 'where the embedded index (PGlite) is kept (default: <repos>/.major-vault)')
    .option(
      '--database-url <url>',
      'use this Postgres server for the index instead of PGlite, in a schema named after the installation (default: $DATABASE_URL)',
    );
  addLogLevelOption(command);
  if (withUsers)
    command.option(
      '--users <file>',
      'a users file (JSONC): each person with a login, name, e-mail, token and the repositories they read and write; without one, you alone read and write everything',
    );
  return command;
}

function addLogLevelOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--log-level <level>',
      'how much to log, as JSON lines on standard error (default: $MAJOR_VAULT_LOG_LEVEL, else info)',
    ).choices(logLevels),
  );
}

function settingsOf(options: InstallationOptions): LocalSettings {
  return {
    reposDir: options.repos,
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.data !== undefined ? { dataDir: options.data } : {}),
    ...(options.users !== undefined ? { usersFile: options.users } : {}),
    ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
  };
}

/**
 * Prints the address (the server answers from then on), then keeps serving until Ctrl-C or
 * SIGTERM; the index opens meanwhile, and `progress` is stopped once its startup indexing is done.
 */
function announce(server: LocalServer, log: Logger, progress: ProgressDisplay): void {
  console.log(`Major Vault serving ${server.name} at ${server.url.href}`);
  void server.opened
    .then(async (local) => {
      if (local.indexNote) log.warn(local.indexNote);
      await local.installation.ready();
    })
    // A failure is logged by serveLocal (opening) or the installation (indexing).
    .catch(() => undefined)
    .finally(() => progress.stop());
  closeOnSignal(server);
}

/**
 * How long a server stopped by a signal lets its calls in progress finish (ms), as the hosted
 * processes do (front/http-front.ts `shutdownDrainMs`, not imported here: the front's modules
 * load only for the commands that listen).
 */
const signalDrainMs = 20_000;

/**
 * Closes `server` and exits on Ctrl-C or SIGTERM, letting the calls in progress finish first
 * for up to {@link signalDrainMs} where the server takes it (`serve`, `serve-github`: a write
 * under way then answers its caller before the process ends). Later signals are ignored
 * while it closes: a terminal's Ctrl-C reaches both bin/node22.js and its Node 22 child,
 * which is also sent the relayed one, so one press arrives twice and must not cut the close
 * short.
 */
function closeOnSignal(server: { close(options?: { drainMs?: number }): Promise<void> }): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close({ drainMs: signalDrainMs }).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const program = new Command()
  .name('major-vault')
  .description('Connects an AI assistant to the Markdown notes in Git repositories over MCP.')
  .version(packageJson.version)
  .showHelpAfterError();

addInstallationOptions(
  program
    .command('serve')
    .description('Serve the repositories over MCP (Streamable HTTP) at http://HOST:PORT/NAME.')
    .addOption(new Option('--port <port>', 'the port to listen on').default(8787).argParser(port))
    .option('--host <host>', 'the interface to listen on; anything but loopback needs --users', '127.0.0.1'),
  true,
).action(async (options: InstallationOptions & { port: number; host: string }) => {
  const log = processLogger(options.logLevel);
  const progress = indexProgress(log);
  let server: LocalServer;
  try {
    // The index starts opening on its own thread while the server's modules load.
    (await import('../main/early-index.ts')).openIndexEarly(settingsOf(options));
    const { serveLocal } = await import('../main/local.ts');
    server = await serveLocal(
      { ...settingsOf(options), port: options.port, hostname: options.host },
      { log, onProgress: progress.onProgress },
    );
  } catch (error) {
    progress.stop();
    throw error;
  }
  announce(server, log, progress);
});

addInstallationOptions(
  program
    .command('stdio')
    .description('Serve the repositories over MCP on standard input and output, for a client that starts Major Vault itself.')
    .option('--as <login>', 'with --users: the person this connection acts as, by login (needed when the file lists several)'),
  true,
).action(async (options: InstallationOptions & { as?: string }) => {
  (await import('../main/early-index.ts')).openIndexEarly(settingsOf(options));
  const { serveLocalStdio } = await import('../main/stdio.ts');
  await serveLocalStdio(
    { ...settingsOf(options), ...(options.as !== undefined ? { as: options.as } : {}) },
    { log: processLogger(options.logLevel) },
  );
});

addInstallationOptions(program.command('index').description('Build or update the index of the repositories, then exit.'), false).action(
  async (options: InstallationOptions) => {
    const log = processLogger(options.logLevel);
    const progress = indexProgress(log);
    try {
      const { openLocalInstallation } = await import('../main/local.ts');
      const local = await openLocalInstallation(settingsOf(options), {
        log,
        onProgress: progress.onProgress,
        poll: false,
        sharedIndexOnly: true,
      });
      progress.stop();
      if (local.indexNote) log.warn(local.indexNote);
      const done = `Indexed ${local.name}: ${local.installation.repoNames().join(', ') || 'no repositories'}`;
      // A person at a terminal reads a sentence; a pipe (a server's child build, a script) gets a log line.
      if (process.stdout.isTTY) console.log(done);
      else log.info({ event: 'index_built', repos: local.installation.repoNames() }, done);
      await local.close();
    } catch (error) {
      progress.stop();
      throw error;
    }
  },
);

addLogLevelOption(program.command('demo'))
  .description('Build the demo installation "acme" (two Git repositories, handbook and projects) if it is not there yet, and serve it.')
  .option('--dir <dir>', 'where the demo is built and kept (default: $MAJOR_VAULT_DEMO_DIR, else demo/ in the checkout)')
  .addOption(new Option('--port <port>', 'the port to listen on').default(8787).argParser(port))
  .option('--host <host>', 'the loopback interface to listen on', '127.0.0.1')
  .option(
    '--hosted',
    'instead: the hosted shape in one process: a GitHub stand-in holding the demo (people maya and tom) and the installation served from it; writes DIR/hosted.json (address, people, passwords, clone URLs), DIR being the demo folder (--dir)',
  )
  .addOption(new Option('--github-port <port>', `with --hosted: the GitHub stand-in's port (default ${defaultGitHubPort})`).argParser(port))
  .option(
    '--processes',
    'with --hosted: as the hosted service runs, in separate processes on a Postgres server (--database-url or $DATABASE_URL): the worker, the front, and an instance the front starts for acme',
  )
  .option('--database-url <url>', "with --hosted --processes: the front's database on the Postgres server (default: $DATABASE_URL)")
  .action(
    async (options: {
      dir?: string;
      port: number;
      host: string;
      hosted?: boolean;
      githubPort?: number;
      processes?: boolean;
      databaseUrl?: string;
      logLevel?: string;
    }) => {
      const log = processLogger(options.logLevel);
      if (options.processes && !options.hosted) throw new Error('--processes goes with --hosted: `major-vault demo --hosted --processes`.');
      if (options.processes) return processesDemo(options, log);
      if (options.hosted) return hostedDemo(options, log);
      if (options.githubPort !== undefined) throw new Error('--github-port goes with --hosted: the local demo has no GitHub stand-in.');
      const progress = indexProgress(log);
      let server: LocalServer;
      try {
        const { serveDemo } = await import('../main/demo.ts');
        server = await serveDemo(
          { ...(options.dir !== undefined ? { dir: options.dir } : {}), port: options.port, hostname: options.host },
          {
            log,
            onProgress: progress.onProgress,
            onBuilt: (dir, now) => {
              if (now) process.stderr.write(`Built the demo in ${dir}\n`);
            },
          },
        );
      } catch (error) {
        progress.stop();
        throw error;
      }
      announce(server, log, progress);
      const { defaultDemoDir } = await import('../main/demo.ts');
      console.log(
        `Its repositories are in ${resolve(options.dir ?? defaultDemoDir(), 'acme')}; open the address in a browser to see how to connect.`,
      );
    },
  );

/** `demo --hosted --processes`: the hosted demo in separate processes on a Postgres server, until Ctrl-C. */
async function processesDemo(
  options: { dir?: string; port: number; host: string; githubPort?: number; databaseUrl?: string },
  log: Logger,
): Promise<void> {
  if (options.host !== '127.0.0.1') throw new Error('The hosted demo listens on 127.0.0.1 only; leave out --host.');
  const databaseUrl = options.databaseUrl || process.env['DATABASE_URL'];
  if (!databaseUrl) {
    throw new Error(
      'The demo in processes runs on a Postgres server: give its database with --database-url or DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/major_vault (the role needs CREATEDB).',
    );
  }
  const { serveProcessesDemo } = await import('../main/demo-processes.ts');
  const demo = await serveProcessesDemo(
    {
      port: options.port,
      databaseUrl,
      ...(options.dir !== undefined ? { dir: options.dir } : {}),
      ...(options.githubPort !== undefined ? { githubPort: options.githubPort } : {}),
    },
    { log },
  );
  console.log(`Major Vault hosted demo in processes: acme at ${demo.info.address}`);
  console.log(`  front pid ${demo.front.pid}, worker pid ${demo.worker.pid}; the front starts acme's instance on its first call`);
  console.log(`GitHub stand-in at ${demo.info.githubOrigin} (rebuilt at each start), the App installed on acme`);
  for (const person of demo.info.people) {
    console.log(`  ${person.login}: ${person.repositories.map((repo) => `${repo.name} (${repo.permission})`).join(', ')}`);
  }
  console.log(`People, passwords and clone URLs: ${demo.infoFile}`);
  closeOnSignal(demo);
}

/** `demo --hosted`: starts the hosted demo, says where everything is, and serves until Ctrl-C. */
async function hostedDemo(options: { dir?: string; port: number; host: string; githubPort?: number }, log: Logger): Promise<void> {
  if (options.host !== '127.0.0.1') throw new Error('The hosted demo listens on 127.0.0.1 only; leave out --host.');
  const progress = indexProgress(log);
  const { serveHostedDemo } = await import('../main/demo-hosted.ts');
  const demo = await serveHostedDemo(
    {
      port: options.port,
      ...(options.dir !== undefined ? { dir: options.dir } : {}),
      ...(options.githubPort !== undefined ? { githubPort: options.githubPort } : {}),
    },
    { log, onProgress: progress.onProgress },
  );
  void demo.server.installation
    .ready()
    .catch(() => undefined)
    .finally(() => progress.stop());
  console.log(`Major Vault hosted demo: acme at ${demo.info.address}`);
  console.log(`GitHub stand-in at ${demo.info.githubOrigin} (rebuilt at each start), the App installed on acme`);
  for (const person of demo.info.people) {
    console.log(`  ${person.login}: ${person.repositories.map((repo) => `${repo.name} (${repo.permission})`).join(', ')}`);
  }
  console.log(`People, passwords and clone URLs: ${demo.infoFile}`);
  closeOnSignal(demo);
}

addLogLevelOption(program.command('serve-github'))
  .description(
    `Serve the repositories of a GitHub App's installation over MCP at http://HOST:PORT/NAME, with GitHub's webhooks at /webhooks/github. ` +
      `The App is given by a settings file and the environment: ${Object.values(githubEnvironment).join(', ')}. ` +
      `With ${frontSecretVariable} set, people sign in through the server (OAuth); without, a bearer token is a GitHub user token.`,
  )
  .requiredOption('--data <dir>', 'where the mirrors of the repositories and the index (PGlite) are kept')
  .option(
    '--config <file>',
    'a settings file (JSON with comments): appId, privateKey or privateKeyFile, clientId, clientSecret, webhookSecret, apiUrl, webUrl, installationId or owner; the environment overrides it',
  )
  .option(
    '--name <name>',
    'the installation name, the path of the MCP address (default: the name it is switched on under, else the owner the App is installed on); starting switches it on under this name',
  )
  .option('--database-url <url>', 'use this Postgres server for the index instead of PGlite (default: $DATABASE_URL)')
  .addOption(new Option('--port <port>', 'the port to listen on').default(8787).argParser(port))
  .option('--host <host>', 'the interface to listen on (GitHub must reach it for the webhooks, directly or through a proxy)', '127.0.0.1')
  .option('--public-url <url>', 'the address people and GitHub reach the server at behind a proxy, e.g. https://vault.acme.example')
  .action(
    async (options: {
      data: string;
      config?: string;
      name?: string;
      databaseUrl?: string;
      port: number;
      host: string;
      publicUrl?: string;
      logLevel?: string;
    }) => {
      const log = processLogger(options.logLevel);
      const app = (await import('../main/github-settings.ts')).readGitHubAppSettings(
        options.config !== undefined ? { file: options.config } : {},
      );
      const oauth = (await import('../main/oauth-settings.ts')).readOAuthSettings();
      const progress = indexProgress(log);
      const { serveGitHub } = await import('../main/github.ts');
      const server = await serveGitHub(
        {
          app,
          dataDir: options.data,
          port: options.port,
          hostname: options.host,
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
          ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
          ...(oauth !== undefined ? { oauth } : {}),
        },
        { log, onProgress: progress.onProgress },
      );
      void server.installation
        .ready()
        .catch(() => undefined)
        .finally(() => progress.stop());
      console.log(`Major Vault serving ${server.name} (GitHub App installation ${server.installationId}) at ${server.url.href}`);
      console.log(`GitHub webhooks: ${server.webhookUrl.href}`);
      closeOnSignal(server);
    },
  );

/** The Postgres server of the hosted processes: `--database-url`, else DATABASE_URL; throws a sentence when neither is given. */
function hostedDatabaseUrl(given: string | undefined, process_: string): string {
  const url = given ?? process.env['DATABASE_URL'];
  if (url === undefined || url === '')
    throw new Error(`The ${process_} keeps its data on a Postgres server: give --database-url or set DATABASE_URL (the front's database).`);
  return url;
}

/** `MAJOR_VAULT_METRICS_TOKEN`: the bearer token the front's public `/metrics` asks for; undefined (no metrics there) when unset. */
function metricsToken(): string | undefined {
  const token = process.env['MAJOR_VAULT_METRICS_TOKEN']?.trim();
  return token ? token : undefined;
}

/** The front's secret, which the hosted front and instances need: a sentence when it is not set. */
async function hostedOAuthSettings(process_: string) {
  const oauth = (await import('../main/oauth-settings.ts')).readOAuthSettings();
  if (oauth === undefined)
    throw new Error(
      `The ${process_} needs the front's secret in ${frontSecretVariable} (people sign in through the front): make one with \`node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"\` and give every process the same.`,
    );
  return oauth;
}

function seconds(value: string): number {
  const number = Number(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(number > 0)) throw new InvalidArgumentError('a number of seconds above 0, e.g. 300.');
  return number;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

addLogLevelOption(program.command('instance'))
  .description(
    "Serve one installation's tools for the hosted front (issue 13): the installation switched on in the Store under NAME, " +
      `its own Postgres database and its mirrors in --data, at http://HOST:PORT/NAME. It checks every token itself (${frontSecretVariable}, the same as the front's). ` +
      `The GitHub App: a settings file and the environment, as for serve-github (${githubEnvironment.appId}, …; no installation or owner). ` +
      'Started by the front (--instances local), it tells the front where it listens over IPC.',
  )
  .requiredOption('--installation <name>', 'the name the installation is switched on under (`major-vault installation list`)')
  .requiredOption('--data <dir>', "where this installation's mirrors are kept")
  .option('--config <file>', 'a GitHub settings file (JSON with comments), as for serve-github; the environment overrides it')
  .option(
    '--database-url <url>',
    "the front's database on the Postgres server that holds the installation's database (default: $DATABASE_URL)",
  )
  .addOption(new Option('--port <port>', 'the port to listen on (0 picks a free one)').default(8787).argParser(port))
  .option('--host <host>', 'the interface to listen on (in a container: 0.0.0.0)', '127.0.0.1')
  .option(
    '--public-url <url>',
    "the front's address people reach, e.g. https://vault.acme.example: tokens are taken for <url>/NAME only (may be given more than once)",
    collect,
  )
  .addOption(new Option('--idle-exit-after <seconds>', 'exit (status 0) after this long without a request').argParser(seconds))
  .action(
    async (options: {
      installation: string;
      data: string;
      config?: string;
      databaseUrl?: string;
      port: number;
      host: string;
      publicUrl?: string[];
      idleExitAfter?: number;
      logLevel?: string;
    }) => {
      const log = processLogger(options.logLevel);
      const { serveInstance } = await import('../main/instance.ts');
      const instance = await serveInstance(
        {
          app: (await import('../main/github-settings.ts')).readGitHubAppSettings({
            ...(options.config !== undefined ? { file: options.config } : {}),
            anyInstallation: true,
          }),
          installation: options.installation,
          dataDir: options.data,
          databaseUrl: hostedDatabaseUrl(options.databaseUrl, 'instance'),
          port: options.port,
          hostname: options.host,
          publicUrls: options.publicUrl ?? [],
          oauth: await hostedOAuthSettings('instance'),
          ...(options.idleExitAfter !== undefined ? { idleExitAfterMs: options.idleExitAfter * 1000 } : {}),
        },
        { log },
      );
      log.info(
        { event: 'instance_listening', installation: instance.name, installationId: instance.installationId, url: instance.url.href },
        `serving ${instance.name} at ${instance.url.href}`,
      );
      // Started by the front: it hears where this listens, and this stops when the front goes.
      if (process.send) {
        process.send({ listening: instance.url.href });
        process.once('disconnect', () => void instance.close().finally(() => process.exit(0)));
      }
      void instance.idle.then(() => process.exit(0));
      closeOnSignal(instance);
    },
  );

addLogLevelOption(program.command('front'))
  .description(
    'Serve every installation switched on in the Store over MCP at http://HOST:PORT/NAME (issue 13): sign-in (OAuth), ' +
      "initialize and tools/list from the catalogue store, every other call forwarded to the installation's instance, " +
      `GitHub's webhooks at /webhooks/github turned into jobs, the Setup URL at /github/setup. Needs ${frontSecretVariable} and the GitHub App's settings, as for serve-github (no installation or owner).`,
  )
  .option('--config <file>', 'a GitHub settings file (JSON with comments), as for serve-github; the environment overrides it')
  .option('--database-url <url>', "the front's database: the installations, the catalogue store (default: $DATABASE_URL)")
  .option(
    '--queue-database-url <url>',
    `the job queue's database (default: $${queueDatabaseVariable}, else the front's database), the same as the worker's`,
  )
  .addOption(new Option('--port <port>', 'the port to listen on').default(8787).argParser(port))
  .option('--host <host>', 'the interface to listen on (GitHub must reach it for the webhooks, directly or through a proxy)', '127.0.0.1')
  .option('--public-url <url>', 'the address people and GitHub reach the front at behind a proxy, e.g. https://vault.example')
  .addOption(
    new Option(
      '--instances <where>',
      'local: start an instance process per installation on demand; url: find them at --instance-url',
    ).choices(['local', 'url']),
  )
  .option('--instance-url <template>', "a container platform's instances, e.g. 'http://mv-{name}.internal:8080' ({name}, {id} filled in)")
  .option('--data <dir>', 'with local instances: where they keep their mirrors, <dir>/<installation id>/')
  .addOption(
    new Option('--idle-exit-after <seconds>', 'with local instances: each stops after this long without a request (default 300)').argParser(
      seconds,
    ),
  )
  .action(
    async (options: {
      config?: string;
      databaseUrl?: string;
      queueDatabaseUrl?: string;
      port: number;
      host: string;
      publicUrl?: string;
      instances?: 'local' | 'url';
      instanceUrl?: string;
      data?: string;
      idleExitAfter?: number;
      logLevel?: string;
    }) => {
      const log = processLogger(options.logLevel);
      const databaseUrl = hostedDatabaseUrl(options.databaseUrl, 'front');
      const where = options.instances ?? (options.instanceUrl !== undefined ? 'url' : 'local');
      if (where === 'url' && options.instanceUrl === undefined)
        throw new Error("--instances url needs --instance-url, e.g. 'http://mv-{name}.internal:8080'.");
      if (where === 'local' && options.instanceUrl !== undefined)
        throw new Error('--instance-url finds instances a platform starts: leave out --instances local, or --instance-url.');
      if (where === 'local' && options.data === undefined)
        throw new Error('With local instances, give --data DIR: where the instances keep their mirrors.');
      const { instanceUrlTemplate } = await import('../front/forward/instance-url-template.ts');
      const template = where === 'url' ? instanceUrlTemplate(options.instanceUrl!) : null;
      const app = (await import('../main/github-settings.ts')).readGitHubAppSettings({
        ...(options.config !== undefined ? { file: options.config } : {}),
        anyInstallation: true,
      });
      const oauth = await hostedOAuthSettings('front');
      // Webhooks become jobs on the worker's queue (pg-boss), opened to send only.
      const { openJobSender, queuePlace } = await import('../main/queue-settings.ts');
      const jobs = await openJobSender(
        queuePlace(databaseUrl, { ...(options.queueDatabaseUrl !== undefined ? { queueDatabaseUrl: options.queueDatabaseUrl } : {}) }),
        { onError: (error) => log.warn({ event: 'queue_failed', err: error }, 'the job queue failed') },
      );
      let front: HostedFront;
      try {
        const { serveFront } = await import('../main/front.ts');
        const { LocalInstances } = await import('../main/local-instances.ts');
        front = await serveFront(
          {
            app,
            databaseUrl,
            port: options.port,
            hostname: options.host,
            ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
            ...(metricsToken() !== undefined ? { metricsToken: metricsToken()! } : {}),
            oauth,
          },
          {
            jobs,
            log,
            instances: (origins, metrics) =>
              template ??
              new LocalInstances({
                onStarted: (installation, durationMs) => metrics.recordInstanceWake(installation.name, durationMs / 1000),
                dataDir: resolve(options.data!),
                publicUrls: [...new Set([origins.publicOrigin.href, origins.listening.href])],
                databaseUrl,
                ...(options.idleExitAfter !== undefined ? { idleExitAfterSeconds: options.idleExitAfter } : {}),
                ...(options.config !== undefined ? { configFile: resolve(options.config) } : {}),
                ...(options.logLevel !== undefined ? { logLevel: options.logLevel } : {}),
                log,
              }),
          },
        );
      } catch (error) {
        await jobs.close({ timeoutMs: 0 });
        throw error;
      }
      console.log(`Major Vault front at ${front.publicOrigin.href} (each installation at ${front.publicOrigin.origin}/NAME)`);
      console.log(`GitHub webhooks: ${front.webhookUrl.href}`);
      closeOnSignal({
        close: async () => {
          await front.close();
          await jobs.close();
        },
      });
    },
  );

addLogLevelOption(program.command('worker'))
  .description(
    `Run the hosted jobs for every installation of a GitHub App, from the job queue on Postgres: index a repository after a push, ` +
      `build an installation's catalogue after a .vault/ change, index a newly switched on installation, drop an uninstalled one. ` +
      `The App is given by a settings file and the environment (${Object.values(githubEnvironment)
        .filter((name) => name !== githubEnvironment.installationId && name !== githubEnvironment.owner)
        .join(', ')}); the front's database by DATABASE_URL. Run as many workers as you like: a repository is indexed by one at a time.`,
  )
  .requiredOption('--data <dir>', 'where the mirrors of the repositories are kept, in <dir>/installations/<id>/')
  .option(
    '--config <file>',
    'a settings file (JSON with comments): appId, privateKey or privateKeyFile, clientId, clientSecret, webhookSecret, apiUrl, webUrl; the environment overrides it',
  )
  .option(
    '--database-url <url>',
    "the front's Postgres database: the installations and the catalogue store, on the server that holds each installation's database (default: $DATABASE_URL)",
  )
  .option('--queue-database-url <url>', `the job queue's database (default: $${queueDatabaseVariable}, else the front's database)`)
  .addOption(new Option('--concurrency <n>', 'how many repositories are indexed at once').default(4).argParser(positiveInteger))
  .addOption(
    new Option('--open-installations <n>', 'how many idle installations stay open (each holds up to 2 database connections)')
      .default(4)
      .argParser(positiveInteger),
  )
  .addOption(
    new Option(
      '--ops-port <port>',
      "where to answer a platform's probes and scraper: GET /healthz, /readyz and /metrics (default: not at all)",
    ).argParser(port),
  )
  .option('--ops-host <host>', 'the interface of --ops-port (every interface by default, for a container)', '0.0.0.0')
  .action(
    async (options: {
      data: string;
      config?: string;
      databaseUrl?: string;
      queueDatabaseUrl?: string;
      concurrency: number;
      openInstallations: number;
      opsPort?: number;
      opsHost: string;
      logLevel?: string;
    }) => {
      const log = processLogger(options.logLevel);
      const app = (await import('../main/github-settings.ts')).readGitHubAppSettings({
        ...(options.config !== undefined ? { file: options.config } : {}),
        anyInstallation: true,
      });
      const { runWorker } = await import('../main/worker.ts');
      const worker = await runWorker(
        {
          app,
          dataDir: options.data,
          concurrency: options.concurrency,
          openInstallations: options.openInstallations,
          ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
          ...(options.queueDatabaseUrl !== undefined ? { queueDatabaseUrl: options.queueDatabaseUrl } : {}),
          ...(options.opsPort !== undefined ? { ops: { port: options.opsPort, hostname: options.opsHost } } : {}),
        },
        { log },
      );
      console.log(`Major Vault worker taking jobs (${options.concurrency} repositories at once); Ctrl-C stops it.`);
      if (worker.opsOrigin) console.log(`Health, readiness and metrics at ${worker.opsOrigin.href} (/healthz, /readyz, /metrics)`);
      closeOnSignal(worker);
    },
  );

/** Where `installation` finds the Store: the options every one of its subcommands takes. */
interface StoreOptions {
  data?: string;
  databaseUrl?: string;
}

function addStoreOptions(command: Command): Command {
  return command
    .option('--data <dir>', 'the data folder serve-github uses (its PGlite index holds the installations; the server must be stopped)')
    .option('--database-url <url>', 'the Postgres server serve-github uses instead (default: $DATABASE_URL)');
}

function storePlace(options: StoreOptions): { dataDir?: string; databaseUrl?: string } {
  return {
    ...(options.data !== undefined ? { dataDir: options.data } : {}),
    ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
  };
}

const installationCommand = program
  .command('installation')
  .description(
    "The operator's switch: the GitHub App's installations, as GitHub reported them (the Setup URL, the installation webhook), switched on under a name or off.",
  );

addStoreOptions(
  installationCommand
    .command('on')
    .description('Switch an installation on under a name, the path of its address (renames one that is on).')
    .argument('<installation-id>', "GitHub's id of the installation", installationId)
    .requiredOption(
      '--name <name>',
      'the name of its address: a letter or digit, then letters, digits, ".", "_" and "-"; not oauth, webhooks or github',
    )
    .option(
      '--queue-database-url <url>',
      `on a Postgres server: the job queue's database, where the worker is told to index the installation (default: $${queueDatabaseVariable}, else the --database-url)`,
    ),
).action(async (id: number, options: StoreOptions & { name: string; queueDatabaseUrl?: string }) => {
  const { switchInstallationOn } = await import('../main/installation-operator.ts');
  const record = await switchInstallationOn(
    { ...storePlace(options), ...(options.queueDatabaseUrl !== undefined ? { queueDatabaseUrl: options.queueDatabaseUrl } : {}) },
    id,
    options.name,
  );
  console.log(`Installation ${record.id}${record.account ? ` (${terminalText(record.account)})` : ''} is on, at /${record.name ?? ''}.`);
  if (record.database !== null)
    console.log(
      `Its database ${record.database} is ready; the worker indexes its repositories and builds its catalogue (job refresh-installation).`,
    );
});

addStoreOptions(
  installationCommand
    .command('off')
    .description('Switch an installation off (its name stays reserved to it).')
    .argument('<installation-id>', "GitHub's id of the installation", installationId),
).action(async (id: number, options: StoreOptions) => {
  const { switchInstallationOff } = await import('../main/installation-operator.ts');
  const record = await switchInstallationOff(storePlace(options), id);
  console.log(`Installation ${record.id}${record.account ? ` (${terminalText(record.account)})` : ''} is off.`);
});

addStoreOptions(installationCommand.command('list').description('List the installations: id, status, name, account.')).action(
  async (options: StoreOptions) => {
    const { installationTable, listInstallations } = await import('../main/installation-operator.ts');
    console.log(installationTable(await listInstallations(storePlace(options))));
  },
);

applyGitRunnerSetting();
// The runner's troubles go to the log of the command that runs (its --log-level).
program.hook('preAction', (_program, action) => {
  const level: unknown = action.opts()['logLevel'];
  try {
    reportGitRunnerTrouble(processLogger(typeof level === 'string' ? level : undefined));
  } catch {
    /* an unknown level: the command itself refuses it */
  }
});
try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Operator errors are sentences; anything else also gets its stack.
  if (error instanceof Error && !(error.name === 'Error' && error.message.length < 500))
    console.error(`major-vault: failed\n${error.stack ?? error.message}`);
  else console.error(`major-vault: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
