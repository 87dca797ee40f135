// Benchmark: the hosted processes at scale (issue 13, "Measured on this machine"). Many
// installations of the GitHub App, each an organisation of the GitHub stand-in (in this
// process) with a few repositories, are switched on with the operator's function (each gets
// its database on the local Postgres server and a `refresh-installation` job); `major-vault
// worker` indexes them and builds their catalogues; `major-vault front --instances local`
// serves them all and starts `major-vault instance` children on demand, which exit when idle.
// Everything is on loopback. The script then measures, as people of the installations call
// through the front:
// - isolation: no answer names a repository of another installation or one the caller cannot
//   read, and a token of one installation is refused at another's address;
// - tools/list at the front, cold (instance asleep) and warm; the first tools/call after a wake;
// - push to searchable under a stream of pushes across installations;
// - memory of the awake instances, the front and the worker;
// - faults: the worker killed with index jobs pending or running, instances killed mid-call.
// It writes its section of bench/RESULTS.md (unless BENCH_NO_WRITE is set), and drops every
// database it made, also when it fails or is interrupted.
//
//   node bin/run-ts.js bench/hosted-scale.ts
//
// Sizes (environment, defaults in brackets): BENCH_INSTALLATIONS [100], BENCH_REPOS [3] per
// installation, BENCH_NOTES [3] per repository, BENCH_SAMPLE [16] installations called,
// BENCH_COLD_CALLS [6] of them called with no list first, BENCH_AWAKE [3] called at once, BENCH_IDLE_SECONDS [5] (the instances' idle
// exit), BENCH_WARM_LISTS [10] per sampled installation, BENCH_PUSH_RATE [2] per second for
// BENCH_PUSH_SECONDS [40], BENCH_HOT [4] installations with an open session, BENCH_HOT_SHARE
// [0.5] of the pushes going to them, BENCH_WORKER_BURST [8] pushes when the worker is killed,
// BENCH_INSTANCE_KILLS [5], BENCH_OAUTH [2] people signed in through the front's OAuth.
// DATABASE_URL [postgres://postgres@127.0.0.1:5432/test] names the server (the role needs CREATEDB).
import { execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import pg from 'pg';
import { startGitHubStandin } from '../src/github-standin/standin.ts';
import type { GitHubStandin, StandinPerson } from '../src/github-standin/standin-api.ts';
import { dropInstallationDatabase, openInstallationDatabase } from '../src/main/installation-database.ts';
import { switchInstallationOn } from '../src/main/installation-operator.ts';
import { frontSecrets } from '../src/main/oauth-settings.ts';
import { openPostgresStore, type OpenedStore } from '../src/main/open-store.ts';
import { readIndexHeads } from '../src/note-index/index-heads.ts';
import { TokenSealer } from '../src/tokens/token-sealer.ts';
import { tempDir } from '../test/support/git-fixture.ts';
import { testApp } from '../test/support/github-server.ts';
import {
  createRunDatabase,
  hostedEnv,
  startFrontProcess,
  startWorkerProcess,
  stopProcess,
  type ProcessLogLine,
  type RunDatabase,
} from '../test/support/hosted-processes.ts';
import { OAuthBrowser } from '../test/support/oauth-browser.ts';
import { connectWithSignIn, ScriptedOAuthClient } from '../test/support/scripted-oauth-client.ts';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';

// ---------------------------------------------------------------------------------------------
// Settings

function whole(name: string, fallback: number, minimum = 0): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} is a whole number of ${minimum} or more, not ${raw}.`);
  return value;
}
function decimal(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} is a number of 0 or more, not ${raw}.`);
  return value;
}

const serverUrl = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const INSTALLATIONS = whole('BENCH_INSTALLATIONS', 100, 2);
const REPOS = whole('BENCH_REPOS', 3, 2);
const NOTES = whole('BENCH_NOTES', 3, 1);
const SAMPLE = Math.min(INSTALLATIONS, whole('BENCH_SAMPLE', 16, 2));
const COLD_CALLS = Math.min(SAMPLE, whole('BENCH_COLD_CALLS', 6));
const AWAKE = whole('BENCH_AWAKE', 3, 1);
const IDLE_SECONDS = whole('BENCH_IDLE_SECONDS', 5, 1);
const WARM_LISTS = whole('BENCH_WARM_LISTS', 10, 1);
const PUSH_RATE = decimal('BENCH_PUSH_RATE', 2);
const PUSH_SECONDS = whole('BENCH_PUSH_SECONDS', 40);
const HOT = Math.min(SAMPLE, whole('BENCH_HOT', 4, 1));
const HOT_SHARE = Math.min(1, decimal('BENCH_HOT_SHARE', 0.5));
const WORKER_BURST = whole('BENCH_WORKER_BURST', 8);
const INSTANCE_KILLS = whole('BENCH_INSTANCE_KILLS', 5);
const OAUTH = Math.min(SAMPLE, whole('BENCH_OAUTH', 2));
/** Give up on one push becoming searchable, or one call, after this long, in ms. */
const GIVE_UP_MS = 90_000;
/** The word every note holds, so a search in any installation would find every other's notes if isolation failed. */
const SHARED_WORD = 'quorvex';

