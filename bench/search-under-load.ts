// Benchmark: a small read_note over HTTP while pathological searches run (issue 9, item 2),
// then while clients read a 20 MB note and render a base view with heavy formulas.
// Goal: p99 of read_note under 200 ms while 10 searches of a slow regex over notes of
// megabyte-long lines run at once. A reference run of the same read_note without load comes
// first, in the same process. Needs nothing from ../shared: the repository is made here.
//
//   node bin/run-ts.js bench/search-under-load.ts
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { silentLogger } from '../src/instance/log.ts';
import { serveLocal } from '../src/main/local.ts';
import { makeRepo, tempDir } from '../test/support/git-fixture.ts';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';
import { heavyBase } from '../test/support/heavy-base.ts';

const SEARCHES = Number(process.env['BENCH_SEARCHES'] ?? 10);
const READS = Number(process.env['BENCH_READS'] ?? 100);
const NOTE_CHARS = 4_000_000;
const DUMPS = 3;
const BIG_NOTE_BYTES = 20_000_000;
const HEAVY_CLIENTS = Number(process.env['BENCH_HEAVY'] ?? 2);
const BASE_NOTES = 2000;

/** A data dump of about `bytes` bytes: a heading every 2000 lines, plain rows between them. */
function bigNote(bytes: number): string {
  const parts = ['---\ntitle: Dump\n---\n'];
  let size = parts[0]!.length;
  for (let i = 0; size < bytes; i++) {
    const line =
      i % 2000 === 0 ? `## Block ${i / 2000}\n` : `row ${i}: value ${(i * 7919) % 100003} measured, unchanged since the last export\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join('');
}
/** Linear in RE2, but finding where it matches in a 4 MB line takes RE2JS over a second. */
const slowRegex = '(\\w+\\d)+QQQ';

/** One line of `length` characters over a small alphabet, ending in a match of {@link slowRegex}. */
function longLine(length: number, seed: number): string {
  const alphabet = 'abcd01XY,';
  const chars = new Array<string>(length);
  for (let i = 0; i < length; i++) chars[i] = alphabet[(i * 7919 + (i >> 3) + seed) % alphabet.length]!;
  return `${chars.join('')} dd42QQQ`;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const dir = tempDir('mv-bench-load-');
makeRepo(join(dir.path, 'repos', 'notes'), [
  {
    message: 'Notes and data dumps',
    files: {
      'small.md': '# Small\n\nA short note.\n',
      ...Object.fromEntries(Array.from({ length: DUMPS }, (_, n) => [`dumps/dump-${n + 1}.md`, `${longLine(NOTE_CHARS, n)}\n`])),
      'big/export.md': bigNote(BIG_NOTE_BYTES),
      'Heavy.base': heavyBase,
      ...Object.fromEntries(Array.from({ length: BASE_NOTES }, (_, n) => [`items/item-${String(n).padStart(4, '0')}.md`, `# Item ${n}\n`])),
    },
  },
]);
const server = await serveLocal(
  { reposDir: join(dir.path, 'repos'), name: 'notes', port: 0, hostname: '127.0.0.1' },
  { log: silentLogger() },
);

async function connect(): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  return client;
}

const reader = await connect();
const readOnce = async (): Promise<number> => {
  const start = performance.now();
  const result = await reader.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'small.md' } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return performance.now() - start;
};
for (let i = 0; i < 10; i++) await readOnce();

const loop = monitorEventLoopDelay({ resolution: 10 });
async function readRun(): Promise<{ p50: number; p99: number; max: number; loopMax: number }> {
  const times: number[] = [];
  loop.reset();
  loop.enable();
  for (let i = 0; i < READS; i++) times.push(await readOnce());
  loop.disable();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1]!, loopMax: loop.max / 1e6 };
}

const idle = await readRun();

// The load: SEARCHES clients, each searching again as soon as it has its answer.
const searchers = await Promise.all(Array.from({ length: SEARCHES }, () => connect()));
let loading = true;
const searchTimes: number[] = [];
let stopped = 0;
const errors: string[] = [];
const whole = monitorEventLoopDelay({ resolution: 10 });
whole.enable();
const load = searchers
  .map(async (client) => {
    while (loading) {
      const start = performance.now();
      const result = await client.callTool({ name: 'search_notes', arguments: { repo: 'notes', query: slowRegex, regex: true } });
      searchTimes.push(performance.now() - start);
      if (String((result.structuredContent as { note?: string }).note ?? '').includes('time budget')) stopped++;
    }
  })
  .map((search) => search.catch((error: unknown) => void errors.push(String((error as Error).cause ?? error))));
await new Promise((resolve) => setTimeout(resolve, 500));
const loaded = await readRun();
loading = false;
await Promise.all(load);
whole.disable();

