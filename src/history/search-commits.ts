// Commits by text (Git's pickaxe), author, time and path, with the files each changed (spec: search_history).
import { startGit } from '../repo-host/git/run-git.ts';
import type { Mirror } from '../repo-host/repo-host.ts';
import { isHiddenPath } from '../notes/vault-path.ts';
import { gitDate } from './local-time.ts';
import { headCommit, hiddenExcludes, literalPathspec, mirrorGit } from './mirror-git.ts';
import { occurrenceCounter, PageFiles } from './page-files.ts';
import { isSymlinkChange, LOG_FORMAT, LogParser, parseDiffTree, parseLog, type FileChange, type LogCommit } from './parse-log.ts';
import { streamLog } from './stream-log.ts';

/**
 * What to look for. `text`: commits that changed how often the text occurs (pickaxe
 * `-S`, literal, ASCII case ignored); `author`: part of the author's name or e-mail, taken
 * literally, case ignored; `since`/`until`: committer time in epoch seconds, both
 * inclusive. `roots`: the folders or files a commit must have changed (normalised paths,
 * `''` for the whole repository), already limited to what the caller may see; `openRoots`:
 * every visible root, for counting a commit's files. Hidden paths and symbolic links never count.
 * `skip`/`maxCount` page through the matches, newest first; `filesPerCommit` caps `files`.
 */
export interface CommitSearch {
  text?: string;
  author?: string;
  since?: number;
  until?: number;
  roots: readonly string[];
  openRoots: readonly string[];
  skip: number;
  maxCount: number;
  filesPerCommit: number;
}

/**
 * A file a found commit changed: path after the commit (a deleted file's last path),
 * lines added and removed (absent for binary files), and for a text search whether this
 * file gained (`added`) or lost (`removed`) occurrences of the text.
 */
export interface FoundFile {
  path: string;
  added?: number;
  removed?: number;
  text?: 'added' | 'removed';
}

/**
 * A found commit: hash, committer date (ISO 8601 and epoch seconds), author name, subject,
 * the files listed (for a text search those that gained or lost the text, else those
 * within `roots`; at most `filesPerCommit`), `filesTotal` (every visible file it changed)
 * and `filesCut` when more files qualified than were listed.
 */
export interface FoundCommit {
  commit: string;
  date: string;
  time: number;
  author: string;
  subject: string;
  files: FoundFile[];
  filesTotal: number;
  filesCut: boolean;
}

/**
 * Finds one page of commits (`skip`, then at most `maxCount`), newest first.
 *
 * A text search is Git's pickaxe: `git log -z -S<text> --regexp-ignore-case --raw --numstat`
 * (with the author and time filters, and pathspecs of `roots` unless they are the whole
 * repository, where hidden files are dropped here instead: the pathspec would cost the
 * pickaxe a tenth more), read while it runs and stopped by `-n` once the page is complete.
 * It gives each commit's matching files and their line counts in one pass. Each page commit
 * is handed at once, as it arrives, to one `git diff-tree --stdin -M` (every visible file,
 * for `filesTotal`) and one `git cat-file --batch` (the old and new blobs of the listed
 * files that have both, to tell a gain of the text from a loss; an added file gained it, a
 * deleted one lost it), which work beside the search. The commits found are kept per head
 * and filters: a later page takes them from there and, if it needs more, goes on from the
 * last commit looked at (`git rev-list` of the same walk, read once, fed to
 * `git log --no-walk --stdin -S…`), so paging through a long history runs the pickaxe over
 * it once. A first page reads the head only after it is answered.
 *
 * Other searches run `git log --raw` with the filters and pathspecs (the first page with
 * `-n`, a later page over every match once, kept), then `git diff-tree --stdin` for every
 * visible file of the page's commits and `--numstat` for the files listed.
 *
 * Caller values only ever travel inside `-S…`/`--author=…` or after `--`. Returns [] for an
 * empty repository. Throws GitError when git fails.
 */
