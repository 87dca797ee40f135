// The InstanceLocator on one machine (issue 13, "Scale to zero": "locally, the front starts
// instance processes on demand as a container platform would"): one `major-vault instance`
// child process per installation, started when the front first needs it, forgotten when it
// exits (after its idle time), started again on the next call, and stopped with the front.
import { getPriority } from 'node:os';
import { instanceLauncher, type InstanceLauncher, type LaunchedProcess } from './instance-launcher.ts';
import { join } from 'node:path';
import { InstanceEndedEarly, type InstanceKey, type InstanceLocator } from '../front/forward/instance-locator.ts';
import type { Logger } from '../instance/log.ts';

/** How much lower than the front's an instance process's CPU priority is (a `nice` increment). */
const INSTANCE_NICE = 5;

/** What {@link LocalInstances} starts its children with. */
export interface LocalInstancesOptions {
  /** Where the children keep their mirrors: `<dataDir>/<installation id>/`. */
  dataDir: string;
  /** The front's public address(es): the children take tokens for `<public url>/<name>` only. */
  publicUrls: readonly string[];
  /** The front's database (the Store), handed to the children as `DATABASE_URL`. */
  databaseUrl: string;
  /** Each child stops after this many seconds without a request; default 300. */
  idleExitAfterSeconds?: number;
  /** A GitHub settings file the children read too (`--config`); else the environment alone. */
  configFile?: string;
  /** The children's log level; default the front's. */
  logLevel?: string;
  /** The children's environment (the GitHub App's and the front's secret variables); default this process's. */
  env?: NodeJS.ProcessEnv;
  /** How long a child may take to listen, in ms; default 300,000 (it fetches its mirrors first: a first clone may be long). */
  startTimeoutMs?: number;
  /** The `major-vault` command; default bin/major-vault.js of this checkout, run by this process's Node. */
  command?: { node: string; script: string };
  /** Told when a child listens, with how long it took from the call that started it, in ms (the front's cold-start metric). */
  onStarted?: (installation: InstanceKey, durationMs: number) => void;
  log: Logger;
}

/** One child: its process and the origin it listens on, once it said so. */
interface Child {
  process: LaunchedProcess;
  origin: Promise<URL>;
  /** The origin once it said so. */
  listening: URL | null;
  exited: boolean;
}

/** bin/major-vault.js of this checkout. */
const cliScript = join(import.meta.dirname, '..', '..', 'bin', 'major-vault.js');

/**
 * Starts `major-vault instance --installation <name>` children on demand, one per
 * installation, each on a free loopback port, told to the front over Node's IPC channel (`{
 * listening: url }`). Calls for an installation whose child is starting share that start. A
 * child that exited (idle, or crashed) is forgotten and started again on the next call.
 * {@link close} stops every child (SIGTERM, then SIGKILL after 10 seconds); a child also stops
 * when the front's process goes (its IPC channel closes).
 */
export class LocalInstances implements InstanceLocator {
  private readonly children = new Map<string, Child>();
  private closed = false;
  /** Starts the children without forking the front (instance-launcher.ts). */
  private readonly launcher: InstanceLauncher = instanceLauncher();

  private readonly options: LocalInstancesOptions;

  constructor(options: LocalInstancesOptions) {
    this.options = options;
  }

  locate(installation: InstanceKey): Promise<URL> {
    if (this.closed) return Promise.reject(new Error('The front is stopping: no instance is started.'));
    const running = this.children.get(installation.name);
    if (running !== undefined && !running.exited) return running.origin;
    return this.start(installation).origin;
  }

  unreachable(installation: InstanceKey, origin: URL): void {
    const child = this.children.get(installation.name);
    // Only the child that listened at `origin`: a newer one may be starting already. At once,
    // so the caller's next locate starts another.
    if (child === undefined || child.listening?.href !== origin.href) return;
    this.children.delete(installation.name);
    child.process.kill('SIGTERM');
  }

  /** The installations whose child runs now (started or starting), by name: for the logs and the tests. */
  running(): string[] {
    return [...this.children.entries()].filter(([, child]) => !child.exited).map(([name]) => name);
  }

  async close(): Promise<void> {
    this.closed = true;
    const children = [...this.children.values()].filter((child) => !child.exited);
    this.children.clear();
    await Promise.all(children.map((child) => stopChild(child)));
    await this.launcher.close();
  }

  private start(installation: InstanceKey): Child {
    const { options } = this;
    const command = options.command ?? { node: process.execPath, script: cliScript };
    const args = [
      command.script,
      'instance',
      '--installation',
      installation.name,
      '--data',
      join(options.dataDir, String(installation.id)),
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      ...options.publicUrls.flatMap((url) => ['--public-url', url]),
      '--idle-exit-after',
      String(options.idleExitAfterSeconds ?? 300),
      ...(options.configFile !== undefined ? ['--config', options.configFile] : []),
      ...(options.logLevel !== undefined ? ['--log-level', options.logLevel] : []),
    ];
    // The database URL goes in the environment, not the command line, where `ps` shows it.
    // Below the front's priority (nice +5): an instance's start takes about two seconds of CPU,
    // and on a small machine the front's answers from the catalogue store should not wait for it.
    // Started by the launcher process, so the fork does not hold the front's event loop.
    const child = this.launcher.start(
      command.node,
      args,
      { ...(options.env ?? process.env), DATABASE_URL: options.databaseUrl },
      Math.min(19, getPriority() + INSTANCE_NICE),
    );
    const started = performance.now();
    const entry: Child = { process: child, origin: Promise.resolve(new URL('http://unused')), listening: null, exited: false };
    entry.origin = new Promise<URL>((resolveOrigin, reject) => {
      const timeoutMs = options.startTimeoutMs ?? 300_000;
      const timer = setTimeout(() => {
        reject(new Error(`The instance of ${installation.name} did not start within ${Math.round(timeoutMs / 1000)} seconds.`));
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('message', (message: unknown) => {
        const listening = (message as { listening?: unknown } | null)?.listening;
        if (typeof listening !== 'string') return;
        clearTimeout(timer);
        const origin = new URL(new URL(listening).origin);
        entry.listening = origin;
        options.onStarted?.(installation, performance.now() - started);
        options.log.info(
          {
            event: 'instance_started',
            installation: installation.name,
            pid: child.pid,
            origin: origin.href,
            durationMs: Math.round(performance.now() - started),
          },
          `started the instance of ${installation.name}`,
        );
        resolveOrigin(origin);
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`The instance of ${installation.name} could not be started: ${error.message}`, { cause: error }));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        entry.exited = true;
        if (this.children.get(installation.name) === entry) this.children.delete(installation.name);
        options.log.info(
          { event: 'instance_exited', installation: installation.name, pid: child.pid, code, signal },
          `the instance of ${installation.name} exited`,
        );
        reject(
          new InstanceEndedEarly(
            `The instance of ${installation.name} stopped before it listened (exit code ${code ?? signal}); its log says why.`,
          ),
        );
      });
    });
    // A start that failed is the caller's to report; no unhandled rejection here.
    entry.origin.catch(() => undefined);
    this.children.set(installation.name, entry);
    return entry;
  }
}

/** Stops `child`: SIGTERM, then SIGKILL after 10 seconds; resolves once it exited. */
function stopChild(child: Child): Promise<void> {
  if (child.exited) return Promise.resolve();
  return new Promise((resolveStop) => {
    const kill = setTimeout(() => child.process.kill('SIGKILL'), 10_000);
    child.process.once('exit', () => {
      clearTimeout(kill);
      resolveStop();
    });
    child.process.kill('SIGTERM');
  });
}
