// The commits that changed one note, newest first, following its renames (spec: note_history).
import { estimateBytes, PromiseByteCache } from '../../../byte-cache.ts';
import type { NoteCommit, NoteLog, NoteLogOptions } from '../../history.ts';
import { GitError } from '../run-git.ts';
import type { Mirror } from '../mirror.ts';
import { headCommit, literalPathspec, mirrorGit } from './mirror-git.ts';
import { isSymlinkChange, LOG_FORMAT, parseLog, type LogCommit } from './parse-log.ts';
import { streamLog } from './stream-log.ts';
import { parseMovedTrailers, pathBeforeMove } from '../../../history/moved-trailer.ts';

/**
 * The commits that changed the note at `path` (its current path, or for a moved or deleted
 * note the path it had last), newest first, following renames: one
 * `git log --follow --raw --numstat -z` run over the whole history (`since` then keeps the
 * commits from that moment on).
 * `--follow` tracks one name at a time along its walk, so it misses the edits made to an
 * old name on a branch merged after the rename. For each rename (not a copy) it reads, as soon as it
 * reads it, one `git log --full-history <rename>..HEAD -- <old name>` (the commits not
 * behind the rename that touched the old name: few, and quick to find; `--full-history`,
 * or Git would leave out the side of a merge that the rename made look unchanged) runs
 * beside it; those it finds are
 * listed too, with the old name as their path, each placed by its date among `--follow`'s
 * commits, whose order stays. The whole history is always read, since a rename anywhere in
 * it decides which commits a page holds: `maxCount` cuts the list only at the end, so every
 * page of a long list is a slice of the same list. A move Git reads as a deletion and an
 * addition (a short note whose links the move rewrote) is followed through the `Moved:`
 * trailer move_note writes ({@link followRecordedMoves}). The whole list is kept per head commit
 * (up to {@link NOTE_LISTS_CACHE_BYTES} of lists), so the pages after the first cost next to nothing.
 * Merge commits are not listed (like `--follow`: their changes are the branches' commits).
 * An empty repository or a path with no history gives no commits. Throws GitError when
 * git fails.
 */
export async function noteCommits(mirror: Mirror, path: string, options: NoteLogOptions = {}): Promise<NoteLog> {
  const head = await headCommit(mirror);
  if (head === null) return { commits: [], complete: true };
  const key = JSON.stringify([mirror.gitDir, head, path]);
  let whole = lists.get(key);
  if (whole === undefined) {
    whole = wholeList(mirror, head, path);
    lists.set(key, whole);
  }
  const all = await whole;
  // From a moment on: the same list, by commit time (so an edit on a branch merged after a
  // rename before that moment is kept, which a walk from the moment would never reach).
  const since = options.since;
  return cut(since === undefined ? all : all.filter((commit) => commit.time >= since), options.maxCount);
}

/** Whole lists of a note's commits, per repository, head commit and path: the pages after the first take theirs from here. */
export const NOTE_LISTS_CACHE_BYTES = 8 * 1024 * 1024;
const lists = new PromiseByteCache<string, NoteCommit[]>({
  maxBytes: NOTE_LISTS_CACHE_BYTES,
  sizeOf: (commits, key) => estimateBytes(key) + estimateBytes(commits),
});

async function wholeList(mirror: Mirror, head: string, path: string): Promise<NoteCommit[]> {
  const sideEdits: Promise<NoteCommit[]>[] = [];
  const watchRename = (commit: NoteCommit): void => {
    // A copy's source lives on: its later edits are its own, not the note's.
    if (commit.status !== 'R' || !isRename(commit) || commit.previousPath === null) return;
    const oldName = commit.previousPath;
    const edits = logOrEmpty(mirror, ['--full-history', `${commit.commit}..${head}`, '--', literalPathspec(oldName)]).then(async (log) => {
      const found = (log ?? []).filter((candidate) => candidate.files.length > 0);
      if (found.length === 0) return [];
      // Only commits that do not have the rename behind them: after it, a file at the old name is another note.
      const { stdout } = await mirrorGit(mirror, ['rev-list', '--ancestry-path', `${commit.commit}..${head}`]);
      const after = new Set(stdout.toString('latin1').split('\n'));
      return found.filter((candidate) => !after.has(candidate.commit)).flatMap((candidate) => noteChange(candidate, oldName));
    });
    edits.catch(() => undefined); // awaited below
    sideEdits.push(edits);
  };
  const followed = await followLog(mirror, head, path, watchRename);
  if (followed === null) return [];
  const commits = await followRecordedMoves(mirror, followed.commits, watchRename);
  if (sideEdits.length === 0) return commits;
  const listed = new Set(commits.map((commit) => commit.commit));
  const missed = new Map<string, NoteCommit>();
  for (const edit of (await Promise.all(sideEdits)).flat()) if (!listed.has(edit.commit)) missed.set(edit.commit, edit);
  if (missed.size === 0) return commits;
  // --follow's order stays; each missed edit goes in before the first listed commit older than it.
  const added = [...missed.values()].sort((a, b) => b.time - a.time);
  const widened: NoteCommit[] = [];
  let next = 0;
  for (const commit of commits) {
    while (next < added.length && (added[next] as NoteCommit).time > commit.time) widened.push(added[next++] as NoteCommit);
    widened.push(commit);
  }
  widened.push(...added.slice(next));
  return widened;
}

