// The RepoHost port: everything the core needs from where the repositories live.
// Local adapter: Git repositories in a folder (repo-host/local). Hosted: a GitHub App (later).
import type { RepoHistory } from './history.ts';
import type { Person } from './person.ts';

/** One repository of the installation, as the host lists it. */
export interface RepoInfo {
  /** The repository's name: the folder name locally, the GitHub name hosted. */
  name: string;
  /** The default branch's short name, e.g. `main`. */
  defaultBranch: string;
  /** The commit the default branch points at, 40 hex digits; null for an empty repository. */
  head: string | null;
}

/**
 * One file of the current state: its path (repository-relative, `/`-separated, exactly as
 * Git holds it: no Unicode normalisation) and the Git blob id of its content. In a work tree the content is the file as it is on disk,
 * so `oid` is what `git hash-object` would give it.
 */
export interface SnapshotEntry {
  path: string;
  oid: string;
  /**
   * Set when the file is reached through a symbolic link (the path is a link, or lies below
   * one; work tree only): the repository path its content is read from, the link's final
   * destination. A link that leads out of the repository (or into `.git`) is no entry at all.
   */
  target?: string;
}

/** A file's current content, and (as in SnapshotEntry) `target` when it is reached through a symbolic link. */
export interface FileEntry {
  content: Buffer;
  target?: string;
}

/**
 * The current state of a repository: the head commit and every file, work-tree changes
 * included. `fingerprint` changes whenever any of it changes (cheap to compare).
 */
export interface Snapshot {
  head: string | null;
  fingerprint: string;
  files: SnapshotEntry[];
  /**
   * Where the host knows it (a local work tree): the paths whose current content may differ
   * from the head's tree (what `git status` names, and files read through a symbolic link);
   * every other entry's blob id is the head's. Absent: not known, ask the head's tree.
   */
  uncommitted?: ReadonlySet<string>;
}

/** A file's new content in a change; `content: null` deletes it. Paths as in SnapshotEntry. */
export interface FileChange {
  path: string;
  content: Buffer | null;
  /**
   * Where the host keeps uncommitted changes (locally, a work tree): what the file there gets
   * when that differs from the committed `content` (the same change made on the person's
   * uncommitted text, which stays uncommitted); absent: `content`. A host whose current state
   * is always the head's tree (RepoHost.keepsUncommittedChanges false) ignores it.
   */
  currentContent?: Buffer;
  /**
   * The path this file was made from, when not its own: a moved note's old path, which the
   * same change deletes. Hosts commit `path` alone; the index keeps the note it was (its id,
   * so its search postings change only by what the move edited in it).
   */
  from?: string;
}

/**
 * What the current state holds at `file.path` once the change is committed: `currentContent`
 * where given (uncommitted edits kept around the change), else `content`; null: deleted.
 */
export function contentAfter(file: FileChange): Buffer | null {
  return file.content !== null && file.currentContent !== undefined ? file.currentContent : file.content;
}

/**
 * One change to commit: applied on top of `parent` (the head it was prepared against), as
 * exactly one commit authored by `author` with `message` (subject line, blank line, body).
 */
export interface Change {
  parent: string | null;
  files: FileChange[];
  author: Person;
  message: string;
  /**
   * The caller's credential the host writes with: hosted, the person's GitHub token, so
   * GitHub checks their rights and names them as the author; locally, their bearer token or
   * null (the local adapter writes with no credential: the users file was checked at sign-in).
   * Set by the host bound to the caller (caller-repo-host.ts) over whatever a tool put here;
   * absent only for a commit of the installation itself (none yet) or of a test.
   */
  credential?: string | null;
}

/** What a commit attempt gave: the new commit, or `conflict` when the head had moved. */
export type CommitResult =
  { ok: true; commit: string } | { ok: false; conflict: 'head_moved' | 'worktree_dirty'; head: string | null; path?: string };

/**
 * The port, repository side. Sign-in is its own port (sign-in.ts); starting and stopping
 * an adapter is its composition root's business (src/main/), so no tool can reach either.
 * Errors: methods throw `VaultError('repo_not_found')` for a name the installation does
 * not have; anything else unexpected is a plain Error.
 */
