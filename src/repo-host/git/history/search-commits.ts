// Commits by text (Git's pickaxe), author, time and path, with the files each changed (spec: search_history).
import { LRUCache } from 'lru-cache';
import { byteCache, estimateBytes } from '../../../byte-cache.ts';
import type { CommitSearch, FoundCommit, FoundFile } from '../../history.ts';
import type { Mirror } from '../mirror.ts';
import { isHiddenPath } from '../../../notes/vault-path.ts';
import { gitDate } from '../../../history/local-time.ts';
import { headCommit, hiddenExcludes, literalPathspec, mirrorGit } from './mirror-git.ts';
import { occurrenceCounter, PageFiles } from './page-files.ts';
import { isSymlinkChange, LOG_FORMAT, parseDiffTree, parseLog, type FileChange, type LogCommit } from './parse-log.ts';
import { forgetCommitFiles } from './commit-files.ts';
import { PickaxeScan, type PickaxeQuery } from './pickaxe-scan.ts';

/**
 * For a text search, the {@link PageFiles} to hand to {@link findCommits} and then to
 * {@link describeCommits}, so the page's blobs are read while the walk still finds the rest
 * of the page; undefined for other searches (their page is described once it is found).
 */
export function pageFilesFor(mirror: Mirror, search: CommitSearch): PageFiles | undefined {
  return search.text === undefined ? undefined : new PageFiles(mirror, pathspecs(search.openRoots), true);
}

/**
 * One page of commits of `search` (`skip`, then at most `maxCount`), newest first, as the
 * walk gave them (for a text search, with the files that matched), before their files are
 * fetched: {@link describeCommits} does that, so a search across repositories fetches files
 * only for the commits its merged page keeps. `page` (from {@link pageFilesFor}) is handed
 * each page commit of a text search as soon as it is found.
 *
 * A text search is Git's pickaxe: `git log -z -S<text> --regexp-ignore-case --raw --numstat`
 * from the head commit (with the author and time filters, and pathspecs of `roots` unless
 * they are the whole repository, where hidden files are dropped instead: the pathspec would
 * cost the pickaxe a tenth more), read while it runs. The walk is a {@link PickaxeScan},
 * kept per repository, filters and head: it answers this page as soon as its commits are
 * printed, then reads ahead at low priority, so later pages take their commits from what it
 * found. Other searches run `git log --raw` with the filters and pathspecs (the first page
 * with `-n`, a later page over every match once, kept).
 *
 * Caller values only ever travel inside `-S…`/`--author=…` or after `--`. Returns [] for an
 * empty repository. Throws GitError when git fails.
 */
export async function findCommits(mirror: Mirror, search: CommitSearch, page?: PageFiles): Promise<LogCommit[]> {
  const walk = walkFilters(search);
  if (walk === null) return [];
  if (search.text !== undefined) {
    const inRoots = inRootsOf(search.roots);
    const onFound = page && ((commit: LogCommit) => page.add(commit, candidatesOf(commit.files, inRoots).slice(0, search.filesPerCommit)));
    try {
      return await textFind(mirror, search, search.text, walk, onFound);
    } catch (error) {
      page?.stop();
      throw error;
    }
  }
  return matchingCommits(mirror, walk, search);
}

/**
 * The page `commits` (from {@link findCommits} with the same `search`, and the same `page`
 * when one was given there) with their files:
 * listed ones, `filesTotal`, and for a text search whether each gained or lost the text. A
 * commit that changed only hidden or closed paths, or symbolic links, is left out; so is one
 * that changed nothing but such paths, or links, within the searched path.
 */
export async function describeCommits(
  mirror: Mirror,
  search: CommitSearch,
  commits: readonly LogCommit[],
  page?: PageFiles,
): Promise<FoundCommit[]> {
  if (commits.length === 0) {
    page?.stop();
    return [];
  }
  if (search.text !== undefined) return textDescribe(mirror, search, search.text, commits, page);
  return otherDescribe(mirror, search, commits);
}

/** The `git log` filters of `search` (author, case, since, until), or null when nothing can match. */
function walkFilters(search: CommitSearch): string[] | null {
  if (search.roots.length === 0) return null;
  // Git has no commit dated before 1970: a since then is no limit, an until then matches nothing.
  const since = search.since === undefined ? null : gitDate(search.since);
  const until = search.until === undefined ? null : gitDate(search.until);
  if (search.until !== undefined && until === null) return null;
  return [
    ...(search.author !== undefined ? ['--fixed-strings', `--author=${search.author}`] : []),
    ...(search.text !== undefined || search.author !== undefined ? ['--regexp-ignore-case'] : []),
    ...(since !== null ? [`--since=${since}`] : []),
    ...(until !== null ? [`--until=${until}`] : []),
  ];
}

