// Memory benchmark of issue 14: `major-vault serve` on obsidian-help through a long mixed
// session (reads, plain and regex searches, lists, trees, note histories, history searches,
// edits, moves, base views), sampling the server process's resident memory (VmRSS) as it
// goes, and the V8 heap of each of its threads (main, index thread, pool threads) through its
// inspector. Writes "Memory over a long session (issue 14)" in bench/RESULTS.md with the
// curve's summary: the goal is at most 300 MiB, flat.
//
//   node bin/run-ts.js bench/memory.ts
//     BENCH_MEMORY_MINUTES  the session's length (default 30)
//     BENCH_MEMORY_DIR      where the clone lives (default bench/checkouts/memory; it gets edits and a .base file)
//     BENCH_MEMORY_HEAPS    0: no inspector, RSS only (default 1: the threads' heaps too)
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';
import { corpusFolder, log, memoryOf, root, startServe } from './serve-process.ts';
import { connectThreadHeaps, type ThreadHeap } from './thread-heaps.ts';

const minutes = Number(process.env['BENCH_MEMORY_MINUTES'] ?? 30);
const dir = process.env['BENCH_MEMORY_DIR'] ?? join(root, 'bench', 'checkouts', 'memory');
const repo = 'obsidian-help';
const withHeaps = process.env['BENCH_MEMORY_HEAPS'] !== '0';
const goalMiB = 300;
/** How often the server's memory is sampled, in ms. */
const sampleMs = 5_000;

const machine = describeMachine(root);
const clone = join(dir, repo);
if (!existsSync(join(clone, '.git'))) corpusFolder(dir, repo);
const basePath = 'Bench/Memory.base';
if (!existsSync(join(clone, basePath))) {
  // obsidian-help has no .base file: one over its notes, committed before the server starts.
  execFileSync('mkdir', ['-p', join(clone, 'Bench')]);
  writeFileSync(
    join(clone, basePath),
    [
      'views:',
      '  - type: table',
      '    name: English',
      '    filters: file.inFolder("en")',
      '    order:',
      '      - file.name',
      '      - file.mtime',
      '    limit: 100',
      '  - type: table',
      '    name: Everything by size',
      '    order:',
      '      - file.size',
      '',
    ].join('\n'),
  );
  execFileSync('git', ['-C', clone, 'add', basePath]);
  execFileSync('git', [
    '-C',
    clone,
    '-c',
    'user.name=Bench',
    '-c',
    'user.email=bench@example.com',
    'commit',
    '-qm',
    'Add a base for the memory benchmark',
  ]);
}
corpusFolder(dir, repo);

// -z: the paths as they are (git quotes non-ASCII ones otherwise, and the calls would ask for names that do not exist).
// Notes the tools may read: a path through a dot folder (`.github/`) is closed to every tool.
const paths = execFileSync('git', ['-C', clone, 'ls-files', '-z', '*.md'], { encoding: 'utf8' })
  .split('\0')
  .filter((path) => path !== '' && !path.split('/').some((segment) => segment.startsWith('.')));
const englishNotes = paths.filter((path) => path.startsWith('en/'));
// Folders two levels down (`en/Editing and formatting`): the folders of the notes, not the notes.
const folders = [
  ...new Set(paths.map((path) => path.split('/').slice(0, -1).slice(0, 2).join('/')).filter((folder) => folder.includes('/'))),
];
const plainQueries = ['excalidraw', 'kanban', 'graph view', 'callout', 'plugin', 'obsidian', 'заметк', 'toegangstoken'];
const regexQueries = ['Ctrl\\+[A-Z]', 'zettel\\w+', '\\[\\[[^\\]]+\\|', 'no such thing \\d{7}', '^#{2,3} ', 'https?://\\S+\\.png'];
const historyTexts = ['canvas', 'publish', 'sync'];

let seed = 14;
/** A deterministic pick (the same session each run). */
function pick<T>(list: readonly T[]): T {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return list[seed % list.length]!;
}

