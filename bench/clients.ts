// Benchmark of issue 14, "many clients": completed tool calls per second with 1, 4 and 16
// concurrent MCP SDK clients over Streamable HTTP against `major-vault serve` on obsidian-help,
// each client making a realistic mix of calls (read_note, search_notes plain and regex,
// list_notes, find_references, base_view, tree) one after another without pause. Prints the
// ratios 4/1 and 16/1 and writes them, with the machine and its load, to bench/RESULTS.md
// under "Many clients (issue 14)". Goal: at least 1.8× on 2 cores.
//
//   node bin/run-ts.js bench/clients.ts [--seconds 10] [--rounds 2] [--levels 1,4,16]
//
// The levels run in turn, `rounds` times over (1, 4, 16, 1, 4, 16, …), and each level's figure
// is its median, so the shared machine's load falls on every level alike. The server is its
// own process (the clients share this one); its CPU time, and its main thread's alone, are
// read from /proc over each window. BENCH_CPU_PROF=<folder> runs the server under
// `node --cpu-prof` and leaves its profile there (see README, "Tests and benchmarks");
// BENCH_CLI=<checkout>/bin/major-vault.js measures another checkout's server on the same
// corpus and index, for a before and after (its section is then not written).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { corpusBundle } from '../test/support/git-fixture.ts';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';

const root = join(import.meta.dirname, '..');
/** The server to measure: this checkout's, or another's (BENCH_CLI: its bin/major-vault.js, to compare two commits). */
const cli = process.env['BENCH_CLI'] ?? join(root, 'bin', 'major-vault.js');
const workDir = join(root, 'bench', 'checkouts', 'clients');
const reposDir = join(workDir, 'repos');
const repo = 'obsidian-help';
const dataDir = join(workDir, 'data');
const sectionTitle = 'Many clients (issue 14)';
const goal = 1.8;

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    levels: { type: 'string', default: '1,4,16' },
  },
});
const seconds = positive(args.seconds, '--seconds');
const rounds = positive(args.rounds, '--rounds');
const levels = args.levels.split(',').map((level) => positive(level, '--levels'));

function positive(value: string | undefined, name: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    console.error(`${name} takes whole numbers of at least 1, not ${JSON.stringify(value)}.`);
    process.exit(2);
  }
  return number;
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** The Bases file the mix views: obsidian-help has none of its own. */
const benchBase = [
  'filters:',
  '  and:',
  '    - file.ext == "md"',
  '    - file.inFolder("en")',
  'formulas:',
  '  backlinks: file.backlinks.length',
  '  words: file.size / 6',
  'views:',
  '  - type: table',
  '    name: Most linked',
  '    order: [file.name, file.folder, formula.backlinks, formula.words]',
  '    sort:',
  '      - property: formula.backlinks',
  '        direction: DESC',
  '',
].join('\n');

/** Clones the corpus (once) into bench/checkouts/clients with Bench.base committed; exits with a sentence without the corpora. */
function ensureCorpus(): void {
  const dir = join(reposDir, repo);
  if (existsSync(join(dir, 'Bench.base'))) return;
  const bundle = corpusBundle(repo);
  if (bundle === null) {
    console.error(`bench/clients: the corpus ${repo}.bundle is not in ../shared/corpora, so there is nothing to measure.`);
    process.exit(2);
  }
  mkdirSync(reposDir, { recursive: true });
  log(`cloning ${bundle} into ${dir}`);
  execFileSync('git', ['clone', '-q', bundle, dir]);
  writeFileSync(join(dir, 'Bench.base'), benchBase);
  const git = (gitArgs: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...gitArgs], { cwd: dir });
  git(['add', 'Bench.base']);
  git(['commit', '-q', '-m', 'Bench base']);
}

/** One call of the mix: a tool and its arguments. */
interface Call {
  kind: string;
  name: string;
  arguments: Record<string, unknown>;
}

const call = (kind: string, name: string, rest: Record<string, unknown>): Call => ({ kind, name, arguments: { repo, ...rest } });

/**
 * The mix every client cycles through (each from its own starting point): reads dominate, as
 * with an assistant, then searches, lists and the heavier views.
 */
const mix: Call[] = [
  call('read_note', 'read_note', { path: 'en/Linking notes and files/Internal links.md' }),
  call('search_notes plain', 'search_notes', { query: 'kanban' }),
  call('read_note', 'read_note', { path: 'en/Editing and formatting/Properties.md' }),
  call('search_notes regex', 'search_notes', { query: 'graph\\s+view', regex: true }),
  call('list_notes', 'list_notes', { folder: 'en/Plugins' }),
  call('read_note', 'read_note', { path: 'en/Obsidian/Credits.md' }),
  call('search_notes plain', 'search_notes', { query: 'callout' }),
  call('find_references', 'find_references', { values: ['Obsidian Sync'] }),
  call('tree', 'tree', { folder: 'en', depth: 2 }),
  call('read_note', 'read_note', { path: 'en/Editing and formatting/Callouts.md' }),
  call('search_notes regex', 'search_notes', { query: 'zettel\\w+', regex: true }),
  call('base_view', 'base_view', { path: 'Bench.base' }),
  call('find_references', 'find_references', { path: 'en/Linking notes and files/Internal links.md' }),
  call('search_notes plain', 'search_notes', { query: 'plugin' }),
];

