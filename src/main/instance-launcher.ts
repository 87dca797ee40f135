// Starts instance processes through a small launcher process (instance-launcher.cjs) instead of
// forking the front itself: a fork copies the forking process's page tables, which from a
// front of a few hundred MiB holds its event loop for 2-4 ms (issue 13: a cold tools/list at
// the front in ≤ 5 ms while instances start).
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';

/**
 * A process the launcher started, as the front sees it: the subset of ChildProcess that
 * LocalInstances uses. Events: `'message'` (what the child sent over its IPC channel),
 * `'error'` (an Error: it could not be started), `'exit'` (code, signal; also when the
 * launcher itself went, with signal `'SIGKILL'`).
 */
export interface LaunchedProcess extends EventEmitter {
  /** The child's process id, once the launcher said it (undefined before, or when it could not be started). */
  pid: number | undefined;
  /** Sends `signal` to the child (through the launcher); false when it exited already. */
  kill(signal: NodeJS.Signals): boolean;
}

/** Messages the launcher sends the front. */
type LauncherEvent =
  | { op: 'spawned'; id: number; pid: number | undefined }
  | { op: 'message'; id: number; message: unknown }
  | { op: 'error'; id: number; message: string }
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };

class Launched extends EventEmitter implements LaunchedProcess {
  pid: number | undefined = undefined;
  exited = false;
  private readonly id: number;
  private readonly launcher: () => ChildProcess | null;
  constructor(id: number, launcher: () => ChildProcess | null) {
    super();
    this.id = id;
    this.launcher = launcher;
  }
  kill(signal: NodeJS.Signals): boolean {
    const launcher = this.launcher();
    if (this.exited || launcher === null || !launcher.connected) return false;
    launcher.send({ op: 'kill', id: this.id, signal });
    return true;
  }
}

/** The launcher: starts children through one launcher process, forked when first needed. */
export interface InstanceLauncher {
  /**
   * Starts `node args` with `env`, its stdin and stdout ignored, its stderr the front's, an IPC
   * channel to it, at CPU `priority` (an absolute nice value) when given.
   */
  start(node: string, args: readonly string[], env: NodeJS.ProcessEnv, priority?: number): LaunchedProcess;
  /** Stops the launcher process (its children are stopped by their owner first); resolves once it exited. */
  close(): Promise<void>;
  /** The launcher process's id while it runs (diagnostics, tests). */
  pid(): number | undefined;
}

/** instance-launcher.cjs of this checkout. */
const launcherScript = new URL('./instance-launcher.cjs', import.meta.url);

/**
 * An {@link InstanceLauncher} over one launcher process (forked with `execPath`, default this
 * process's Node, on first use; forked again after it went). When the launcher goes, every
 * child it started is told as exited (signal SIGKILL): each of them stops by itself once its
 * IPC channel closes.
 */
export function instanceLauncher(options: { execPath?: string } = {}): InstanceLauncher {
  let launcher: ChildProcess | null = null;
  let nextId = 1;
  const launched = new Map<number, Launched>();
  const current = () => launcher;

  function ensure(): ChildProcess {
    if (launcher !== null && launcher.connected) return launcher;
    const started = fork(launcherScript, [], {
      execPath: options.execPath ?? process.execPath,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // No loader flags of the front's (tsx, inspector): the launcher is plain CommonJS.
      execArgv: [],
    });
    started.on('message', (event: LauncherEvent) => {
      const child = launched.get(event.id);
      if (child === undefined) return;
      if (event.op === 'spawned') child.pid = event.pid;
      else if (event.op === 'message') child.emit('message', event.message);
      else if (event.op === 'error') child.emit('error', new Error(event.message));
      else if (event.op === 'exit') {
        launched.delete(event.id);
        child.exited = true;
        child.emit('exit', event.code, event.signal);
      }
    });
    started.once('exit', () => {
      if (launcher === started) launcher = null;
      for (const [id, child] of launched) {
        launched.delete(id);
        child.exited = true;
        child.emit('exit', null, 'SIGKILL');
      }
    });
    // The launcher must not keep the front's process alive by itself.
    started.unref();
    started.channel?.unref();
    launcher = started;
    return started;
  }

  return {
    start(node, args, env, priority) {
      const running = ensure();
      const id = nextId++;
      const child = new Launched(id, current);
      launched.set(id, child);
      running.send({ op: 'start', id, node, args: [...args], env, ...(priority !== undefined ? { priority } : {}) });
      return child;
    },
    pid: () => launcher?.pid,
    async close() {
      const running = launcher;
      launcher = null;
      if (running === null || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      if (running.connected) running.disconnect();
      else running.kill('SIGTERM');
      await exited;
    },
  };
}
