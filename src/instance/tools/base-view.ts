// base_view: one view of an Obsidian Bases `.base` file, rendered as a table from the
// repository's files (spec: "base_view"; semantics: src/bases/SUPPORTED.md).
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { BaseNote } from '../../bases/base-vault.ts';
import { renderBaseViewCooperatively, type RenderCut } from '../../bases/render-base-view.ts';
import { LinkResolver } from '../../notes/link-resolver.ts';
import { assertInFolders, isHiddenPath, isInFolders, isReadable } from '../../notes/vault-path.ts';
import type { LinkTarget, NoteIndex } from '../../note-index/note-index.ts';
import { runGit, splitNul } from '../../repo-host/git/run-git.ts';
import type { RepoHost } from '../../repo-host/repo-host.ts';
import { VaultError } from '../../vault-error.ts';
import { defineTool } from '../tool.ts';
import { existingPath } from './existing-path.ts';
import { DEFAULT_MATCH_BUDGET_MS } from './match-pool.ts';
import { lookupVault } from './read-scope.ts';

const output = z
  .object({
    path: z.string().describe('The .base file that was read.'),
    view: z.string().describe('The view that was rendered.'),
    availableViews: z.array(z.string()),
    columns: z.array(
      z
        .object({
          property: z.string().describe('The note field this column shows.'),
          label: z.string().describe('The heading, as the file names it.'),
        })
        .strict(),
    ),
    rows: z.array(
      z
        .object({
          path: z.string().describe('Path of the note, relative to the vault root.'),
          cells: z.array(z.string()),
          repo: z.string().optional(),
        })
        .strict(),
    ),
    total: z.number().describe('How many notes the view holds in all, before paging.'),
    offset: z.number().describe('How many rows were skipped before this page.'),
    hasMore: z.boolean().describe('True when more rows follow after this page.'),
    note: z.string().optional(),
    repo: z.string().optional(),
  })
  .strict();

/** The base_view tool (spec: "base_view"; contract: spec/acme-tools-list.json). */
export const baseView = defineTool({
  name: 'base_view',
  title: 'Show a table from the notes',
  description: 'Shows a table built from the notes, as a view defines it.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  input: (repo) =>
    z.object({
      path: z
        .string()
        .min(1)
        .describe('The table definition, relative to the vault root, ending in .base, for example "projects/apollo/Overview.base".'),
      view: z
        .string()
        .optional()
        .describe("Which of the file's views to show, by its name. Leave it out for the first one. A wrong name comes back with the list of names that exist."),
      limit: z.number().int().min(1).max(200).default(50).describe('How many rows to return. Fewer means a shorter answer.'),
      offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).describe('How many rows to skip. An answer with more after it names the next offset.'),
      repo,
    }),
  output,
  async handler(input, ctx) {
    const vault = await lookupVault(ctx, input.repo);
    // The spelling the repository holds: exactly as given first, then ignoring Unicode normalisation; `<repo>/<path>` understood.
    const { path } = await existingPath(ctx.host, vault.name, input.path, 'file', { repo: vault.name, lineBreaks: 'refuse', tool: 'base_view', folders: vault.config.settings.folders });
    if (!path.toLowerCase().endsWith('.base')) {
      throw new VaultError('bad_arguments', `"${path}" is not a .base file. Give the path of a table definition ending in .base, for example "projects/apollo/Overview.base".`, { path });
    }
    const folders = vault.config.settings.folders;
    assertInFolders(path, folders);
    // A symbolic link to a hidden or closed .base reads as absent, as everywhere (isReadable).
    const entry = await ctx.host.readFileEntry(vault.name, path);
    const content = entry !== null && isReadable({ path, target: entry.target }, folders) ? entry.content : null;
    if (content === null) {
      const bases = (await ctx.index.filePaths(vault.name)).filter((file) => file.toLowerCase().endsWith('.base') && isInFolders(file, folders));
      const hint = bases.length === 0 ? 'This repository has no .base files.' : `The .base files are: ${bases.slice(0, 20).map((file) => `"${file}"`).join(', ')}${bases.length > 20 ? ', …' : ''}.`;
      throw new VaultError('note_not_found', `There is no file "${path}". ${hint}`, { path, bases: bases.slice(0, 20) });
    }
    const text = content.toString('utf8');
    const { notes, resolveLink } = await baseRows(ctx.index, ctx.host, vault.name, folders);
    const context = notes.find((note) => note.path === path) ?? { path, frontmatter: null, tags: [], links: [], embeds: [], size: content.length, ctime: null, mtime: null };
    // Evaluated in slices between other calls, within the call's time budget.
    const budgetMs = ctx.matchBudgetMs ?? DEFAULT_MATCH_BUDGET_MS;
    const page = await renderBaseViewCooperatively(
      { basePath: path, base: text, view: input.view ?? null, vault: { notes, resolveLink }, context, limit: input.limit, offset: input.offset },
      { budgetMs },
    );
    const answer: z.output<typeof output> = {
      path,
      view: page.view,
      availableViews: page.availableViews,
      columns: page.columns,
      rows: page.rows,
      total: page.total,
      offset: page.offset,
      hasMore: page.hasMore,
      repo: vault.name,
    };
    const notesText: string[] = [];
    if (page.cut) notesText.push(cutRemark(page.cut, budgetMs, path));
    if (page.problems.length > 0) notesText.push(`Some of the view could not be evaluated, and those cells are empty: ${page.problems.join(' ')}`);
    if (page.hasMore) notesText.push(`${page.total - page.offset - page.rows.length} more rows follow: call again with offset ${page.offset + page.rows.length}.`);
    if (notesText.length > 0) answer.note = notesText.join(' ');
    return answer;
  },
});

