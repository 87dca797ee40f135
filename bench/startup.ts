// Start-up benchmark of issue 14 on obsidian-help, index already built: from starting
// `major-vault serve` to the first `tools/list` over HTTP, and from starting `major-vault
// stdio` (as a client starts it) to its first `tools/list` and its first tool answer. Medians
// of a few runs; writes "Start-up (issue 14)" in bench/RESULTS.md.
//
//   node bin/run-ts.js bench/startup.ts      (BENCH_STARTUP_RUNS, default 5; BENCH_STARTUP_DIR, default bench/checkouts/startup)
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';
import { cli, corpusFolder, log, median, root, serverEnv, startServe } from './serve-process.ts';

const runs = Number(process.env['BENCH_STARTUP_RUNS'] ?? 5);
const dir = process.env['BENCH_STARTUP_DIR'] ?? join(root, 'bench', 'checkouts', 'startup');
const repo = 'obsidian-help';
const goals = { httpListMs: 500, stdioCallMs: 1000 };
const firstCall = { name: 'read_note', arguments: { repo, path: 'en/Home.md' } };

const machine = describeMachine(root);
corpusFolder(dir, repo);

interface HttpRun {
  listening: number;
  list: number;
  call: number;
}
interface StdioRun {
  initialize: number;
  list: number;
  call: number;
}

async function httpRun(): Promise<HttpRun> {
  const started = performance.now();
  const served = await startServe(dir, started);
  const client = new Client({ name: 'bench-startup', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(served.url));
    await client.listTools();
    const list = performance.now() - started;
    const answer = await client.callTool(firstCall);
    if (answer.isError) throw new Error(`read_note answered an error: ${JSON.stringify(answer.content)}`);
    return { listening: served.listeningMs, list, call: performance.now() - started };
  } finally {
    await client.close();
    await served.stop();
  }
}

async function stdioRun(): Promise<StdioRun> {
  const started = performance.now();
  const client = new Client({ name: 'bench-startup', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'stdio', '--repos', dir],
    env: serverEnv as Record<string, string>,
    stderr: 'inherit',
  });
  try {
    await client.connect(transport);
    const initialize = performance.now() - started;
    await client.listTools();
    const list = performance.now() - started;
    const answer = await client.callTool(firstCall);
    if (answer.isError) throw new Error(`read_note answered an error: ${JSON.stringify(answer.content)}`);
    return { initialize, list, call: performance.now() - started };
  } finally {
    await client.close();
  }
}

const http: HttpRun[] = [];
const stdio: StdioRun[] = [];
for (let i = 0; i < runs; i++) {
  // Alternated, so the machine's load falls on both alike.
  http.push(await httpRun());
  stdio.push(await stdioRun());
  log(`run ${i + 1}/${runs}: http ${JSON.stringify(http.at(-1))}, stdio ${JSON.stringify(stdio.at(-1))}`);
}

const ms = (value: number) => `${Math.round(value)} ms`;
const of = <T>(list: T[], pick: (run: T) => number) => median(list.map(pick));
const verdict = (ok: boolean) => (ok ? 'met' : 'not met');
const body = [
  machineMarkdown(machine),
  '',
  `obsidian-help (6,289 files), index already built (PGlite); medians of ${runs} runs, HTTP and stdio alternated. ` +
    'Times from spawning the process (`node bin/major-vault.js …`, Node 22, as the README runs it).',
  '',
  '| Measure | Median | Goal | |',
  '|---|---|---|---|',
  `| \`serve\`: listening (address printed) | ${ms(of(http, (r) => r.listening))} | | |`,
  `| \`serve\`: first \`tools/list\` over HTTP | ${ms(of(http, (r) => r.list))} | ≤ ${ms(goals.httpListMs)} | ${verdict(of(http, (r) => r.list) <= goals.httpListMs)} |`,
  `| \`serve\`: first tool answer (\`read_note\`) over HTTP | ${ms(of(http, (r) => r.call))} | | |`,
  `| \`stdio\`: \`initialize\` answered | ${ms(of(stdio, (r) => r.initialize))} | | |`,
  `| \`stdio\`: first \`tools/list\` | ${ms(of(stdio, (r) => r.list))} | | |`,
  `| \`stdio\`: first tool answer (\`read_note\`) | ${ms(of(stdio, (r) => r.call))} | ≤ ${ms(goals.stdioCallMs)} | ${verdict(of(stdio, (r) => r.call) <= goals.stdioCallMs)} |`,
  '',
  "Both answer `initialize` and `tools/list` from the repositories' `.vault/` read from Git before the index is open; " +
    'a tool call waits for PGlite to open and for the startup check of each repository (nothing to re-index here). ' +
    'PGlite starts opening on its own thread as soon as the command line is read, while the main thread loads the modules ' +
    "(their compiled code and type-stripped text kept between starts beside Node's compile cache; each command loads only its own). " +
    `Loading the modules is most of what is left: \`serve\` listens after ${ms(of(http, (r) => r.listening))}; ` +
    'the first answers read only `.vault/` from Git (a status limited to it), and the status of the 6,289-file work tree and ' +
    'its watch come with the startup check, before the first tool answer; `serve` begins that check on the first tool call ' +
    '(or a second after listening), not beside its first `initialize` and `tools/list`.',
].join('\n');
console.log(body);
writeResultsSection('Start-up (issue 14)', body);