export async function searchCommits(mirror: Mirror, search: CommitSearch): Promise<FoundCommit[]> {
  if (search.roots.length === 0) return [];
  // Git has no commit dated before 1970: a since then is no limit, an until then matches nothing.
  const since = search.since === undefined ? null : gitDate(search.since);
  const until = search.until === undefined ? null : gitDate(search.until);
  if (search.until !== undefined && until === null) return [];
  const walk = [
    ...(search.author !== undefined ? ['--fixed-strings', `--author=${search.author}`] : []),
    ...(search.text !== undefined || search.author !== undefined ? ['--regexp-ignore-case'] : []),
    ...(since !== null ? [`--since=${since}`] : []),
    ...(until !== null ? [`--until=${until}`] : []),
  ];
  if (search.text !== undefined) return textSearch(mirror, search, search.text, walk);
  return otherSearch(mirror, search, walk);
}

/** Whether `path` is visible within `roots` (not hidden, in one of them). */
function inRootsOf(roots: readonly string[]): (path: string) => boolean {
  return (path) => !isHiddenPath(path) && roots.some((root) => root === '' || path === root || path.startsWith(`${root}/`));
}

/** The files of `files` within `roots` (by new or old path), symbolic links left out. */
function candidatesOf(files: readonly FileChange[], inRoots: (path: string) => boolean): FileChange[] {
  return files.filter((file) => !isSymlinkChange(file) && (inRoots(file.path) || (file.oldPath !== null && inRoots(file.oldPath))));
}

/**
 * Every commit of a text search found so far, in Git's order, hidden files dropped (a commit
 * left without files is not kept); `last`: the last commit the pickaxe printed (null before
 * any), from which a later scan goes on; `complete` when the walk reached its end.
 */
interface PickaxeScan {
  head: string;
  found: LogCommit[];
  last: string | null;
  complete: boolean;
  /** The walk's commits, one id a line (`git rev-list`), once a scan went on from its last commit. */
  order?: string;
}

/** Scans of text searches, per repository, filters and head; kept for the pages after the first. */
const scans = new Map<string, PickaxeScan>();
const KEPT_SCANS = 16;

/** First pages whose scan is kept once the head is read, by key. */
const headsRead = new Map<string, Promise<void>>();

/** Keeps `scan` under `key`, unless a scan of the same head there went further. */
function keepScan(key: string, scan: PickaxeScan): void {
  const before = scans.get(key);
  const kept = before !== undefined && before.head === scan.head && (before.complete || before.found.length >= scan.found.length) ? before : scan;
  scans.delete(key);
  scans.set(key, kept);
  if (scans.size > KEPT_SCANS) scans.delete(scans.keys().next().value ?? '');
}

