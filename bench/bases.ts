// Benchmark of base_view (issue 5): the tool on a generated vault of 5,000 notes and on the
// obsidian-help corpus (6,289 files), through a real installation (LocalRepoHost, PGlite).
// Prints a Markdown table of the first call (Git times not cached yet) and the median of
// later calls, and the engine's share (renderBaseView on rows already in memory).
//
//   node bin/run-ts.js bench/bases.ts [runs]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { baseNotesFromFiles } from '../src/bases/base-notes-from-files.ts';
import { renderBaseView } from '../src/bases/render-base-view.ts';
import { Installation } from '../src/instance/installation.ts';
import type { ToolContext } from '../src/instance/tool.ts';
import { baseView } from '../src/instance/tools/base-view.ts';
import { migrate } from '../src/note-index/migrate.ts';
import { openPglite } from '../src/note-index/pglite-client.ts';
import { LocalRepoHost } from '../src/repo-host/local/local-repo-host.ts';
import { silentLogger } from '../src/instance/log.ts';

const runs = Number(process.argv[2] ?? 9);
const person = { login: 'bench', name: 'Bench', email: 'bench@example.com' };
const work = mkdtempSync(join(tmpdir(), 'mv-bench-bases-'));
const reposDir = join(work, 'repos');

const GENERATED_BASE = [
  'filters:',
  '  and:',
  '    - file.inFolder("projects")',
  '    - \'!file.name.contains("Template")\'',
  'formulas:',
  '  backlinks: file.backlinks.length',
  '  overdue: if(due < today() && status != "done", "overdue", "")',
  '  age: (now() - due).days.floor()',
  '  owners: list(owner).map(value.asFile().basename).join(", ")',
  'properties:',
  '  note.status:',
  '    displayName: Status',
  'views:',
  '  - type: table',
  '    name: Open by priority',
  '    filters:',
  '      or:',
  '        - status == "active"',
  '        - file.hasTag("urgent")',
  '    order: [file.name, status, priority, due, formula.overdue, formula.age, formula.owners, formula.backlinks]',
  '    sort:',
  '      - property: priority',
  '        direction: DESC',
  '      - property: formula.backlinks',
  '        direction: DESC',
  '      - property: due',
  '        direction: ASC',
  '  - type: table',
  '    name: Grouped',
  '    groupBy:',
  '      property: status',
  '      direction: ASC',
  '    order: [file.name, categories, file.mtime]',
].join('\n');

const HELP_BASE = [
  'filters: file.inFolder("en") && file.ext == "md"',
  'formulas:',
  '  backlinks: file.backlinks.length',
  '  words: file.size / 6',
  'views:',
  '  - type: table',
  '    name: Most linked',
  '    order: [file.name, file.folder, formula.backlinks, file.mtime, permalink]',
  '    sort:',
  '      - property: formula.backlinks',
  '        direction: DESC',
  '      - property: file.mtime',
  '        direction: DESC',
].join('\n');

function git(cwd: string, args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'ignore' });
}

/** 5,000 notes in 100 folders over 5 commits: frontmatter, wiki-links between notes, tags. */
function generateVault(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const statuses = ['active', 'done', 'paused', 'active', 'draft'];
  for (let i = 0; i < 5000; i++) {
    const path = `projects/p${String(i % 100).padStart(2, '0')}/Note ${i}.md`;
    const links = [1, 7, 31].map((step) => `[[Note ${(i * step + 13) % 5000}]]`).join(', ');
    files[path] = [
      '---',
      `status: ${statuses[i % 5]}`,
      `priority: ${i % 7}`,
      `due: 2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      `owner: "[[Person ${i % 50}]]"`,
      'categories:',
      `  - "[[Category ${i % 20}]]"`,
      `tags: [project${i % 13 === 0 ? ', urgent' : ''}]`,
      '---',
      `# Note ${i}`,
      '',
      `Related: ${links}. #topic/${i % 30}`,
      '',
    ].join('\n');
  }
  for (let i = 0; i < 50; i++) files[`people/Person ${i}.md`] = `---\nrole: member\n---\nPerson ${i}.\n`;
  files['projects/Board.base'] = GENERATED_BASE;
  const entries = Object.entries(files);
  const chunk = Math.ceil(entries.length / 5);
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  for (let c = 0; c < 5; c++) {
    for (const [path, content] of entries.slice(c * chunk, (c + 1) * chunk)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    git(dir, ['add', '-A']);
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', `Part ${c + 1}`], {
      cwd: dir,
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_DATE: `2025-0${c + 1}-01T10:00:00Z`,
        GIT_COMMITTER_DATE: `2025-0${c + 1}-01T10:00:00Z`,
      },
    });
  }
  return files;
}

