// Benchmarks the write tools: edit_note as a local commit (goal: p50 ≤ 100 ms) and move_note
// with 100 links to rewrite, on a generated repository and on obsidian-help. Prints a
// Markdown table and writes the "Writes" section of bench/RESULTS.md.
// Run: node bin/run-ts.js bench/writes.ts [runs]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { defaultVaultConfig } from '../src/config/load-vault-config.ts';
import { Installation } from '../src/instance/installation.ts';
import type { ToolContext, Tool } from '../src/instance/tool.ts';
import { editNote } from '../src/instance/tools/edit-note.ts';
import { moveNote } from '../src/instance/tools/move-note.ts';
import { syncRepo } from '../src/note-index/indexer.ts';
import { migrate } from '../src/note-index/migrate.ts';
import type { NoteIndex } from '../src/note-index/note-index.ts';
import { openPglite } from '../src/note-index/pglite-client.ts';
import { LocalRepoHost } from '../src/repo-host/local/local-repo-host.ts';
import type { Person } from '../src/repo-host/person.ts';
import { makeRepo } from '../test/support/git-fixture.ts';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';
import { silentLogger } from '../src/instance/log.ts';

const runs = Number(process.argv[2] ?? 21);
const person: Person = { login: 'bench', name: 'Bench', email: 'bench@example.com' };
const work = join(import.meta.dirname, 'checkouts', 'writes');
rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'repos'), { recursive: true });

/** A generated repository: `target.md`, 100 notes linking to it (wiki, embed, Markdown), 400 others. */
function generated(): Record<string, string> {
  const files: Record<string, string> = { 'topics/target.md': '# Target\n\n## Part\n\nText. ^b1\n' };
  for (let i = 0; i < 100; i++) {
    const link = [`[[target]]`, `[[topics/target|the target]]`, `![[target#^b1]]`, `[t](../topics/target.md#Part)`][i % 4];
    files[`linking/note-${i}.md`] = `---\ntitle: Note ${i}\n---\n# Note ${i}\n\nSee ${link} for more.\n\n- item ${i}: open\n`;
  }
  for (let i = 0; i < 400; i++) files[`other/o-${i}.md`] = `# Other ${i}\n\nNothing links here. [[note-${i % 100}]]\n`;
  return files;
}

const call = <I extends z.ZodRawShape, O extends z.ZodRawShape>(tool: Tool<I, O>, args: Record<string, unknown>, ctx: ToolContext) =>
  tool.handler(tool.input(z.string()).parse(args), ctx);

/** p50 and p90 of `times` in milliseconds. */
function percentiles(times: number[]): [number, number] {
  const sorted = [...times].sort((a, b) => a - b);
  return [sorted[Math.floor((sorted.length - 1) * 0.5)]!, sorted[Math.floor((sorted.length - 1) * 0.9)]!];
}

async function measure(task: (i: number) => Promise<unknown>): Promise<[number, number]> {
  await task(-1);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task(i);
    times.push(performance.now() - start);
  }
  return percentiles(times);
}

const rows: string[] = [];
const row = (name: string, [p50, p90]: [number, number], goal: string) =>
  rows.push(`| ${name} | ${p50.toFixed(1)} | ${p90.toFixed(1)} | ${goal} |`);

// 1. Without an index in the process: the write flow alone (snapshot, prepare, commit). Run
// first because every child process costs more once PGlite's heap is in the process (a fork
// of a ~500 MB process: about 12 ms per git call instead of 4 on this machine).
makeRepo(join(work, 'repos', 'gen'), [{ files: generated(), message: 'Generated notes' }]);
const host = new LocalRepoHost({ reposDir: join(work, 'repos'), as: person });
const bare = (repo: string, repoHost: LocalRepoHost = host): ToolContext => ({
  access: { person, read: new Set([repo]), write: new Set([repo]) },
  vaults: new Map([[repo, { name: repo, head: null, config: defaultVaultConfig(), canWrite: true }]]),
  index: {} as NoteIndex,
  host: repoHost,
  clientName: 'bench',
  refresh: async () => undefined,
  log: silentLogger(),
});
/** Edits line `item n` of a generated note, back and forth. */
const toggles = new Map<number, boolean>();
const toggle = async (i: number, ctx: ToolContext) => {
  const n = (i + 100) % 100;
  const done = toggles.get(n) ?? false;
  toggles.set(n, !done);
  const [from, to] = done ? ['done', 'open'] : ['open', 'done'];
  await call(
    editNote,
    { repo: 'gen', path: `linking/note-${n}.md`, old_text: `item ${n}: ${from}`, new_text: `item ${n}: ${to}`, summary: 'Bench edit' },
    ctx,
  );
};
let at = 'topics/target.md';
const moveTarget = async (ctx: ToolContext) => {
  const to = at === 'topics/target.md' ? 'archive/Target renamed.md' : 'topics/target.md';
  const answer = await call(moveNote, { repo: 'gen', from: at, to, summary: 'Bench move' }, ctx);
  if (answer.links !== 100) throw new Error(`expected 100 links rewritten, got ${answer.links}`);
  at = to;
};
row('edit_note, 500-note repository, commit only', await measure((i) => toggle(i, bare('gen'))), '≤ 100 ms (p50)');
row('move_note with 100 links, 500-note repository, commit only', await measure(() => moveTarget(bare('gen'))), 'a few hundred ms');