// ---------------------------------------------------------------------------------------------
// The server

interface Server {
  child: ChildProcess;
  url: URL;
  pid: number;
}

/** Starts `major-vault serve` on the corpus (index kept in bench/checkouts/clients/data); resolves at its address. */
async function startServer(): Promise<Server> {
  const profile = process.env['BENCH_CPU_PROF'];
  const nodeArgs = profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'DATABASE_URL'));
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', '--repos', reposDir, '--port', '0', '--data', dataDir], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const url = await new Promise<URL>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const address = /Major Vault serving \S+ at (\S+)/.exec(stdout)?.[1];
      if (address) resolve(new URL(address));
    });
    child.on('exit', (code) => reject(new Error(`major-vault serve exited with ${code} before serving:\n${stdout}${output}`)));
  });
  return { child, url, pid: child.pid! };
}

/** Stops the server with SIGINT (so a CPU profile is written) and waits for its exit. */
async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.on('exit', resolve));
  server.child.kill('SIGINT');
  await exited;
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (user + system) of a process or one of its threads so far, in ms, from its /proc stat file. */
function cpuMs(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

/** The server's CPU time so far: the whole process and its main thread (the event loop), in ms. */
function serverCpu(pid: number): { all: number; main: number } {
  return { all: cpuMs(`/proc/${pid}/stat`), main: cpuMs(`/proc/${pid}/task/${pid}/stat`) };
}

/** Resident memory of a process now, in MiB. */
function rssMiB(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

// ---------------------------------------------------------------------------------------------
// The runs

async function connect(url: URL): Promise<Client> {
  const client = new Client({ name: 'bench-clients', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** What one window at one level gave. */
interface Window {
  clients: number;
  calls: number;
  perSecond: number;
  failed: string[];
  /** The server's CPU over the window, in processors (1 = one core busy the whole time). */
  serverCores: number;
  /** Its main thread's alone. */
  mainCores: number;
  /** This process's (the clients'). */
  clientCores: number;
  /** Milliseconds per call of each kind (mean over the window). */
  kinds: Map<string, { count: number; ms: number }>;
}

async function runWindow(server: Server, clients: Client[]): Promise<Window> {
  const kinds = new Map<string, { count: number; ms: number }>();
  const failed: string[] = [];
  let calls = 0;
  let counting = false;
  let running = true;
  const work = clients.map(async (client, c) => {
    for (let i = Math.floor((c * mix.length) / clients.length); running; i++) {
      const item = mix[i % mix.length]!;
      const start = performance.now();
      try {
        const result = await client.callTool({ name: item.name, arguments: item.arguments });
        if (result.isError) throw new Error(`${item.kind}: ${JSON.stringify(result.content).slice(0, 300)}`);
      } catch (error) {
        if (counting) failed.push(String(error));
        continue;
      }
      if (!counting) continue;
      calls++;
      const kind = kinds.get(item.kind) ?? { count: 0, ms: 0 };
      kind.count++;
      kind.ms += performance.now() - start;
      kinds.set(item.kind, kind);
    }
  });
  // A second of warm-up at this level, then the window.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const cpuBefore = serverCpu(server.pid);
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  counting = true;
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  counting = false;
  const elapsed = performance.now() - started;
  const cpuAfter = serverCpu(server.pid);
  const own = process.cpuUsage(ownBefore);
  running = false;
  await Promise.all(work);
  for (const kind of kinds.values()) kind.ms /= kind.count;
  return {
    clients: clients.length,
    calls,
    perSecond: (calls * 1000) / elapsed,
    failed,
    serverCores: (cpuAfter.all - cpuBefore.all) / elapsed,
    mainCores: (cpuAfter.main - cpuBefore.main) / elapsed,
    clientCores: (own.user + own.system) / 1000 / elapsed,
    kinds,
  };
}

/** The middle value; of an even count, the lower of the two in the middle. */
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

// ---------------------------------------------------------------------------------------------

ensureCorpus();
const machine = describeMachine(root);
log(
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ')}; starting the server (the first start builds the index)`,
);
const startedAt = performance.now();
const server = await startServer();
log(`serving at ${server.url.href} after ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);

// Every call of the mix once, so the first window does not pay for first answers (the base's git log pass, caches).
const probe = await connect(server.url);
for (const item of mix) {
  const result = await probe.callTool({ name: item.name, arguments: item.arguments });
  if (result.isError) throw new Error(`${item.kind} failed: ${JSON.stringify(result.content)}`);
}
await probe.close();

const byLevel = new Map<number, Window[]>(levels.map((level) => [level, []]));
const maxClients = Math.max(...levels);
const pool = await Promise.all(Array.from({ length: maxClients }, () => connect(server.url)));
for (let round = 0; round < rounds; round++) {
  for (const level of levels) {
    const window = await runWindow(server, pool.slice(0, level));
    byLevel.get(level)!.push(window);
    log(
      `round ${round + 1}, ${level} client(s): ${window.perSecond.toFixed(1)} calls/s, server ${window.serverCores.toFixed(2)} cores ` +
        `(${((window.serverCores * 1000) / window.perSecond).toFixed(1)} ms a call) ` +
        `(main thread ${window.mainCores.toFixed(2)}), clients ${window.clientCores.toFixed(2)}, failed ${window.failed.length}`,
    );
  }
}
const rss = rssMiB(server.pid);
await Promise.all(pool.map((client) => client.close()));
await stopServer(server);
const loadEnd = loadavg();

// ---------------------------------------------------------------------------------------------
// The report

const perSecond = (level: number) => median(byLevel.get(level)!.map((window) => window.perSecond));
const base = perSecond(levels[0]!);
const rows = levels.map((level) => {
  const windows = byLevel.get(level)!;
  const failed = windows.reduce((sum, window) => sum + window.failed.length, 0);
  const ratio = perSecond(level) / base;
  const met = level === levels[0] ? '' : ratio >= goal ? 'met' : '**missed**';
  return (
    `| ${level} | ${perSecond(level).toFixed(1)} | ${level === levels[0] ? '1.00' : ratio.toFixed(2)} | ` +
    `${median(windows.map((w) => w.serverCores)).toFixed(2)} | ${median(windows.map((w) => (w.serverCores * 1000) / w.perSecond)).toFixed(1)} | ` +
    `${median(windows.map((w) => w.mainCores)).toFixed(2)} | ` +
    `${median(windows.map((w) => w.clientCores)).toFixed(2)} | ${failed} | ${met} |`
  );
});
const kindNames = [...new Set(mix.map((item) => item.kind))];
const kindRows = kindNames.map((kind) => {
  const cells = levels.map((level) => {
    const times = byLevel.get(level)!.flatMap((window) => (window.kinds.has(kind) ? [window.kinds.get(kind)!.ms] : []));
    return times.length === 0 ? '–' : `${median(times).toFixed(1)}`;
  });
  return `| ${kind} | ${cells.join(' | ')} |`;
});
const failures = [...byLevel.values()].flatMap((windows) => windows.flatMap((window) => window.failed));
const ratios = levels.slice(1).map((level) => `${level}/${levels[0]}: ${(perSecond(level) / base).toFixed(2)}×`);

const body = [
  `Measured by \`node bin/run-ts.js bench/clients.ts --seconds ${seconds} --rounds ${rounds} --levels ${levels.join(',')}\` on obsidian-help ` +
    `(with a \`Bench.base\` added): ${levels.join(', ')} MCP SDK clients over Streamable HTTP to \`major-vault serve\` (PGlite), ` +
    `each making the mix of ${mix.length} calls (${kindNames.join(', ')}) one after another without pause; ` +
    `${seconds} s windows after a second of warm-up, the levels in turn ${rounds} time(s) over, medians. ` +
    `Goal: at least ${goal}× the calls per second of one client with 4 and with 16 on 2 cores.`,
  '',
  '| Clients | Calls per second | Ratio to 1 | Server CPU (cores) | Server CPU per call (ms) | its main thread (cores) | Clients\u2019 CPU (cores) | Failed calls | Goal |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ...rows,
  '',
  `Mean time of a call by kind, in ms (median over the rounds):`,
  '',
  `| Call | ${levels.map((level) => `${level} client(s)`).join(' | ')} |`,
  `|---|${levels.map(() => '---:').join('|')}|`,
  ...kindRows,
  '',
  `Ratios ${ratios.join(', ')}. The clients run in the benchmark's own process on the same 2 processors, so the CPU they take ` +
    `is not the server's. Server RSS at the end ${rss.toFixed(0)} MiB. ` +
    `${failures.length} call(s) failed${failures.length > 0 ? ` (first: ${failures[0]!.slice(0, 200)})` : ''}. ` +
    `Load average at the end ${loadEnd.map((value) => value.toFixed(2)).join(' / ')} on 2 processors (the machine is shared).`,
  '',
  machineMarkdown(machine),
].join('\n');

console.log(body);
if (process.env['BENCH_CLI'] === undefined) writeResultsSection(sectionTitle, body);
if (process.env['BENCH_CPU_PROF'])
  log(`CPU profile(s) in ${process.env['BENCH_CPU_PROF']}: ${readdirSync(process.env['BENCH_CPU_PROF']).join(', ')}`);
