// Commits by text (Git's pickaxe), author, time and path, with the files each changed (spec: search_history).
import { catFileBatch } from '../repo-host/git/cat-file-batch.ts';
import type { Mirror } from '../repo-host/repo-host.ts';
import { isHiddenPath } from '../notes/vault-path.ts';
import { gitDate } from './local-time.ts';
import { headCommit, hiddenExcludes, literalPathspec, mirrorGit } from './mirror-git.ts';
import { isSymlinkChange, LOG_FORMAT, parseDiffTree, parseLog, type FileChange, type LogCommit } from './parse-log.ts';

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
 * Runs one `git log -z` with the filters (`-S<text> --regexp-ignore-case`,
 * `--fixed-strings --author=<author>`, `--since`/`--until`, pathspecs of `roots` without
 * hidden paths, `--skip`/`-n`); then, over the page's commits only, one
 * `git diff-tree --stdin --raw` for every visible file (a merge against its first parent),
 * one `git diff-tree --stdin --numstat` limited to the files listed (line counts of huge
 * commits are never computed), and for a text search one `git cat-file --batch` to count
 * the text in the listed files' old and new blobs. A page after the first reuses the whole
 * list of matches, found once per head and filters, so paging through a long history does
 * not run the pickaxe over it again for every page. Caller values only ever travel inside
 * `-S…`/`--author=…` or after `--`. Returns [] for an empty repository. Throws GitError
 * when git fails.
 */
export async function searchCommits(mirror: Mirror, search: CommitSearch): Promise<FoundCommit[]> {
  if (search.roots.length === 0) return [];
  // Git has no commit dated before 1970: a since then is no limit, an until then matches nothing.
  const since = search.since === undefined ? null : gitDate(search.since);
  const until = search.until === undefined ? null : gitDate(search.until);
  if (search.until !== undefined && until === null) return [];
  const filters = [
    ...(search.text !== undefined ? ['--raw', '--no-abbrev', `-S${search.text}`] : []),
    ...(search.author !== undefined ? ['--fixed-strings', `--author=${search.author}`] : []),
    ...(search.text !== undefined || search.author !== undefined ? ['--regexp-ignore-case'] : []),
    ...(since !== null ? [`--since=${since}`] : []),
    ...(until !== null ? [`--until=${until}`] : []),
  ];
  const log = await matchingCommits(mirror, filters, search);
  if (log.length === 0) return [];

  const inRoots = (path: string) => !isHiddenPath(path) && search.roots.some((root) => root === '' || path === root || path.startsWith(`${root}/`));
  const listing = (commit: LogCommit, files: readonly FileChange[]) => {
    const candidates = files.filter((file) => !isSymlinkChange(file) && (inRoots(file.path) || (file.oldPath !== null && inRoots(file.oldPath))));
    return { commit, candidates, shown: candidates.slice(0, search.filesPerCommit) };
  };
  const input = log.map((commit) => (commit.parents.length > 1 ? `${commit.commit} ${commit.parents[0]}` : commit.commit)).join('\n') + '\n';
  const everyFile = mirrorGit(mirror, ['diff-tree', '--stdin', '-z', '-r', '--root', '--raw', '--no-abbrev', '-M', '--', ...pathspecs(search.openRoots)], { input }).then(
    ({ stdout }) => new Map(parseDiffTree(stdout).map((diff) => [diff.commit, diff.files.filter((file) => !isHiddenPath(file.path) && !isSymlinkChange(file))])),
  );
  // A text search lists the files the pickaxe matched: their counts need not wait for the others.
  const text = search.text;
  const listed = text !== undefined ? log.map((commit) => listing(commit, commit.files)) : null;
  const [visible, gains, counts] = await Promise.all([
    everyFile,
    listed !== null && text !== undefined ? textChanges(mirror, text, listed.flatMap((entry) => entry.shown)) : new Map<FileChange, 'added' | 'removed'>(),
    listed !== null ? lineCounts(mirror, listed) : null,
  ]);
  const pages = listed ?? log.map((commit) => listing(commit, visible.get(commit.commit) ?? []));
  const lines = counts ?? (await lineCounts(mirror, pages));

  const found: FoundCommit[] = [];
  for (const { commit, candidates, shown } of pages) {
    const files = visible.get(commit.commit) ?? [];
    if (files.length === 0) continue; // touched only hidden or closed paths, or symbolic links: not shown at all
    const counted = lines.get(commit.commit);
    found.push({
      commit: commit.commit,
      date: commit.date,
      time: commit.time,
      author: commit.author,
      subject: commit.subject,
      files: shown.map((file) => {
        const count = counted?.get(file.path);
        const gain = gains.get(file);
        return {
          path: file.path,
          ...(count?.added !== undefined ? { added: count.added } : {}),
          ...(count?.removed !== undefined ? { removed: count.removed } : {}),
          ...(gain ? { text: gain } : {}),
        };
      }),
      filesTotal: files.length,
      filesCut: candidates.length > shown.length,
    });
  }
  return found;
}

/** Every match of a search, per repository head and filters; kept for the pages after the first. */
const completeMatches = new Map<string, LogCommit[]>();
const KEPT_SEARCHES = 16;

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
  if (search.skip === 0) {
    if (search.text !== undefined && search.roots.length === 1 && search.roots[0] === '') {
      // Over the whole repository, a pathspec that only leaves out hidden files costs the
      // pickaxe a tenth more: match without it and drop hidden files here, unless a commit
      // matched in hidden files alone on a full page (then ask again, with it).
      const page = parseLog((await mirrorGit(mirror, [...log, '-n', String(search.maxCount), head])).stdout);
      const shown = page.map((commit) => ({ ...commit, files: commit.files.filter((file) => !isHiddenPath(file.path)) })).filter((commit) => commit.files.length > 0);
      if (shown.length === page.length || page.length < search.maxCount) return shown;
    }
    return parseLog((await mirrorGit(mirror, [...log, '-n', String(search.maxCount), ...where])).stdout);
  }
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

/**
 * For each file of a text search, whether its new content holds the text more often than
 * the old (`added`) or less (`removed`), counted the way Git's pickaxe counts:
 * non-overlapping, ASCII letters folded.
 */
async function textChanges(mirror: Mirror, text: string, files: readonly FileChange[]): Promise<Map<FileChange, 'added' | 'removed'>> {
  const oids = [...new Set(files.flatMap((file) => [file.oldBlob, file.newBlob]).filter((oid): oid is string => oid !== null))];
  const blobs = await catFileBatch(mirror.gitDir, oids);
  const content = new Map(blobs.map((blob) => [blob.oid, blob.content]));
  const needle = foldAscii(Buffer.from(text, 'utf8'));
  const count = (oid: string | null) => {
    const blob = oid === null ? null : content.get(oid);
    return blob ? occurrences(foldAscii(blob), needle) : 0;
  };
  const changes = new Map<FileChange, 'added' | 'removed'>();
  for (const file of files) {
    const before = count(file.oldBlob);
    const after = count(file.newBlob);
    if (after !== before) changes.set(file, after > before ? 'added' : 'removed');
  }
  return changes;
}

function foldAscii(bytes: Buffer): Buffer {
  const folded = Buffer.from(bytes);
  for (let i = 0; i < folded.length; i += 1) {
    const byte = folded[i] ?? 0;
    if (byte >= 0x41 && byte <= 0x5a) folded[i] = byte + 0x20;
  }
  return folded;
}

function occurrences(haystack: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}