/**
 * What base_view says when the view stopped at its time budget: what the rows are, and how
 * to narrow the view (a filter or a limit in the .base file) so that it fits.
 */
function cutRemark(cut: RenderCut, budgetMs: number, path: string): string {
  const budget = `${Math.round(budgetMs / 100) / 10} s`;
  const what =
    cut.phase === 'filter'
      ? `it checked only ${cut.done} of ${cut.of} files against its filters, so the rows (and total) are those found among them, in path order, not sorted or grouped`
      : cut.phase === 'sort'
        ? `it found every row but sorted none (their sort values were computed for ${cut.done} of ${cut.of}), so the rows are in path order`
        : `it found and sorted every row but did not group them (group values computed for ${cut.done} of ${cut.of})`;
  return `The view took longer than its time budget of ${budget}: ${what}. To see it whole, narrow it in "${path}": a filter that keeps fewer notes (for example file.inFolder("some/folder")) or a limit on the view, or formulas that do less per note.`;
}

/** Every indexed file of a repository as a row, with the resolver over all its paths. */
interface RepoRows {
  key: string;
  files: BaseNote[];
  resolveLink: (target: string, fromPath: string) => string | null;
}

/** The rows of the last few repositories, by index state: rebuilt only when the index moved. */
const ROWS_CACHE_REPOS = 8;
const rowsCache = new LRUCache<string, RepoRows>({ max: ROWS_CACHE_REPOS });

/**
 * The rows a base sees in one repository: every indexed file in the open folders (hidden
 * files are never indexed), notes with their frontmatter, tags, links and embeds from the
 * index, other files with their size; ctime/mtime from Git. Links resolve over every file.
 * Built once per index state (head, fingerprint, time of indexing) and kept, since reading
 * every note's row is the expensive part of a call.
 */
async function baseRows(
  index: NoteIndex,
  host: RepoHost,
  repo: string,
  folders: readonly string[],
): Promise<{ notes: BaseNote[]; resolveLink: (target: string, fromPath: string) => string | null }> {
  const [state, facts] = await Promise.all([index.repoState(repo), gitFacts(host, repo)]);
  const key = `${state?.head ?? ''}\u0000${state?.fingerprint ?? ''}\u0000${state?.indexedAt.getTime() ?? ''}\u0000${facts.head ?? ''}`;
  let rows = rowsCache.get(repo);
  if (rows === undefined || rows.key !== key || state === null) {
    rows = await buildRows(index, repo, facts, key);
    rowsCache.set(repo, rows);
  }
  return { notes: rows.files.filter((file) => isInFolders(file.path, folders)), resolveLink: rows.resolveLink };
}