const repoWords = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
const pad = (i: number) => String(i).padStart(3, '0');
const orgOf = (i: number) => `org${pad(i)}`;
const nameOf = (i: number) => `inst${pad(i)}`;
const personOf = (i: number) => `p${pad(i)}`;
const repoOf = (i: number, r: number) => `r${pad(i)}-${repoWords[r] ?? `x${r}`}`;
const reposOf = (i: number) => Array.from({ length: REPOS }, (_, r) => repoOf(i, r));
/** The one person who reads some repositories of every installation: the first of each. */
const PARTIAL = 'partial';

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const say = (text: string) => {
  stopIfAborted();
  console.error(`[${elapsed()}] ${text}`);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Runs git in `cwd`; resolves to its standard output, trimmed. */
const git = (cwd: string, args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile('git', args, { cwd }, (error, stdout, stderr) =>
      error ? reject(new Error(`git ${args[0]} failed: ${stderr || error.message}`)) : resolve(stdout.trim()),
    ),
  );

// ---------------------------------------------------------------------------------------------
// Clean-up: every database, child and folder this run made, once, also on failure or Ctrl-C.

const dir = tempDir('mv-hosted-scale-');
let frontDatabase: RunDatabase | null = null;
const installationIds: number[] = [];
/** The GitHub installation id of simulated installation i. */
const idOf: number[] = [];
let standin: GitHubStandin | null = null;
let opened: OpenedStore | null = null;
let front: ChildProcess | undefined;
let worker: ChildProcess | undefined;
const clients: Client[] = [];
let cleaning: Promise<void> | null = null;

function cleanUp(): Promise<void> {
  return (cleaning ??= (async () => {
    const step = async (what: string, work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (error) {
        console.error(`clean-up: ${what} failed: ${(error as Error).message}`);
      }
    };
    await step('closing the clients', () => Promise.allSettled(clients.map((client) => client.close())));
    await step('stopping the connection count', async () => stopWatchingConnections?.());
    await step('stopping the front', () => stopProcess(front, 'SIGTERM', 15_000));
    await step('stopping the worker', () => stopProcess(worker, 'SIGTERM', 15_000));
    await step('closing the Store', async () => opened?.close());
    await step('stopping the stand-in', async () => standin?.close());
    for (const id of installationIds) await step(`dropping installation ${id}'s database`, () => dropInstallationDatabase(serverUrl, id));
    await step('dropping the front database', async () => frontDatabase?.drop());
    await step('removing the folder', async () => dir.cleanup());
  })());
}
/** Set by Ctrl-C: the run stops at its next step ({@link stopIfAborted}) while the clean-up runs. */
let aborted = false;
function stopIfAborted(): void {
  if (aborted) throw new Error('Interrupted.');
}
// Every signal is caught (a terminal's Ctrl-C arrives twice: directly and relayed by bin/node22.js); the first starts the clean-up.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (aborted) return;
    aborted = true;
    console.error(`[${elapsed()}] ${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}
// A failure nobody waited for is reported, not fatal: the clean-up must get to drop the databases.
process.on('unhandledRejection', (error) => console.error('unhandled:', error));

// ---------------------------------------------------------------------------------------------
// What the children log: instances started and exited (with their pids), the worker's jobs.

/** Each instance process the front started: its installation, pid, and whether it exited. */
interface InstanceProcess {
  installation: string;
  pid: number;
  startedAt: number;
  /** From the call that woke it to its listening, as the front logged it, in ms. */
  startMs: number;
  exited: boolean;
  /** The largest VmRSS seen, in KiB. */
  peakRssKiB: number;
  /** CPU time (user and system, all threads) it had used when it said it listened, in ms; null when unreadable. */
  startCpuMs: number | null;
}
const instances: InstanceProcess[] = [];
/** Log lines at warn (40) or above, by event (or message). */
const troubles = new Map<string, { count: number; example: string }>();
/** Lines of the worker, for the pushes' index times and the jobs it runs. */
const workerLines: ProcessLogLine[] = [];
const indexListeners: Array<(line: ProcessLogLine) => void> = [];

function noteTrouble(source: string, line: ProcessLogLine): void {
  if ((line.level ?? 0) < 40) return;
  const key = `${source}: ${line.event ?? line.msg ?? 'unnamed'}`;
  const known = troubles.get(key);
  if (known) known.count += 1;
  else troubles.set(key, { count: 1, example: JSON.stringify({ ...line, arrivedAt: undefined }).slice(0, 400) });
}

/** BENCH_LOG: a file every child's log line is appended to, for a look afterwards. */
const logFile = process.env['BENCH_LOG'];
const keep = (source: string, line: ProcessLogLine) => {
  if (logFile) appendFileSync(logFile, `${source} ${JSON.stringify(line)}\n`);
};

function onFrontLine(line: ProcessLogLine): void {
  keep('front', line);
  noteTrouble(line.pid !== undefined && line.pid === front?.pid ? 'front' : 'instance', line);
  if (line.event === 'instance_started' && line.installation && line.pid) {
    instances.push({
      installation: line.installation,
      pid: line.pid,
      startedAt: line.arrivedAt,
      startMs: line.durationMs ?? 0,
      exited: false,
      peakRssKiB: 0,
      startCpuMs: cpuMs(line.pid),
    });
  }
  if (line.event === 'instance_exited' && line.pid) {
    const found = instances.find((entry) => entry.pid === line.pid);
    if (found) found.exited = true;
  }
}

function onWorkerLine(line: ProcessLogLine): void {
  keep('worker', line);
  noteTrouble('worker', line);
  workerLines.push(line);
  for (const listener of indexListeners) listener(line);
}

const running = () => instances.filter((entry) => !entry.exited);
const runningPid = (name: string) => running().find((entry) => entry.installation === name)?.pid;

// ---------------------------------------------------------------------------------------------
// Memory: VmRSS of every awake instance, the front and the worker, once a second.

function rssKiB(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
/** CPU time process `pid` used so far (user and system, all its threads), in ms; null when unreadable. */
function cpuMs(pid: number): number | null {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the command in parentheses, in clock ticks (100 a second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
function memAvailableKiB(): number {
  return Number(/^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0);
}
const peaks = { frontKiB: 0, workerKiB: 0, awake: 0, connections: 0, frontConnections: 0, installationConnections: 0, perInstallation: 0 };

/** Samples the server's connections every 2 s: all of them, the front database's, the installations' (ours by id). */
async function watchConnections(frontName: string, ids: readonly number[]): Promise<() => Promise<void>> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const rows = (
          await admin.query<{ datname: string | null; n: string }>('SELECT datname, count(*) AS n FROM pg_stat_activity GROUP BY datname')
        ).rows;
        const ours = new Set(ids.map((id) => `major_vault_installation_${id}`));
        let all = 0;
        let installations = 0;
        for (const row of rows) {
          const n = Number(row.n);
          all += n;
          if (row.datname === frontName) peaks.frontConnections = Math.max(peaks.frontConnections, n);
          if (row.datname !== null && ours.has(row.datname)) {
            installations += n;
            peaks.perInstallation = Math.max(peaks.perInstallation, n);
          }
        }
        peaks.connections = Math.max(peaks.connections, all);
        peaks.installationConnections = Math.max(peaks.installationConnections, installations);
      } catch {
        // A sample lost; the next one counts.
      }
      await sleep(2000);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    await admin.end();
  };
}
let stopWatchingConnections: (() => Promise<void>) | null = null;
const memoryTimer = setInterval(() => {
  const awake = running();
  peaks.awake = Math.max(peaks.awake, awake.length);
  for (const entry of awake) {
    const rss = rssKiB(entry.pid);
    if (rss !== null) entry.peakRssKiB = Math.max(entry.peakRssKiB, rss);
  }
  peaks.frontKiB = Math.max(peaks.frontKiB, rssKiB(front?.pid) ?? 0);
  peaks.workerKiB = Math.max(peaks.workerKiB, rssKiB(worker?.pid) ?? 0);
}, 1000);
memoryTimer.unref();

// ---------------------------------------------------------------------------------------------
// Calls through the front: raw JSON-RPC over HTTP, timed from request to the whole answer.

let origin = '';
const addressOf = (i: number) => `${origin}/${nameOf(i)}`;

interface Answer {
  status: number;
  ms: number;
  /** The JSON-RPC message answering the request, when there was one. */
  message: { result?: Record<string, unknown>; error?: { message: string } } | null;
  text: string;
  /** The `Retry-After` header, in seconds, when the answer had one. */
  retryAfter: number | null;
  /** Why no answer came: the fetch failed, or (`timeout`) took longer than allowed. */
  failure: string | null;
}

let rpcId = 0;
async function rpc(
  i: number,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  timeoutMs = GIVE_UP_MS,
): Promise<Answer> {
  const id = ++rpcId;
  const begun = performance.now();
  try {
    const response = await fetch(addressOf(i), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const ms = performance.now() - begun;
    const retryAfter = response.headers.get('retry-after');
    return {
      status: response.status,
      ms,
      message: parseAnswer(text, id),
      text,
      retryAfter: retryAfter === null ? null : Number(retryAfter),
      failure: null,
    };
  } catch (error) {
    const failure = (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
    return { status: 0, ms: performance.now() - begun, message: null, text: '', retryAfter: null, failure };
  }
}

/** The message with `id` in a JSON answer or an SSE stream. */
function parseAnswer(text: string, id: number): Answer['message'] {
  const candidates = text.trimStart().startsWith('{')
    ? [text]
    : text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim());
  for (const candidate of candidates) {
    try {
      const parsed = JSON.parse(candidate) as { id?: unknown };
      if (parsed.id === id) return parsed as Answer['message'];
    } catch {
      // Not JSON: not the answer.
    }
  }
  return null;
}

const toolCall = (i: number, token: string, name: string, args: Record<string, unknown>, timeoutMs?: number) =>
  rpc(i, token, 'tools/call', { name, arguments: args }, timeoutMs);

/** Whether `answer` is a successful tool call (or other request). */
function succeeded(answer: Answer): boolean {
  if (answer.status !== 200 || answer.message === null || answer.message.error !== undefined) return false;
  return (answer.message.result as { isError?: boolean } | undefined)?.isError !== true;
}

/** The repositories the listed tools offer in read_note's `repo` field. */
function listedRepos(answer: Answer): string[] | null {
  const tools = (answer.message?.result as { tools?: Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }> })
    ?.tools;
  const repo = tools?.find((tool) => tool.name === 'read_note')?.inputSchema.properties?.['repo'] as
    { anyOf?: Array<{ const: string }>; enum?: string[]; const?: string } | undefined;
  if (!repo) return null;
  return (repo.anyOf?.map((choice) => choice.const) ?? repo.enum ?? (repo.const !== undefined ? [repo.const] : [])).sort();
}

/**
 * Every name in `text` that belongs to another installation (its organisation, address or a
 * repository) or to a repository of installation `i` outside `readable`.
 */
function foreignNames(text: string, i: number, readable: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\br(\d{3,})-([a-z]+)\b/g)) if (!readable.has(match[0])) found.add(match[0]);
  for (const match of text.matchAll(/\b(?:org|inst)(\d{3,})\b/g)) if (Number(match[1]) !== i) found.add(match[0]);
  return [...found];
}

// ---------------------------------------------------------------------------------------------
// Figures

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
const ms = (value: number) => (Number.isNaN(value) ? '–' : value < 10 ? value.toFixed(1) : value.toFixed(0));
const mib = (kib: number) => (kib / 1024).toFixed(0);
function row(label: string, values: readonly number[], goal = ''): string {
  const max = values.length === 0 ? Number.NaN : Math.max(...values);
  return `| ${label} | ${values.length} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ${ms(max)} | ${goal} |`;
}

/** Runs `work` for each item, `width` at a time. */
async function inPool<T>(items: readonly T[], width: number, work: (item: T, at: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        stopIfAborted();
        const at = next++;
        await work(items[at]!, at);
      }
    }),
  );
}

async function waitFor(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>, everyMs = 200): Promise<number> {
  const begun = performance.now();
  for (;;) {
    if (await check()) return performance.now() - begun;
    if (performance.now() - begun > timeoutMs) throw new Error(`Not within ${Math.round(timeoutMs / 1000)} s: ${what}`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------
// The run

const isolation = { checks: 0, failures: [] as string[] };
function check(ok: boolean, what: string): void {
  isolation.checks += 1;
  if (!ok) isolation.failures.push(what);
}

const figures = {
  setup: { switchOnS: 0, indexedS: 0, frontStartS: 0, workerCpuS: 0 },
  oauthSignInMs: [] as number[],
  firstTokenListMs: [] as number[],
  firstWakeCallMs: [] as number[],
  coldListMs: [] as number[],
  coldCallAfterListMs: [] as number[],
  coldCallAloneMs: [] as number[],
  warmListMs: [] as number[],
  quietListMs: [] as number[],
  warmCallMs: [] as number[],
  pushes: [] as Array<{ hot: boolean; pushMs: number; indexedMs: number | null; searchableMs: number | null }>,
  pushFailures: [] as string[],
  workerKill: {
    pushed: 0,
    pendingAtKill: 0,
    activeAtKill: 0,
    retried: 0,
    indexed: 0,
    searchable: 0,
    convergedS: 0,
    failures: [] as string[],
  },
  instanceKills: { tried: 0, completed: 0, refused: 0, hung: 0, nextOk: 0, laterOk: 0, newInstance: 0, outcomes: [] as string[] },
};

async function main(): Promise<void> {
  say(
    `${INSTALLATIONS} installations × ${REPOS} repositories × ${NOTES} notes on ${new URL(serverUrl).host}; ${SAMPLE} sampled, ${AWAKE} at a time`,
  );
  frontDatabase = await createRunDatabase(serverUrl, 'mv_bench_');
  const frontUrl = frontDatabase.url;
  const secret = randomBytes(32).toString('base64url');

  // The stand-in: one organisation per installation, one person each, and one who reads some.
  const people: StandinPerson[] = [
    ...Array.from({ length: INSTALLATIONS }, (_, i) => ({
      login: personOf(i),
      name: `Person ${pad(i)}`,
      email: `${personOf(i)}@${orgOf(i)}.example`,
      password: `${personOf(i)}-pw`,
    })),
    { login: PARTIAL, name: 'Pat Partial', email: 'partial@example.org', password: 'partial-pw' },
  ];
  const firstInstallationId = 700_000_000 + Math.floor(Math.random() * 100_000_000);
  standin = await startGitHubStandin({ dataDir: join(dir.path, 'github'), app: testApp, people, webhookUrl: null, firstInstallationId });
  const github = standin;
  // The worker and the front first, as in production: the installations arrive while they run.
  opened = await openPostgresStore(frontUrl);
  const store = opened.store;
  const env = hostedEnv({ standin: github, app: testApp, frontUrl, secret, logLevel: process.env['BENCH_FRONT_LOG_LEVEL'] || 'info' });
  const workerDir = join(dir.path, 'worker');
  // BENCH_WORKER_NODE_OPTIONS: Node options for the worker (e.g. --cpu-prof), to look into it.
  const workerEnv = {
    ...env,
    MAJOR_VAULT_LOG_LEVEL: 'debug',
    ...(process.env['BENCH_WORKER_NODE_OPTIONS'] ? { NODE_OPTIONS: process.env['BENCH_WORKER_NODE_OPTIONS'] } : {}),
  };
  worker = startWorkerProcess({ env: workerEnv, dataDir: workerDir, onLine: onWorkerLine });
  mkdirSync(join(dir.path, 'instances'));
  const frontStart = performance.now();
  ({ front, origin } = await startFrontProcess({
    env,
    dataDir: join(dir.path, 'instances'),
    idleSeconds: IDLE_SECONDS,
    onLine: onFrontLine,
  }));
  figures.setup.frontStartS = (performance.now() - frontStart) / 1000;
  github.setWebhookUrl(`${origin}/webhooks/github`);
  say(`front at ${origin}; making the installations`);
  stopWatchingConnections = await watchConnections(frontDatabase.name, installationIds);
  maxConnections = Number((await opened.sql.query<{ max_connections: string }>('SHOW max_connections')).rows[0]?.max_connections ?? 100);
  const built = new Set<number>();
  indexListeners.push((line) => {
    if (line.event === 'catalogue_built' && line.installationId !== undefined) built.add(line.installationId);
  });

  // Each organisation's repositories, the App installed on it (GitHub tells the front, which
  // records it pending), its people's rights; then the operator switches it on (its database
  // made and migrated, a refresh-installation job queued), 4 at a time.
  const phase = performance.now();
  let switchedOn = 0;
  await inPool(
    Array.from({ length: INSTALLATIONS }, (_, i) => i),
    4,
    async (i) => {
      for (const repo of reposOf(i)) {
        const files: Record<string, string> = { 'README.md': `# ${repo}\n\nThe notes of ${repo}, of ${orgOf(i)}.\n` };
        for (let n = 1; n <= NOTES; n++) {
          files[`notes/${repo}-${n}.md`] =
            `---\ntitle: Note ${n} of ${repo}\n---\n# Note ${n} of ${repo}\n\nThis note belongs to ${repo} of ${orgOf(i)}. ` +
            `The shared word is ${SHARED_WORD}; its own word is w${pad(i)}${repo.split('-')[1]}${n}.\n`;
        }
        await github.createRepo(orgOf(i), repo, [{ message: `Start ${repo}`, author: personOf(i), files }]);
      }
      const id = await github.install(orgOf(i), 'all');
      idOf[i] = id;
      installationIds.push(id);
      for (const repo of reposOf(i)) github.grant(orgOf(i), repo, personOf(i), 'push');
      github.grant(orgOf(i), repoOf(i, 0), PARTIAL, 'pull');
      await store.installations.seen(id, orgOf(i));
      await switchInstallationOn({ databaseUrl: frontUrl, env: {} }, id, nameOf(i));
      switchedOn += 1;
    },
  );
  figures.setup.switchOnS = (performance.now() - phase) / 1000;
  say(`${INSTALLATIONS * REPOS} repositories, ${INSTALLATIONS} installations switched on; ${built.size} indexed so far`);
  let lastSaid = performance.now();
  await waitFor(`the worker indexed all ${INSTALLATIONS} installations`, 20 * 60_000, () => {
    if (performance.now() - lastSaid > 20_000) {
      lastSaid = performance.now();
      say(`… ${built.size} of ${switchedOn} installations indexed`);
    }
    return built.size >= INSTALLATIONS;
  });
  for (const id of installationIds)
    if ((await store.catalogues.source(id)) === null) throw new Error(`installation ${id} has no catalogue`);
  figures.setup.indexedS = (performance.now() - phase) / 1000;
  figures.setup.workerCpuS = (cpuMs(worker.pid!) ?? 0) / 1000;
  say(`all indexed and catalogued ${figures.setup.indexedS.toFixed(0)} s after the first was made`);

  // Tokens: sealed with the front's secret as its token endpoint seals them (an access token
  // for `<front>/<name>` carrying the person's GitHub user token), or got by signing in
  // through the front's OAuth with the scripted browser for the first OAUTH sampled people.
  const sealer = new TokenSealer(frontSecrets([secret]));
  const client = createHash('sha256').update('hosted-scale-bench').digest('base64url');
  const upstream = async (login: string) => (await github.userToken(login)).accessToken;
  const seal = async (github: string, i: number) =>
    sealer.seal('access', { client, upstream: github }, { audience: addressOf(i), expiresAt: Date.now() + 8 * 3600_000 });
  const sampled = Array.from({ length: SAMPLE }, (_, k) => Math.floor((k * INSTALLATIONS) / SAMPLE));
  const tokens = new Map<number, string>();
  const partialTokens = new Map<number, string>();
  const partialUpstream = await upstream(PARTIAL);
  const signedIn = new Set<number>();
  for (let i = 0; i < INSTALLATIONS; i++) {
    tokens.set(i, await seal(await upstream(personOf(i)), i));
    partialTokens.set(i, await seal(partialUpstream, i));
  }
  for (const i of sampled.slice(0, OAUTH)) {
    const mcp = new Client({ name: `hosted-scale (${personOf(i)})`, version: '1.0.0' });
    const provider = new ScriptedOAuthClient({ browser: new OAuthBrowser({ login: personOf(i), decision: 'approve' }) });
    const begun = performance.now();
    await connectWithSignIn(mcp, new URL(addressOf(i)), provider);
    figures.oauthSignInMs.push(performance.now() - begun);
    clients.push(mcp);
    const listed = (await mcp.listTools()).tools.length;
    check(listed > 0, `${personOf(i)} signed in through OAuth at ${nameOf(i)} and listed no tools`);
    tokens.set(i, provider.tokens()!.access_token);
    signedIn.add(i);
  }
  say(`tokens: ${INSTALLATIONS * 2 - OAUTH} sealed, ${OAUTH} from a sign-in through the front's OAuth`);

  // Isolation, and the first calls of each sampled installation (its instance starts for the first time).
  const others = (i: number) => {
    let j = Math.floor(Math.random() * INSTALLATIONS);
    if (j === i) j = (j + 1) % INSTALLATIONS;
    return j;
  };
  const checkAnswer = (answer: Answer, i: number, readable: ReadonlySet<string>, what: string) => {
    check(succeeded(answer), `${what}: no answer (${answer.status} ${answer.failure ?? answer.text.slice(0, 200)})`);
    const foreign = foreignNames(answer.text, i, readable);
    check(foreign.length === 0, `${what} names ${foreign.join(', ')}`);
  };
  const isolationOf = async (i: number) => {
    const token = tokens.get(i)!;
    const partial = partialTokens.get(i)!;
    const all = new Set(reposOf(i));
    const some = new Set([repoOf(i, 0)]);
    for (const [who, bearer, readable] of [
      [personOf(i), token, all],
      [PARTIAL, partial, some],
    ] as const) {
      const listed = await rpc(i, bearer, 'tools/list');
      checkAnswer(listed, i, readable, `tools/list of ${who} at ${nameOf(i)}`);
      check(
        JSON.stringify(listedRepos(listed)) === JSON.stringify([...readable].sort()),
        `tools/list of ${who} at ${nameOf(i)} offers ${JSON.stringify(listedRepos(listed))}`,
      );
      const found = await toolCall(i, bearer, 'search_notes', { query: SHARED_WORD });
      checkAnswer(found, i, readable, `search_notes of ${who} at ${nameOf(i)}`);
      for (const repo of readable) check(found.text.includes(`${repo}-1.md`), `search_notes of ${who} at ${nameOf(i)} misses ${repo}`);
      const notes = await toolCall(i, bearer, 'list_notes', {});
      checkAnswer(notes, i, readable, `list_notes of ${who} at ${nameOf(i)}`);
      // The token is for this address only, whoever may read what at the other.
      const j = others(i);
      const refused = await rpc(j, bearer, 'tools/list');
      check(refused.status === 401, `${who}'s token of ${nameOf(i)} got ${refused.status} at ${nameOf(j)}`);
      const refusedCall = await toolCall(j, bearer, 'search_notes', { query: SHARED_WORD });
      check(refusedCall.status === 401, `${who}'s token of ${nameOf(i)} got ${refusedCall.status} for a call at ${nameOf(j)}`);
    }
  };

  say(`phase 1: first calls and isolation at ${SAMPLE} installations (each instance's first start)`);
  await inPool(sampled, AWAKE, async (i) => {
    const token = tokens.get(i)!;
    // The first request of a token the front has not seen: it asks GitHub who it is and what they read.
    const first = await rpc(i, token, 'tools/list');
    check(succeeded(first), `the first tools/list at ${nameOf(i)}: ${first.status} ${first.failure ?? ''}`);
    if (!signedIn.has(i)) figures.firstTokenListMs.push(first.ms);
    // The list woke the instance, which fetches its mirrors for the first time: the call waits for it.
    const call = await toolCall(i, token, 'search_notes', { query: SHARED_WORD });
    check(succeeded(call), `the first tools/call at ${nameOf(i)}: ${call.status} ${call.failure ?? call.text.slice(0, 200)}`);
    figures.firstWakeCallMs.push(call.ms);
    await isolationOf(i);
  });
  const quiet = () =>
    waitFor('every instance went idle and exited', (IDLE_SECONDS + 60) * 1000, () => running().length === 0, 250).catch((error: Error) =>
      say(`${error.message}; still running: ${running().map((entry) => entry.installation)}`),
    );
  await quiet();

  say(`phase 2: cold tools/list, then a call, then warm lists, at ${SAMPLE} installations`);
  await inPool(sampled, AWAKE, async (i) => {
    const token = tokens.get(i)!;
    const asleep = runningPid(nameOf(i)) === undefined;
    const list = await rpc(i, token, 'tools/list');
    check(succeeded(list), `a cold tools/list at ${nameOf(i)}: ${list.status}`);
    if (asleep) figures.coldListMs.push(list.ms);
    const call = await toolCall(i, token, 'search_notes', { query: SHARED_WORD });
    check(succeeded(call), `the call after a cold list at ${nameOf(i)}: ${call.status} ${call.failure ?? ''}`);
    if (asleep) figures.coldCallAfterListMs.push(call.ms);
    for (let k = 0; k < WARM_LISTS; k++) {
      const warm = await rpc(i, token, 'tools/list');
      check(succeeded(warm), `a warm tools/list at ${nameOf(i)}: ${warm.status}`);
      figures.warmListMs.push(warm.ms);
    }
    for (let k = 0; k < WARM_LISTS; k++) {
      const warmCall = await toolCall(i, token, 'search_notes', { query: `w${pad(i)}alpha${1 + (k % NOTES)}` });
      check(succeeded(warmCall), `a warm call at ${nameOf(i)}: ${warmCall.status}`);
      figures.warmCallMs.push(warmCall.ms);
    }
  });
  await quiet();

  say(`phase 3: a tools/call with no list before it, at ${COLD_CALLS} asleep installations`);
  await inPool(sampled.slice(0, COLD_CALLS), AWAKE, async (i) => {
    const asleep = runningPid(nameOf(i)) === undefined;
    const call = await toolCall(i, tokens.get(i)!, 'search_notes', { query: SHARED_WORD });
    check(succeeded(call), `a cold call at ${nameOf(i)}: ${call.status} ${call.failure ?? ''}`);
    if (asleep) figures.coldCallAloneMs.push(call.ms);
  });

  // A stream of pushes across installations. Some go to installations with an open session
  // (their instance kept awake by a ping every 2 s, as a client's session would), the others
  // to any installation. Each push's time to the worker's index, and for the open sessions to
  // the first search through the front that finds it.
  const hot = sampled.slice(0, HOT);
  for (const i of hot) await toolCall(i, tokens.get(i)!, 'tree', {});
  // Warm lists with nothing else going on: these instances awake, none starting.
  say(`warm tools/list at ${HOT} installations, nothing else running`);
  for (const i of hot) {
    for (let k = 0; k < WARM_LISTS * 5; k++) {
      const warm = await rpc(i, tokens.get(i)!, 'tools/list');
      check(succeeded(warm), `a quiet warm tools/list at ${nameOf(i)}: ${warm.status}`);
      figures.quietListMs.push(warm.ms);
    }
  }
  // One ping loop per session, so a slow answer at one installation never leaves another's instance idle.
  let pinging = true;
  const pinger = Promise.all(
    hot.map(async (i) => {
      while (pinging) {
        await rpc(i, tokens.get(i)!, 'ping', {}, 10_000);
        await sleep(1000);
      }
    }),
  );

  /** Each repository's pushed heads, in order, and the pushes waiting to be seen indexed. */
  const pushedHeads = new Map<string, string[]>();
  const waiting: Array<{ key: string; head: string; resolve: () => void }> = [];
  indexListeners.push((line) => {
    if (line.event !== 'index_updated' || line.installationId === undefined || !line.repo || !line.head) return;
    const key = `${line.installationId}/${line.repo}`;
    const heads = pushedHeads.get(key) ?? [];
    const at = heads.indexOf(line.head);
    if (at === -1) return;
    const done = new Set(heads.slice(0, at + 1));
    for (let w = waiting.length - 1; w >= 0; w--) {
      const entry = waiting[w]!;
      if (entry.key === key && done.has(entry.head)) {
        waiting.splice(w, 1);
        entry.resolve();
      }
    }
  });
  /** One push at a time per repository, as people push one after another. */
  const repoChains = new Map<string, Promise<unknown>>();
  /** Each pushed repository's clone, made on its first push, as its person's Git client. */
  const clones = new Map<string, string>();
  const clonesDir = join(dir.path, 'clones');
  mkdirSync(clonesDir);
  const cloneOf = async (i: number, r: number): Promise<string> => {
    const key = `${i}/${r}`;
    const known = clones.get(key);
    if (known !== undefined) return known;
    const clone = join(clonesDir, repoOf(i, r));
    await git(clonesDir, ['clone', '-q', github.cloneUrl(orgOf(i), repoOf(i, r), personOf(i)), clone]);
    await git(clone, ['config', 'user.name', `Person ${pad(i)}`]);
    await git(clone, ['config', 'user.email', `${personOf(i)}@${orgOf(i)}.example`]);
    clones.set(key, clone);
    return clone;
  };
  let pushCount = 0;
  const pushNote = (i: number, r: number) => {
    const key = `${idOf[i]}/${repoOf(i, r)}`;
    const k = ++pushCount;
    const word = `pm${k}x${randomBytes(3).toString('hex')}`;
    const path = `pushes/${word}.md`;
    const chained = (repoChains.get(key) ?? Promise.resolve()).then(async () => {
      // A commit in the person's clone, then `git push` over the stand-in's smart HTTP: the
      // push is accepted when git push returns; GitHub delivers the webhook after that.
      const clone = await cloneOf(i, r);
      mkdirSync(join(clone, 'pushes'), { recursive: true });
      writeFileSync(join(clone, path), `# Push ${k}\n\nThe pushed word is ${word}.\n`);
      await git(clone, ['add', path]);
      await git(clone, ['commit', '-q', '-m', `Push ${k}`]);
      const head = await git(clone, ['rev-parse', 'HEAD']);
      const begun = performance.now();
      await git(clone, ['push', '-q', 'origin', 'HEAD:main']);
      const acceptedAt = performance.now();
      pushedHeads.set(key, [...(pushedHeads.get(key) ?? []), head]);
      const indexed = new Promise<number>((resolve) => waiting.push({ key, head, resolve: () => resolve(performance.now()) }));
      return { i, r, key, word, path, head, pushMs: acceptedAt - begun, acceptedAt, indexed };
    });
    repoChains.set(
      key,
      chained.catch(() => undefined),
    );
    // A push that failed is counted and reported, never thrown at whoever waits for it.
    return chained.catch((error: unknown) => {
      figures.pushFailures.push(`${key}: ${(error as Error).message.slice(0, 200)}`);
      return null;
    });
  };
  /** Polls search_notes through the front as person i every 50 ms until it finds `path`; the time it found it, or null. */
  const searchUntilFound = async (i: number, word: string, path: string, since: number): Promise<number | null> => {
    while (performance.now() - since < GIVE_UP_MS) {
      const found = await toolCall(i, tokens.get(i)!, 'search_notes', { query: word }, 30_000);
      if (succeeded(found) && found.text.includes(path)) return performance.now();
      await sleep(50);
    }
    return null;
  };
  const withTimeout = <T>(promise: Promise<T>, timeoutMs: number): Promise<T | null> =>
    Promise.race([promise, sleep(timeoutMs).then(() => null)]);

  const total = Math.round(PUSH_RATE * PUSH_SECONDS);
  say(`phase 4: ${total} pushes in ${PUSH_SECONDS} s across installations (${Math.round(HOT_SHARE * 100)}% to ${HOT} open sessions)`);
  const streamStart = performance.now();
  const measured: Array<Promise<void>> = [];
  for (let k = 0; k < total; k++) {
    await sleep(Math.max(0, streamStart + (k * 1000) / PUSH_RATE - performance.now()));
    stopIfAborted();
    const toHot = Math.random() < HOT_SHARE;
    const i = toHot ? hot[Math.floor(Math.random() * hot.length)]! : Math.floor(Math.random() * INSTALLATIONS);
    const r = Math.floor(Math.random() * REPOS);
    measured.push(
      pushNote(i, r).then(async (push) => {
        if (push === null) return;
        // The instance can only find what the worker indexed: searching starts once the worker said so (or gave up waiting).
        const indexedAt = await withTimeout(push.indexed, GIVE_UP_MS);
        const searchableAt = toHot ? await searchUntilFound(i, push.word, push.path, push.acceptedAt) : null;
        figures.pushes.push({
          hot: toHot,
          pushMs: push.pushMs,
          indexedMs: indexedAt === null ? null : indexedAt - push.acceptedAt,
          searchableMs: searchableAt === null ? null : searchableAt - push.acceptedAt,
        });
      }),
    );
  }
  await Promise.allSettled(measured);
  say(`stream done: ${figures.pushes.length} pushes measured`);

  // The worker killed while index jobs are pending or running, then started again: every note
  // pushed meanwhile becomes searchable (the killed run is taken again once its heartbeat stops).
  if (WORKER_BURST > 0) {
    say(`phase 5: ${WORKER_BURST} pushes, the worker killed as its first job runs, started again`);
    const active = new Map<string, number>();
    let firstJob: () => void = () => undefined;
    const firstJobStarted = new Promise<void>((resolve) => (firstJob = resolve));
    const burstKeys = new Set<string>();
    indexListeners.push((line) => {
      if (line.job !== 'index-repo' || !line.repo) return;
      const key = `${line.installationId}/${line.repo}`;
      if (line.event === 'job_started') {
        active.set(key, (active.get(key) ?? 0) + 1);
        if (burstKeys.has(key)) firstJob();
        if ((line as { retry?: number }).retry && burstKeys.has(key)) figures.workerKill.retried += 1;
      }
      if (line.event === 'job_done' || (line.event === 'job_failed' && line.job === 'index-repo')) active.delete(key);
    });
    const targets: Array<[number, number]> = [];
    const seen = new Set<string>();
    // Distinct repositories of the open sessions' installations: their instances are awake to search.
    while (targets.length < WORKER_BURST && seen.size < HOT * REPOS) {
      const i = hot[Math.floor(Math.random() * hot.length)]!;
      const r = Math.floor(Math.random() * REPOS);
      if (seen.has(`${i}/${r}`)) continue;
      seen.add(`${i}/${r}`);
      targets.push([i, r]);
      burstKeys.add(`${idOf[i]}/${repoOf(i, r)}`);
    }
    const burst = targets.map(([i, r]) => pushNote(i, r));
    await withTimeout(firstJobStarted, 30_000);
    const pendingAtKill = await Promise.all(
      burst.map((push) =>
        withTimeout(
          push.then((p) => p?.indexed ?? null),
          0,
        ),
      ),
    );
    figures.workerKill.activeAtKill = [...active.keys()].filter((key) => burstKeys.has(key)).length;
    const killedWorker = worker;
    await stopProcess(killedWorker, 'SIGKILL');
    figures.workerKill.pendingAtKill = pendingAtKill.filter((value) => value === null).length;
    const pushes = (await Promise.all(burst)).filter((push) => push !== null);
    figures.workerKill.pushed = pushes.length;
    say(
      `worker killed with ${figures.workerKill.pendingAtKill} of ${pushes.length} pushes not indexed (${figures.workerKill.activeAtKill} running); starting it again`,
    );
    await sleep(2000);
    const restarted = performance.now();
    active.clear();
    worker = startWorkerProcess({ env: workerEnv, dataDir: workerDir, onLine: onWorkerLine });
    const indexedBack = await Promise.all(pushes.map((push) => withTimeout(push.indexed, 180_000)));
    figures.workerKill.indexed = indexedBack.filter((value) => value !== null).length;
    // Whatever the log said, the index itself: each repository's head in its installation's database.
    for (const push of pushes) {
      const sql = await openInstallationDatabase(frontUrl, idOf[push.i]!, { maxConnections: 1 });
      try {
        const head = (await readIndexHeads(sql)).get(repoOf(push.i, push.r));
        if (head !== push.head) figures.workerKill.failures.push(`${push.key}: index at ${head}, pushed ${push.head}`);
      } finally {
        await sql.close();
      }
    }
    await inPool(pushes, AWAKE, async (push) => {
      const found = await searchUntilFound(push.i, push.word, push.path, performance.now());
      if (found !== null) figures.workerKill.searchable += 1;
      else figures.workerKill.failures.push(`${push.key}: ${push.word} not searchable`);
    });
    figures.workerKill.convergedS = (performance.now() - restarted) / 1000;
  }

  // The sessions end: the next phase's calls alone decide when an instance starts.
  pinging = false;
  await pinger;

  // Instances killed in the middle of a call: the call is refused or completes, never hangs,
  // and the next call starts a new instance.
  say(`phase 6: ${INSTANCE_KILLS} instances killed mid-call`);
  for (let k = 0; k < INSTANCE_KILLS; k++) {
    const i = hot[k % hot.length]!;
    const token = tokens.get(i)!;
    await toolCall(i, token, 'tree', {});
    const pid = runningPid(nameOf(i));
    if (pid === undefined) {
      figures.instanceKills.outcomes.push(`${nameOf(i)}: no instance running after a call`);
      continue;
    }
    figures.instanceKills.tried += 1;
    const call = toolCall(i, token, 'search_notes', { query: SHARED_WORD, limit: 50 }, 30_000);
    await sleep(Math.random() * 12);
    process.kill(pid, 'SIGKILL');
    const answer = await call;
    if (answer.failure === 'timeout') figures.instanceKills.hung += 1;
    else if (succeeded(answer)) figures.instanceKills.completed += 1;
    else {
      figures.instanceKills.refused += 1;
      figures.instanceKills.outcomes.push(
        `refused: ${answer.status} ${answer.failure ?? (answer.message?.error?.message ?? answer.text).slice(0, 160)}`,
      );
    }
    // The next call at once, and when that is refused, once more after the Retry-After it named (as a client does).
    const next = await toolCall(i, token, 'search_notes', { query: SHARED_WORD }, 60_000);
    if (succeeded(next)) figures.instanceKills.nextOk += 1;
    else {
      figures.instanceKills.outcomes.push(`the next call at once: ${next.status} ${next.failure ?? next.text.slice(0, 160)}`);
      await sleep((next.retryAfter ?? 5) * 1000);
      const later = await toolCall(i, token, 'search_notes', { query: SHARED_WORD }, 60_000);
      if (succeeded(later)) figures.instanceKills.laterOk += 1;
      else figures.instanceKills.outcomes.push(`the call after Retry-After: ${later.status} ${later.failure ?? later.text.slice(0, 160)}`);
    }
    const now = runningPid(nameOf(i));
    if (now !== undefined && now !== pid) figures.instanceKills.newInstance += 1;
  }
}

