// base_view: one view of an Obsidian Bases `.base` file, rendered as a table from the
// repository's files (spec: "base_view"; semantics: src/bases/SUPPORTED.md).
import { byteCache } from '../../byte-cache.ts';
import { z } from 'zod';
import type { BaseNote } from '../../bases/base-vault.ts';
import { snapshotRows, type BaseRowsSnapshot, type RenderBaseResult, type RenderBaseTask } from '../../bases/render-base-task.ts';
import type { BaseViewPage, RenderCut } from '../../bases/render-base-view.ts';
import { assertInFolders, isHiddenPath, isInFolders, isReadable } from '../../notes/vault-path.ts';
import type { LinkTarget, NoteIndex } from '../../note-index/note-index.ts';
import { runPoolTask } from '../../pool/worker-pool.ts';
import type { RepoHost } from '../../repo-host/repo-host.ts';
import { VaultError } from '../../vault-error.ts';
import { implement } from '../tool.ts';
import { baseView as definition, output } from '../../tools/base-view.ts';
import { existingPath } from './existing-path.ts';
import { DEFAULT_MATCH_BUDGET_MS } from './match-pool.ts';
import { lookupVault } from './read-scope.ts';

/** The base_view tool (spec: "base_view"; contract: spec/acme-tools-list.json). */
export const baseView = implement(definition, {
  async handler(input, ctx) {
    const vault = await lookupVault(ctx, input.repo);
    // The spelling the repository holds: exactly as given first, then ignoring Unicode normalisation; `<repo>/<path>` understood.
    const { path } = await existingPath(ctx.host, vault.name, input.path, 'file', {
      repo: vault.name,
      lineBreaks: 'refuse',
      tool: 'base_view',
      folders: vault.config.settings.folders,
    });
    if (!path.toLowerCase().endsWith('.base')) {
      throw new VaultError(
        'bad_arguments',
        `"${path}" is not a .base file. Give the path of a table definition ending in .base, for example "projects/apollo/Overview.base".`,
        { path },
      );
    }
    const folders = vault.config.settings.folders;
    assertInFolders(path, folders);
    // A symbolic link to a hidden or closed .base reads as absent, as everywhere (isReadable).
    const entry = await ctx.host.readFileEntry(vault.name, path);
    const content = entry !== null && isReadable({ path, target: entry.target }, folders) ? entry.content : null;
    if (content === null) {
      const bases = (await ctx.index.filePaths(vault.name)).filter(
        (file) => file.toLowerCase().endsWith('.base') && isInFolders(file, folders),
      );
      const hint =
        bases.length === 0
          ? 'This repository has no .base files.'
          : `The .base files are: ${bases
              .slice(0, 20)
              .map((file) => `"${file}"`)
              .join(', ')}${bases.length > 20 ? ', …' : ''}.`;
      throw new VaultError('note_not_found', `There is no file "${path}". ${hint}`, { path, bases: bases.slice(0, 20) });
    }
    const text = content.toString('utf8');
    const rows = await baseRows(ctx.index, ctx.host, vault.name);
    // `this` when the .base file is not a row of its own.
    const context: BaseNote = { path, frontmatter: null, tags: [], links: [], embeds: [], size: content.length, ctime: null, mtime: null };
    // Evaluated on the worker pool, within the call's time budget.
    const budgetMs = ctx.matchBudgetMs ?? DEFAULT_MATCH_BUDGET_MS;
    const page = await renderOnPool({
      rows,
      folders,
      basePath: path,
      base: text,
      view: input.view ?? null,
      context,
      limit: input.limit,
      offset: input.offset,
      budgetMs,
    });
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
    if (page.problems.length > 0)
      notesText.push(`Some of the view could not be evaluated, and those cells are empty: ${page.problems.join(' ')}`);
    if (page.hasMore)
      notesText.push(
        `${page.total - page.offset - page.rows.length} more rows follow: call again with offset ${page.offset + page.rows.length}.`,
      );
    if (notesText.length > 0) answer.note = notesText.join(' ');
    return answer;
  },
});

/**
 * Renders the view on the worker pool (bases/render-base-task.ts); throws the VaultError the
 * render refused with. Not aborted by a timer: the wait covers a thread's start and calls
 * queued before it, which a loaded machine stretches to tens of seconds; the render keeps
 * its own budget, checked between rows.
 */
async function renderOnPool(task: RenderBaseTask): Promise<BaseViewPage> {
  const result = await runPoolTask<RenderBaseResult>('renderBaseView', task);
  if ('refused' in result) throw new VaultError(result.refused.code, result.refused.message, result.refused.details);
  return result.page;
}

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