/** The small reads while HEAVY_CLIENTS clients make `call` without pause; the heavy calls' times and notes. */
async function heavyRun(
  call: (client: Client, i: number) => Promise<{ note?: string }>,
): Promise<{ reads: Awaited<ReturnType<typeof readRun>>; times: number[]; cut: number; failed: string[] }> {
  const clients = await Promise.all(Array.from({ length: HEAVY_CLIENTS }, () => connect()));
  let running = true;
  const times: number[] = [];
  let cut = 0;
  const failed: string[] = [];
  const work = clients.map(async (client) => {
    for (let i = 0; running; i++) {
      const start = performance.now();
      try {
        const answer = await call(client, i);
        times.push(performance.now() - start);
        if (String(answer.note ?? '').includes('time budget')) cut++;
      } catch (error) {
        failed.push(String(error));
      }
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const reads = await readRun();
  running = false;
  await Promise.all(work);
  for (const client of clients) await client.close();
  times.sort((a, b) => a - b);
  return { reads, times, cut, failed };
}

const bigReads = await heavyRun(async (client, i) => {
  // A new range each time: the lines past the first answer, as a reader paging through it.
  const result = await client.callTool({
    name: 'read_note',
    arguments: { repo: 'notes', path: 'big/export.md', from_line: 1 + ((i * 7919) % 200_000) },
  });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as { note?: string };
});
const heavyBases = await heavyRun(async (client) => {
  const result = await client.callTool({ name: 'base_view', arguments: { repo: 'notes', path: 'Heavy.base', limit: 5 } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as { note?: string };
});

for (const client of [reader, ...searchers]) await client.close();
await server.close();
dir.cleanup();

const ms = (value: number) => value.toFixed(1);
searchTimes.sort((a, b) => a - b);
const table = [
  `A small read_note over HTTP (${READS} calls one after another), alone and while ${SEARCHES} clients search without pause for the RE2 regex \`${slowRegex}\` over ${DUMPS} notes of one ${NOTE_CHARS / 1e6} MB line each; wall time in ms`,
  '',
  '| Case | p50 | p99 | max | event loop delay, max |',
  '|---|---:|---:|---:|---:|',
  `| read_note, no load | ${ms(idle.p50)} | ${ms(idle.p99)} | ${ms(idle.max)} | ${ms(idle.loopMax)} |`,
  `| read_note, ${SEARCHES} pathological searches running | ${ms(loaded.p50)} | ${ms(loaded.p99)} | ${ms(loaded.max)} | ${ms(loaded.loopMax)} |`,
  `| read_note, ${HEAVY_CLIENTS} clients reading a ${BIG_NOTE_BYTES / 1e6} MB note | ${ms(bigReads.reads.p50)} | ${ms(bigReads.reads.p99)} | ${ms(bigReads.reads.max)} | ${ms(bigReads.reads.loopMax)} |`,
  `| read_note, ${HEAVY_CLIENTS} clients rendering a heavy base view | ${ms(heavyBases.reads.p50)} | ${ms(heavyBases.reads.p99)} | ${ms(heavyBases.reads.max)} | ${ms(heavyBases.reads.loopMax)} |`,
  '',
  `The ${BIG_NOTE_BYTES / 1e6} MB reads (${bigReads.times.length} answered, ${bigReads.failed.length} failed) took p50 ${ms(percentile(bigReads.times, 50))} ms, max ${ms(bigReads.times[bigReads.times.length - 1] ?? 0)} ms. The base view (a formula of \`file.name.repeat(8000).split("").length\` over ${BASE_NOTES} notes, as filter and column; ${heavyBases.times.length} answered, ${heavyBases.cut} stopped by the 3 s time budget with a note, ${heavyBases.failed.length} failed) took p50 ${ms(percentile(heavyBases.times, 50))} ms, max ${ms(heavyBases.times[heavyBases.times.length - 1] ?? 0)} ms.`,
  '',
  `Goal: p99 under 200 ms under load. The searches (${searchTimes.length} answered during the run, ${stopped} of them stopped by the 3 s time budget with a note) took p50 ${ms(percentile(searchTimes, 50))} ms, max ${ms(searchTimes[searchTimes.length - 1] ?? 0)} ms; ${errors.length} calls failed (${[...new Set(errors)].join(', ') || 'none'}). The event loop's delay over the whole load: p99 ${ms(whole.percentile(99) / 1e6)} ms, max ${ms(whole.max / 1e6)} ms (server and clients share this process). Load average at the end: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(', ')} on ${availableParallelism()} processors (the machine is shared).`,
].join('\n');
console.log(table);
if (!process.env['BENCH_NO_WRITE'])
  writeResultsSection('Search under load', `${table}\n\n${machineMarkdown(describeMachine(join(import.meta.dirname, '..')))}`);
