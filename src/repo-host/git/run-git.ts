// Runs the `git` program: the one place a child process for Git is asked for (started by
// the git runner, git-runner.ts, or directly where that is off).
import { VaultError } from '../../vault-error.ts';
import { spawnGit, type GitEnd } from './git-runner.ts';

/** Options for {@link runGit}. */
export interface RunGitOptions {
  /** Working directory; defaults to the process's. */
  cwd?: string;
  /** `--git-dir` to pass (a bare repository or a `.git` folder). */
  gitDir?: string;
  /** `--work-tree` to pass. */
  workTree?: string;
  /** Bytes for standard input. */
  input?: string | Buffer;
  /** Extra environment (GIT_INDEX_FILE, GIT_AUTHOR_*, …), on top of a neutral one. */
  env?: Record<string, string>;
  /** Exit codes that are not failures (e.g. `[0, 1]` for `diff --exit-code`). Default `[0]`. */
  okCodes?: number[];
  /** Abort after this many milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Refuse output larger than this many bytes. Default 512 MiB. */
  maxBytes?: number;
}

/** What git printed and how it ended. */
export interface GitOutput {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/**
 * A git command that failed: its arguments, exit code and standard error; `refusal`, when set,
 * is what a caller is told if the failure reaches a tool (vault-error.ts `carriedRefusal`).
 */
export class GitError extends Error {
  readonly args: readonly string[];
  readonly code: number | null;
  readonly stderr: string;
  readonly refusal?: VaultError;

  constructor(args: readonly string[], code: number | null, stderr: string, refusal?: VaultError) {
    super(`git ${args.join(' ')} failed (${code ?? 'killed'}): ${stderr.trim().slice(0, 500)}`);
    this.args = args;
    this.code = code;
    this.stderr = stderr;
    this.name = 'GitError';
    if (refusal !== undefined) this.refusal = refusal;
  }
}

/** What a call is told when the git runner ended while it ran git (worker_failed, as for a worker thread). */
const RUNNER_LOST =
  'The helper process that runs git for this server stopped while this call was running, so nothing was changed; it starts again by itself. Try the call again.';

/**
 * The environment every git call gets: no user or system config (so a person's aliases,
 * pagers or hooks never change an answer), no prompts, paths printed verbatim, and the
 * C.UTF-8 locale (so `--regexp-ignore-case` folds Cyrillic, Greek, accented letters…).
 */
export const gitEnv: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  // English messages, and UTF-8 text: case is ignored beyond ASCII (`-S… -i`, `--author`).
  // Where the system lacks this locale, Git falls back to C, which folds ASCII only.
  LC_ALL: 'C.UTF-8',
};

/**
 * Runs `git [--git-dir D] [--work-tree W] -c core.quotepath=false ARGS` and collects its
 * output. Caller-supplied values must never become options: put them after
 * `--end-of-options` or `--`, or inside `-S<text>` / `--author=<text>`.
 * Throws GitError when the exit code is not in `okCodes`, when it times out, or when the
 * output exceeds `maxBytes`.
 */
export function runGit(args: readonly string[], options: RunGitOptions = {}): Promise<GitOutput> {
  const prefix: string[] = [];
  if (options.gitDir) prefix.push(`--git-dir=${options.gitDir}`);
  if (options.workTree) prefix.push(`--work-tree=${options.workTree}`);
  prefix.push('-c', 'core.quotepath=false');
  const fullArgs = [...prefix, ...args];
  const okCodes = options.okCodes ?? [0];
  const maxBytes = options.maxBytes ?? 512 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let tooLarge = false;
    const child = spawnGit(
      fullArgs,
      { cwd: options.cwd, env: { ...stringEnv(), ...gitEnv, ...options.env }, timeoutMs: options.timeoutMs ?? 60_000 },
      {
        onStdout: (chunk) => {
          if (tooLarge) return;
          size += chunk.length;
          if (size > maxBytes) {
            tooLarge = true;
            child.kill();
            return;
          }
          chunks.push(chunk);
        },
        onStderr: (chunk) => {
          if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
        },
        onDone: (end) => {
          if (end.startError) return reject(end.startError);
          if (tooLarge) return reject(new GitError(args, end.code, `output larger than ${maxBytes} bytes`));
          const failure = failureOf(args, end, stderr, okCodes);
          if (failure !== null) return reject(failure);
          resolve({ stdout: Buffer.concat(chunks), stderr, code: end.code! });
        },
      },
    );
    child.end(options.input ?? '');
  });
}