/** The rows of the repositories used last, by index state, up to {@link BASE_ROWS_CACHE_BYTES} (serialized): rebuilt only when the index moved. */
export const BASE_ROWS_CACHE_BYTES = 32 * 1024 * 1024;
const rowsCache = byteCache<string, BaseRowsSnapshot>({
  maxBytes: BASE_ROWS_CACHE_BYTES,
  sizeOf: (rows) => rows.data.byteLength + 2 * rows.key.length,
});

/**
 * The rows a base sees in one repository, as a snapshot for the worker pool: every indexed
 * file (hidden files are never indexed), notes with their frontmatter, tags, links and
 * embeds from the index, other files with their size; ctime/mtime from Git; every path, for
 * link resolution. The thread keeps only those in the open folders. Built once per index
 * state (head, fingerprint, time of indexing) and kept, since reading every note's row is
 * the expensive part of a call.
 */
async function baseRows(index: NoteIndex, host: RepoHost, repo: string): Promise<BaseRowsSnapshot> {
  const [state, facts] = await Promise.all([index.repoState(repo), gitFacts(host, repo)]);
  const key = `${repo}\u0000${state?.head ?? ''}\u0000${state?.fingerprint ?? ''}\u0000${state?.indexedAt.getTime() ?? ''}\u0000${facts.head ?? ''}`;
  let rows = rowsCache.get(repo);
  if (rows === undefined || rows.key !== key || state === null) {
    rows = await buildRows(index, repo, facts, key);
    rowsCache.set(repo, rows);
  }
  return rows;
}

async function buildRows(index: NoteIndex, repo: string, facts: GitFacts, key: string): Promise<BaseRowsSnapshot> {
  const [noteRows, filePaths] = await Promise.all([index.noteRows(repo), index.filePaths(repo)]);
  const byPath = new Map(noteRows.map((row) => [row.path, row]));
  const files: BaseNote[] = [];
  for (const path of filePaths) {
    if (isHiddenPath(path)) continue;
    const times = facts.times.get(path);
    const row = byPath.get(path);
    files.push(
      row === undefined
        ? {
            path,
            frontmatter: null,
            tags: [],
            links: [],
            embeds: [],
            size: facts.sizes.get(path) ?? 0,
            ctime: times?.ctime ?? null,
            mtime: times?.mtime ?? null,
          }
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
  return snapshotRows(key, files, filePaths);
}

/** A link as the engine takes it; a same-note link (`[[#Heading]]`) names its own note. */
function linkRef(link: LinkTarget, source: string): { target: string; path: string | null } {
  return { target: link.target === '' ? source.replace(/\.md$/, '') : link.target, path: link.resolved };
}

/** Per file: first and last commit dates, and blob sizes, at one head of one repository. */
/** What base views know of a repository's files from Git at one head. */
export interface GitFacts {
  head: string | null;
  times: Map<string, { ctime: Date; mtime: Date }>;
  sizes: Map<string, number>;
}

/** The bound of {@link factsCache}, in bytes (as {@link gitFactsBytes} counts them). */
export const GIT_FACTS_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * A rough size of `facts` in V8's heap, in bytes: each path twice (2 bytes a character and a
 * header), two dates and a number, and a map slot for each (issue 14: bounded by bytes).
 */
export function gitFactsBytes(facts: GitFacts): number {
  let bytes = 64;
  for (const path of facts.times.keys()) bytes += 2 * (16 + 2 * path.length) + 3 * 32;
  for (const path of facts.sizes.keys()) bytes += 16 + 2 * path.length + 32;
  return bytes;
}

/**
 * By repository name, at most {@link GIT_FACTS_CACHE_BYTES} together (a hosted server has many
 * repositories); an entry counts only for the head it was read at (the facts are a function
 * of that commit).
 */
const factsCache = byteCache<string, GitFacts>({ maxBytes: GIT_FACTS_CACHE_BYTES, sizeOf: gitFactsBytes });

/**
 * ctime and mtime of every file (RepoHost.fileTimes: the author dates of the first and last
 * commit that touched the path; renames count as a new file), and committed blob sizes
 * (RepoHost.fileSizes), at the host's head; cached by repository and head.
 */
async function gitFacts(host: RepoHost, repo: string): Promise<GitFacts> {
  const head = await host.head(repo);
  const cached = factsCache.get(repo);
  if (cached !== undefined && cached.head === head) return cached;
  const facts: GitFacts = { head, times: new Map(), sizes: new Map() };
  if (head !== null) [facts.times, facts.sizes] = await Promise.all([host.fileTimes(repo, head), host.fileSizes(repo, head)]);
  factsCache.set(repo, facts);
  return facts;
}
