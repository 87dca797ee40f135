// Runs the `git` program: the one place a child process for Git is started.
import { spawn } from 'node:child_process';

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

/** A git command that failed: its arguments, exit code and standard error. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed (${code ?? 'killed'}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitError';
  }
}

/**
 * The environment every git call gets: no user or system config (so a person's aliases,
 * pagers or hooks never change an answer), no prompts, paths printed verbatim.
 */
export const gitEnv: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  LC_ALL: 'C',
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
    const child = spawn('git', fullArgs, {
      cwd: options.cwd,
      env: { ...process.env, ...gitEnv, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 60_000,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let tooLarge = false;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        child.kill();
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => reject(error));
    child.on('close', (code, signal) => {
      if (tooLarge) return reject(new GitError(args, code, `output larger than ${maxBytes} bytes`));
      if (code === null) return reject(new GitError(args, null, `killed by ${signal ?? 'signal'}${stderr ? `: ${stderr}` : ''}`));
      if (!okCodes.includes(code)) return reject(new GitError(args, code, stderr));
      resolve({ stdout: Buffer.concat(chunks), stderr, code });
    });
    child.stdin.on('error', () => {
      /* git may exit before reading all input; the exit code tells what happened */
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Splits NUL-terminated output (`-z`) into UTF-8 strings, dropping the final empty field. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8');
  const parts = text.split('\0');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}