/** The environment of this process, without the variables that are unset. */
function stringEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The GitError for how git ended (`end`), or null when its exit code is one of `okCodes`. */
function failureOf(args: readonly string[], end: GitEnd, stderr: string, okCodes: readonly number[]): GitError | null {
  if (end.lost !== undefined)
    return new GitError(args, null, `${end.lost}${stderr ? `: ${stderr}` : ''}`, new VaultError('worker_failed', RUNNER_LOST));
  if (end.code === null) return new GitError(args, null, `killed by ${end.signal ?? 'signal'}${stderr ? `: ${stderr}` : ''}`);
  if (!okCodes.includes(end.code)) return new GitError(args, end.code, stderr);
  return null;
}

/** Splits NUL-terminated output (`-z`) into UTF-8 strings, dropping the final empty field. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8');
  const parts = text.split('\0');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** A git process started by {@link startGit}: fed and read while it runs. */
export interface GitProcess {
  /** Writes to git's standard input; ignored once git has exited or the input was ended. */
  write(data: string | Buffer): void;
  /** Ends git's standard input. */
  end(): void;
  /** Stops git (SIGTERM) when it is not needed any more: `done` then resolves with `stopped: true`. */
  stop(): void;
  /**
   * Lowers git's scheduling priority (nice 10), for work done ahead of a request rather
   * than for one; ignored where the system refuses it.
   */
  background(): void;
  /**
   * Whether a running git keeps this Node process alive (true, as it starts): a process kept
   * for later reads is let go while it waits, so that it never holds an ending program open.
   */
  holdOpen(hold: boolean): void;
  /**
   * Settles when git has exited and its output has been read: resolves with the exit code
   * (null when stopped), standard error and whether `stop` ended it; rejects with GitError
   * when git failed on its own (exit code not in `okCodes`, killed, timed out) and with the
   * error of the spawn itself when git could not start.
   */
  done: Promise<{ code: number | null; stderr: string; stopped: boolean }>;
}

/**
 * Starts `git [--git-dir D] [--work-tree W] -c core.quotepath=false ARGS` like
 * {@link runGit} (same environment and options; `input`, when given, is written first, and
 * standard input stays open until `end`), handing each chunk of standard output to
 * `onStdout` as it arrives: for reading a long `git log` while it runs, feeding another
 * process from it, or stopping it once enough was read. Same rules for caller values.
 */
export function startGit(args: readonly string[], options: RunGitOptions & { onStdout: (chunk: Buffer) => void }): GitProcess {
  const prefix: string[] = [];
  if (options.gitDir) prefix.push(`--git-dir=${options.gitDir}`);
  if (options.workTree) prefix.push(`--work-tree=${options.workTree}`);
  prefix.push('-c', 'core.quotepath=false');
  const okCodes = options.okCodes ?? [0];
  let stopped = false;
  let inputOpen = true;
  let stderr = '';
  let settle: { resolve: (value: { code: number | null; stderr: string; stopped: boolean }) => void; reject: (error: unknown) => void };
  const done = new Promise<{ code: number | null; stderr: string; stopped: boolean }>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const child = spawnGit(
    [...prefix, ...args],
    {
      cwd: options.cwd,
      // GIT_FLUSH: git log and rev-list flush after each commit, so a reader sees each one at once.
      env: { ...stringEnv(), ...gitEnv, GIT_FLUSH: '1', ...options.env },
      timeoutMs: options.timeoutMs ?? 60_000,
    },
    {
      onStdout: (chunk) => {
        if (!stopped) options.onStdout(chunk);
      },
      onStderr: (chunk) => {
        if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
      },
      onDone: (end) => {
        inputOpen = false;
        if (end.startError) return settle.reject(end.startError);
        if (stopped) return settle.resolve({ code: end.code, stderr, stopped: true });
        const failure = failureOf(args, end, stderr, okCodes);
        if (failure !== null) return settle.reject(failure);
        settle.resolve({ code: end.code, stderr, stopped: false });
      },
    },
  );
  if (options.input !== undefined) child.write(options.input);
  return {
    write(data) {
      if (inputOpen && !stopped) child.write(data);
    },
    end() {
      if (inputOpen) child.end();
      inputOpen = false;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      inputOpen = false;
      child.kill();
    },
    holdOpen(hold) {
      child.hold(hold);
    },
    background() {
      child.nice(10);
    },
    done,
  };
}
