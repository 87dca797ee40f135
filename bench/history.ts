// Benchmarks the history tools on obsidian-help against the same git commands run directly:
// search_history (pickaxe) vs `git log -S`, note_history list vs `git log --follow`, blame vs
// `git blame`. Prints a Markdown table of medians and ratios (goal: at most 1.2×).
// Run: node bin/run-ts.js bench/history.ts [runs] [part of a case's name, to run only those]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { defaultVaultConfig } from '../src/config/load-vault-config.ts';
import type { ToolContext } from '../src/instance/tool.ts';
import { noteHistory } from '../src/instance/tools/note-history.ts';
import { searchHistory } from '../src/instance/tools/search-history.ts';
import { forgetNoteLists } from '../src/repo-host/git/history/note-log.ts';
import { forgetSearches } from '../src/repo-host/git/history/search-commits.ts';
import { describeMachine, machineMarkdown } from './machine.ts';
import { writeResultsSection } from './results-section.ts';
import type { NoteIndex } from '../src/note-index/note-index.ts';
import { runGit } from '../src/repo-host/git/run-git.ts';
import { LocalRepoHost } from '../src/repo-host/local/local-repo-host.ts';
import { silentLogger } from '../src/instance/log.ts';

const runs = Number(process.argv[2] ?? 9);
const only = process.argv[3];
const bundle = join(import.meta.dirname, '..', '..', 'shared', 'corpora', 'obsidian-help.bundle');
const reposDir = join(import.meta.dirname, 'checkouts', 'history');
const repoDir = join(reposDir, 'help');
if (!existsSync(bundle)) {
  console.error(`No corpus at ${bundle}: nothing to measure.`);
  process.exit(1);
}
if (!existsSync(repoDir)) {
  mkdirSync(reposDir, { recursive: true });
  execFileSync('git', ['clone', '-q', bundle, repoDir]);
}
// The commit-graph the server keeps for each repository (src/repo-host/local/commit-graph.ts),
// written before timing: git run directly reads it as well.
execFileSync('git', ['commit-graph', 'write', '--reachable', '--changed-paths', '--split', '--no-progress'], { cwd: repoDir });

// The history tools answer from Git alone: a context without the index, everything readable.
const host = new LocalRepoHost({ reposDir });
const ctx: ToolContext = {
  access: { person: { login: 'bench', name: 'Bench', email: 'bench@example.com' }, read: new Set(['help']), write: new Set() },
  vaults: new Map([['help', { name: 'help', head: null, config: defaultVaultConfig(), canWrite: false }]]),
  index: {} as NoteIndex,
  host,
  clientName: 'bench',
  refresh: async () => {},
  log: silentLogger(),
};
// The input schemas are built once, as the server builds them once for its tools/list.
const historyInput = noteHistory.input(z.string());
const searchInput = searchHistory.input(z.string());
const history = (args: Record<string, unknown>) => noteHistory.handler(historyInput.parse({ repo: 'help', ...args }), ctx);
const search = (args: Record<string, unknown>) => searchHistory.handler(searchInput.parse({ repo: 'help', ...args }), ctx);
const git = (args: string[]) => runGit(args, { gitDir: join(repoDir, '.git'), workTree: repoDir, cwd: repoDir });

/**
 * Median wall times of `ours` and `theirs` in milliseconds over `runs` runs each, after one
 * warm-up, taken in turns so that both see the same load on the machine.
 */
async function medians(ours: () => Promise<unknown>, theirs: () => Promise<unknown>): Promise<[number, number]> {
  await ours();
  await theirs();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i += 1) {
    for (const [slot, task] of [ours, theirs].entries()) {
      const start = performance.now();
      await task();
      times[slot as 0 | 1].push(performance.now() - start);
    }
  }
  const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
  return [median(times[0]), median(times[1])];
}

/**
 * Runs `task` with nothing kept from earlier searches, and stops what it left reading ahead
 * (so the git command measured next has the machine to itself): a search from cold.
 */
async function cold(task: () => Promise<unknown>): Promise<void> {
  forgetSearches();
  forgetNoteLists();
  await task();
  forgetSearches();
  forgetNoteLists();
}

const longLived = 'en/Editing and formatting/Properties.md';
const mostEdited = 'en/Obsidian/Credits.md';
const rare = 'Lightning-fast';
const common = 'Obsidian Sync';