/** Whether `path` is visible within `roots` (not hidden, in one of them). */
function inRootsOf(roots: readonly string[]): (path: string) => boolean {
  return (path) => !isHiddenPath(path) && roots.some((root) => root === '' || path === root || path.startsWith(`${root}/`));
}

/** The files of `files` within `roots` (by new or old path), symbolic links left out. */
function candidatesOf(files: readonly FileChange[], inRoots: (path: string) => boolean): FileChange[] {
  return files.filter((file) => !isSymlinkChange(file) && (inRoots(file.path) || (file.oldPath !== null && inRoots(file.oldPath))));
}

/** Text searches kept for the pages after the first, per repository and filters (each at one head). */
const KEPT_SCANS = 16;
/** A scan dropped from here (the least recently used past {@link KEPT_SCANS}, or a stale one) is retired. */
const scans = new LRUCache<string, PickaxeScan>({ max: KEPT_SCANS, dispose: (scan) => scan.retire() });

/** The scan of `query` at `head`, kept or new; a scan of an older head, or one git failed under, is retired. */
function scanOf(mirror: Mirror, head: string, query: PickaxeQuery): PickaxeScan {
  const key = JSON.stringify([mirror.gitDir, query.text, query.walk, query.where, query.visible]);
  let scan = scans.get(key);
  if (scan !== undefined && (scan.head !== head || scan.broken)) {
    scans.delete(key);
    scan = undefined;
  }
  scan ??= new PickaxeScan(mirror, head, query);
  scans.set(key, scan);
  return scan;
}

async function textFind(
  mirror: Mirror,
  search: CommitSearch,
  text: string,
  walk: string[],
  onFound?: (commit: LogCommit) => void,
): Promise<LogCommit[]> {
  const wholeRepository = search.roots.length === 1 && search.roots[0] === '';
  const head = await headCommit(mirror);
  if (head === null) return [];
  const scan = scanOf(mirror, head, {
    text,
    walk,
    where: wholeRepository ? [] : pathspecs(search.roots),
    visible: pathspecs(search.openRoots),
  });
  const wanted = search.skip + search.maxCount;
  try {
    await scan.reach(wanted, onFound && ((commit, index) => index >= search.skip && index < wanted && onFound(commit)));
  } finally {
    scan.readOn();
  }
  return scan.found.slice(search.skip, wanted);
}

async function textDescribe(
  mirror: Mirror,
  search: CommitSearch,
  text: string,
  page: readonly LogCommit[],
  started?: PageFiles,
): Promise<FoundCommit[]> {
  const inRoots = inRootsOf(search.roots);
  // The scan fetched every page commit's files already (kept per commit): this joins them.
  const files = started ?? new PageFiles(mirror, pathspecs(search.openRoots), true);
  for (const commit of page) files.add(commit, candidatesOf(commit.files, inRoots).slice(0, search.filesPerCommit));
  const { files: changed, blobs } = await files.finish();
  const count = occurrenceCounter(text);
  const found: FoundCommit[] = [];
  for (const commit of page) {
    const every = (changed.get(commit.commit) ?? []).filter((file) => !isHiddenPath(file.path) && !isSymlinkChange(file));
    if (every.length === 0) continue; // touched only hidden or closed paths, or symbolic links: not shown at all
    const candidates = candidatesOf(commit.files, inRoots);
    const shown = candidates.slice(0, search.filesPerCommit);
    found.push({
      ...header(commit),
      files: shown.map((file) => ({ ...listedFile(file), ...textChange(file, blobs, count) })),
      filesTotal: every.length,
      filesCut: candidates.length > shown.length,
    });
  }
  return found;
}

/**
 * Whether a file the pickaxe matched gained the text (`added`) or lost it (`removed`): an
 * added file gained it and a deleted one lost it (the pickaxe matched, so its count is not
 * 0); otherwise its old and new blobs' counts tell.
 */
function textChange(
  file: FileChange,
  blobs: ReadonlyMap<string, Buffer>,
  count: (content: Buffer | undefined) => number,
): { text?: 'added' | 'removed' } {
  if (file.oldBlob === null) return file.newBlob === null ? {} : { text: 'added' };
  if (file.newBlob === null) return { text: 'removed' };
  const before = count(blobs.get(file.oldBlob));
  const after = count(blobs.get(file.newBlob));
  return after === before ? {} : { text: after > before ? 'added' : 'removed' };
}

function header(commit: LogCommit): Pick<FoundCommit, 'commit' | 'date' | 'time' | 'author' | 'subject'> {
  return { commit: commit.commit, date: commit.date, time: commit.time, author: commit.author, subject: commit.subject };
}