/** At most this many recorded moves are followed in one note's history (a guard against a loop of hand-written trailers). */
const MAX_RECORDED_MOVES = 1000;

/**
 * `commits` (a `--follow` list) continued through the moves their commits record: the newest
 * commit that creates the note (status `A`) and whose message carries a `Moved:` trailer
 * naming the note's path (see moved-trailer.ts; move_note writes one) becomes the rename it
 * is, when the old path held a file in its first parent: its `previousPath` is the old path,
 * its line counts those between the two versions, and the list goes on with the old path's
 * `--follow` history from that parent (whose own recorded moves are followed in turn; what
 * `--follow` listed older than the move at the new path was another file's). Each such rename
 * goes to `onRename` too. Git's rename detection needs half of the file unchanged, which a
 * short note whose relative links the move rewrote no longer has; the trailer says what became
 * what. Commits without a trailer stay as Git reads them.
 */
async function followRecordedMoves(mirror: Mirror, commits: NoteCommit[], onRename: (commit: NoteCommit) => void): Promise<NoteCommit[]> {
  const whole: NoteCommit[] = [];
  let segment = commits;
  for (let hop = 0; hop < MAX_RECORDED_MOVES; hop += 1) {
    const created = segment.findIndex((commit) => commit.status === 'A' && commit.previousPath === null && !commit.symlink);
    const creation = segment[created];
    const parent = creation?.parents[0];
    const oldPath = creation === undefined || parent === undefined ? null : await recordedOldPath(mirror, creation, parent);
    if (creation === undefined || parent === undefined || oldPath === null) break;
    const counts = await lineCounts(mirror, `${parent}:${oldPath}`, `${creation.commit}:${creation.path}`);
    const rename: NoteCommit = { ...creation, previousPath: oldPath, status: 'R', ...counts };
    whole.push(...segment.slice(0, created), rename);
    onRename(rename);
    segment = (await followLog(mirror, parent, oldPath, onRename))?.commits ?? [];
  }
  whole.push(...segment);
  return whole;
}

/** The path the note `commit` created had in `parent`, by the commit's `Moved:` trailers; null when none names it or nothing was there. */
async function recordedOldPath(mirror: Mirror, commit: NoteCommit, parent: string): Promise<string | null> {
  const { stdout } = await mirrorGit(mirror, ['show', '-s', '--format=%B', commit.commit]);
  const oldPath = pathBeforeMove(parseMovedTrailers(stdout.toString('utf8')), commit.path);
  if (oldPath === null || oldPath === commit.path) return null;
  return await spelledIn(mirror, parent, oldPath);
}

/**
 * The path of the file at `path` in `commit` as that commit spells it: `path` itself when
 * it is there, else the one file equal to it in Unicode NFC (a folder move names the notes
 * inside in NFC, the old tree may hold another form); null when there is none.
 */
async function spelledIn(mirror: Mirror, commit: string, path: string): Promise<string | null> {
  const { code } = await mirrorGit(mirror, ['cat-file', '-e', `${commit}:${path}`], { okCodes: [0, 1, 128] });
  if (code === 0) return path;
  const top = path.split('/')[0] ?? '';
  // The moved folder's own name is as the old tree spells it (move_note took it from there).
  const { stdout } = await mirrorGit(mirror, ['ls-tree', '-r', '-z', '--name-only', commit, '--', literalPathspec(top)], {
    okCodes: [0, 128],
  });
  const wanted = path.normalize('NFC');
  const found = stdout
    .toString('utf8')
    .split('\0')
    .filter((name) => name !== '' && name.normalize('NFC') === wanted);
  return found.length === 1 ? (found[0] as string) : null;
}

/**
 * The move commit `commit` made of the note at `path`, when its `Moved:` trailers name it and
 * it created `path` (Git saw no rename): its first parent and the note's path there; null
 * otherwise (for blame, which follows Git's own renames by itself).
 */
