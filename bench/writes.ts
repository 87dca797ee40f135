// Benchmarks the write tools against Git doing the same change by hand, in the same run:
// - move_note of a note with many links (commit + index update, PGlite in process) vs
//   `git mv` + writing the same link edits + `git add` + `git commit` in a clone;
// - edit_note over HTTP (the MCP SDK's client, Streamable HTTP, `major-vault serve` on a built
//   index) vs writing the file + `git commit` in a clone;
// - edit_note in process, commit only, and 20 simultaneous edits (issue 4's figures);
// on a generated 500-note repository and on obsidian-help. Prints a Markdown table and writes
// the "Writes" section of bench/RESULTS.md. Goal (issue 14): each ratio ≤ 1.5.
// Run: node bin/run-ts.js bench/writes.ts [runs]
// BENCH_WRITES=edit measures only edit_note over HTTP, BENCH_WRITES=move only the two moves
// (both leave bench/RESULTS.md alone);
// BENCH_CPU_PROF=<folder> runs the servers under `node --cpu-prof` and leaves their profiles there.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { defaultVaultConfig } from '../src/config/load-vault-config.ts';
import { Installation } from '../src/instance/installation.ts';
import type { ToolContext, Tool } from '../src/instance/tool.ts';
import { editNote } from '../src/instance/tools/edit-note.ts';
import { moveNote } from '../src/instance/tools/move-note.ts';
import { migrate } from '../src/note-index/migrate.ts';
import type { NoteIndex } from '../src/note-index/note-index.ts';
import { openPglite } from '../src/note-index/pglite-client.ts';
import { LocalRepoHost } from '../src/repo-host/local/local-repo-host.ts';
import type { Person } from '../src/repo-host/person.ts';
import { makeRepo } from '../test/support/git-fixture.ts';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';
import { silentLogger } from '../src/instance/log.ts';

const runs = Number(process.argv[2] ?? 11);
const person: Person = { login: 'bench', name: 'Bench', email: 'bench@example.com' };
const root = join(import.meta.dirname, '..');
const cli = join(root, 'bin', 'major-vault.js');
const work = join(import.meta.dirname, 'checkouts', 'writes');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
/** The environment of the server: without DATABASE_URL, so it keeps its index in PGlite. */
const serverEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'DATABASE_URL'));
/** Only edit_note over HTTP (BENCH_WRITES=edit): a partial run, which does not write bench/RESULTS.md. */
const editOnly = process.env['BENCH_WRITES'] === 'edit';
/** Only the two move_note cases (BENCH_WRITES=move): a partial run, which does not write bench/RESULTS.md. */
const moveOnly = process.env['BENCH_WRITES'] === 'move';
const profileDir = process.env['BENCH_CPU_PROF'];
const loadAtStart = execFileSync('cat', ['/proc/loadavg']).toString().split(' ').slice(0, 3).join(' / ');

/** A generated repository: `topics/target.md`, 100 notes linking to it (wiki, embed, Markdown), 400 others. */
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

const git = (dir: string, args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: dir }).toString('utf8');