async function buildRows(index: NoteIndex, repo: string, facts: GitFacts, key: string): Promise<RepoRows> {
  const [noteRows, filePaths] = await Promise.all([index.noteRows(repo), index.filePaths(repo)]);
  const resolver = new LinkResolver(filePaths);
  const byPath = new Map(noteRows.map((row) => [row.path, row]));
  const files: BaseNote[] = [];
  for (const path of filePaths) {
    if (isHiddenPath(path)) continue;
    const times = facts.times.get(path);
    const row = byPath.get(path);
    files.push(
      row === undefined
        ? { path, frontmatter: null, tags: [], links: [], embeds: [], size: facts.sizes.get(path) ?? 0, ctime: times?.ctime ?? null, mtime: times?.mtime ?? null }
        : {
            path,
            frontmatter: row.frontmatter ?? {},
            tags: row.tags,
            links: row.links.map((link) => linkRef(link, path)),
            embeds: row.embeds.map((link) => linkRef(link, path)),
            size: row.size,
            ctime: times?.ctime ?? null,
            mtime: times?.mtime ?? null,
          },
    );
  }
  return { key, files, resolveLink: (target, fromPath) => resolver.resolveTarget(target, fromPath) };
}

/** A link as the engine takes it; a same-note link (`[[#Heading]]`) names its own note. */
function linkRef(link: LinkTarget, source: string): { target: string; path: string | null } {
  return { target: link.target === '' ? source.replace(/\.md$/, '') : link.target, path: link.resolved };
}

/** Per file: first and last commit dates, and blob sizes, at one head of one repository. */
interface GitFacts {
  head: string | null;
  times: Map<string, { ctime: Date; mtime: Date }>;
  sizes: Map<string, number>;
}

const factsCache = new Map<string, GitFacts>();

/**
 * ctime and mtime of every file from one `git log --name-only` pass over the mirror (the
 * author dates of the first and last commit that touched the path; renames count as a new
 * file), and committed blob sizes from `git ls-tree -l`; cached by repository and head.
 */
async function gitFacts(host: RepoHost, repo: string): Promise<GitFacts> {
  const mirror = await host.mirror(repo);
  const headOut = await runGit(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { gitDir: mirror.gitDir, okCodes: [0, 1, 128] });
  const head = headOut.code === 0 ? headOut.stdout.toString('utf8').trim() : null;
  const key = mirror.gitDir;
  const cached = factsCache.get(key);
  if (cached !== undefined && cached.head === head) return cached;
  const facts: GitFacts = { head, times: new Map(), sizes: new Map() };
  if (head !== null) {
    const [log, tree] = await Promise.all([
      runGit(['log', '-z', '--name-only', '--no-renames', '--format=%x01%aI', head, '--'], { gitDir: mirror.gitDir }),
      runGit(['ls-tree', '-r', '-l', '-z', head], { gitDir: mirror.gitDir }),
    ]);
    let current: Date | null = null;
    for (const field of splitNul(log.stdout)) {
      if (field.startsWith('\u0001')) {
        current = new Date(field.slice(1).trim());
        continue;
      }
      const path = field.replace(/^\n/, '');
      if (path === '' || current === null) continue;
      const seen = facts.times.get(path);
      // Newest first: the first commit seen is the last change, the last one seen the creation.
      if (seen === undefined) facts.times.set(path, { ctime: current, mtime: current });
      else seen.ctime = current;
    }
    for (const entry of splitNul(tree.stdout)) {
      const tab = entry.indexOf('\t');
      const size = Number(entry.slice(0, tab).trim().split(/\s+/)[3]);
      if (tab !== -1 && Number.isFinite(size)) facts.sizes.set(entry.slice(tab + 1), size);
    }
  }
  factsCache.set(key, facts);
  return facts;
}