async function median(task: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const generatedFiles = generateVault(join(reposDir, 'generated'));
const bundle = join(import.meta.dirname, '..', '..', 'shared', 'corpora', 'obsidian-help.bundle');
const haveHelp = existsSync(bundle);
if (haveHelp) {
  execFileSync('git', ['clone', '-q', bundle, join(reposDir, 'help')]);
  writeFileSync(join(reposDir, 'help', 'Bench.base'), HELP_BASE);
  git(join(reposDir, 'help'), ['add', 'Bench.base']);
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'Bench base'], {
    cwd: join(reposDir, 'help'),
  });
}

const host = new LocalRepoHost({ reposDir, as: person });
const sql = await openPglite(null);
await migrate(sql);
const installation = Installation.open({ name: 'bench', host, sql, log: silentLogger() });
const indexStart = performance.now();
await installation.start({ poll: false });
const indexMs = performance.now() - indexStart;
const repos = haveHelp ? ['generated', 'help'] : ['generated'];
const ctx: ToolContext = await installation.contextFor({ person, read: new Set(repos), write: new Set() }, 'bench');
const call = (args: Record<string, unknown>) => baseView.handler(baseView.input(z.string()).parse(args), ctx);

const lines = ['| Base | Rows in view | First call | Median call | Engine only |', '|---|---:|---:|---:|---:|'];
async function measure(label: string, args: Record<string, unknown>, engine: () => unknown): Promise<void> {
  const firstStart = performance.now();
  const first = await call(args);
  const firstMs = performance.now() - firstStart;
  const warm = await median(() => call(args));
  const engineMs = await median(engine);
  lines.push(`| ${label} | ${first.total} | ${firstMs.toFixed(0)} ms | ${warm.toFixed(0)} ms | ${engineMs.toFixed(0)} ms |`);
}

const generatedRows = baseNotesFromFiles(Object.entries(generatedFiles).map(([path, content]) => ({ path, content })));
for (const view of ['Open by priority', 'Grouped']) {
  await measure(`generated, 5,050 notes, "${view}"`, { repo: 'generated', path: 'projects/Board.base', view }, () =>
    renderBaseView({ basePath: 'projects/Board.base', base: GENERATED_BASE, view, vault: generatedRows }),
  );
}
if (haveHelp) {
  const helpDir = join(reposDir, 'help');
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: helpDir, encoding: 'utf8' })
    .split('\0')
    .filter((p) => p !== '' && !p.split('/').some((s) => s.startsWith('.')));
  const { readFileSync } = await import('node:fs');
  const helpRows = baseNotesFromFiles(paths.map((path) => ({ path, content: readFileSync(join(helpDir, path)) })));
  await measure(`obsidian-help, ${paths.length.toLocaleString('en')} files, "Most linked"`, { repo: 'help', path: 'Bench.base' }, () =>
    renderBaseView({ basePath: 'Bench.base', base: HELP_BASE, vault: helpRows }),
  );
}

console.log(
  `base_view, ${runs} runs each (index built once in ${(indexMs / 1000).toFixed(1)} s; first call includes the git log pass for ctime/mtime):\n`,
);
console.log(lines.join('\n'));
await installation.close();
await host.close();
await sql.close();
rmSync(work, { recursive: true, force: true });