/** The server's max_connections, read at the start. */
let maxConnections = 100;

function report(): string {
  const instanceRss = instances.map((entry) => entry.peakRssKiB).filter((value) => value > 0);
  const available = memAvailableKiB();
  const rssP50 = percentile(instanceRss, 50);
  const fit = Number.isNaN(rssP50) ? 0 : Math.floor(available / rssP50);
  const pushes = figures.pushes;
  const indexed = pushes.flatMap((push) => (push.indexedMs === null ? [] : [push.indexedMs]));
  const searchable = pushes.flatMap((push) => (push.hot && push.searchableMs !== null ? [push.searchableMs] : []));
  const hotPushes = pushes.filter((push) => push.hot).length;
  const wakeMs = instances.map((entry) => entry.startMs);
  const kill = figures.workerKill;
  const kills = figures.instanceKills;
  const troubleLines = [...troubles.entries()].sort((a, b) => b[1].count - a[1].count);
  const lines = [
    `${INSTALLATIONS} installations of the GitHub App, each an organisation of the GitHub stand-in with ${REPOS} repositories of ${NOTES} notes and a README; one person per installation who reads and writes its repositories, and one who reads the first repository of every installation. Each installation switched on with the operator's function (\`switchInstallationOn\`, what \`major-vault installation on\` runs: its database \`major_vault_installation_<id>\` made and migrated on the local Postgres server, a \`refresh-installation\` job queued); \`major-vault worker\` and \`major-vault front --instances local --idle-exit-after ${IDLE_SECONDS}\` as child processes; the front starts a \`major-vault instance\` process per installation on demand. ${SAMPLE} installations sampled, called ${AWAKE} at a time; at most ${peaks.awake} instances were awake at once. Tokens: ${INSTALLATIONS * 2 - OAUTH} sealed with the front's secret exactly as its token endpoint seals them (a sealed \`access\` token for \`<front>/<name>\` holding the person's GitHub user token), ${OAUTH} from signing in through the front's OAuth with the scripted browser (p50 ${ms(percentile(figures.oauthSignInMs, 50))} ms per sign-in). Calls are JSON-RPC over HTTP (2025-11-25, stateless), timed from request to the whole answer on a kept-alive loopback connection.`,
    '',
    `Set-up: the front started in ${figures.setup.frontStartS.toFixed(1)} s; the ${INSTALLATIONS * REPOS} repositories made on the stand-in and the ${INSTALLATIONS} installations switched on (4 at a time, each database made and migrated) in ${figures.setup.switchOnS.toFixed(0)} s, while the worker indexed them; all indexed and catalogued ${figures.setup.indexedS.toFixed(0)} s after the first was made (the worker runs one \`refresh-installation\` at a time: ${ms((figures.setup.indexedS * 1000) / INSTALLATIONS)} ms per installation of ${REPOS} repositories; the worker process used ${figures.setup.workerCpuS.toFixed(0)} s of CPU for it, its git children not counted).`,
    '',
    '| Measure | n | p50 ms | p95 ms | max ms | Goal |',
    '|---|---:|---:|---:|---:|---|',
    row(
      '`tools/list` at the front, warm, nothing else running',
      figures.quietListMs,
      `p50 ≤ 5 ms: ${percentile(figures.quietListMs, 50) <= 5 ? 'met' : '**missed**'}`,
    ),
    row(
      '`tools/list` at the front, warm, while other instances start',
      figures.warmListMs,
      `p50 ≤ 5 ms: ${percentile(figures.warmListMs, 50) <= 5 ? 'met' : '**missed**'}`,
    ),
    row(
      '`tools/list` at the front, cold (instance asleep)',
      figures.coldListMs,
      `p50 ≤ 5 ms: ${percentile(figures.coldListMs, 50) <= 5 ? 'met' : '**missed**'}`,
    ),
    row('`tools/list` with a token the front has not seen (asks GitHub who it is)', figures.firstTokenListMs),
    row('first `tools/call` after a wake, the list just before it', figures.coldCallAfterListMs),
    row('first `tools/call` after a wake, no list before it', figures.coldCallAloneMs),
    row("first `tools/call` at an installation's first wake (mirrors cloned)", figures.firstWakeCallMs),
    row('instance start, from the call that woke it to listening (front log)', wakeMs),
    row(
      '… CPU time the instance used to get there (user + system)',
      instances.flatMap((entry) => (entry.startCpuMs === null ? [] : [entry.startCpuMs])),
    ),
    row('`tools/call` search_notes, warm', figures.warmCallMs),
    row(
      'push accepted → indexed by the worker (all pushes)',
      indexed,
      `≤ 2 s: ${percentile(indexed, 95) <= 2000 ? 'p95 met' : percentile(indexed, 50) <= 2000 ? 'p50 met, p95 **missed**' : '**missed**'}`,
    ),
    row(
      'push accepted → first search_notes through the front finding it (open sessions)',
      searchable,
      `≤ 2 s: ${percentile(searchable, 95) <= 2000 ? 'p95 met' : percentile(searchable, 50) <= 2000 ? 'p50 met, p95 **missed**' : '**missed**'}`,
    ),
    row(
      'the push itself (`git push` to the stand-in)',
      pushes.map((push) => push.pushMs),
    ),
    '',
    `Isolation: ${isolation.checks} checks, **${isolation.failures.length} failures**${isolation.failures.length > 0 ? `: ${isolation.failures.slice(0, 5).join('; ')}` : ''}.`,
    '',
    `Pushes: ${pushes.length} in ${PUSH_SECONDS} s (${PUSH_RATE}/s) to random repositories, ${hotPushes} to ${HOT} installations with an open session, the rest to any of the ${INSTALLATIONS}; ${pushes.length - indexed.length} not seen indexed within ${GIVE_UP_MS / 1000} s, ${hotPushes - searchable.length} of the open sessions' not found within ${GIVE_UP_MS / 1000} s${figures.pushFailures.length > 0 ? `; ${figures.pushFailures.length} pushes failed: ${figures.pushFailures.slice(0, 3).join('; ')}` : ''}.`,
    '',
    `Memory: ${instanceRss.length} instance processes, peak VmRSS p50 ${mib(rssP50)} MiB, max ${mib(Math.max(0, ...instanceRss))} MiB; the front peak ${mib(peaks.frontKiB)} MiB; the worker peak ${mib(peaks.workerKiB)} MiB. MemAvailable at the end ${mib(available)} MiB: about **${fit} more awake instances** would fit in memory (MemAvailable ÷ p50 instance RSS). Postgres connections (pg_stat_activity every 2 s): at most ${peaks.connections} on the server (everyone's), ${peaks.frontConnections} to the front's database (front, worker, queue), ${peaks.installationConnections} to this run's installation databases together, ${peaks.perInstallation} to one; an instance's pool may open 4 and the worker 2 per open installation, so with max_connections ${maxConnections} the server, not memory, bounds the awake instances first (about ${Math.floor((maxConnections - peaks.frontConnections - 8) / 4)} at 4 each).`,
    '',
    `Faults: the worker killed (SIGKILL) with ${kill.pendingAtKill} of ${kill.pushed} pushed notes not yet indexed and ${kill.activeAtKill} index job(s) running, started again 2 s later: ${kill.indexed} of ${kill.pushed} indexed (${kill.retried} killed run(s) seen taken again), ${kill.searchable} of ${kill.pushed} searchable through the front, all within ${kill.convergedS.toFixed(0)} s of the restart; ${kill.failures.length} failures${kill.failures.length > 0 ? `: ${kill.failures.slice(0, 5).join('; ')}` : ''}. Instances killed (SIGKILL) 0–12 ms after a \`tools/call\` was sent: ${kills.tried} tries, ${kills.completed} calls completed, ${kills.refused} refused with an error, **${kills.hung} hung** (no answer in 30 s); the next call, sent at once, answered ${kills.nextOk} of ${kills.tried} times${kills.laterOk > 0 || kills.nextOk < kills.tried ? ` (the others refused with 503; sent again after their Retry-After, ${kills.laterOk} answered)` : ''}, from a new instance ${kills.newInstance} times.${kills.outcomes.length > 0 ? ` Answers: ${[...new Set(kills.outcomes)].slice(0, 4).join('; ')}.` : ''}`,
    '',
    'How each was measured:',
    '',
    `- Isolation: for each sampled installation, its person and the partial reader each asked \`tools/list\`, \`search_notes\` for a word every note of every installation holds, and \`list_notes\`; every answer was searched for the name of another installation's organisation, address or repository and of a repository of this one the caller cannot read, \`tools/list\`'s repositories had to be exactly the readable ones, and the search had to find each readable repository; then each token was sent to a random other installation's address (\`tools/list\` and \`tools/call\`), which had to answer 401.`,
    "- `tools/list` warm: repeated at the open sessions' installations, their instances awake and nothing else starting, and at each sampled installation right after its wake, while the other sampled installations' instances started (two cores: an instance start takes seconds of CPU); cold: the first request at an installation whose instance had exited after its idle time (its token known to the front, which answers from the catalogue store and wakes the instance); a token not yet seen: the first request of each person's token, when the front asks GitHub (the stand-in) who it is and what they may read.",
    "- First `tools/call` after a wake: a `search_notes` sent right after the cold `tools/list` (which began the wake), or alone to an asleep installation (the call starts the instance and waits for it); the instance start is the front's `instance_started` log line (`durationMs`); the first wake of an installation also clones its three mirrors.",
    "- Push to searchable: each push a commit of one new note in the person's own clone, then `git push` over the stand-in's Git smart HTTP (at most one at a time per repository), timed from `git push` returning (the push accepted; GitHub's webhook to the front follows) to the worker's `index_updated` log line naming the pushed head or a later one, and, for the installations with an open session, to the first `search_notes` through the front whose answer holds the new note (polled every 50 ms from the moment the worker logged it indexed).",
    '- Memory: VmRSS from /proc/<pid>/status once a second for every instance process the front logged as started and not exited, the front and the worker; the peak of each; MemAvailable from /proc/meminfo.',
    `- Faults: the worker got SIGKILL as soon as it logged the start of an index job of the burst (the others pending in the queue), and a new worker was started 2 s later on the same data folder; each pushed repository's head was then read from its installation's database and each note searched for through the front. Instances: an awake instance got SIGKILL a random 0–12 ms after a \`search_notes\` was sent to it through the front; the call's outcome was waited for up to 30 s, then one more call was made.`,
    '',
    `Load average at the end: ${loadavg()
      .map((value) => value.toFixed(1))
      .join(
        ', ',
      )} on ${availableParallelism()} processors (the machine is shared; the stand-in and the calls run in the benchmark's process, Postgres on the same machine).`,
  ];
  if (troubleLines.length > 0) {
    lines.push(
      '',
      `Log lines at warn or above: ${troubleLines
        .slice(0, 8)
        .map(([key, value]) => `${key} ×${value.count}`)
        .join('; ')}.`,
    );
  }
  return lines.join('\n');
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(error);
}
clearInterval(memoryTimer);
const body = report();
console.log(body);
if (troubles.size > 0) for (const [key, value] of troubles) console.error(`${key} ×${value.count}: ${value.example}`);
if (isolation.failures.length > 0) console.error(`isolation failures:\n${isolation.failures.join('\n')}`);
await cleanUp();
if (!failed && !process.env['BENCH_NO_WRITE']) {
  writeResultsSection('Hosted at scale (issue 13)', `${body}\n\n${machineMarkdown(describeMachine(join(import.meta.dirname, '..')))}`);
}
process.exit(failed ? 1 : 0);
