// Where git processes are started: from a small runner process (git-runner-process.ts), or,
// when that is off or keeps failing, from this process directly.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';

/** A message from the server to the runner (Node IPC, `advanced` serialization). */
export type RunnerRequest =
  | { t: 'spawn'; id: number; args: string[]; cwd: string | undefined; env: Record<string, string>; timeoutMs: number }
  | { t: 'stdin'; id: number; data: Buffer }
  | { t: 'end'; id: number }
  | { t: 'kill'; id: number; signal: NodeJS.Signals }
  | { t: 'nice'; id: number; value: number }
  | { t: 'ping' };

/** A message from the runner to the server about the git process `id`. */
export type RunnerEvent =
  | { t: 'ready' }
  | { t: 'pong' }
  | { t: 'spawned'; id: number; pid: number | null }
  | { t: 'stdout'; id: number; data: Uint8Array }
  | { t: 'stderr'; id: number; data: Uint8Array }
  | { t: 'error'; id: number; message: string; code: string | null }
  | { t: 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

/** How to start one git process: the full argument list, working directory, whole environment, timeout in ms (then SIGTERM). */
export interface GitSpawnOptions {
  cwd: string | undefined;
  env: Record<string, string>;
  timeoutMs: number;
}

/** What happened to a git process, handed to its `onDone` once. */
export interface GitEnd {
  /** Exit code; null when a signal ended it, or it was lost with the runner. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when git could not start (ENOENT…): then nothing else was reported. */
  startError?: Error;
  /** Set when the runner ended while git ran: git's outcome is unknown (it may have finished). */
  lost?: string;
}

/**
 * One git process, as run-git.ts uses it, whichever process started it. Output arrives in
 * order, then `onDone` once, after all of it.
 */
export interface GitChild {
  write(data: string | Buffer): void;
  /** Ends git's standard input, after `data` when given. */
  end(data?: string | Buffer): void;
  /** Ends git (SIGTERM) and drops its standard input. */
  kill(): void;
  /** Sets git's scheduling priority (nice); ignored where the system refuses it. */
  nice(value: number): void;
  /** Whether this git keeps the Node process alive (true as it starts). */
  hold(hold: boolean): void;
}

/** The callbacks of one git process. */
export interface GitListeners {
  onStdout: (chunk: Buffer) => void;
  onStderr: (chunk: Buffer) => void;
  onDone: (end: GitEnd) => void;
}

/** Something about the runner an operator should know (see {@link onGitRunnerTrouble}). */
export interface RunnerTrouble {
  /** `runner_ended`: it ended while this process lived; `runner_stuck`: killed for not answering; `runner_given_up`: git is started directly from now on. */
  event: 'runner_ended' | 'runner_stuck' | 'runner_given_up';
  /** A sentence for the log. */
  message: string;
}

let troubleListener: ((trouble: RunnerTrouble) => void) | null = null;

/** Hands each {@link RunnerTrouble} of this thread's runners to `listener` (the composition root's log); null: to nobody. */
export function onGitRunnerTrouble(listener: ((trouble: RunnerTrouble) => void) | null): void {
  troubleListener = listener;
}

/** The runner may end unexpectedly this many times within DEATH_WINDOW_MS before git is started directly from then on. */
const MAX_DEATHS = 3;
const DEATH_WINDOW_MS = 60_000;

interface Pending {
  listeners: GitListeners;
  held: boolean;
}

/** When a runner starts, and how its liveness is checked (see GitRunner); the defaults suit a loaded machine. */
export interface RunnerOptions {
  /**
   * How long after the first git call the runner is started, in ms (git is started directly
   * until it is ready). Default 1 000: forking this process takes tens of ms of its event loop,
   * and a server's first answers come first.
   */
  startDelayMs: number;
  /** Silence (ms) of a runner that runs git after which it is asked to answer (`ping`). Default 5 000. */
  silenceMs: number;
  /** How long (ms) it has to answer before it is taken for stuck and killed. Default 20 000. */
  answerMs: number;
}

const DEFAULTS: RunnerOptions = { startDelayMs: 1_000, silenceMs: 5_000, answerMs: 20_000 };

/**
 * A runner process started `startDelayMs` after the first git call (or after the hold of
 * {@link holdGitRunnerUntil}), or by {@link whenReady}
 * (`fork` of git-runner-process.ts, no Node options of this process: no profiler, no loader;
 * until it is ready, `spawn` answers null and git is started directly), kept while this
 * process lives and let go of (unref'd) whenever no git it runs is held. When it ends, the
 * git processes it ran are reported lost (GitEnd.lost) and a later call starts a new runner
 * the same way; after MAX_DEATHS ends
 * within DEATH_WINDOW_MS, or when it cannot be started, `spawn` answers null and git is
 * started directly.
 *
 * A runner that runs git and has said nothing for `silenceMs` is asked to answer; one
 * that does not within `answerMs` (stopped, wedged, its channel stuck) is killed and
 * counts as ended, so a git call through it fails as a GitError and never waits forever.
 */
export class GitRunner {
  private child: ChildProcess | null = null;
  /** Whether `child` has started and listens (it said `ready`). */
  private ready = false;
  private readyWaiters: Array<() => void> = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private heldCount = 0;
  private deaths: number[] = [];
  private broken = false;
  private readonly options: RunnerOptions;
  private startTimer: NodeJS.Timeout | null = null;
  /** Whether a start waits for {@link holdGitRunnerUntil}'s promise. */
  private held = false;
  /** When the runner last said anything (ms, Date.now()). */
  private heardAt = 0;
  /** When the unanswered `ping` was sent, or null. */
  private askedAt: number | null = null;
  private watchTimer: NodeJS.Timeout | null = null;

  constructor(options: Partial<RunnerOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /**
   * Starts git through the runner; null when the runner cannot be used, or is still starting
   * (then start git directly: a start-up never waits for the runner's own).
   */
  spawn(args: readonly string[], options: GitSpawnOptions, listeners: GitListeners): GitChild | null {
    const runner = this.child;
    if (runner === null || !this.ready) {
      this.startSoon();
      return null;
    }
    const id = this.nextId++;
    const entry: Pending = { listeners, held: true };
    if (this.pending.size === 0) this.heardAt = Date.now();
    this.pending.set(id, entry);
    this.setHeld(entry, true);
    this.startWatch();
    const post = (request: RunnerRequest) => {
      if (this.pending.has(id) && this.child === runner && runner.connected) runner.send(request);
    };
    post({ t: 'spawn', id, args: [...args], cwd: options.cwd, env: options.env, timeoutMs: options.timeoutMs });
    return {
      write: (data) => post({ t: 'stdin', id, data: typeof data === 'string' ? Buffer.from(data, 'utf8') : data }),
      end: (data) => {
        if (data !== undefined && data.length > 0)
          post({ t: 'stdin', id, data: typeof data === 'string' ? Buffer.from(data, 'utf8') : data });
        post({ t: 'end', id });
      },
      kill: () => post({ t: 'kill', id, signal: 'SIGTERM' }),
      nice: (value) => post({ t: 'nice', id, value }),
      hold: (hold) => this.setHeld(entry, hold),
    };
  }

  /**
   * Starts the runner if none runs and settles once it takes git processes, or once it ended
   * before that (the runner keeps this process alive until then); at once when it cannot be used.
   */
  whenReady(): Promise<void> {
    if (this.startTimer !== null) clearTimeout(this.startTimer);
    this.startTimer = null;
    const child = this.runner();
    if (this.ready || child === null) return Promise.resolve();
    child.ref();
    return new Promise((resolve) =>
      this.readyWaiters.push(() => {
        if (this.child === child && this.heldCount === 0) this.letGo(child);
        resolve();
      }),
    );
  }

  /** The runner's process id, or null when none runs (for tests that end it). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** A start that was about to come waits for {@link holdGitRunnerUntil}'s hold. */
  holdBack(): void {
    if (this.startTimer === null) return;
    clearTimeout(this.startTimer);
    this.startTimer = null;
    this.startSoon();
  }

  /**
   * Starts the runner after `startDelayMs`, unless one runs or is about to start; while
   * {@link holdGitRunnerUntil} holds it back, `startDelayMs` after that ends.
   */
  private startSoon(): void {
    if (this.broken || this.child !== null || this.startTimer !== null || this.held) return;
    const hold = heldUntil;
    if (hold !== null) {
      this.held = true;
      void hold.then(() => {
        this.held = false;
        this.startSoon();
      });
      return;
    }
    this.startTimer = setTimeout(() => {
      this.startTimer = null;
      this.runner();
    }, this.options.startDelayMs);
    this.startTimer.unref();
  }

  private runner(): ChildProcess | null {
    if (this.broken) return null;
    if (this.child !== null) return this.child;
    let child: ChildProcess;
    try {
      child = fork(new URL('./git-runner-process.ts', import.meta.url), [], {
        execArgv: ['--disable-warning=ExperimentalWarning'],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
    } catch {
      this.broken = true;
      return null;
    }
    this.child = child;
    child.on('message', (event: RunnerEvent) => this.take(event));
    child.on('error', () => {
      // A failed start or a failed send: treated as the runner's end.
      this.lose(child);
    });
    child.on('exit', () => this.lose(child));
    if (this.heldCount === 0) this.letGo(child);
    return child;
  }

  private take(event: RunnerEvent): void {
    this.heardAt = Date.now();
    this.askedAt = null;
    if (event.t === 'pong') return;
    if (event.t === 'ready') {
      this.ready = true;
      for (const resolve of this.readyWaiters.splice(0)) resolve();
      return;
    }
    const entry = this.pending.get(event.id);
    if (entry === undefined) return;
    const { listeners } = entry;
    if (event.t === 'stdout') listeners.onStdout(asBuffer(event.data));
    else if (event.t === 'stderr') listeners.onStderr(asBuffer(event.data));
    else if (event.t === 'error' || event.t === 'close') {
      this.finish(event.id, entry);
      if (event.t === 'close') listeners.onDone({ code: event.code, signal: event.signal });
      else listeners.onDone({ code: null, signal: null, startError: Object.assign(new Error(event.message), { code: event.code }) });
    }
  }

  /** The runner `child` ended or failed: its git processes are reported lost; a new runner starts on next use. */
  private lose(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = null;
    this.ready = false;
    this.askedAt = null;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    child.removeAllListeners('message');
    if (child.connected) child.disconnect();
    const now = Date.now();
    this.deaths = [...this.deaths.filter((at) => now - at < DEATH_WINDOW_MS), now];
    if (this.deaths.length >= MAX_DEATHS) this.broken = true;
    const lost = [...this.pending];
    troubleListener?.({
      event: 'runner_ended',
      message: `The git runner process (pid ${child.pid ?? '?'}) ended${lost.length > 0 ? ` while it ran ${lost.length} git process(es); the calls waiting on them fail and can be tried again` : ''}.`,
    });
    if (this.broken)
      troubleListener?.({
        event: 'runner_given_up',
        message: `The git runner process ended ${MAX_DEATHS} times within ${DEATH_WINDOW_MS / 1000} s: git is started directly from the server from now on.`,
      });
    for (const [id, entry] of lost) {
      this.finish(id, entry);
      entry.listeners.onDone({ code: null, signal: null, lost: 'the git runner process ended while git ran' });
    }
  }

  private finish(id: number, entry: Pending): void {
    this.pending.delete(id);
    this.setHeld(entry, false);
    if (this.pending.size === 0 && this.watchTimer !== null) {
      clearInterval(this.watchTimer);
      this.watchTimer = null;
    }
  }

  /** Checks the runner's liveness while it runs git (see the class's comment). */
  private startWatch(): void {
    if (this.watchTimer !== null) return;
    const every = Math.max(10, Math.min(this.options.silenceMs, this.options.answerMs) / 2);
    this.watchTimer = setInterval(() => this.checkLiveness(), every);
    this.watchTimer.unref();
  }

  private checkLiveness(): void {
    const child = this.child;
    if (child === null || !this.ready || this.pending.size === 0) return;
    const now = Date.now();
    if (this.askedAt !== null) {
      if (now - this.askedAt < this.options.answerMs) return;
      // Stuck: killed, and its 'exit' reports its git processes lost (lose).
      this.askedAt = null;
      troubleListener?.({
        event: 'runner_stuck',
        message: `The git runner process (pid ${child.pid ?? '?'}) did not answer within ${this.options.answerMs} ms while it ran git; it is killed, and the calls that were running git fail.`,
      });
      child.kill('SIGKILL');
      return;
    }
    if (now - this.heardAt < this.options.silenceMs) return;
    this.askedAt = now;
    if (child.connected) child.send({ t: 'ping' } satisfies RunnerRequest);
  }

  private setHeld(entry: Pending, hold: boolean): void {
    if (entry.held !== hold) {
      entry.held = hold;
      this.heldCount += hold ? 1 : -1;
    }
    const child = this.child;
    if (child === null) return;
    if (this.heldCount > 0) {
      child.ref();
      (child.channel as { ref?(): void } | null | undefined)?.ref?.();
    } else this.letGo(child);
  }

  private letGo(child: ChildProcess): void {
    child.unref();
    (child.channel as { unref?(): void } | null | undefined)?.unref?.();
  }
}

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

let wanted = true;

/**
 * Turns starting git through the runner on (the default) or off for this thread's later git
 * calls; a composition root sets it from `MAJOR_VAULT_GIT_RUNNER` (main/git-runner-setting.ts).
 */
export function useGitRunner(on: boolean): void {
  wanted = on;
}

let shared: GitRunner | null = null;

/** What the start of a runner waits for ({@link holdGitRunnerUntil}); null: nothing. */
let heldUntil: Promise<void> | null = null;

/**
 * Holds back the start of this thread's runner until `until` settles (either way), one
 * about to start included (a runner already started stays): a
 * server's start-up (its first answers, the index's opening and first check, the tools'
 * handlers loading) runs its git directly meanwhile, and forks the runner (a Node process,
 * its fork taking tens of ms of the event loop and its start a processor for as long)
 * `startDelayMs` after that instead of a second after its first git call, which on two
 * processors fell in the middle of it. {@link GitRunner.whenReady} does not wait.
 */
export function holdGitRunnerUntil(until: Promise<unknown>): void {
  const hold = until.then(
    () => undefined,
    () => undefined,
  );
  heldUntil = hold;
  void hold.then(() => {
    if (heldUntil === hold) heldUntil = null;
  });
  shared?.holdBack();
}

/** This process's runner (one per thread that starts git), or null when it is turned off. */
export function gitRunner(): GitRunner | null {
  if (!wanted) return null;
  shared ??= new GitRunner();
  return shared;
}

/**
 * Starts `git args` with `options` and reports to `listeners`: through this process's
 * runner when it can be used, else directly (child_process.spawn). A direct spawn that
 * fails to start reports GitEnd.startError, as the runner does.
 */
export function spawnGit(args: readonly string[], options: GitSpawnOptions, listeners: GitListeners): GitChild {
  return gitRunner()?.spawn(args, options, listeners) ?? spawnDirect(args, options, listeners);
}

/** Starts git from this process (child_process.spawn). */
export function spawnDirect(args: readonly string[], options: GitSpawnOptions, listeners: GitListeners): GitChild {
  const child = spawn('git', args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], timeout: options.timeoutMs });
  let open = true;
  let done = false;
  const finish = (end: GitEnd) => {
    if (done) return;
    done = true;
    open = false;
    listeners.onDone(end);
  };
  child.stdout.on('data', (chunk: Buffer) => listeners.onStdout(chunk));
  child.stderr.on('data', (chunk: Buffer) => listeners.onStderr(chunk));
  child.stdin.on('error', () => {
    /* git may exit before reading all input; the exit code tells what happened */
  });
  child.on('error', (error) => {
    // Only a failed start comes without a 'close' after it.
    if (child.pid === undefined) finish({ code: null, signal: null, startError: error });
  });
  child.on('close', (code, signal) => finish({ code, signal }));
  return {
    write(data) {
      if (open) child.stdin.write(data);
    },
    end(data) {
      if (open) child.stdin.end(data);
    },
    kill() {
      child.stdin.destroy();
      child.kill();
    },
    nice(value) {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        setPriority(child.pid, value);
      } catch {
        /* not allowed here, or git has just exited: it runs on as it was */
      }
    },
    hold(hold) {
      // The pipes are sockets (net.Socket), which can be let go of like the child itself.
      const handles = [child, child.stdin, child.stdout, child.stderr] as unknown as Array<{ ref?(): void; unref?(): void }>;
      for (const handle of handles) {
        if (hold) handle.ref?.();
        else handle.unref?.();
      }
    },
  };
}