/** `git` as a child process that does not block this one, as the server's own git runs. */
const gitAsync = (dir: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: dir, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args.join(' ')} exited with ${code}`))));
  });

/** p50 and p90 of `times` in milliseconds. */
function percentiles(times: number[]): [number, number] {
  const sorted = [...times].sort((a, b) => a - b);
  return [sorted[Math.floor((sorted.length - 1) * 0.5)]!, sorted[Math.floor((sorted.length - 1) * 0.9)]!];
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await task();
  return performance.now() - start;
}

async function measure(task: (i: number) => Promise<unknown>): Promise<[number, number]> {
  await task(-1);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timed(() => task(i)));
  return percentiles(times);
}

/**
 * Runs `ours(i)` and then `theirs(i)` `runs` times after one warm-up of each, in turns; the
 * medians of each and their ratio. `theirs` may look at what `ours` just did (untimed: `prepare`).
 */
async function sideBySide(
  ours: (i: number) => Promise<unknown>,
  theirs: (i: number) => Promise<unknown>,
  prepare: () => void = () => undefined,
): Promise<{ ours: number; theirs: number; ratio: number }> {
  const times: [number[], number[]] = [[], []];
  for (let i = -1; i < runs; i++) {
    const a = await timed(() => ours(i));
    prepare();
    const b = await timed(() => theirs(i));
    if (i < 0) continue;
    times[0].push(a);
    times[1].push(b);
  }
  const [a] = percentiles(times[0]);
  const [b] = percentiles(times[1]);
  return { ours: a, theirs: b, ratio: a / b };
}

const rows: string[] = [];
const row = (name: string, [p50, p90]: [number, number], goal: string) =>
  rows.push(`| ${name} | ${p50.toFixed(1)} | ${p90.toFixed(1)} | | ${goal} |`);
const ratioRow = (name: string, result: { ours: number; theirs: number; ratio: number }, against: string) =>
  rows.push(
    `| ${name} | ${result.ours.toFixed(1)} | | ${against}: ${result.theirs.toFixed(1)} | **${result.ratio.toFixed(2)}×** (goal ≤ 1.5×) |`,
  );

/**
 * move_note back and forth between `home` and `away` through `ctx` (in `dir`), side by side with
 * the same move made by hand in the clone `refDir`: `git mv`, the files the tool's commit
 * changed written with its content, `git add`, `git commit`.
 */
async function moveSideBySide(ctx: ToolContext, repo: string, dir: string, refDir: string, home: string, away: string) {
  let at = home;
  let links = 0;
  let edits = new Map<string, Buffer>();
  let refMove: [string, string] = [home, away];
  const result = await sideBySide(
    async () => {
      const to = at === home ? away : home;
      links = (await call(moveNote, { repo, from: at, to, summary: 'Bench move' }, ctx)).links;
      refMove = [at, to];
      at = to;
    },
    async () => {
      const [from, to] = refMove;
      mkdirSync(join(refDir, dirname(to)), { recursive: true });
      await gitAsync(refDir, ['mv', '--', from, to]);
      for (const [path, content] of edits) writeFileSync(join(refDir, path), content);
      await gitAsync(refDir, ['add', '--', ...edits.keys()]);
      await gitAsync(refDir, ['commit', '-q', '-m', 'Bench move']);
    },
    () => {
      // The link edits the tool committed (untimed): the files its commit changed, apart from the move itself.
      const changed = git(dir, ['diff-tree', '-r', '--no-commit-id', '--name-only', '--no-renames', '-z', 'HEAD']).split('\0');
      edits = new Map(
        changed
          .filter((path) => path !== '' && path !== refMove[0] && path !== refMove[1])
          .map((path) => [path, execFileSync('git', ['show', `HEAD:${path}`], { cwd: dir })]),
      );
    },
  );
  return { ...result, links };
}

/** Starts `major-vault serve` on `reposDir` with a fresh PGlite index (built before it answers); resolves with its address. */
async function startServer(reposDir: string, dataDir: string): Promise<{ url: URL; stop: () => Promise<void> }> {
  const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, cli, 'serve', '--repos', reposDir, '--port', '0', '--data', dataDir, '--log-level', 'warn'],
    {
      cwd: root,
      env: serverEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<URL>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const address = /Major Vault serving \S+ at (\S+)/.exec(stdout)?.[1];
      if (address) resolve(new URL(address));
    });
    child.on('exit', (code) => reject(new Error(`major-vault serve exited with ${code} before serving:\n${stdout}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * edit_note over HTTP on `note` of `repo` (the server's), line `from` ⇄ `to` back and forth,
 * side by side with the same edit by hand in the clone `refDir`: the file written, `git commit`.
 */
async function editOverHttp(client: Client, repo: string, refDir: string, note: string, from: string, to: string) {
  let flipped = false;
  let refFlipped = false;
  return sideBySide(
    async () => {
      const [a, b] = flipped ? [to, from] : [from, to];
      flipped = !flipped;
      const result = await client.callTool({
        name: 'edit_note',
        arguments: { repo, path: note, old_text: a, new_text: b, summary: 'Bench edit' },
      });
      if (result.isError) throw new Error(`edit_note answered an error: ${JSON.stringify(result.content)}`);
    },
    async () => {
      const [a, b] = refFlipped ? [to, from] : [from, to];
      refFlipped = !refFlipped;
      const path = join(refDir, note);
      writeFileSync(path, readFileSync(path, 'utf8').replace(a, b));
      await gitAsync(refDir, ['commit', '-q', '-m', 'Bench edit', '--', note]);
    },
  );
}

// 1. A generated repository of 500 notes.
const genRepos = join(work, 'gen-repos');
makeRepo(join(genRepos, 'gen'), [{ files: generated(), message: 'Generated notes' }]);
git(work, ['clone', '-q', join(genRepos, 'gen'), join(work, 'gen-ref')]);
const genHost = new LocalRepoHost({ reposDir: genRepos, as: person });
/** Without an index in the process: the write flow alone (prepare, commit). */
const bare = (repo: string, host: LocalRepoHost): ToolContext => ({
  access: { person, read: new Set([repo]), write: new Set([repo]) },
  vaults: new Map([[repo, { name: repo, head: null, config: defaultVaultConfig(), canWrite: true }]]),
  index: {} as NoteIndex,
  host,
  clientName: 'bench',
  refresh: async () => undefined,
  log: silentLogger(),
});
const toggles = new Map<number, boolean>();
/** Edits line `item n` of a generated note, back and forth. */
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
if (!editOnly) {
  if (!moveOnly)
    row('edit_note, 500-note repository, in process, commit only', await measure((i) => toggle(i, bare('gen', genHost))), '≤ 100 ms (p50)');

  const sql = await openPglite(null);
  await migrate(sql);
  const installation = Installation.open({ name: 'bench', host: genHost, sql, log: silentLogger() });
  await installation.start({ poll: false });
  const genCtx = await installation.contextFor({ person, read: new Set(['gen']), write: new Set(['gen']) }, 'bench');
  const genMove = await moveSideBySide(
    genCtx,
    'gen',
    join(genRepos, 'gen'),
    join(work, 'gen-ref'),
    'topics/target.md',
    'archive/Target renamed.md',
  );
  ratioRow(`move_note with ${genMove.links} links, 500-note repository, commit + index update`, genMove, 'git mv + edits + commit');
  // 20 edit_note calls at once, each on its own note (issue 4: "20 simultaneous edits took 15.4 s"): until the last answer, 3 rounds.
  const rounds: number[] = [];
  for (let round = 0; round < (moveOnly ? 0 : 3); round++)
    rounds.push(await timed(() => Promise.all(Array.from({ length: 20 }, (_, k) => toggle(round * 20 + k, genCtx)))));
  if (!moveOnly)
    row(
      '20 simultaneous edit_note calls (20 notes), 500-note repository, commit + index update, until the last answer',
      percentiles(rounds),
      '~2 s',
    );
  await installation.close();
  await sql.close();
  await genHost.close();
}

// edit_note over HTTP, on its own copy of the generated repository.
if (!moveOnly) {
  git(work, ['clone', '-q', join(genRepos, 'gen'), join(work, 'gen-http', 'gen')]);
  git(work, ['clone', '-q', join(genRepos, 'gen'), join(work, 'gen-http-ref')]);
  {
    const server = await startServer(join(work, 'gen-http'), join(work, 'gen-http-data'));
    const client = new Client({ name: 'bench-writes', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    const edit = await editOverHttp(
      client,
      'gen',
      join(work, 'gen-http-ref'),
      'other/o-5.md',
      'Nothing links here.',
      'Nothing links here yet.',
    );
    ratioRow('edit_note over HTTP, 500-note repository (commit + index update)', edit, 'write + git commit');
    await client.close();
    await server.stop();
  }
}

// 2. obsidian-help (6,289 notes).
const bundle = join(root, '..', 'shared', 'corpora', 'obsidian-help.bundle');
if (existsSync(bundle)) {
  const helpRepos = join(work, 'help-repos');
  git(work, ['clone', '-q', bundle, join(helpRepos, 'help')]);
  git(work, ['clone', '-q', bundle, join(work, 'help-ref')]);
  const note = 'en/Obsidian/Credits.md';
  if (!editOnly) {
    const helpHost = new LocalRepoHost({ reposDir: helpRepos, as: person });
    let marked = false;
    if (!moveOnly)
      row(
        'edit_note, obsidian-help, in process, commit only',
        await measure(async () => {
          marked = !marked;
          const [from, to] = marked ? ['permalink: credits', 'permalink: credits-b'] : ['permalink: credits-b', 'permalink: credits'];
          await call(
            editNote,
            { repo: 'help', path: note, old_text: `${from}\n`, new_text: `${to}\n`, summary: 'Bench edit' },
            bare('help', helpHost),
          );
        }),
        '≤ 100 ms (p50)',
      );
    if (marked) git(join(helpRepos, 'help'), ['reset', '-q', '--hard', 'HEAD~1']);
    const helpSql = await openPglite(null);
    await migrate(helpSql);
    const helpInstallation = Installation.open({ name: 'bench', host: helpHost, sql: helpSql, log: silentLogger() });
    await helpInstallation.start({ poll: false });
    const helpCtx = await helpInstallation.contextFor({ person, read: new Set(['help']), write: new Set(['help']) }, 'bench');
    const helpMove = await moveSideBySide(
      helpCtx,
      'help',
      join(helpRepos, 'help'),
      join(work, 'help-ref'),
      'en/Linking notes and files/Internal links.md',
      'en/Moved/Internal links (moved).md',
    );
    ratioRow(
      `move_note of "Internal links" (most linked-to, ${helpMove.links} links), obsidian-help, commit + index update`,
      helpMove,
      'git mv + edits + commit',
    );
    await helpInstallation.close();
    await helpSql.close();
    await helpHost.close();
  }

  if (!moveOnly) {
    git(work, ['clone', '-q', bundle, join(work, 'help-http', 'help')]);
    git(work, ['clone', '-q', bundle, join(work, 'help-http-ref')]);
    const server = await startServer(join(work, 'help-http'), join(work, 'help-http-data'));
    const client = new Client({ name: 'bench-writes', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    const edit = await editOverHttp(client, 'help', join(work, 'help-http-ref'), note, 'permalink: credits\n', 'permalink: credits-b\n');
    ratioRow('edit_note over HTTP, obsidian-help (commit + index update)', edit, 'write + git commit');
    await client.close();
    await server.stop();
  }
}

const table = [
  `Writes (${runs} runs each after one warm-up; wall time in ms, medians; ratios measured side by side in the same run)`,
  '',
  '| Case | Major Vault p50 | p90 | Git by hand, p50 | Ratio / goal |',
  '|---|---:|---:|---|---|',
  ...rows,
].join('\n');
console.log(table);
const notes = [
  'Git by hand runs in a clone of the same repository, spawned from this process: for move_note `git mv`, the files the tool just changed written with the same content, `git add`, `git commit`; for edit_note the file written and `git commit -- <file>`. move_note runs in process through an installation with its PGlite index (the move reads only the notes the links index names, and those changed since it was indexed), and answers after the index has the commit; edit_note over HTTP is a `tools/call` from the MCP SDK client to `major-vault serve`, answered once the index has the edit.',
  `Load average at the start: ${loadAtStart}.`,
].join('\n\n');
if (!editOnly && !moveOnly) writeResultsSection('Writes', `${table}\n\n${notes}\n\n${machineMarkdown(describeMachine(root))}`);