const served = await startServe(dir, performance.now(), { inspect: withHeaps });
const pid = served.child.pid!;
const heaps = served.inspector === null ? null : await connectThreadHeaps(served.inspector);
const client = new Client({ name: 'bench-memory', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(served.url));
await client.listTools();

const counts = new Map<string, { calls: number; errors: number }>();
async function call(name: string, args: Record<string, unknown>): Promise<void> {
  const count = counts.get(name) ?? { calls: 0, errors: 0 };
  counts.set(name, count);
  count.calls += 1;
  try {
    const answer = await client.callTool({ name, arguments: { repo, ...args } });
    if (answer.isError) count.errors += 1;
  } catch {
    count.errors += 1;
  }
}

/** The note the session edits and moves back and forth: a new one each run (the clone keeps the last run's). */
const run = new Date().toISOString().replace(/[:.]/g, '-');
const moving = { a: `Bench/Memory note ${run}.md`, b: `Bench/Memory note ${run} moved.md`, at: 'a' as 'a' | 'b' };
await call('create_note', { path: moving.a, body: '# Bench memory note\n\nSee [[Home]].\n\nCount: 0\n' });
let edits = 0;

const steps: Array<() => Promise<void>> = [
  () => call('read_note', { path: pick(paths) }),
  () => call('read_note', { path: pick(englishNotes), from_line: 1, to_line: 40 }),
  () => call('search_notes', { query: pick(plainQueries) }),
  () => call('search_notes', { query: pick(regexQueries), regex: true }),
  () => call('list_notes', { folder: pick(folders), limit: 50 }),
  () => call('tree', { folder: pick(folders), depth: 2 }),
  () => call('note_history', { path: pick(englishNotes) }),
  () => call('note_history', { path: pick(englishNotes), blame: true }),
  () => call('search_history', { text: pick(historyTexts), limit: 20 }),
  () => call('find_references', { path: pick(englishNotes) }),
  () => call('base_view', { path: basePath, view: pick(['English', 'Everything by size']) }),
  async () => {
    const path = moving.at === 'a' ? moving.a : moving.b;
    await call('edit_note', { path, old_text: `Count: ${edits}`, new_text: `Count: ${edits + 1}`, summary: 'Count on' });
    edits += 1;
  },
  async () => {
    const [from, to] = moving.at === 'a' ? [moving.a, moving.b] : [moving.b, moving.a];
    await call('move_note', { from, to, summary: 'Move the bench note' });
    moving.at = moving.at === 'a' ? 'b' : 'a';
  },
];

interface Sample {
  minute: number;
  rss: number;
}
const samples: Sample[] = [];
/** The threads' heaps at the start, after the warm-up, at the end, and the largest of each thread's. */
const heapsAt: { start?: ThreadHeap[]; warm?: ThreadHeap[]; end?: ThreadHeap[] } = {};
const largestHeaps = new Map<string, ThreadHeap>();
const warmUpMinutes = Math.min(1, minutes / 4);
const startedAt = performance.now();
const minuteNow = () => (performance.now() - startedAt) / 60_000;
const sample = () => samples.push({ minute: minuteNow(), rss: memoryOf(pid).rss });
async function sampleHeaps(): Promise<ThreadHeap[]> {
  const found = (await heaps?.sample()) ?? [];
  // Threads of one kind (the pool's) are told apart by their order.
  const seen = new Map<string, number>();
  const named = found.map((heap) => {
    const n = (seen.get(heap.thread) ?? 0) + 1;
    seen.set(heap.thread, n);
    return { ...heap, thread: n === 1 ? heap.thread : `${heap.thread} #${n}` };
  });
  for (const heap of named) if ((largestHeaps.get(heap.thread)?.heapTotal ?? -1) < heap.heapTotal) largestHeaps.set(heap.thread, heap);
  return named;
}
sample();
heapsAt.start = await sampleHeaps();
const sampler = setInterval(sample, sampleMs);
let heapSampling: Promise<unknown> = Promise.resolve();
let latestHeaps: ThreadHeap[] = [];
/** The latest heaps, for the progress line: each thread's heap taken, in MiB. */
const heapsLine = () => latestHeaps.map((heap) => `${heap.thread} ${heap.heapTotal.toFixed(0)}`).join(', ');
const heapSampler = setInterval(() => {
  heapSampling = sampleHeaps().then((found) => {
    latestHeaps = found;
    if (heapsAt.warm === undefined && minuteNow() >= warmUpMinutes) heapsAt.warm = found;
  });
}, sampleMs);
const endAt = startedAt + minutes * 60_000;
let done = 0;
while (performance.now() < endAt) {
  await pick(steps)();
  done += 1;
  if (done % 100 === 0)
    log(
      `${done} calls, ${minuteNow().toFixed(1)} min, RSS ${memoryOf(pid).rss.toFixed(0)} MiB${heaps === null ? '' : `; heaps ${heapsLine()}`}`,
    );
}
clearInterval(sampler);
clearInterval(heapSampler);
await heapSampling;
sample();
heapsAt.end = await sampleHeaps();
const peak = memoryOf(pid).hwm;
heaps?.close();
await client.close();
await served.stop();

// The curve's summary: the first minute (a quarter of a shorter run) is the warm-up (threads, PGlite's caches).
const mib = (value: number) => `${value.toFixed(0)} MiB`;
const after = samples.filter((s) => s.minute >= warmUpMinutes);
const third = Math.max(1, Math.floor(after.length / 3));
const mean = (list: readonly Sample[]) => list.reduce((sum, s) => sum + s.rss, 0) / Math.max(1, list.length);
const firstThird = mean(after.slice(0, third));
const lastThird = mean(after.slice(-third));
const slope = leastSquaresSlope(after);
const highest = Math.max(...samples.map((s) => s.rss));
const flat = Math.abs(lastThird - firstThird) <= 0.05 * firstThird;

function leastSquaresSlope(list: readonly Sample[]): number {
  const n = list.length;
  if (n < 2) return 0;
  const mx = list.reduce((sum, s) => sum + s.minute, 0) / n;
  const my = mean(list);
  let num = 0;
  let den = 0;
  for (const s of list) {
    num += (s.minute - mx) * (s.rss - my);
    den += (s.minute - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const curve = samples.filter((_, i) => i % Math.max(1, Math.floor(samples.length / 12)) === 0 || i === samples.length - 1);
const rssAtWarm = after[0]?.rss ?? NaN;
const rssAtEnd = samples.at(-1)!.rss;
const heapRows = (): string[] => {
  if (heaps === null) return [];
  const threads = [...largestHeaps.keys()];
  const cell = (list: readonly ThreadHeap[] | undefined, thread: string) => {
    const heap = list?.find((h) => h.thread === thread);
    return heap === undefined ? '–' : `${heap.heapTotal.toFixed(0)} / ${heap.heapUsed.toFixed(0)} / ${heap.external.toFixed(0)}`;
  };
  return [
    '',
    'The V8 heap of each thread (`v8.getHeapStatistics()` through the inspector: heap taken from the system / used / external, in MiB):',
    '',
    '| Thread | At the start | After the warm-up | At the end | Largest heap taken |',
    '|---|---:|---:|---:|---:|',
    ...threads.map(
      (thread) =>
        `| ${thread} | ${cell(heapsAt.start, thread)} | ${cell(heapsAt.warm, thread)} | ${cell(heapsAt.end, thread)} | ${cell([largestHeaps.get(thread)!], thread)} |`,
    ),
    `| all threads | ${sumCell(heapsAt.start)} | ${sumCell(heapsAt.warm)} | ${sumCell(heapsAt.end)} | |`,
  ];
};
function sumCell(list: readonly ThreadHeap[] | undefined): string {
  if (list === undefined) return '–';
  const sum = (key: 'heapTotal' | 'heapUsed' | 'external') => list.reduce((total, heap) => total + heap[key], 0).toFixed(0);
  return `${sum('heapTotal')} / ${sum('heapUsed')} / ${sum('external')}`;
}
const body = [
  machineMarkdown(machine),
  '',
  `\`major-vault serve\` on obsidian-help (PGlite, index built beforehand), one client over HTTP calling without pause for ${minutes} min: ` +
    `${done} calls, mixed (reads, plain and regex searches, lists, trees, note histories and blame, history searches, references, ` +
    `base views of a .base added over the notes, edits and moves of one note). VmRSS of the server process every ${sampleMs / 1000} s` +
    `${heaps === null ? '' : ', and the V8 heap of each of its threads (the server runs with `--inspect`)'}.`,
  '',
  '| Measure | Value | Goal | |',
  '|---|---|---|---|',
  `| RSS at the start (first tools/list answered); after the warm-up (${warmUpMinutes.toFixed(1)} min); at the end | ${mib(samples[0]!.rss)}; ${mib(rssAtWarm)}; ${mib(rssAtEnd)} | | |`,
  `| RSS after the warm-up (mean of the first third) | ${mib(firstThird)} | | |`,
  `| RSS at the end (mean of the last third) | ${mib(lastThird)} | ≤ ${goalMiB} MiB, flat | ${lastThird <= goalMiB && flat ? 'met' : 'not met'} |`,
  `| Highest sample; peak (VmHWM) | ${mib(highest)}; ${mib(peak)} | ≤ ${goalMiB} MiB | ${peak <= goalMiB ? 'met' : 'not met'} |`,
  `| Trend after the warm-up (least squares) | ${slope >= 0 ? '+' : ''}${slope.toFixed(2)} MiB/min | flat | ${flat ? 'flat (within 5 %)' : 'growing'} |`,
  ...heapRows(),
  '',
  `The curve (minute: MiB): ${curve.map((s) => `${s.minute.toFixed(1)}: ${s.rss.toFixed(0)}`).join(', ')}.`,
  '',
  `Calls (errors): ${[...counts].map(([name, c]) => `${name} ${c.calls} (${c.errors})`).join(', ')}.`,
].join('\n');
console.log(body);
writeResultsSection('Memory over a long session (issue 14)', body);