export interface RepoHost {
  /** Every repository of the installation, sorted by name. */
  listRepos(): Promise<RepoInfo[]>;
  /**
   * The repository's history (log with renames followed, pickaxe search, blame, versions and
   * diffs of a note), answered by the `git` program on the adapter's mirror, brought up to
   * date first. See {@link RepoHistory}.
   */
  history(repo: string): Promise<RepoHistory>;
  /** The current state of the repository's default branch (and work tree, if any). */
  snapshot(repo: string): Promise<Snapshot>;
  /**
   * The paths of the files under `folder/` (e.g. `.vault`) that {@link snapshot} would list
   * now, sorted by code units, where the adapter finds them more cheaply than a whole
   * snapshot (the local one: no `git status` of the whole work tree); optional, callers
   * filter a snapshot without it. Throws as snapshot does.
   */
  pathsUnder?(repo: string, folder: string): Promise<string[]>;
  /**
   * A cheap string that changes whenever the snapshot would (head moved, work tree edited);
   * polled about once a second to notice changes made outside the server.
   */
  fingerprint(repo: string): Promise<string>;
  /** The content of blobs by id, in the order asked; a missing blob is an error. */
  readBlobs(repo: string, oids: readonly string[]): Promise<Buffer[]>;
  /** A file's current content (work tree first, where there is one); null when absent. */
  readFile(repo: string, path: string): Promise<Buffer | null>;
  /**
   * As readFile, and says where the content came from when the path is reached through a
   * symbolic link (`target`), so a caller can apply its own rules to the destination.
   */
  readFileEntry(repo: string, path: string): Promise<FileEntry | null>;
  /**
   * Commits a change with compare-and-swap on the branch head: succeeds only when the head
   * is still `change.parent`. Locally, a repository with a work tree gets the changed files
   * written there too; a file with uncommitted changes that the change would overwrite is a
   * `worktree_dirty` conflict naming the path, unless its on-disk content is exactly what the
   * change was prepared from.
   */
  commit(repo: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult>;
  /**
   * The size in bytes of each blob the repository's object store holds, by id (an id asked
   * twice appears once); ids it does not hold, or that name another kind of object (a tree, a
   * commit), are left out. Content seen only in a work tree (the oid a snapshot gives an
   * uncommitted edit) is not in the store: read it with readFile. Lets a caller learn sizes
   * without reading contents (the indexer records every file's size but reads only notes).
   */
  blobSizes(repo: string, oids: readonly string[]): Promise<Map<string, number>>;
  /**
   * The commit the default branch points at now, asked of the host itself (a hosted adapter
   * asks upstream, since its mirror may be one fetch behind); null for an empty repository.
   */
  head(repo: string): Promise<string | null>;
  /**
   * The current content and blob id of each of `paths` as the state on top of `head` has it:
   * where the host keeps uncommitted changes (locally, a work tree), the file as it is now
   * (through a symbolic link inside the repository, as readFile reads it); elsewhere the
   * regular file (not a link or submodule) in `head`'s tree. Every path is a key; null: absent.
   */
  currentFiles(repo: string, head: string | null, paths: readonly string[]): Promise<Map<string, BlobFile | null>>;
  /** The regular files (not links or submodules) among `paths` in the tree of `commit`, with their blobs; absent paths are left out. */
  filesAt(repo: string, commit: string | null, paths: readonly string[]): Promise<Map<string, BlobFile>>;
  /**
   * Whether the current state may differ from the head commit (changes not committed: locally,
   * a work tree). False: the current state is always the head's tree (a bare or hosted repository).
   */
  keepsUncommittedChanges(repo: string): Promise<boolean>;
  /**
   * Whether reading one file by path (readFileEntry) costs less than listing the repository
   * (locally: a work tree, read from disk); false where a listing kept until the branch moves is cheaper.
   */
  pathReadsAreCheap(repo: string): Promise<boolean>;
  /**
   * The entries directly in `folder` ('' for the root), sorted by code units: where the host
   * keeps uncommitted changes, what is there now (untracked files too, `.git` left out; a
   * checked-out submodule is a folder there); elsewhere the tree of `head`. Empty when the
   * folder does not exist or is a file.
   */
  folderEntries(repo: string, head: string | null, folder: string): Promise<FolderEntry[]>;
  /** Whether names that differ only in case are one file in this repository's current state (a case-insensitive checkout: `core.ignorecase`). */
  foldsCase(repo: string): Promise<boolean>;
  /**
   * The paths among `paths` (normalised repository paths) that are a symbolic link or lie below
   * one in the current state (see folderEntries; `head`'s tree where there are no uncommitted
   * changes), each with the first link on its way. Paths without a link are left out.
   */
  linksOnPaths(repo: string, head: string | null, paths: readonly string[]): Promise<Map<string, LinkOnPath>>;
  /** The newest commit reachable from `at` that changed `path` (a file or folder), 40 or 64 hex digits; null when none did. */
  lastCommit(repo: string, at: string, path: string): Promise<string | null>;
  /**
   * What landed between `from` and `to` (a moved head after a failed compare-and-swap): the
   * newest five commits of `from..to`, and which of `paths` differ between the two.
   */
  describeConflict(repo: string, from: string, to: string, paths: readonly string[]): Promise<ConflictDescription>;
  /** The newest five commits of `from..to` (every commit up to `to` when `from` is null) that changed `path`. */
  commitsTouching(repo: string, from: string | null, to: string, path: string): Promise<CommitLine[]>;
  /**
   * Per file ever committed up to `at`: the author dates of the first and the last commit that
   * changed it (a rename counts as a new file), newest history first.
   */
  fileTimes(repo: string, at: string): Promise<Map<string, FileTimes>>;
  /** The size in bytes of every blob in the tree of `at`, by path (all folders down). */
  fileSizes(repo: string, at: string): Promise<Map<string, number>>;
}

/** A file's content and its Git blob id (as `git hash-object` gives it). */
export interface BlobFile {
  oid: string;
  content: Buffer;
}

/** An entry directly in a folder of the current state (RepoHost.folderEntries). */
export interface FolderEntry {
  /** Repository path of the entry. */
  path: string;
  /** `file` (regular), `symlink`, `submodule` (a repository inside) or `folder`. */
  kind: 'file' | 'symlink' | 'submodule' | 'folder';
}

/** A symbolic link met on the way to a path (RepoHost.linksOnPaths). */
export interface LinkOnPath {
  /** The link: the path itself, or one of its folders. */
  link: string;
  /**
   * Where the link points, as a repository path (`..` and `.` resolved, no trailing `/`);
   * null when it leads outside the repository or is empty.
   */
  target: string | null;
}

/** One commit as a conflict names it. */
export interface CommitLine {
  /** The abbreviated commit id, as `git log --format=%h` gives it. */
  shortId: string;
  author: string;
  subject: string;
}

/** What RepoHost.describeConflict finds between two heads. */
export interface ConflictDescription {
  /** Newest first, at most five. */
  commits: CommitLine[];
  /** The asked paths that differ between the two heads. */
  changed: string[];
}

/** When a file was created and last changed, as author dates of commits. */
export interface FileTimes {
  ctime: Date;
  mtime: Date;
}