const cases: { name: string; ours: () => Promise<unknown>; git: () => Promise<unknown>; against: string }[] = [
  {
    name: `search_history text "${rare}" (whole history, few matches)`,
    ours: () => cold(() => search({ text: rare, limit: 50 })),
    git: () => git(['log', `-S${rare}`, '--regexp-ignore-case', '--format=%H']),
    against: `git log -S"${rare}" -i`,
  },
  {
    name: `search_history text "${common}", first page of 20`,
    ours: () => cold(() => search({ text: common, limit: 20 })),
    git: () => git(['log', `-S${common}`, '--regexp-ignore-case', '--format=%H', '-n', '21']),
    against: `git log -S"${common}" -i -n 21`,
  },
  {
    name: `search_history text "${common}", whole history, every page from the scan an earlier run kept`,
    ours: async () => {
      for (let offset = 0; ; offset += 50) if (!(await search({ text: common, limit: 50, offset })).hasMore) break;
    },
    git: () => git(['log', `-S${common}`, '--regexp-ignore-case', '--format=%H']),
    against: `git log -S"${common}" -i`,
  },
  {
    name: `search_history text "${common}", whole history, nothing kept from earlier runs`,
    ours: () =>
      cold(async () => {
        for (let offset = 0; ; offset += 50) if (!(await search({ text: common, limit: 50, offset })).hasMore) break;
      }),
    git: () => git(['log', `-S${common}`, '--regexp-ignore-case', '--format=%H']),
    against: `git log -S"${common}" -i`,
  },
  {
    name: `note_history list, ${longLived} (renamed once)`,
    ours: () => cold(() => history({ path: longLived })),
    git: () => git(['log', '--follow', '--format=%H %cI %an %s', '--numstat', '--', longLived]),
    against: 'git log --follow --numstat',
  },
  {
    name: `note_history list, every page of 10, ${longLived}`,
    ours: () =>
      cold(async () => {
        for (let offset = 0; ; offset += 10) if (!(await history({ path: longLived, limit: 10, offset })).hasMore) break;
      }),
    git: () => git(['log', '--follow', '--format=%H %cI %an %s', '--numstat', '--', longLived]),
    against: 'git log --follow --numstat',
  },
  {
    name: `note_history list, ${mostEdited} (65 commits)`,
    ours: () => cold(() => history({ path: mostEdited })),
    git: () => git(['log', '--follow', '--format=%H %cI %an %s', '--numstat', '--', mostEdited]),
    against: 'git log --follow --numstat',
  },
  {
    name: `note_history blame, ${longLived}`,
    ours: () => history({ path: longLived, blame: true }),
    git: () => git(['blame', '--porcelain', '--', longLived]),
    against: 'git blame --porcelain',
  },
  {
    name: `note_history blame, ${longLived}, same -M -C`,
    ours: () => history({ path: longLived, blame: true }),
    git: () => git(['blame', '--porcelain', '-M', '-C', '--', longLived]),
    against: 'git blame --porcelain -M -C',
  },
  {
    name: `note_history blame, ${mostEdited}`,
    ours: () => history({ path: mostEdited, blame: true }),
    git: () => git(['blame', '--porcelain', '--', mostEdited]),
    against: 'git blame --porcelain',
  },
  {
    name: `note_history blame, ${mostEdited}, same -M -C`,
    ours: () => history({ path: mostEdited, blame: true }),
    git: () => git(['blame', '--porcelain', '-M', '-C', '--', mostEdited]),
    against: 'git blame --porcelain -M -C',
  },
];

const machine = describeMachine(join(import.meta.dirname, '..'));
const rows: string[] = [];
for (const c of cases.filter((c) => only === undefined || c.name.includes(only))) {
  const [ours, theirs] = await medians(c.ours, c.git);
  rows.push(`| ${c.name} | ${ours.toFixed(1)} | ${c.against} | ${theirs.toFixed(1)} | ${(ours / theirs).toFixed(2)}× |`);
}
const table = ['| Case | Major Vault | Git run directly | Git | Ratio |', '|---|---:|---|---:|---:|', ...rows].join('\n');
console.log(`History on obsidian-help (${runs} runs each, medians in ms)\n`);
console.log(table);
await host.close();
if (only === undefined) {
  writeResultsSection(
    'History (issue 3)',
    [
      `Measured by \`node bin/run-ts.js bench/history.ts ${runs}\` on obsidian-help (2,613 commits): each case ${runs} times after one warm-up, Major Vault's tool handler (in process, LocalRepoHost, no index; arguments parsed by the tool's input schema, built once as the server builds it; no MCP round trip) and the git command (spawned the same way, through runGit) in turns; medians in ms. Goal: at most 1.2× git.`,
      table,
      [
        'The repository has the commit-graph the server keeps (`git commit-graph write --reachable --changed-paths --split`, written before timing); git run directly reads it too. Every row is measured from cold (nothing kept from an earlier run, and whatever a run left reading ahead stopped before git is timed), but for the row that says otherwise.',
        'search_history: the first page of 20 answers as soon as 21 commits are found; git run directly stops there too (`-n 21`). "Whole history": six calls of 50, paging through all 263 matches; the walk of the first call reads on ahead at low priority once its page is answered, so the later calls mostly take what it found. "Every page from the scan an earlier run kept": the same six calls, a second time. Over the whole repository the pickaxe walks with `--no-renames`, then pairs renames in the commits it printed that matched an added or deleted file, so the commits found are those `git log -S` finds with renames. What git run directly does not do: files_total (every visible file of each listed commit, renames paired: `git diff-tree -M`, which the rename check reuses), lines added and removed (`--numstat` of the matching files), and whether each listed file gained or lost the text (its old and new blobs counted).',
        'note_history list: one `git log --follow --raw --numstat` over the whole history, and for a renamed note one `git log --full-history <rename>..HEAD -- <old name>` (the edits `--follow` misses on branches merged after a rename), started when the rename is read. Credits.md was renamed in its second-oldest commit, so that second run starts only once `--follow` is nearly done and its few milliseconds add up. "Every page of 10": five calls; the first reads the whole list and keeps it, the next four take their slice of it.',
        'Blame runs `git blame --porcelain -M -C`: lines moved within the note or moved or copied from another file changed in the same commit keep their author, so a commit that only carried lines (a move, a split of a note) never takes the blame for them, as the issue asks. Copy detection needs the whole diff of every commit that brought lines into the note, so Git cannot use its changed-path filters for it; plain `git blame` can, and with the commit-graph it runs twice as fast as `-M -C`. The rows marked "same -M -C" compare like with like.',
      ].join('\n\n'),
      machineMarkdown(machine),
    ].join('\n\n'),
  );
}