export async function recordedMove(mirror: Mirror, commit: string, path: string): Promise<{ parent: string; oldPath: string } | null> {
  const { stdout } = await mirrorGit(mirror, ['show', '-s', '--format=%P%x00%B', commit]);
  const [parents = '', message = ''] = stdout.toString('utf8').split('\0');
  const parent = parents.trim().split(' ')[0] ?? '';
  const oldPath = pathBeforeMove(parseMovedTrailers(message), path);
  if (parent === '' || oldPath === null || oldPath === path) return null;
  const [before, { code: there }] = await Promise.all([
    spelledIn(mirror, parent, oldPath),
    mirrorGit(mirror, ['cat-file', '-e', `${parent}:${path}`], { okCodes: [0, 1, 128] }),
  ]);
  return before !== null && there !== 0 ? { parent, oldPath: before } : null;
}

/** Lines added and removed from blob `before` to blob `after` (`git diff --numstat`); nothing for binary content. */
async function lineCounts(mirror: Mirror, before: string, after: string): Promise<{ added?: number; removed?: number }> {
  const { stdout } = await mirrorGit(mirror, ['diff', '--numstat', before, after]);
  const match = /^(\d+)\t(\d+)\t/.exec(stdout.toString('utf8'));
  return match ? { added: Number(match[1]), removed: Number(match[2]) } : {};
}

/** The first `maxCount` of `commits` (all without it), and whether that is all of them. */
function cut(commits: NoteCommit[], maxCount: number | undefined): NoteLog {
  const listed = maxCount === undefined ? commits : commits.slice(0, maxCount);
  return { commits: listed, complete: listed.length === commits.length };
}

/**
 * The `git log --follow` run of the note, each change handed to `onCommit` as it is read:
 * the note's changes and how many commits Git printed; null in an empty repository.
 */
async function followLog(
  mirror: Mirror,
  head: string,
  path: string,
  onCommit: (commit: NoteCommit) => void,
): Promise<{ commits: NoteCommit[]; printed: number } | null> {
  const commits: NoteCommit[] = [];
  const printed = await streamLog(
    mirror,
    ['log', '-z', LOG_FORMAT, '--raw', '--numstat', '--no-abbrev', '-M', '--follow', head, '--', literalPathspec(path)],
    (commit) => {
      for (const change of noteChange(commit, commit.files[0]?.path ?? null)) {
        commits.push(change);
        onCommit(change);
      }
    },
  );
  return printed === null ? null : { commits, printed };
}

/**
 * The name the note had in `commit` (a commit of the branch, e.g. a diff's base), given its
 * commits from {@link noteCommits}: after the newest rename that is an ancestor of `commit`,
 * else the name before the oldest rename. Says nothing about whether it existed then.
 */
export async function noteNameAt(mirror: Mirror, commits: readonly NoteCommit[], commit: string): Promise<string | null> {
  const renames = commits.filter(isRename);
  for (const rename of renames) {
    if (rename.commit === commit || (await isAncestor(mirror, rename.commit, commit))) return rename.path;
  }
  return renames[renames.length - 1]?.previousPath ?? commits[0]?.path ?? null;
}

function isRename(commit: NoteCommit): boolean {
  return commit.previousPath !== null && commit.previousPath !== commit.path;
}

/** `git log` with the history format and raw + numstat output; null in an empty repository. */
async function logOrEmpty(mirror: Mirror, args: string[]): Promise<LogCommit[] | null> {
  try {
    const { stdout } = await mirrorGit(mirror, ['log', '-z', LOG_FORMAT, '--raw', '--numstat', '--no-abbrev', '-M', ...args]);
    return parseLog(stdout);
  } catch (error) {
    if (error instanceof GitError && (await headCommit(mirror)) === null) return null;
    throw error;
  }
}

/** The note's change in `commit`: the file entry at `name` (null: the first one), or none. */
function noteChange(commit: LogCommit, name: string | null): NoteCommit[] {
  const file = commit.files.find((candidate) => candidate.path === name);
  if (!file) return [];
  return [
    {
      commit: commit.commit,
      parents: commit.parents,
      date: commit.date,
      time: commit.time,
      author: commit.author,
      subject: commit.subject,
      path: file.path,
      previousPath: file.status === 'A' ? null : file.oldPath,
      status: file.status,
      blob: file.status === 'D' ? null : file.newBlob,
      symlink: isSymlinkChange(file),
      ...(file.added !== undefined ? { added: file.added } : {}),
      ...(file.removed !== undefined ? { removed: file.removed } : {}),
    },
  ];
}

/** Whether `ancestor` is reachable from `commit` (`git merge-base --is-ancestor`). */
export async function isAncestor(mirror: Mirror, ancestor: string, commit: string): Promise<boolean> {
  const { code } = await mirrorGit(mirror, ['merge-base', '--is-ancestor', ancestor, commit], { okCodes: [0, 1] });
  return code === 0;
}

/** Forgets every note's list kept, so the next call reads the history afresh (for benchmarks). */
export function forgetNoteLists(): void {
  lists.clear();
}