async function textSearch(mirror: Mirror, search: CommitSearch, text: string, walk: string[]): Promise<FoundCommit[]> {
  const wholeRepository = search.roots.length === 1 && search.roots[0] === '';
  const where = wholeRepository ? [] : pathspecs(search.roots);
  const key = JSON.stringify([mirror.gitDir, text, walk, where]);
  const wanted = search.skip + search.maxCount;
  const inRoots = inRootsOf(search.roots);
  // The head names the scan. A first page does not wait for it: it is read once the page is
  // found (a commit made meanwhile only means this page was found just before it).
  let headRead: Promise<string | null> | null = null;
  const head = () => (headRead ??= headCommit(mirror));
  if (search.skip > 0) await headsRead.get(key);
  let kept = search.skip > 0 ? scans.get(key) : undefined;
  if (kept !== undefined && kept.head !== (await head())) kept = undefined;
  const query: TextQuery = { text, walk, where, wholeRepository, inRoots, wanted };
  let pageOf = await scanPage(mirror, search, query, kept ?? null, head);
  // The head moved under a kept scan in a way that lost its place (a reset): start afresh.
  if (pageOf === 'lost') {
    headRead = null;
    pageOf = await scanPage(mirror, search, query, null, head);
  }
  if (pageOf === 'lost') throw new Error('The branch was reset twice while search_history read it; ask again.');
  if (pageOf.scan === null) return [];
  const scan = pageOf.scan;
  if (scan.head !== '') keepScan(key, scan);
  else {
    // Read after this page is answered: only a later page needs it (and waits for it).
    const keeping = new Promise<void>((resolve) => {
      setImmediate(() => {
        head()
          .then(
            (at) => at !== null && keepScan(key, { ...scan, head: at }),
            () => undefined,
          )
          .finally(() => {
            if (headsRead.get(key) === keeping) headsRead.delete(key);
            resolve();
          });
      });
    });
    headsRead.set(key, keeping);
  }

  const { page, files } = pageOf;
  const { files: visible, blobs } = await files.finish();
  const count = occurrenceCounter(text);
  const found: FoundCommit[] = [];
  for (const commit of page) {
    const every = (visible.get(commit.commit) ?? []).filter((file) => !isHiddenPath(file.path) && !isSymlinkChange(file));
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

interface TextQuery {
  text: string;
  walk: string[];
  where: string[];
  wholeRepository: boolean;
  inRoots: (path: string) => boolean;
  wanted: number;
}

/**
 * The page's commits of a text search, from `kept` and as far as it needs beyond (or from a
 * new walk when `kept` is null), each handed to a {@link PageFiles} as it is found. Returns
 * the scan as it now stands (null: an empty repository; its head '' when a new walk did not
 * need it, read by `head` then), or 'lost' when `kept`'s last commit is no longer in the
 * history of its head.
 */
async function scanPage(
  mirror: Mirror,
  search: CommitSearch,
  query: TextQuery,
  kept: PickaxeScan | null,
  head: () => Promise<string | null>,
): Promise<{ scan: PickaxeScan | null; page: LogCommit[]; files: PageFiles } | 'lost'> {
  const files = new PageFiles(mirror, pathspecs(search.openRoots), true);
  const page: LogCommit[] = [];
  const take = (scan: PickaxeScan, commit: LogCommit) => {
    const shown = query.wholeRepository ? { ...commit, files: commit.files.filter((file) => !isHiddenPath(file.path)) } : commit;
    scan.last = commit.commit;
    if (shown.files.length === 0) return; // matched in hidden files alone
    scan.found.push(shown);
    if (scan.found.length > search.skip && scan.found.length <= query.wanted) {
      page.push(shown);
      files.add(shown, candidatesOf(shown.files, query.inRoots).slice(0, search.filesPerCommit));
    }
  };
  try {
    let scan: PickaxeScan;
    if (kept === null) {
      const fresh: PickaxeScan = { head: '', found: [], last: null, complete: false };
      const log = ['log', '-z', LOG_FORMAT, '--raw', '--numstat', '--no-abbrev', `-S${query.text}`, ...query.walk, '-n', String(query.wanted), 'HEAD'];
      const walked = await streamLog(mirror, [...log, ...(query.where.length > 0 ? ['--', ...query.where] : [])], (commit) => take(fresh, commit));
      if (walked === null) {
        files.stop();
        return { scan: null, page: [], files };
      }
      fresh.complete = walked < query.wanted;
      scan = fresh;
    } else {
      scan = { ...kept, found: [...kept.found] };
      for (const commit of scan.found.slice(search.skip, query.wanted)) {
        page.push(commit);
        files.add(commit, candidatesOf(commit.files, query.inRoots).slice(0, search.filesPerCommit));
      }
    }
    // Go on from where the last scan stopped while the page is short (hidden-only matches, a later page).
    while (!scan.complete && scan.found.length < query.wanted) {
      if (scan.head === '') scan.head = (await head()) ?? '';
      const ended = await resume(mirror, scan, query, query.wanted - scan.found.length, take);
      if (ended === null) {
        files.stop();
        return 'lost';
      }
      scan.complete = ended;
    }
    return { scan, page, files };
  } catch (error) {
    files.stop();
    throw error;
  }
}

/**
 * Goes on with `scan` after its last commit: the commits of the same walk (`git rev-list`
 * with the walk filters and pathspecs from the scan's head, read once per scan and kept)
 * after `scan.last`, given to `git log --no-walk=unsorted --stdin -S… --raw --numstat`, each
 * match handed to `take`. That log is stopped after `more` matches (`-n` would make it walk
 * the history again), each commit taken as soon as all of its files are printed. Returns
 * whether the walk has ended (fewer than `more` matches), or null when `scan.last` is not
 * in the walk (the head was reset: nothing taken).
 */
async function resume(mirror: Mirror, scan: PickaxeScan, query: TextQuery, more: number, take: (scan: PickaxeScan, commit: LogCommit) => void): Promise<boolean | null> {
  const pathspec = query.where.length > 0 ? ['--', ...query.where] : [];
  scan.order ??= (await mirrorGit(mirror, ['rev-list', ...query.walk, scan.head, ...pathspec])).stdout.toString('latin1');
  const at = scan.last === null ? 0 : scan.order.indexOf(`${scan.last}\n`);
  if (at === -1) return null;
  const rest = scan.order.slice(scan.last === null ? 0 : at + scan.last.length + 1);
  // Without any commit on its input, git log would show HEAD.
  if (rest === '') return true;
  const parser = new LogParser();
  let printed = 0;
  let failure: unknown = null;
  const handle = (commits: readonly LogCommit[]) => {
    for (const commit of commits) {
      if (printed === more) return;
      printed += 1;
      take(scan, commit);
    }
  };
  const log = startGit(['log', '--no-walk=unsorted', '--stdin', '-z', LOG_FORMAT, '--raw', '--numstat', '--no-abbrev', `-S${query.text}`, '--regexp-ignore-case', ...pathspec], {
    gitDir: mirror.gitDir,
    ...(mirror.workTree ? { workTree: mirror.workTree, cwd: mirror.workTree } : { cwd: mirror.gitDir }),
    input: rest,
    onStdout: (chunk) => {
      if (failure !== null || printed === more) return;
      try {
        handle(parser.push(chunk));
        const settled = parser.settled();
        if (settled !== null) handle([settled]);
        if (printed === more) log.stop();
      } catch (error) {
        failure = error;
        log.stop();
      }
    },
  });
  log.end();
  const ended = await log.done;
  if (failure !== null) throw failure;
  if (printed === more) return false;
  if (!ended.stopped) handle(parser.end());
  return printed < more;
}

/**
 * Whether a file the pickaxe matched gained the text (`added`) or lost it (`removed`): an
 * added file gained it and a deleted one lost it (the pickaxe matched, so its count is not
 * 0); otherwise its old and new blobs' counts tell.
 */
function textChange(file: FileChange, blobs: ReadonlyMap<string, Buffer>, count: (content: Buffer | undefined) => number): { text?: 'added' | 'removed' } {
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
const completeMatches = new Map<string, LogCommit[]>();
const KEPT_SEARCHES = 16;

async function otherSearch(mirror: Mirror, search: CommitSearch, walk: string[]): Promise<FoundCommit[]> {
  const log = await matchingCommits(mirror, walk, search);
  if (log.length === 0) return [];
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
  return { ...(count?.added !== undefined ? { added: count.added } : {}), ...(count?.removed !== undefined ? { removed: count.removed } : {}) };
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
    if (completeMatches.size > KEPT_SEARCHES) completeMatches.delete(completeMatches.keys().next().value ?? '');
  }
  return all.slice(search.skip, search.skip + search.maxCount);
}

/** Lines added and removed per listed file, from one `git diff-tree --numstat` limited to those files. */
async function lineCounts(mirror: Mirror, pages: readonly { commit: LogCommit; shown: readonly FileChange[] }[]): Promise<Map<string, Map<string, FileChange>>> {
  const commits = pages.filter((entry) => entry.shown.length > 0);
  if (commits.length === 0) return new Map();
  const paths = new Set(commits.flatMap((entry) => entry.shown.flatMap((file) => (file.oldPath !== null && file.oldPath !== file.path ? [file.path, file.oldPath] : [file.path]))));
  const input = commits.map(({ commit }) => (commit.parents.length > 1 ? `${commit.commit} ${commit.parents[0]}` : commit.commit)).join('\n') + '\n';
  const { stdout } = await mirrorGit(mirror, ['diff-tree', '--stdin', '-z', '-r', '--root', '--numstat', '-M', '--', ...[...paths].map(literalPathspec)], { input });
  return new Map(parseDiffTree(stdout).map((diff) => [diff.commit, new Map(diff.files.map((file) => [file.path, file]))]));
}

function pathspecs(roots: readonly string[]): string[] {
  return [...roots.map(literalPathspec), ...hiddenExcludes];
}

/** Forgets every kept scan and match list, so the next page is found from nothing (for benchmarks). */
export function forgetSearches(): void {
  scans.clear();
  completeMatches.clear();
}
