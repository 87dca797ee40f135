// The history side of the RepoHost port: what note_history and search_history ask of a
// repository's past (log --follow, pickaxe, blame, show). Answered by the `git` program on
// the adapter's mirror (repo-host/git/history); the core never learns where that is.

/** How a file changed in a commit, as Git's raw status letter says. */
export type ChangeStatus = 'A' | 'C' | 'D' | 'M' | 'R' | 'T' | 'U' | 'X';

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
  /** Committer date, ISO 8601 with offset. */
  date: string;
  /** Committer date in seconds since the epoch. */
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

/** Limits for {@link RepoHistory.noteCommits}: commits from `since` on (epoch seconds), at most `maxCount` of them. */
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
 * The change of a note since a moment: `base` (the last commit of the branch before it, on
 * the first-parent line; null when the repository has none that old), `basePath` (the
 * note's name in `base`), whether the note existed there (a symbolic link there is no note),
 * whether either side is binary (`binary`: then `diff` is `""`, never the bytes), and the
 * unified diff (`""` when nothing changed). The diff's `---`/`+++` lines name
 * `a/<basePath>` and `b/<path>` (`/dev/null` for a side where the note is absent).
 */
export interface NoteDiff {
  base: string | null;
  basePath: string;
  existedAtBase: boolean;
  /** The note existed at the base, but at a path the caller cannot see (then `existedAtBase` is false). */
  hiddenAtBase: boolean;
  existsNow: boolean;
  binary: boolean;
  diff: string;
}

/**
 * Consecutive lines `from_line`–`to_line` (from 1) last changed by one commit: its hash,
 * committer date (ISO 8601 with offset), author name, subject and the path the lines had
 * in it; `commit` is null for lines not committed yet (a work tree's changes), and then
 * the other commit fields are absent. `content` is the lines as they are now, joined by "\n".
 */
export interface BlameRun {
  from_line: number;
  to_line: number;
  commit: string | null;
  date?: string;
  author?: string;
  subject?: string;
  path?: string;
  content: string;
}

/** The blame of a note now: its runs (within the lines asked) and how many lines it has. */
export interface NoteBlame {
  runs: BlameRun[];
  totalLines: number;
}

/**
 * A blame of a whole note started before its content is read (see
 * {@link RepoHistory.startWholeBlame}); `cancel` stops it when it is not used.
 */
export interface EarlyBlame {
  readonly path: string;
  /**
   * Hands the blame the content now as soon as it is read, before the path is confirmed (Git
   * waits for it before it reads the history). Only the first content handed counts.
   */
  feed(content: Buffer): void;
  /**
   * Hands the blame the content now (unless fed already) and waits for its raw output. Null
   * when the content fed earlier is not `content` byte for byte: that output is of other text.
   */
  finish(content: Buffer): Promise<Buffer | null>;
  cancel(): void;
}

/**
 * What to look for. `text`: commits that changed how often the text occurs (pickaxe
 * `-S`, literal, case ignored); `author`: part of the author's name or e-mail, taken
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

/** A commit a search matched, before its files are read: its hash and committer time (epoch seconds, for merging repositories newest first). */
export interface CommitMatch {
  commit: string;
  time: number;
}

/**
 * One search's matches, newest first in the repository's walk order, and how to describe
 * any of them: `describe(matches)` (a sub-list of `matches`, in any order) gives their
 * {@link FoundCommit}s in that order, leaving out a commit that changed only hidden or
 * closed paths or symbolic links. Call `describe` once (with `[]` when none is kept): it
 * ends work started for the page.
 */
export interface CommitSearchResult {
  matches: CommitMatch[];
  describe(matches: readonly CommitMatch[]): Promise<FoundCommit[]>;
}

/**
 * A repository's history, from `RepoHost.history(repo)`: valid for the head of the moment
 * it was asked (ask again after a change). Paths are repository-relative, `/`-separated, as
 * Git holds them. Errors: a plain Error (GitError) when the history cannot be read.
 */
export interface RepoHistory {
  /**
   * The commits that changed the note at `path` (its current path, or for a moved or
   * deleted note the path it had last), newest first, following renames (`git log
   * --follow`), the edits made to an old name on a branch merged after the rename, and the
   * moves recorded in `Moved:` trailers (see history/moved-trailer.ts). Merge commits are not
   * listed. An empty repository or a path with no history gives no commits.
   */
  noteCommits(path: string, options?: NoteLogOptions): Promise<NoteLog>;
  /**
   * True when a commit reachable from HEAD changed exactly `path` while it was a file (a
   * commit where it was a symbolic link before and after does not count). False in an
   * empty repository.
   */
  hasFileHistory(path: string): Promise<boolean>;
  /** The full hash of the commit `revision` names (e.g. a hash prefix of 7–40 digits); null when none or several do. */
  resolveCommit(revision: string): Promise<string | null>;
  /** A blob's content by id (e.g. a NoteCommit's `blob`: the note's text at that commit). Throws when it is missing. */
  readBlob(blob: string): Promise<Buffer>;
  /** The id of the empty tree in this repository's hash (a diff's base when no commit is old enough). */
  emptyTree(): Promise<string>;
  /**
   * The change of the note at `path` from the last commit before `since` (epoch seconds) to
   * `now` (its content now; null: absent), uncommitted changes included. `commits` are the
   * note's whole history from {@link noteCommits} (for its name at the base); a name at the
   * base that is not `visible` counts as no note there, so the diff shows all of the note as
   * added. The diff is Git's own unified diff (3 lines of context).
   */
  noteDiffSince(
    path: string,
    since: number,
    commits: readonly NoteCommit[],
    now: Buffer | null,
    visible?: (path: string) => boolean,
  ): Promise<NoteDiff>;
  /**
   * Starts the blame of the whole note at `path` before its content is read, for
   * {@link blame} to take when the lines asked are all of them (cancel it otherwise).
   */
  startWholeBlame(path: string): EarlyBlame;
  /**
   * Who last changed lines `fromLine`–`toLine` (from 1, clamped to the note) of the note at
   * `path` whose content now is `content` (never read from disk by the history): `git
   * blame -M -C`, whole-file renames and recorded moves followed. `copies: false` leaves
   * out `-C`. Lines not committed yet have a null commit. Null when `content` is not text.
   */
  blame(path: string, content: Buffer, fromLine?: number, toLine?: number, early?: EarlyBlame, copies?: boolean): Promise<NoteBlame | null>;
  /**
   * The commits `search` matches (its `skip`, then at most `maxCount`), newest first.
   * `describeAhead`: start reading the files of the page while the walk finds the rest
   * of it (for a search of one repository, whose whole page is described).
   */
  searchCommits(search: CommitSearch, options?: { describeAhead?: boolean }): Promise<CommitSearchResult>;
}
