// What bench/startup.ts and bench/memory.ts share: a clone of a corpus with its index built,
// `major-vault serve` as a child process, and that process's resident memory.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusBundle } from '../test/support/git-fixture.ts';

export const root = join(import.meta.dirname, '..');
export const cli = join(root, 'bin', 'major-vault.js');

/** The environment of the server children: PGlite (no DATABASE_URL), warnings only. */
export const serverEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'DATABASE_URL')),
  MAJOR_VAULT_LOG_LEVEL: 'warn',
};

export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * A folder `dir` holding a clone of the corpus `repo` (cloned from ../shared/corpora once),
 * with its index built (`major-vault index`); exits with a sentence when the corpus is absent.
 */
export function corpusFolder(dir: string, repo: Parameters<typeof corpusBundle>[0]): string {
  const clone = join(dir, repo);
  if (!existsSync(join(clone, '.git'))) {
    const bundle = corpusBundle(repo);
    if (bundle === null) {
      console.error(`The corpus ${repo}.bundle is not in ../shared/corpora (next to the checkout), so there is nothing to measure.`);
      process.exit(2);
    }
    mkdirSync(dir, { recursive: true });
    log(`cloning ${bundle} into ${clone}`);
    execFileSync('git', ['clone', '-q', bundle, clone]);
  }
  log(`building or checking the index of ${dir}`);
  execFileSync(process.execPath, [cli, 'index', '--repos', dir, '--log-level', 'warn'], {
    env: serverEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}

/** A `major-vault serve` child: its address once it prints it, and the time that took. */
export interface ServeChild {
  child: ChildProcess;
  url: URL;
  /** From the spawn to the address printed (the server listens), in ms. */
  listeningMs: number;
  /** The inspector's `ws://` address, when the child was started with `inspect`. */
  inspector: string | null;
  stop(): Promise<void>;
}

/**
 * Starts `major-vault serve --repos dir --port 0` and waits for its address. With `inspect`,
 * the child runs with `--inspect=127.0.0.1:0` and its inspector's address is read from its
 * stderr (bench/thread-heaps.ts reads its threads' heaps through it).
 */
export async function startServe(
  dir: string,
  startedAt: number = performance.now(),
  options: { inspect?: boolean } = {},
): Promise<ServeChild> {
  const inspect = options.inspect === true;
  const child = spawn(process.execPath, [...(inspect ? ['--inspect=127.0.0.1:0'] : []), cli, 'serve', '--repos', dir, '--port', '0'], {
    cwd: root,
    env: serverEnv,
    stdio: ['ignore', 'pipe', inspect ? 'pipe' : 'inherit'],
  });
  let inspector: string | null = null;
  const inspectorFound = new Promise<void>((resolve) => {
    if (!inspect) return resolve();
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      // The last address printed: a server re-runs itself once at its start (bin/malloc-arenas.js),
      // and the first process's inspector goes with it.
      err = (err + text).slice(-4096);
      const found = [...err.matchAll(/Debugger listening on (ws:\/\/\S+)/g)].at(-1);
      if (found) {
        inspector = found[1]!;
        resolve();
      }
      // The inspector's own lines are not the server's log.
      const rest = text
        .split('\n')
        .filter((line) => !/^(Debugger listening on|For help, see:)/.test(line))
        .join('\n');
      if (rest.trim() !== '') process.stderr.write(rest);
    });
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /serving \S+ at (http\S+)/.exec(out);
      if (found) resolve(new URL(found[1]!));
    });
    child.once('exit', (code) => reject(new Error(`major-vault serve exited (${code}) before listening`)));
  });
  const listeningMs = performance.now() - startedAt;
  await inspectorFound;
  return {
    child,
    url,
    listeningMs,
    inspector,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident memory of a process now (VmRSS) and its peak (VmHWM), in MiB. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
