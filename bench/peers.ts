// Benchmark of issue 14, side by side with two peer servers over stdio on the same
// obsidian-help checkout: `@modelcontextprotocol/server-filesystem` and `obsidian-mcp`.
// For each server: start-up (spawn to the first tools/list answer), search (their search tool
// against our search_notes, for the same words), read (one note) and memory (RSS after the
// runs). Writes its section of bench/RESULTS.md, "Peers over stdio (issue 14)".
//
//   node bin/run-ts.js bench/peers.ts [--runs 5]
//
// The peers are installed outside the project, into a scratch folder ($MV_PEERS_DIR, default
// /tmp/mv-peers) with `npm install --prefix`, never as dependencies; a peer that cannot be
// installed or started is skipped with a sentence saying why. The checkout and Major Vault's
// index are bench/clients.ts's (bench/checkouts/clients, built on its first run); obsidian-mcp
// wants an `.obsidian/app.json`, which is made there (and excluded from Git).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';

const root = join(import.meta.dirname, '..');
const repo = 'obsidian-help';
const vaultDir = join(root, 'bench', 'checkouts', 'clients', 'repos', repo);
const dataDir = join(root, 'bench', 'checkouts', 'clients', 'data');
const peersDir = process.env['MV_PEERS_DIR'] ?? '/tmp/mv-peers';
const sectionTitle = 'Peers over stdio (issue 14)';
const words = ['kanban', 'callout', 'zettelkasten'];
const notePath = 'en/Obsidian/Credits.md';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs takes a whole number of at least 1, not ${JSON.stringify(args.runs)}.`);
  process.exit(2);
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** One server under test: how to start it, and its calls for a search word and for the note. */
interface Server {
  name: string;
  command: string;
  args: string[];
  /** What its search tool is and does, for the table. */
  searchTool: string;
  search(word: string): { name: string; arguments: Record<string, unknown> };
  read: { name: string; arguments: Record<string, unknown> };
}

const ours: Server = {
  name: 'Major Vault (`major-vault stdio`, PGlite index already built)',
  command: process.execPath,
  args: [join(root, 'bin', 'major-vault.js'), 'stdio', '--repos', join(vaultDir, '..'), '--data', dataDir],
  searchTool: '`search_notes` (indexed, line matches, limit 20)',
  search: (word) => ({ name: 'search_notes', arguments: { repo, query: word } }),
  read: { name: 'read_note', arguments: { repo, path: notePath } },
};

/** The peers, when their packages are (or can be) installed in the scratch folder. */
function peers(): { servers: Server[]; skipped: string[] } {
  const skipped: string[] = [];
  const bin = (name: string) => join(peersDir, 'node_modules', '.bin', name);
  if (!existsSync(bin('mcp-server-filesystem')) || !existsSync(bin('obsidian-mcp'))) {
    log(`installing the peers into ${peersDir}`);
    try {
      mkdirSync(peersDir, { recursive: true });
      execFileSync(
        'npm',
        [
          'install',
          '--prefix',
          peersDir,
          '--no-save',
          '--no-audit',
          '--no-fund',
          '@modelcontextprotocol/server-filesystem',
          'obsidian-mcp',
        ],
        { stdio: ['ignore', 2, 2] },
      );
    } catch (error) {
      skipped.push(`The peers could not be installed into ${peersDir} (${(error as Error).message.split('\n')[0]}).`);
    }
  }
  const servers: Server[] = [];
  if (existsSync(bin('mcp-server-filesystem'))) {
    servers.push({
      name: '@modelcontextprotocol/server-filesystem',
      command: bin('mcp-server-filesystem'),
      args: [vaultDir],
      searchTool: '`search_files` (file names by glob `**/*word*`: it has no search of contents)',
      search: (word) => ({ name: 'search_files', arguments: { path: vaultDir, pattern: `**/*${word}*` } }),
      read: { name: 'read_text_file', arguments: { path: join(vaultDir, notePath) } },
    });
  } else skipped.push('@modelcontextprotocol/server-filesystem is not installed: skipped.');
  if (existsSync(bin('obsidian-mcp'))) {
    servers.push({
      name: 'obsidian-mcp',
      command: bin('obsidian-mcp'),
      args: [vaultDir],
      searchTool: '`search-vault` (contents, searchType content)',
      search: (word) => ({ name: 'search-vault', arguments: { vault: repo, query: word, searchType: 'content' } }),
      read: {
        name: 'read-note',
        arguments: { vault: repo, filename: notePath.split('/').pop(), folder: notePath.split('/').slice(0, -1).join('/') },
      },
    });
  } else skipped.push('obsidian-mcp is not installed: skipped.');
  return { servers, skipped };
}

/** obsidian-mcp refuses a folder without `.obsidian/app.json`; made once, kept out of Git. */
function ensureObsidianConfig(): void {
  const config = join(vaultDir, '.obsidian', 'app.json');
  if (existsSync(config)) return;
  mkdirSync(join(vaultDir, '.obsidian'), { recursive: true });
  writeFileSync(config, '{}\n');
  appendFileSync(join(vaultDir, '.git', 'info', 'exclude'), '.obsidian/\n');
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

function rssMiB(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

/** A connected client and how long from spawn to the tools/list answer, in ms. */
async function start(server: Server): Promise<{ client: Client; transport: StdioClientTransport; ms: number }> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: getDefaultEnvironment(),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-peers', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { client, transport, ms: performance.now() - started };
}

/** Runs `call` `runs` times: the median ms, and the size of its last answer's text. */
async function timed(client: Client, call: { name: string; arguments: Record<string, unknown> }): Promise<{ ms: number; chars: number }> {
  const times: number[] = [];
  let chars = 0;
  for (let i = 0; i < runs; i++) {
    const begun = performance.now();
    const result = await client.callTool(call);
    times.push(performance.now() - begun);
    if (result.isError) throw new Error(`${call.name} answered an error: ${JSON.stringify(result.content).slice(0, 300)}`);
    chars = JSON.stringify(result.content).length;
  }
  return { ms: median(times), chars };
}

interface Row {
  server: Server;
  startMs: number;
  search: Array<{ word: string; ms: number; chars: number }>;
  read: { ms: number; chars: number };
  rss: number;
}

// ---------------------------------------------------------------------------------------------

if (!existsSync(join(dataDir, 'index', 'PG_VERSION'))) {
  console.error('bench/peers: run bench/clients.ts first: it makes the checkout and builds the index this benchmark starts on.');
  process.exit(2);
}
ensureObsidianConfig();
const machine = describeMachine(root);
const { servers, skipped } = peers();
const rows: Row[] = [];
for (const server of [ours, ...servers]) {
  try {
    const starts: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { client, ms } = await start(server);
      starts.push(ms);
      await client.close();
    }
    const { client, transport } = await start(server);
    // Each first call once, untimed: what is read once per process is the start's, not the call's.
    for (const word of words) await client.callTool(server.search(word));
    const search = [];
    for (const word of words) search.push({ word, ...(await timed(client, server.search(word))) });
    const read = await timed(client, server.read);
    const rss = transport.pid === null ? NaN : rssMiB(transport.pid);
    await client.close();
    rows.push({ server, startMs: median(starts), search, read, rss });
    log(`${server.name}: start ${median(starts).toFixed(0)} ms, RSS ${rss.toFixed(0)} MiB`);
  } catch (error) {
    skipped.push(`${server.name} did not run: ${(error as Error).message.split('\n')[0]}`);
  }
}

const body = [
  `Measured by \`node bin/run-ts.js bench/peers.ts --runs ${runs}\` on obsidian-help (${repo}, the checkout of bench/clients.ts), ` +
    `each server spawned over stdio by the MCP SDK client: start-up is spawn to the first \`tools/list\` answer (median of ${runs} starts); ` +
    `then in one process each search word once untimed, then every call ${runs} times, medians in ms; memory is the server process's RSS after the runs.`,
  '',
  `| Server | Start to tools/list | ${words.map((word) => `search "${word}"`).join(' | ')} | read \`${notePath}\` | RSS after |`,
  `|---|---:|${words.map(() => '---:').join('|')}|---:|---:|`,
  ...rows.map(
    (row) =>
      `| ${row.server.name} | ${row.startMs.toFixed(0)} ms | ${row.search.map((s) => `${s.ms.toFixed(1)} ms`).join(' | ')} | ${row.read.ms.toFixed(1)} ms | ${row.rss.toFixed(0)} MiB |`,
  ),
  '',
  'Search tools: ' + rows.map((row) => `${row.server.name.split(' (')[0]}: ${row.server.searchTool}`).join('; ') + '.',
  ...(skipped.length > 0 ? ['', ...skipped] : []),
  '',
  machineMarkdown(machine),
].join('\n');
console.log(body);
writeResultsSection(sectionTitle, body);
