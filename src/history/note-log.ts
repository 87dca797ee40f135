// The commits that changed one note, newest first, following its renames (spec: note_history).
import { GitError } from '../repo-host/git/run-git.ts';
import type { Mirror } from '../repo-host/repo-host.ts';
import { gitDate } from './local-time.ts';
import { headCommit, literalPathspec, mirrorGit } from './mirror-git.ts';
import { isSymlinkChange, LOG_FORMAT, parseLog, type ChangeStatus, type LogCommit } from './parse-log.ts';
import { streamLog } from './stream-log.ts';

/**
 * One commit that changed a note: who, when, the subject, the note's `path` after the
 * commit (for a deletion, the path it had), its `previousPath` before (null when the
 * commit created it), the raw `status`, the blob id of its content after the commit (null
 * when deleted), whether the path was a symbolic link there (`symlink`: its blob is a link
 * target, not note text, and such a commit is no version of a note), and the lines added
 * and removed (absent for binary content).
 */
export interface NoteCommit {
  commit: string;
  parents: string[];
  date: string;
  time: number;
  author: string;
  subject: string;
  path: string;
  previousPath: string | null;
  status: ChangeStatus;
  blob: string | null;
  symlink: boolean;
  added?: number;
  removed?: number;
}

/** Limits for {@link noteCommits}: commits from `since` on (epoch seconds), at most `maxCount` of them. */
export interface NoteLogOptions {
  since?: number;
  maxCount?: number;
}

/** The commits of a note, and whether they are all of them (false when `maxCount` cut the list). */
export interface NoteLog {
  commits: NoteCommit[];
  complete: boolean;
}

/**
 * The commits that changed the note at `path` (its current path, or for a moved or deleted
 * note the path it had last), newest first, following renames: one
 * `git log --follow --raw --numstat -z` run over the whole history (or from `since`). When
 * that finds a rename, a second run over every name the note had (with the ancestry of each
 * rename deciding which name a commit's change belongs to) also finds the edits Git's
 * `--follow` misses: those made to the old name on a branch merged after the rename. That
 * run starts as soon as the first rename is read, beside the `--follow` run, and is run
 * again only when the note turns out to have had more names. The two are put in the order
 * of one walk of the history (`git rev-list HEAD`), so every page of a long list is a slice
 * of the same list: `maxCount` cuts it only at the end (the whole history is always read,
 * since a rename anywhere in it decides which commits come first).
 * Every commit `--follow` lists stays listed, with the path Git gave it.
 * Merge commits are not listed (like `--follow`: their changes are the branches' commits).
 * An empty repository or a path with no history gives no commits. Throws GitError when
 * git fails.
 */
export async function noteCommits(mirror: Mirror, path: string, options: NoteLogOptions = {}): Promise<NoteLog> {
  let early: { names: string[]; log: Promise<LogCommit[] | null> } | null = null;
  const wider = (names: readonly string[]) => logOrEmpty(mirror, [...limitArgs({ since: options.since }), 'HEAD', '--', ...names.map(literalPathspec)]);
  const read: NoteCommit[] = [];
  let order: Promise<Map<string, number>> | null = null;
  const followed = await followLog(mirror, path, { since: options.since }, (commit) => {
    read.push(commit);
    if (early === null && isRename(commit)) {
      const names = namesOf(read);
      early = { names, log: wider(names) };
      early.log.catch(() => undefined); // awaited below, or not needed
      order = walkOrder(mirror, options.since);
      order.catch(() => undefined);
    }
  });
  if (followed === null) return { commits: [], complete: true };
  const commits = followed.commits;
  if (!commits.some(isRename)) return cut(commits, options.maxCount);

  const renames = commits.filter(isRename);
  const names = namesOf(commits);
  const started = early as { names: string[]; log: Promise<LogCommit[] | null> } | null;
  const sameNames = started !== null && started.names.length === names.length && started.names.every((name, i) => name === names[i]);
  const everyName = (await (sameNames && started !== null ? started.log : wider(names))) ?? [];
  // Git's own --follow answer stays as it is; the wider run only adds the commits it missed,
  // each credited to the name the note had there (decided by which renames it descends from).
  const byFollow = new Map(commits.map((commit) => [commit.commit, commit]));
  const missed = everyName.filter((commit) => !byFollow.has(commit.commit) && commit.files.length > 0);
  if (missed.length === 0) return cut(commits, options.maxCount);
  const descendants = await Promise.all(renames.map((rename) => descendantsOf(mirror, rename.commit)));
  const oldestName = renames[renames.length - 1]?.previousPath ?? path;
  const nameAfter = (commit: string): string => {
    for (let i = 0; i < renames.length; i += 1) {
      if (descendants[i]?.has(commit)) return renames[i]?.path ?? path;
    }
    return oldestName;
  };
  const position = await (order ?? walkOrder(mirror, options.since));
  const place = (commit: NoteCommit) => position.get(commit.commit) ?? Number.MAX_SAFE_INTEGER;
  // --follow's order stays; each missed commit goes in where the walk of the history has it.
  const added = missed.flatMap((commit) => noteChange(commit, nameAfter(commit.commit))).sort((a, b) => place(a) - place(b));
  const widened: NoteCommit[] = [];
  let next = 0;
  for (const commit of commits) {
    while (next < added.length && place(added[next] as NoteCommit) < place(commit)) widened.push(added[next++] as NoteCommit);
    widened.push(commit);
  }
  widened.push(...added.slice(next));
  return cut(widened, options.maxCount);
}

