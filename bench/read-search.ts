// Benchmark of issue 2 on the obsidian-help corpus, in one run: search_notes over HTTP
// against ripgrep on the same work tree, the full index build, read_note over HTTP and the
// server's memory. Prints Markdown tables and writes them, with the machine, to
// bench/RESULTS.md under "Read and search (issue 2)".
//
//   node bin/run-ts.js bench/read-search.ts [--runs 20] [--reads 300] [--builds 3] [--only regex]
//
// The regex queries of issue 14 are measured too, against rg in regex mode, and written under
// "Regex search (issue 14)"; `--only regex` measures them alone (a server and its index build).
//
// Ratios are against a reference run in this same process (rg spawned the same way, the
// same number of times, alternating with our calls), so the shared machine's load falls on
// both sides. Postgres builds are measured too when DATABASE_URL is set.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { syncRepo } from '../src/note-index/indexer.ts';
import { migrate } from '../src/note-index/migrate.ts';
import { openPglite } from '../src/note-index/pglite-client.ts';
import { openPostgres } from '../src/note-index/postgres-client.ts';
import type { SqlClient } from '../src/note-index/sql-client.ts';
import { LocalRepoHost } from '../src/repo-host/local/local-repo-host.ts';
import { corpusBundle } from '../test/support/git-fixture.ts';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'bin', 'major-vault.js');
const workDir = join(root, 'bench', 'checkouts');
const repo = 'obsidian-help';
const corpusDir = join(workDir, repo);
const sectionTitle = 'Read and search (issue 2)';

/**
 * Plain queries from rare to common, chosen by counting matching lines with rg on the
 * corpus (36 languages): 1, 8 (Dutch), 29, 139 (a phrase), 357, 628 (Russian stem), 870,
 * 3,382 (a capital, so case counts), 6,996 and 46,313 lines.
 */
const queries = ['excalidraw', 'toegangstoken', 'kanban', 'graph view', 'zettelkasten', 'заметк', 'callout', 'Ctrl', 'plugin', 'obsidian'];

/**
 * Regex queries (issue 14), from rare to common, chosen by counting matching lines with rg on
 * the corpus: rare words with `\b`, an inline flag, classes and an alternation of rare words;
 * two that match nothing; a Russian stem with a class; common ones. Then the hard ones, few
 * or no matches with little or no literal text: a whole-line date and a date-time (classes
 * only, expanded into trigram sets), a class-heavy code, a version under (?i), an
 * alternation of rare words under (?i), a URL with `\S+`.
 */
const regexQueries = [
  '\\bexcalidraw\\b',
  '(?i)\\bMOC\\b',
  'übersetz\\w+',
  'canvas\\s+file',
  'toegangstoken|excalidraw|kanban',
  'zzqx\\d+yy',
  'kanban.*board',
  '\\bsync(ed|ing)\\b',
  'заметк[аиу]',
  'Ctrl\\+[A-Z]',
  '\\bplugins?\\b',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '\\d{4}-\\d{2}-\\d{2}T\\d{2}',
  '[A-Z]{3}-\\d{3}',
  '(?i)v\\d+\\.\\d+\\.\\d+-beta',
  '(?i)\\b(toegangstoken|excalidraw|zettelkästen)\\b',
  'https?://\\S+\\.pdf\\b',
];

const goals = { searchRatio: 0.5, buildSeconds: 10, readP50Ms: 10, rssMiB: 400 };

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    reads: { type: 'string', default: '300' },
    builds: { type: 'string', default: '3' },
    // `regex`: only the regex searches (a server with its index build, then the regex
    // queries), writing their section alone.
    only: { type: 'string' },
  },
});
if (args.only !== undefined && args.only !== 'regex') {
  console.error(`--only takes "regex" (the regex searches alone), not ${JSON.stringify(args.only)}.`);
  process.exit(2);
}
const runs = positive(args.runs, '--runs');
const reads = positive(args.reads, '--reads');
const builds = positive(args.builds, '--builds');
const databaseUrl = process.env['DATABASE_URL'];
/** The environment of the PGlite children: without DATABASE_URL, which would send them to the server. */
const pgliteEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'DATABASE_URL'));