function listedFile(file: FileChange): FoundFile {
  return {
    path: file.path,
    ...(file.added !== undefined ? { added: file.added } : {}),
    ...(file.removed !== undefined ? { removed: file.removed } : {}),
  };
}

/** Every match of a search by author, time or path, per repository head and filters; kept for the pages after the first. */
export const COMPLETE_MATCHES_CACHE_BYTES = 4 * 1024 * 1024;
const completeMatches = byteCache<string, LogCommit[]>({
  maxBytes: COMPLETE_MATCHES_CACHE_BYTES,
  sizeOf: (commits, key) => estimateBytes(key) + estimateBytes(commits),
});

async function otherDescribe(mirror: Mirror, search: CommitSearch, log: readonly LogCommit[]): Promise<FoundCommit[]> {
  const inRoots = inRootsOf(search.roots);
  const files = new PageFiles(mirror, pathspecs(search.openRoots), false);
  for (const commit of log) files.add(commit, []);
  const { files: everyFile } = await files.finish();
  const pages = log.map((commit) => {
    const visible = (everyFile.get(commit.commit) ?? []).filter((file) => !isHiddenPath(file.path) && !isSymlinkChange(file));
    const candidates = candidatesOf(visible, inRoots);
    return { commit, visible, candidates, shown: candidates.slice(0, search.filesPerCommit) };
  });
  const lines = await lineCounts(mirror, pages);
  const found: FoundCommit[] = [];
  for (const { commit, visible, candidates, shown } of pages) {
    if (visible.length === 0) continue; // touched only hidden or closed paths, or symbolic links: not shown at all
    // Found for a path only through a symbolic link there (or a hidden path): as if it had not touched the path.
    if (candidates.length === 0) continue;
    const counted = lines.get(commit.commit);
    found.push({
      ...header(commit),
      files: shown.map((file) => listedFile({ ...file, ...pickCounts(counted?.get(file.path)) })),
      filesTotal: visible.length,
      filesCut: candidates.length > shown.length,
    });
  }
  return found;
}

function pickCounts(count: FileChange | undefined): { added?: number; removed?: number } {
  return {
    ...(count?.added !== undefined ? { added: count.added } : {}),
    ...(count?.removed !== undefined ? { removed: count.removed } : {}),
  };
}

/**
 * The commits matching `filters` in `roots`, page `skip`/`maxCount`. The first page stops
 * as soon as it has enough (`-n`); a later page finds every match once and keeps the list
 * (keyed by the head commit, so a new commit starts afresh).
 */
async function matchingCommits(mirror: Mirror, filters: string[], search: CommitSearch): Promise<LogCommit[]> {
  const head = await headCommit(mirror);
  if (head === null) return [];
  const log = ['log', '-z', LOG_FORMAT, ...filters];
  const where = [head, '--', ...pathspecs(search.roots)];
  if (search.skip === 0) return parseLog((await mirrorGit(mirror, [...log, '-n', String(search.maxCount), ...where])).stdout);
  const key = JSON.stringify([mirror.gitDir, filters, where]);
  let all = completeMatches.get(key);
  if (all === undefined) {
    all = parseLog((await mirrorGit(mirror, [...log, ...where])).stdout);
    completeMatches.set(key, all);
  }
  return all.slice(search.skip, search.skip + search.maxCount);
}

/** Lines added and removed per listed file, from one `git diff-tree --numstat` limited to those files. */
async function lineCounts(
  mirror: Mirror,
  pages: readonly { commit: LogCommit; shown: readonly FileChange[] }[],
): Promise<Map<string, Map<string, FileChange>>> {
  const commits = pages.filter((entry) => entry.shown.length > 0);
  if (commits.length === 0) return new Map();
  const paths = new Set(
    commits.flatMap((entry) =>
      entry.shown.flatMap((file) => (file.oldPath !== null && file.oldPath !== file.path ? [file.path, file.oldPath] : [file.path])),
    ),
  );
  const input =
    commits.map(({ commit }) => (commit.parents.length > 1 ? `${commit.commit} ${commit.parents[0]}` : commit.commit)).join('\n') + '\n';
  const { stdout } = await mirrorGit(
    mirror,
    ['diff-tree', '--stdin', '-z', '-r', '--root', '--numstat', '-M', '--', ...[...paths].map(literalPathspec)],
    { input },
  );
  return new Map(parseDiffTree(stdout).map((diff) => [diff.commit, new Map(diff.files.map((file) => [file.path, file]))]));
}

function pathspecs(roots: readonly string[]): string[] {
  return [...roots.map(literalPathspec), ...hiddenExcludes];
}

/** Forgets every kept scan and match list, so the next page is found from nothing (for benchmarks). */
export function forgetSearches(): void {
  for (const scan of scans.values()) scan.stop();
  scans.clear();
  forgetCommitFiles();
  completeMatches.clear();
}