/** The first `maxCount` of `commits` (all without it), and whether that is all of them. */
function cut(commits: NoteCommit[], maxCount: number | undefined): NoteLog {
  const listed = maxCount === undefined ? commits : commits.slice(0, maxCount);
  return { commits: listed, complete: listed.length === commits.length };
}

/** Each commit's place in one walk of the history from HEAD (`git rev-list HEAD`, from `since` when given), newest first. */
async function walkOrder(mirror: Mirror, since: number | undefined): Promise<Map<string, number>> {
  const { stdout } = await mirrorGit(mirror, ['rev-list', ...limitArgs({ since }), 'HEAD']);
  const ids = stdout.toString('latin1').split('\n').filter(Boolean);
  return new Map(ids.map((id, i) => [id, i]));
}

/** Every name the note has in `commits` (after each, and before each rename), sorted, once each. */
function namesOf(commits: readonly NoteCommit[]): string[] {
  return [...new Set(commits.flatMap((c) => (c.previousPath === null ? [c.path] : [c.path, c.previousPath])))].sort();
}

/**
 * The `git log --follow` run of the note, each change handed to `onCommit` as it is read:
 * the note's changes and how many commits Git printed; null in an empty repository.
 */
async function followLog(mirror: Mirror, path: string, options: NoteLogOptions, onCommit: (commit: NoteCommit) => void): Promise<{ commits: NoteCommit[]; printed: number } | null> {
  const commits: NoteCommit[] = [];
  const printed = await streamLog(mirror, ['log', '-z', LOG_FORMAT, '--raw', '--numstat', '--no-abbrev', '-M', '--follow', ...limitArgs(options), 'HEAD', '--', literalPathspec(path)], (commit) => {
    for (const change of noteChange(commit, commit.files[0]?.path ?? null)) {
      commits.push(change);
      onCommit(change);
    }
  });
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

function limitArgs(options: NoteLogOptions): string[] {
  // A since before 1970 is no limit: Git has no commit dated earlier.
  const since = options.since === undefined ? null : gitDate(options.since);
  return [
    ...(since !== null ? [`--since=${since}`] : []),
    ...(options.maxCount !== undefined ? ['-n', String(options.maxCount)] : []),
  ];
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

/** `commit` and every commit between it and HEAD that has it as an ancestor. */
async function descendantsOf(mirror: Mirror, commit: string): Promise<Set<string>> {
  const { stdout } = await mirrorGit(mirror, ['rev-list', '--ancestry-path', `${commit}..HEAD`]);
  const set = new Set(stdout.toString('utf8').split('\n').filter(Boolean));
  set.add(commit);
  return set;
}

/** Whether `ancestor` is reachable from `commit` (`git merge-base --is-ancestor`). */
export async function isAncestor(mirror: Mirror, ancestor: string, commit: string): Promise<boolean> {
  const { code } = await mirrorGit(mirror, ['merge-base', '--is-ancestor', ancestor, commit], { okCodes: [0, 1] });
  return code === 0;
}