// ---------------------------------------------------------------------------------------------

function positive(value: string | undefined, name: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    console.error(`${name} takes a whole number of at least 1, not ${JSON.stringify(value)}.`);
    process.exit(2);
  }
  return number;
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Clones the corpus into bench/checkouts once; exits with a sentence when the corpora are absent. */
function ensureCorpus(): void {
  if (existsSync(join(corpusDir, '.git'))) return;
  const bundle = corpusBundle(repo);
  if (bundle === null) {
    console.error(
      `bench/read-search: the corpus ${repo}.bundle is not in ../shared/corpora (next to the checkout), so there is nothing to measure. Put the shared folder there and run again.`,
    );
    process.exit(2);
  }
  mkdirSync(workDir, { recursive: true });
  log(`cloning ${bundle} into ${corpusDir}`);
  execFileSync('git', ['clone', '-q', bundle, corpusDir]);
}

/** The value at fraction `p` (0..1) of the sorted values, nearest rank. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const median = (values: readonly number[]) => percentile(values, 0.5);

/** Resident and peak resident memory of a process, in MiB (from /proc/<pid>/status). */
interface Memory {
  rss: number;
  hwm: number;
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

/** Clock ticks per second of /proc/<pid>/stat's times. */
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (user + system) a process has used so far, in ms. */
function cpuMsOf(pid: number): number {
  // Fields after the command name (which may hold spaces, so split after its ')'): utime is the 12th, stime the 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

// ---------------------------------------------------------------------------------------------
// The full index build

/** Runs `major-vault ARGS` to its end: wall time in ms and the peak resident memory seen. */
async function timeCli(cliArgs: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; peakMiB: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...cliArgs], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let peakMiB = 0;
  const poll = setInterval(() => {
    try {
      const { hwm } = memoryOf(child.pid!);
      // A process that is ending has no memory lines any more.
      if (Number.isFinite(hwm)) peakMiB = Math.max(peakMiB, hwm);
    } catch {
      // The process has just ended.
    }
  }, 50);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  clearInterval(poll);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`major-vault ${cliArgs.join(' ')} exited with ${code}:\n${output}`);
  return { ms, peakMiB };
}

