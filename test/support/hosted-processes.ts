// The hosted shape as separate child processes (issue 13), for the end-to-end test and the
// scale benchmark: a front database of its own on a Postgres server, the environment the
// processes read (the GitHub App on the stand-in, the front's secret), and `major-vault worker`
// and `major-vault front` started as children whose JSON log lines are handed to the caller.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { GitHubStandin } from '../../src/github-standin/standin-api.ts';

/** The checkout's root, where the children run. */
export const checkoutRoot = fileURLToPath(new URL('../..', import.meta.url));

/** bin/major-vault.js of this checkout. */
export const majorVaultCli = join(checkoutRoot, 'bin', 'major-vault.js');

/** A line a process logged (pino JSON; a line that is not JSON becomes `msg`), with when it arrived here. */
export interface ProcessLogLine {
  event?: string;
  installation?: string;
  installationId?: number;
  /** `instance_started`: where the instance listens. */
  origin?: string;
  pid?: number;
  repo?: string;
  head?: string;
  job?: string;
  durationMs?: number;
  level?: number;
  msg?: string;
  /** `performance.now()` in this process when the line was read. */
  arrivedAt: number;
}

/** A database made for one run on the Postgres server of `DATABASE_URL`. */
export interface RunDatabase {
  /** Its name, e.g. `mv_front_e2e_1a2b3c4d5e`. */
  name: string;
  /** `serverUrl` with its name as the path. */
  url: string;
  /** Drops it, closing the connections others hold (`WITH (FORCE)`); nothing when it is gone. */
  drop(): Promise<void>;
}

/** Creates a database `<prefix><10 hex digits>` on the server of `serverUrl` (the role needs CREATEDB). */
export async function createRunDatabase(serverUrl: string, prefix: string): Promise<RunDatabase> {
  const name = `${prefix}${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href,
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** The GitHub App the stand-in plays, as the processes are told of it. */
export interface HostedApp {
  id: number;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
}

/**
 * The environment of the hosted processes: `DATABASE_URL` the front's database, the front's
 * secret, the App's settings pointed at the stand-in, and `logLevel` (default info); PATH and
 * HOME kept, nothing else of this process's.
 */
export function hostedEnv(options: {
  standin: GitHubStandin;
  app: HostedApp;
  frontUrl: string;
  secret: string;
  logLevel?: string;
}): NodeJS.ProcessEnv {
  const { standin, app } = options;
  return {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    DATABASE_URL: options.frontUrl,
    MAJOR_VAULT_FRONT_SECRET: options.secret,
    MAJOR_VAULT_LOG_LEVEL: options.logLevel ?? 'info',
    MAJOR_VAULT_GITHUB_APP_ID: String(app.id),
    MAJOR_VAULT_GITHUB_PRIVATE_KEY: standin.app.privateKey,
    MAJOR_VAULT_GITHUB_CLIENT_ID: app.clientId,
    MAJOR_VAULT_GITHUB_CLIENT_SECRET: app.clientSecret,
    MAJOR_VAULT_GITHUB_WEBHOOK_SECRET: app.webhookSecret,
    MAJOR_VAULT_GITHUB_API_URL: standin.apiUrl,
    MAJOR_VAULT_GITHUB_WEB_URL: standin.origin,
  };
}

/** Hands each line `child` writes to standard error to `onLine`, parsed. */
export function readLogLines(child: ChildProcess, onLine: (line: ProcessLogLine) => void): void {
  createInterface({ input: child.stderr! }).on('line', (text) => {
    const arrivedAt = performance.now();
    let line: ProcessLogLine;
    try {
      line = { ...(JSON.parse(text) as Omit<ProcessLogLine, 'arrivedAt'>), arrivedAt };
    } catch {
      line = { msg: text, arrivedAt };
    }
    onLine(line);
  });
}

/** Starts `major-vault worker --data <dataDir> [args]` with `env`; its log lines go to `onLine`. */
export function startWorkerProcess(options: {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  args?: string[];
  onLine: (line: ProcessLogLine) => void;
}): ChildProcess {
  const worker = spawn(process.execPath, [majorVaultCli, 'worker', '--data', options.dataDir, ...(options.args ?? [])], {
    cwd: checkoutRoot,
    env: options.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  readLogLines(worker, options.onLine);
  return worker;
}

/**
 * Starts `major-vault front --port 0 --data <dataDir> --idle-exit-after <idleSeconds> [args]`
 * (local instances, which share its standard error: their lines go to `onLine` too) and
 * resolves once it says where it listens. Rejects when it exits first or takes longer than
 * `timeoutMs` (default 60 s).
 */
export async function startFrontProcess(options: {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  idleSeconds: number;
  args?: string[];
  onLine: (line: ProcessLogLine) => void;
  timeoutMs?: number;
}): Promise<{ front: ChildProcess; origin: string }> {
  const recent: ProcessLogLine[] = [];
  const front = spawn(
    process.execPath,
    [
      majorVaultCli,
      'front',
      '--port',
      '0',
      '--data',
      options.dataDir,
      '--idle-exit-after',
      String(options.idleSeconds),
      ...(options.args ?? []),
    ],
    { cwd: checkoutRoot, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  readLogLines(front, (line) => {
    recent.push(line);
    if (recent.length > 5) recent.shift();
    options.onLine(line);
  });
  const origin = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(
      () => reject(new Error(`the front did not start within ${timeoutMs} ms: ${JSON.stringify(recent)}`)),
      timeoutMs,
    );
    createInterface({ input: front.stdout! }).on('line', (line) => {
      const match = /front at (http:\/\/[^/ ]+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    front.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the front exited (${code}): ${JSON.stringify(recent)}`));
    });
  });
  return { front, origin };
}

/** Stops `child` with `signal` (default SIGTERM), then SIGKILL after `timeoutMs` (default 30 s); resolves once it exited. */
export async function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}
