// Commits by text (Git's pickaxe), author, time and path, with the files each changed (spec: search_history).
import { catFileBatch } from '../repo-host/git/cat-file-batch.ts';
import { GitError } from '../repo-host/git/run-git.ts';
import type { Mirror } from '../repo-host/repo-host.ts';
import { isHiddenPath } from '../notes/vault-path.ts';
import { gitDate } from './local-time.ts';
import { headCommit, hiddenExcludes, literalPathspec, mirrorGit } from './mirror-git.ts';
import { LOG_FORMAT, parseDiffTree, parseLog, type FileChange } from './parse-log.ts';

/**
 * What to look for. `text`: commits that changed how often the text occurs (pickaxe
 * `-S`, literal, ASCII case ignored); `author`: part of the author's name or e-mail, taken
 * literally, case ignored; `since`/`until`: committer time in epoch seconds, both
 * inclusive. `roots`: the folders or files a commit must have changed (normalised paths,
 * `''` for the whole repository), already limited to what the caller may see; `openRoots`:
 * every visible root, for counting a commit's files. Hidden paths never count.
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
 * hidden paths, `--skip`/`-n`), then one `git diff-tree --stdin` over the page's commits
 * for their visible files and line counts (a merge against its first parent), and for a
 * text search one `git cat-file --batch` to count the text in the matching files' old and
 * new blobs. Caller values only ever travel inside `-S…`/`--author=…` or after `--`.
 * Returns [] for an empty repository. Throws GitError when git fails.
 */
export async function searchCommits(mirror: Mirror, search: CommitSearch): Promise<FoundCommit[]> {
  if (search.roots.length === 0) return [];
  const filters = [
    ...(search.text !== undefined ? ['--raw', '--no-abbrev', `-S${search.text}`] : []),
    ...(search.author !== undefined ? ['--fixed-strings', `--author=${search.author}`] : []),
    ...(search.text !== undefined || search.author !== undefined ? ['--regexp-ignore-case'] : []),
    ...(search.since !== undefined ? [`--since=${gitDate(search.since)}`] : []),
    ...(search.until !== undefined ? [`--until=${gitDate(search.until)}`] : []),
  ];
  let log;
  try {
    const { stdout } = await mirrorGit(mirror, ['log', '-z', LOG_FORMAT, ...filters, `--skip=${search.skip}`, '-n', String(search.maxCount), 'HEAD', '--', ...pathspecs(search.roots)]);
    log = parseLog(stdout);
  } catch (error) {
    if (error instanceof GitError && (await headCommit(mirror)) === null) return [];
    throw error;
  }
  if (log.length === 0) return [];

  const input = log.map((commit) => (commit.parents.length > 1 ? `${commit.commit} ${commit.parents[0]}` : commit.commit)).join('\n') + '\n';
  const { stdout } = await mirrorGit(mirror, ['diff-tree', '--stdin', '-z', '-r', '--root', '--raw', '--numstat', '--no-abbrev', '-M', '--', ...pathspecs(search.openRoots)], { input });
  const visible = new Map(parseDiffTree(stdout).map((diff) => [diff.commit, diff.files.filter((file) => !isHiddenPath(file.path))]));

  const inRoots = (path: string) => !isHiddenPath(path) && search.roots.some((root) => root === '' || path === root || path.startsWith(`${root}/`));
  const listed = log.map((commit) => {
    const candidates = (search.text !== undefined ? commit.files : (visible.get(commit.commit) ?? [])).filter(
      (file) => inRoots(file.path) || (file.oldPath !== null && inRoots(file.oldPath)),
    );
    return { commit, candidates, shown: candidates.slice(0, search.filesPerCommit) };
  });
  const gains = search.text !== undefined ? await textChanges(mirror, search.text, listed.flatMap((entry) => entry.shown)) : new Map<FileChange, 'added' | 'removed'>();

  const found: FoundCommit[] = [];
  for (const { commit, candidates, shown } of listed) {
    const files = visible.get(commit.commit) ?? [];
    if (files.length === 0) continue; // touched only hidden or closed paths: not shown at all
    const counts = new Map(files.map((file) => [file.path, file]));
    found.push({
      commit: commit.commit,
      date: commit.date,
      time: commit.time,
      author: commit.author,
      subject: commit.subject,
      files: shown.map((file) => {
        const count = counts.get(file.path);
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