// 2. obsidian-help (6,289 notes), commit only: the index's sync has its own benchmark.
const bundle = join(import.meta.dirname, '..', '..', 'shared', 'corpora', 'obsidian-help.bundle');
if (existsSync(bundle)) {
  // In a folder of its own, so the installation below does not index it.
  execFileSync('git', ['clone', '-q', bundle, join(work, 'help-repos', 'help')]);
  const helpHost = new LocalRepoHost({ reposDir: join(work, 'help-repos'), as: person });
  const helpCtx = bare('help', helpHost);
  const note = 'en/Obsidian/Credits.md';
  let marked = false;
  row(
    'edit_note, obsidian-help (6,289 notes), commit only',
    await measure(async () => {
      marked = !marked;
      const [from, to] = marked ? ['permalink: credits', 'permalink: credits-b'] : ['permalink: credits-b', 'permalink: credits'];
      await call(editNote, { repo: 'help', path: note, old_text: `${from}\n`, new_text: `${to}\n`, summary: 'Bench edit' }, helpCtx);
    }),
    '≤ 100 ms (p50)',
  );
  let place = 'en/Linking notes and files/Internal links.md';
  const home = place;
  let links = 0;
  row(
    'move_note of "Internal links" (most linked-to), obsidian-help, commit only',
    await measure(async () => {
      const to = place === home ? 'en/Moved/Internal links (moved).md' : home;
      links = (await call(moveNote, { repo: 'help', from: place, to, summary: 'Bench move' }, helpCtx)).links;
      place = to;
    }),
    'a few hundred ms',
  );
  rows[rows.length - 1] = rows[rows.length - 1]!.replace('most linked-to', `most linked-to, ${links} links`);
  await helpHost.close();
}

// 3. The whole flow: installation, PGlite index, each commit put into the index from its own files.
const sql = await openPglite(null);
await migrate(sql);
const installation = Installation.open({ name: 'bench', host, sql, log: silentLogger() });
await installation.start({ poll: false });
const ctx = await installation.contextFor({ person, read: new Set(['gen']), write: new Set(['gen']) }, 'bench');
row('edit_note, 500-note repository, commit + index update (PGlite in process)', await measure((i) => toggle(i, ctx)), '≤ 100 ms (p50)');
row(
  'move_note with 100 links, 500-note repository, commit + index update (PGlite in process)',
  await measure(() => moveTarget(ctx)),
  'a few hundred ms',
);
// 20 edit_note calls at once, each on its own note (issue 4 tester: "20 simultaneous edits
// took 15.4 s"): wall time until the last answer, over 3 rounds.
const simultaneous = async (context: ToolContext): Promise<[number, number]> => {
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    await Promise.all(Array.from({ length: 20 }, (_, k) => toggle(round * 20 + k, context)));
    rounds.push(performance.now() - start);
  }
  return percentiles(rounds);
};
row(
  '20 simultaneous edit_note calls (20 notes), 500-note repository, commit + index update, until the last answer',
  await simultaneous(ctx),
  '~2 s',
);

// The index took each commit from its own files (applyCommittedFiles): a full sync must find
// nothing left to do.
const reconcile = await syncRepo(sql, host, 'gen');
if (reconcile.changed !== 0 || reconcile.removed !== 0)
  throw new Error(`the sync after the tools' commits found ${reconcile.changed} changed, ${reconcile.removed} removed files`);
await installation.close();
await sql.close();
await host.close();

const table = [
  `Writes (${runs} runs each after one warm-up, wall time in ms)`,
  '',
  '| Case | p50 | p90 | Goal |',
  '|---|---:|---:|---|',
  ...rows,
].join('\n');
console.log(table);
writeResultsSection('Writes', `${table}\n\n${machineMarkdown(describeMachine(join(import.meta.dirname, '..')))}`);