/** `syncRepo` alone on a freshly migrated, empty index. */
async function timeSync(open: () => Promise<SqlClient>): Promise<{ ms: number; cpuMs: number; resyncMs: number; notes: number }> {
  const sql = await open();
  const host = new LocalRepoHost({ reposDir: workDir });
  try {
    await migrate(sql);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await syncRepo(sql, host, repo);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const again = performance.now();
    await syncRepo(sql, host, repo);
    const resyncMs = performance.now() - again;
    return { ms, cpuMs: (used.user + used.system) / 1000, resyncMs, notes: result.changed };
  } finally {
    await host.close();
    await sql.close();
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const sql = await openPostgres(url, schema);
  try {
    await sql.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await sql.close();
  }
}

interface BuildResults {
  cliPglite: number[];
  cliPglitePeakMiB: number;
  syncPglite: number[];
  /** This process's CPU time during each syncRepo (PGlite runs in it; git runs beside it). */
  syncPgliteCpu: number[];
  resyncPglite: number;
  notes: number;
  cliPostgres?: number[];
  syncPostgres?: number[];
}

async function measureBuilds(): Promise<BuildResults> {
  const results: BuildResults = { cliPglite: [], cliPglitePeakMiB: 0, syncPglite: [], syncPgliteCpu: [], resyncPglite: 0, notes: 0 };
  for (let i = 0; i < builds; i++) {
    const data = tempDir('mv-bench-index-');
    try {
      const run = await timeCli(['index', '--repos', workDir, '--data', data], pgliteEnv);
      results.cliPglite.push(run.ms);
      results.cliPglitePeakMiB = Math.max(results.cliPglitePeakMiB, run.peakMiB);
      log(`index (PGlite, whole process) ${(run.ms / 1000).toFixed(2)} s, peak ${run.peakMiB.toFixed(0)} MiB`);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
    const data2 = tempDir('mv-bench-sync-');
    try {
      const sync = await timeSync(() => openPglite(join(data2, 'index')));
      results.syncPglite.push(sync.ms);
      results.syncPgliteCpu.push(sync.cpuMs);
      results.resyncPglite = sync.resyncMs;
      results.notes = sync.notes;
      log(
        `syncRepo (PGlite, in-process) ${(sync.ms / 1000).toFixed(2)} s (CPU ${(sync.cpuMs / 1000).toFixed(2)} s) for ${sync.notes} files; unchanged resync ${sync.resyncMs.toFixed(0)} ms`,
      );
    } finally {
      rmSync(data2, { recursive: true, force: true });
    }
  }
  if (databaseUrl) {
    results.cliPostgres = [];
    results.syncPostgres = [];
    const name = 'read-search-bench';
    const cliSchema = 'read_search_bench';
    const syncSchema = 'read_search_bench_sync';
    for (let i = 0; i < builds; i++) {
      await dropSchema(databaseUrl, cliSchema);
      const run = await timeCli(['index', '--repos', workDir, '--name', name, '--database-url', databaseUrl], process.env);
      results.cliPostgres.push(run.ms);
      log(`index (Postgres, whole process) ${(run.ms / 1000).toFixed(2)} s`);
      await dropSchema(databaseUrl, cliSchema);
      await dropSchema(databaseUrl, syncSchema);
      const sync = await timeSync(() => openPostgres(databaseUrl, syncSchema));
      results.syncPostgres.push(sync.ms);
      log(`syncRepo (Postgres, in-process) ${(sync.ms / 1000).toFixed(2)} s`);
      await dropSchema(databaseUrl, syncSchema);
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// The server

interface RunningServer {
  url: URL;
  pid: number;
  /** From spawn to the printed address: start, migrations and the full index build. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Starts `major-vault serve` on a free port with a fresh PGlite index; resolves once it prints its address. */
async function startServer(dataDir: string): Promise<RunningServer> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--repos', workDir, '--port', '0', '--data', dataDir], {
    cwd: root,
    env: pgliteEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const address = /Major Vault serving \S+ at (\S+)/.exec(stdout)?.[1];
      if (address) resolve(new URL(address));
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`major-vault serve exited with ${code} before serving:\n${stdout}${output}`)));
  });
  const readyMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

type Era = 'legacy' | 'modern';

/** The SDK's own client over Streamable HTTP: `legacy` speaks 2025-11-25 (`initialize`), `modern` pins 2026-07-28. */
async function connect(url: URL, era: Era): Promise<Client> {
  const client = new Client(
    { name: `bench-read-search-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** Calls a tool; throws when the answer is a tool error. Returns the structured answer. */
async function call(client: Client, name: string, toolArgs: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: toolArgs });
  if (result.isError) throw new Error(`${name} ${JSON.stringify(toolArgs)} answered an error: ${JSON.stringify(result.content)}`);
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------
// ripgrep

/** rg's arguments: a plain query as fixed strings, a regex as a regex (`-e`), smart case both. */
const rgArgs = (query: string, regex: boolean) =>
  regex
    ? ['--smart-case', '--line-number', '-e', query, corpusDir]
    : ['--smart-case', '--fixed-strings', '--line-number', query, corpusDir];

/** Runs rg once, reading all of its output; resolves with the number of lines it printed. */
function rg(query: string, regex = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('rg', rgArgs(query, regex), { stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || code === 1 ? resolve(lines) : reject(new Error(`rg ${query} exited with ${code}`))));
  });
}

// ---------------------------------------------------------------------------------------------
// Search and read

interface QueryResult {
  query: string;
  rgLines: number;
  matches: number;
  ours: number;
  rg: number;
  /** The server's CPU time per call (mean over the runs). */
  serverCpu: number;
}

async function measureSearch(client: Client, serverPid: number, list: readonly string[] = queries, regex = false): Promise<QueryResult[]> {
  const results: QueryResult[] = [];
  for (const query of list) {
    const toolArgs = { query, limit: 20, repo, ...(regex ? { regex: true } : {}) };
    const first = await call(client, 'search_notes', toolArgs);
    const matches = (first['matches'] as unknown[]).length;
    const rgLines = await rg(query, regex);
    if (matches !== Math.min(20, rgLines)) log(`note: search_notes found ${matches} lines for ${JSON.stringify(query)}, rg ${rgLines}`);
    const ours: number[] = [];
    const theirs: number[] = [];
    let serverCpu = 0;
    // Alternating, so a burst of load from others on the machine falls on both.
    for (let i = 0; i < runs; i++) {
      const cpu = cpuMsOf(serverPid);
      ours.push(await timed(() => call(client, 'search_notes', toolArgs)));
      serverCpu += cpuMsOf(serverPid) - cpu;
      theirs.push(await timed(() => rg(query, regex)));
    }
    const result = { query, rgLines, matches, ours: median(ours), rg: median(theirs), serverCpu: serverCpu / runs };
    log(
      `search${regex ? ' (regex)' : ''} ${JSON.stringify(query)}: ours ${result.ours.toFixed(1)} ms, rg ${result.rg.toFixed(1)} ms, ratio ${(result.ours / result.rg).toFixed(2)}`,
    );
    results.push(result);
  }
  return results;
}

/** `count` notes spread evenly over the corpus (no hidden folders), in path order. */
function sampleNotes(count: number): string[] {
  const paths = execFileSync('git', ['-C', corpusDir, 'ls-files', '-z', '--', '*.md'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path !== '' && !path.split('/').some((segment) => segment.startsWith('.')));
  const step = Math.max(1, Math.floor(paths.length / count));
  return paths.filter((_, i) => i % step === 0).slice(0, count);
}

interface LatencyResult {
  p50: number;
  p90: number;
  count: number;
  /** The server's CPU time per call (mean), when measured. */
  serverCpu?: number;
}

async function measureReads(client: Client, paths: readonly string[], serverPid: number): Promise<LatencyResult> {
  for (const path of paths.slice(0, 10)) await call(client, 'read_note', { path, repo });
  const times: number[] = [];
  const cpu = cpuMsOf(serverPid);
  for (const path of paths) times.push(await timed(() => call(client, 'read_note', { path, repo })));
  return { p50: median(times), p90: percentile(times, 0.9), count: times.length, serverCpu: (cpuMsOf(serverPid) - cpu) / times.length };
}

/** `ping` round trips: what HTTP and the SDK cost without any tool. */
async function measurePing(client: Client, serverPid: number): Promise<LatencyResult> {
  for (let i = 0; i < 10; i++) await client.ping();
  const times: number[] = [];
  const cpu = cpuMsOf(serverPid);
  for (let i = 0; i < 200; i++) times.push(await timed(() => client.ping()));
  return { p50: median(times), p90: percentile(times, 0.9), count: times.length, serverCpu: (cpuMsOf(serverPid) - cpu) / times.length };
}

// ---------------------------------------------------------------------------------------------
// Report

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const mib = (value: number) => `${value.toFixed(0)} MiB`;
const verdict = (met: boolean) => (met ? 'met' : '**missed**');

interface Report {
  builds: BuildResults;
  search: QueryResult[];
  reads: Record<Era, LatencyResult>;
  /** `ping` from the 2025-11-25 client (the 2026-07-28 revision has no ping): HTTP and the SDK without a tool. */
  ping: LatencyResult;
  /** The server that built the index at its start. */
  server: { readyMs: number; afterIndex: Memory; afterRuns: Memory };
  /** The same server started again on the index it built. */
  restarted: { readyMs: number; afterOpen: Memory; afterRuns: Memory };
  otherRepos: string[];
}

function reportMarkdown(report: Report): string {
  const { builds: b, search, reads: readTimes, ping, server, restarted } = report;
  const ratios = search.map((row) => row.ours / row.rg);
  const medianRatio = median(ratios);
  const cliMedian = median(b.cliPglite);
  const lines: string[] = [];
  lines.push(
    `Measured by \`node bin/run-ts.js bench/read-search.ts\` on obsidian-help (${b.notes} files), ${runs} runs per query, ${reads} notes read, ${builds} index build(s) per engine (medians).`,
    '',
    machineMarkdown(describeMachine(root)),
    '',
    '| Measure | Result | Goal | |',
    '|---|---|---|---|',
    `| \`search_notes\` (plain, limit 20) ÷ \`rg\` on the same tree: median of the ten ratios | ${medianRatio.toFixed(2)} | ≤ ${goals.searchRatio} | ${verdict(medianRatio <= goals.searchRatio)} |`,
    `| Full index build: \`major-vault index\`, whole process (PGlite) | ${seconds(cliMedian)} | ≤ ${goals.buildSeconds} s | ${verdict(cliMedian <= goals.buildSeconds * 1000)} |`,
    `| … \`syncRepo\` alone, in-process (PGlite): wall; CPU of the process | ${seconds(median(b.syncPglite))}; CPU ${seconds(median(b.syncPgliteCpu))} | | |`,
    ...(b.cliPostgres && b.syncPostgres
      ? [
          `| Full index build: \`major-vault index\`, whole process (Postgres server) | ${seconds(median(b.cliPostgres))} | ≤ ${goals.buildSeconds} s | ${verdict(median(b.cliPostgres) <= goals.buildSeconds * 1000)} |`,
          `| … \`syncRepo\` alone, in-process (Postgres server) | ${seconds(median(b.syncPostgres))} | | |`,
        ]
      : []),
    `| \`syncRepo\` again with nothing changed (PGlite) | ${ms(b.resyncPglite)} ms | | |`,
    `| \`read_note\` over HTTP, p50 (2025-11-25 client) | ${ms(readTimes.legacy.p50)} ms | ≤ ${goals.readP50Ms} ms | ${verdict(readTimes.legacy.p50 <= goals.readP50Ms)} |`,
    `| \`read_note\` over HTTP, p90 (2025-11-25 client) | ${ms(readTimes.legacy.p90)} ms | | |`,
    `| \`read_note\`: the server's CPU time per call (mean) | ${ms(readTimes.legacy.serverCpu ?? NaN)} ms | | |`,
    `| \`read_note\` over HTTP, p50 / p90 (2026-07-28 client) | ${ms(readTimes.modern.p50)} / ${ms(readTimes.modern.p90)} ms | | |`,
    `| \`ping\` over HTTP, p50 / p90 (2025-11-25 client): HTTP and the SDK alone; server CPU per call | ${ms(ping.p50)} / ${ms(ping.p90)} ms; CPU ${ms(ping.serverCpu ?? NaN)} ms | | |`,
    `| Server RSS after indexing (VmRSS; peak VmHWM) | ${mib(server.afterIndex.rss)}; peak ${mib(server.afterIndex.hwm)} | ≤ ${goals.rssMiB} MB | ${verdict(server.afterIndex.hwm <= goals.rssMiB)} |`,
    `| Server RSS after the runs (VmRSS; peak VmHWM) | ${mib(server.afterRuns.rss)}; peak ${mib(server.afterRuns.hwm)} | ≤ ${goals.rssMiB} MB | ${verdict(server.afterRuns.hwm <= goals.rssMiB)} |`,
    `| Server start to address, with the full index build (PGlite) | ${seconds(server.readyMs)} | | |`,
    `| Server started again on that index: RSS after start; after ${queries.length} searches and ${reads} reads (peak) | ${mib(restarted.afterOpen.rss)}; ${mib(restarted.afterRuns.rss)} (peak ${mib(restarted.afterRuns.hwm)}) | ≤ ${goals.rssMiB} MB | ${verdict(restarted.afterRuns.hwm <= goals.rssMiB)} |`,
    `| Server start to address on the built index | ${seconds(restarted.readyMs)} | | |`,
    `| \`major-vault index\` peak RSS (VmHWM, PGlite) | ${mib(b.cliPglitePeakMiB)} | | |`,
    '',
    '| Query | rg lines | `search_notes` median | `rg` median | ratio | server CPU per call |',
    '|---|---:|---:|---:|---:|---:|',
    ...search.map(
      (row) =>
        `| \`${row.query}\` | ${row.rgLines} | ${ms(row.ours)} ms | ${ms(row.rg)} ms | ${(row.ours / row.rg).toFixed(2)} | ${ms(row.serverCpu)} ms |`,
    ),
    `| **median** | | ${ms(median(search.map((row) => row.ours)))} ms | ${ms(median(search.map((row) => row.rg)))} ms | **${medianRatio.toFixed(2)}** | ${ms(median(search.map((row) => row.serverCpu)))} ms |`,
    '',
    '`rg` is `rg --smart-case --fixed-strings --line-number QUERY bench/checkouts/obsidian-help`, spawned from the benchmark, its output read; ' +
      '`search_notes` is a `tools/call` with `{query, limit: 20}` from the MCP SDK client over Streamable HTTP to `major-vault serve` (PGlite), each timed from request to parsed answer. ' +
      'Runs alternate between the two. rg always reads the whole tree; search_notes stops after 21 matching lines.',
  );
  if (report.otherRepos.length > 0) {
    lines.push(
      '',
      `Note: bench/checkouts also held the repositories ${report.otherRepos.join(', ')}, so the \`index\` command and the server indexed those too; every call named \`repo: "obsidian-help"\`.`,
    );
  }
  return lines.join('\n');
}

const regexSectionTitle = 'Regex search (issue 14)';

/** The regex section: each query against rg in regex mode, in the same run. */
function regexMarkdown(search: readonly QueryResult[]): string {
  const ratios = search.map((row) => row.ours / row.rg);
  const rare = search.filter((row) => row.rgLines < 100).map((row) => row.ours / row.rg);
  return [
    `Measured by \`node bin/run-ts.js bench/read-search.ts${args.only === 'regex' ? ' --only regex' : ''}\` on obsidian-help, ${runs} runs per query (medians).`,
    '',
    machineMarkdown(describeMachine(root)),
    '',
    '| Measure | Result | Goal | |',
    '|---|---|---|---|',
    `| \`search_notes\` (regex, limit 20) ÷ \`rg\` (regex) with fewer than 100 matching lines: median of the ratios | ${median(rare).toFixed(2)} | ≤ ${goals.searchRatio} | ${verdict(median(rare) <= goals.searchRatio)} |`,
    `| … worst of those ratios | ${Math.max(...rare).toFixed(2)} | | |`,
    `| … median of all ${search.length} ratios | ${median(ratios).toFixed(2)} | | |`,
    '',
    '| Regex | rg lines | `search_notes` median | `rg` median | ratio | server CPU per call |',
    '|---|---:|---:|---:|---:|---:|',
    ...search.map(
      (row) =>
        `| \`${row.query.replaceAll('|', '\\|')}\` | ${row.rgLines} | ${ms(row.ours)} ms | ${ms(row.rg)} ms | ${(row.ours / row.rg).toFixed(2)} | ${ms(row.serverCpu)} ms |`,
    ),
    '',
    '`rg` is `rg --smart-case --line-number -e REGEX bench/checkouts/obsidian-help`; `search_notes` is a `tools/call` with `{query, regex: true, limit: 20}` over Streamable HTTP, as above. ' +
      'The server reads only the notes that have the trigrams a match must contain, small classes expanded into sets of trigrams and `^`, `$` taken as the line breaks around a line (`^\\d{4}-\\d{2}-\\d{2}$` requires one of the 100 `\\n00` … `\\n99`, of the 100 `00-` … `99-`, `0-0` … `9-9`, `-00` … `-99` and of the 200 `00\\n` … `99\\r`); a word with `\\b` on both sides (`(?i)\\bMOC\\b`) is checked in the database as well, so notes with only `pomocí` or `mocks` are not read; a regex requiring no text at all is matched against every note (on the worker pool, within the time budget).',
  ].join('\n');
}

/** Only the regex searches: a server on a fresh index, the regex queries, their section written. */
async function regexOnly(): Promise<void> {
  const data = tempDir('mv-bench-serve-');
  const server = await startServer(data);
  try {
    log(`serving at ${server.url.href} after ${seconds(server.readyMs)}`);
    const client = await connect(server.url, 'legacy');
    try {
      const search = await measureSearch(client, server.pid, regexQueries, true);
      const markdown = regexMarkdown(search);
      console.log(`\n## ${regexSectionTitle}\n\n${markdown}\n`);
      writeResultsSection(regexSectionTitle, markdown);
      log('written to bench/RESULTS.md');
    } finally {
      await client.close();
    }
  } finally {
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

/** The repositories the installation at bench/checkouts has besides obsidian-help (other benchmarks may clone theirs there). */
async function otherReposInWork(): Promise<string[]> {
  const host = new LocalRepoHost({ reposDir: workDir });
  try {
    return (await host.listRepos()).map((info) => info.name).filter((name) => name !== repo);
  } finally {
    await host.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(root, '..', 'shared'))) {
    console.error('bench/read-search: ../shared (the shared corpora, next to the checkout) is absent, so there is nothing to measure.');
    process.exit(2);
  }
  ensureCorpus();
  const otherRepos = await otherReposInWork();
  if (otherRepos.length > 0) log(`note: bench/checkouts also holds the repositories ${otherRepos.join(', ')}; they are indexed too`);
  if (args.only === 'regex') return regexOnly();

  log('— the full index build');
  const builds = await measureBuilds();

  log('— the server');
  const data = tempDir('mv-bench-serve-');
  const server = await startServer(data);
  let measured: Pick<Report, 'search' | 'reads' | 'ping' | 'server'>;
  let regexSearch: QueryResult[];
  let restarted: Report['restarted'];
  try {
    const afterIndex = memoryOf(server.pid);
    log(`serving at ${server.url.href} after ${seconds(server.readyMs)}; RSS ${mib(afterIndex.rss)}, peak ${mib(afterIndex.hwm)}`);
    const legacy = await connect(server.url, 'legacy');
    const modern = await connect(server.url, 'modern');
    try {
      const search = await measureSearch(legacy, server.pid);
      regexSearch = await measureSearch(legacy, server.pid, regexQueries, true);
      const paths = sampleNotes(reads);
      const readsLegacy = await measureReads(legacy, paths, server.pid);
      log(`read_note (2025-11-25) p50 ${ms(readsLegacy.p50)} ms, p90 ${ms(readsLegacy.p90)} ms over ${readsLegacy.count} notes`);
      const readsModern = await measureReads(modern, paths, server.pid);
      log(`read_note (2026-07-28) p50 ${ms(readsModern.p50)} ms, p90 ${ms(readsModern.p90)} ms`);
      const ping = await measurePing(legacy, server.pid);
      const afterRuns = memoryOf(server.pid);
      log(`RSS after the runs ${mib(afterRuns.rss)}, peak ${mib(afterRuns.hwm)}`);
      measured = {
        search,
        reads: { legacy: readsLegacy, modern: readsModern },
        ping,
        server: { readyMs: server.readyMs, afterIndex, afterRuns },
      };
    } finally {
      await legacy.close();
      await modern.close();
    }
    await server.stop();

    log('— the server started again on the index it built');
    const again = await startServer(data);
    try {
      const afterOpen = memoryOf(again.pid);
      const client = await connect(again.url, 'legacy');
      try {
        for (const query of queries) await call(client, 'search_notes', { query, limit: 20, repo });
        await measureReads(client, sampleNotes(reads), again.pid);
      } finally {
        await client.close();
      }
      const afterRuns = memoryOf(again.pid);
      log(
        `restarted in ${seconds(again.readyMs)}: RSS ${mib(afterOpen.rss)} after start, ${mib(afterRuns.rss)} after the runs (peak ${mib(afterRuns.hwm)})`,
      );
      restarted = { readyMs: again.readyMs, afterOpen, afterRuns };
    } finally {
      await again.stop();
    }
  } finally {
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
  const report: Report = { builds, ...measured, restarted, otherRepos };
  const markdown = reportMarkdown(report);
  console.log(`\n## ${sectionTitle}\n\n${markdown}\n`);
  writeResultsSection(sectionTitle, markdown);
  const regexSection = regexMarkdown(regexSearch);
  console.log(`\n## ${regexSectionTitle}\n\n${regexSection}\n`);
  writeResultsSection(regexSectionTitle, regexSection);
  log('written to bench/RESULTS.md');
}

await main();
