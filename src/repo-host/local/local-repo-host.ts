// The local RepoHost: Git repositories side by side in one folder, bare or with a work tree.
import { createHash, timingSafeEqual } from 'node:crypto';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { UsersFile } from '../../config/users-file.ts';
import { pino, type Logger } from 'pino';
import { KeyedQueue } from '../../keyed-queue.ts';
import { repoNotFound } from '../../repo-not-found.ts';
import { VaultError } from '../../vault-error.ts';
import { blobId, type ObjectFormat } from '../git/blob-id.ts';
import { catFileBatch } from '../git/cat-file-batch.ts';
import { cleanIdentPart } from '../git/commit-ident.ts';
import { GitError, runGit, splitNul } from '../git/run-git.ts';
import type { Access, Person } from '../person.ts';
import type { Change, CommitResult, FileChange, FileEntry, Mirror, RepoHost, RepoInfo, Snapshot, SnapshotEntry } from '../repo-host.ts';
import { CommitGraphKeeper } from './commit-graph.ts';
import { fastImportCommit } from './fast-import-commit.ts';
import { newToken, removeJournal, tempName, writeJournal, type JournalPath } from './commit-journal.ts';
import { IndexLock, inspectIndexLock, waitForIndexUnlocked } from './index-lock.ts';
import { commitEntries, finishUnderLock, needsRecovery, recoverInterruptedCommit } from './interrupted-commit.ts';
import { thisProcess } from './lock-owner.ts';
import { lookAtPaths, type PathLook, type TreeItem } from './path-look.ts';
import { isWritableInside, readAsGitSeesIt, readWorkTreeEntry, readWorkTreeFile } from './work-tree-file.ts';
import { WorkTreeWatch } from './work-tree-watch.ts';
import { WorkTreeWrite, type DiskBefore } from './work-tree-write.ts';
import { writeIndexEntries, type IndexEntry } from './write-index-entries.ts';

/** Options of {@link LocalRepoHost}. */
export interface LocalRepoHostOptions {
  /** The folder whose direct sub-folders are the repositories. */
  reposDir: string;
  /** People, tokens and rights; absent or null: one person reads and writes everything. */
  users?: UsersFile | null;
  /** That one person when there is no users file; default: git's user.name/user.email, else "Major Vault user". */
  as?: Person | null;
  /** Told, one sentence each, what recovery from a crashed server's commit did (see interrupted-commit.ts); default: nothing. */
  onRecovery?: (sentence: string) => void;
  /** Where the folders that are not served are reported (`folder_skipped`); default: nowhere. */
  log?: Logger;
}

/** Where one repository lives: `realWorkTree`/`realGitDir` are symlink-free, for containment checks. */
interface LocalRepo {
  /** The name it is served as: its folder's name, without a final `.git` ({@link repoNameOf}). */
  name: string;
  /** Its folder's name in `reposDir`. */
  folder: string;
  gitDir: string;
  workTree: string | null;
  realWorkTree: string | null;
  realGitDir: string;
}

/** A tracked file's entry as Git lists it (`ls-tree`, `ls-files -s`). */
interface TreeEntry {
  mode: string;
  oid: string;
}

const DEFAULT_PERSON: Person = { login: 'local', name: 'Major Vault user', email: 'major-vault@localhost' };
/** Pathspecs are literal everywhere: a `*` or `:` in a file name is just a character. */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };
/**
 * However quiet a work tree's watch and `.git` look, `git status` runs at least this often
 * (ms): a safety net for what no watch sees (an edited `.git/info/exclude`, a network mount).
 */
const FULL_CHECK_INTERVAL_MS = 30_000;

/** A fingerprint and what it was computed from, to answer the next call without git when nothing moved. */
interface KnownFingerprint {
  fingerprint: string;
  /** The ref HEAD named then (`refs/heads/main`, or `HEAD` when detached). */
  ref: string;
  /** The commit it pointed at then; null when the branch had no commit. */
  head: string | null;
  /** Stat data of HEAD, the ref, packed-refs (and, with a work tree, the index), taken before git ran. */
  gitFiles: string;
  /** The work-tree watch's change count taken before git ran; null for a bare repository. */
  changes: number | null;
  /** When git last ran for it, ms since the epoch. */
  at: number;
}

/** What `git status --porcelain=v2 --branch` tells: the branch, its head and the changed paths. */
interface WorkTreeStatus {
  ref: string;
  head: string | null;
  /** The status records without the `# branch.*` headers, NUL-separated as git wrote them. */
  raw: string;
  paths: string[];
}

/**
 * RepoHost over the Git repositories directly inside `reposDir` (spec: "Repositories and
 * paths"; DESIGN.md "Ports and adapters"). A folder is a repository when it has a `.git`
 * (work tree) or is itself a bare repository, and is served as its folder's name without a final
 * `.git` (`handbook.git` as `handbook`); hidden folders are left out, other folders are skipped
 * and logged once (`folder_skipped`), and so is `x.git` when a repository `x` is there too.
 * In a work tree the current state is what the person's editor shows, uncommitted edits
 * included, and a commit is written back into the work tree and its index. Commits are made
 * with plumbing on a temporary index and land with `update-ref NEW OLD` (compare-and-swap).
 */
export class LocalRepoHost implements RepoHost {
  readonly requiresToken: boolean;
  private readonly reposDir: string;
  private readonly users: UsersFile | null;
  private readonly as: Person | null;
  private readonly log: Logger;
  /** The repositories found so far, by folder name. */
  private readonly repos = new Map<string, LocalRepo>();
  /** Folders logged as skipped (`folder\0reason`), so each is said once until it changes. */
  private readonly skipped = new Set<string>();
  private readonly formats = new Map<string, Promise<ObjectFormat>>();
  /** Per repository: blob ids of work-tree contents (not in the object database) → their path, from the last snapshot. */
  private readonly workTreeBlobs = new Map<string, Map<string, string>>();
  private readonly commitQueues = new KeyedQueue();
  /** Per repository: the last fingerprint and what it rests on (see {@link fingerprint}). */
  private readonly known = new Map<string, KnownFingerprint>();
  /** Per work tree (by its path): the watch that tells whether anything in it changed. */
  private readonly watches = new Map<string, WorkTreeWatch>();
  private localPerson: Promise<Person> | null = null;
  /** Keeps each repository's commit-graph current for the history tools' walks. */
  private readonly commitGraphs = new CommitGraphKeeper();
  /** Per repository (git dir): the author its own Git configuration gives, and the stat data of its config file then. */
  private readonly repoPeople = new Map<string, { key: string; person: Person }>();
  /** Per repository (git dir): the recovery running now, so concurrent calls share it. */
  private readonly recoveries = new Map<string, Promise<void>>();
  private readonly onRecovery: (sentence: string) => void;
  /** Per repository (git dir): the cause of the last failed recovery, reported once. */
  private readonly recoveryFailures = new Map<string, string>();

  constructor(options: LocalRepoHostOptions) {
    this.reposDir = options.reposDir;
    this.users = options.users ?? null;
    this.as = options.as ?? null;
    this.log = options.log ?? pino({ level: 'silent' });
    this.requiresToken = this.users !== null;
    this.onRecovery = options.onRecovery ?? (() => undefined);
  }

  /**
   * Recovers every repository with a work tree from a commit a crashed server left unfinished
   * (see {@link recoverInterruptedCommit}); run at start. Each read, the poll and each write
   * also look first (see {@link recoverIfNeeded}), so a server that crashes while this one
   * runs is recovered from too. Resolves once done; a repository whose recovery fails is
   * reported through `onRecovery` and tried again by its next write, which refuses until then.
   */
  async recoverInterruptedCommits(): Promise<void> {
    const entries = await readdir(this.reposDir, { withFileTypes: true });
    for (const entry of entries) {
      const repo = await this.detect(entry.name);
      if (repo === null || repo.workTree === null) continue;
      await this.recoverIfNeeded(repo); // a failure is reported; the next write tries again
    }
  }

  /**
   * When a server that is gone left its journal or its index.lock in `repo` (work trees only),
   * recovers before going on: its commit finished or dropped, its lock and temporaries removed.
   * A failure is reported (once per repository and cause) and, `forWrite`, thrown, so no
   * commit starts from a work tree that lags the branch; a read goes on with what is there.
   */
  private async recoverIfNeeded(repo: LocalRepo, forWrite = false): Promise<void> {
    if (repo.workTree === null) return;
    let recovery = this.recoveries.get(repo.gitDir);
    if (recovery === undefined) {
      if (!(await needsRecovery(repo.gitDir))) return;
      recovery = this.recover(repo);
      this.recoveries.set(repo.gitDir, recovery);
      void recovery.finally(() => this.recoveries.delete(repo.gitDir)).catch(() => undefined);
    }
    try {
      await recovery;
    } catch (error) {
      if (forWrite) throw error;
    }
  }

  private async recover(repo: LocalRepo): Promise<void> {
    try {
      const done = await recoverInterruptedCommit({ name: repo.name, gitDir: repo.gitDir, workTree: repo.workTree!, format: await this.objectFormat(repo) });
      for (const sentence of done) this.onRecovery(sentence);
      this.recoveryFailures.delete(repo.gitDir);
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      if (this.recoveryFailures.get(repo.gitDir) !== cause) this.onRecovery(`recovering "${repo.name}" from an interrupted Major Vault write failed (writes are refused until it succeeds): ${cause}`);
      this.recoveryFailures.set(repo.gitDir, cause);
      throw error;
    }
  }

  /**
   * The repositories in `reposDir`, by name (see the class): a folder that is not a Git
   * repository is skipped, and so is `x.git` when the folder `x` is a repository too (the
   * name is `x`'s); each skipped folder is logged once (`folder_skipped`, with `folder` and
   * `reason`: `not_a_repository` or `name_taken`).
   */
  async listRepos(): Promise<RepoInfo[]> {
    const entries = await readdir(this.reposDir, { withFileTypes: true });
    const folders = entries
      .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()))
      .map((entry) => entry.name)
      .sort(byCodeUnits);
    const found = await Promise.all(folders.map((folder) => this.detect(folder)));
    const byName = new Map<string, LocalRepo>();
    const skipped = new Set<string>();
    const skip = (folder: string, reason: 'not_a_repository' | 'name_taken', message: string) => {
      const key = `${folder}\0${reason}`;
      skipped.add(key);
      if (!this.skipped.has(key)) this.log.info({ event: 'folder_skipped', folder, reason }, message);
    };
    folders.forEach((folder, i) => {
      const repo = found[i]!;
      if (repo === null) return skip(folder, 'not_a_repository', `skipped the folder ${folder}: it is not a Git repository (no .git in it, and not a bare repository)`);
      const other = byName.get(repo.name);
      // The folder named exactly the name wins over `name.git`, whichever was read first.
      if (other === undefined || (other.folder !== repo.name && repo.folder === repo.name)) {
        if (other !== undefined) skip(other.folder, 'name_taken', nameTakenMessage(other.folder, repo.name));
        byName.set(repo.name, repo);
      } else {
        skip(folder, 'name_taken', nameTakenMessage(folder, repo.name));
      }
    });
    this.skipped.clear();
    for (const key of skipped) this.skipped.add(key);
    const repos = [...byName.values()].sort((a, b) => byCodeUnits(a.name, b.name));
    return Promise.all(
      repos.map(async (repo) => {
        const { ref, head } = await this.branchOf(repo);
        return { name: repo.name, defaultBranch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref, head };
      }),
    );
  }

  /**
   * The ref HEAD names and its commit: from the last fingerprint when the stat data of HEAD,
   * the ref, packed-refs and the index are still what they were then (no git process), else
   * from git.
   */
  private async branchOf(repo: LocalRepo): Promise<{ ref: string; head: string | null }> {
    const known = this.known.get(repo.gitDir);
    if (known !== undefined && known.gitFiles !== '' && (await this.gitFilesStat(repo, known.ref)) === known.gitFiles) return { ref: known.ref, head: known.head };
    const ref = await this.headRef(repo);
    return { ref, head: await this.resolveHead(repo, ref) };
  }

  async authenticate(token: string | undefined): Promise<Access | null> {
    const names = (await this.listRepos()).map((repo) => repo.name);
    if (this.users === null) {
      const all = new Set(names);
      return { person: await this.onePerson(), read: all, write: new Set(all) };
    }
    if (token === undefined || token === '') return null;
    // Compare against every user, always, in constant time per comparison: no early exit
    // that would tell how many tokens were tried before a match.
    const asked = sha256(token);
    let match: UsersFile['users'][number] | null = null;
    for (const user of this.users.users) {
      if (timingSafeEqual(asked, sha256(user.token)) && match === null) match = user;
    }
    if (match === null) return null;
    const pick = (list: readonly string[]) => new Set(list.includes('*') ? names : names.filter((name) => list.includes(name)));
    const write = pick(match.write);
    const read = new Set([...pick(match.read), ...write]);
    return { person: { login: match.login, name: match.name, email: match.email }, read, write };
  }

  async mirror(repoName: string): Promise<Mirror> {
    const repo = await this.repo(repoName);
    await this.recoverIfNeeded(repo);
    this.commitGraphs.refresh(repo.gitDir);
    return { gitDir: repo.gitDir, workTree: repo.workTree };
  }

  async snapshot(repoName: string): Promise<Snapshot> {
    const repo = await this.repo(repoName);
    this.commitGraphs.refresh(repo.gitDir);
    if (repo.workTree === null || repo.realWorkTree === null) {
      const ref = await this.headRef(repo);
      const head = await this.resolveHead(repo, ref);
      const files: SnapshotEntry[] = [];
      if (head !== null) {
        const listed = await runGit(['ls-tree', '-r', '-z', '--full-tree', head], { gitDir: repo.gitDir });
        for (const record of splitNul(listed.stdout)) {
          const parsed = parseTreeRecord(record);
          // Symbolic links and submodules are not files of the vault.
          if (parsed && parsed.type === 'blob' && parsed.mode !== '120000') files.push({ path: parsed.path, oid: parsed.oid });
        }
      }
      files.sort((a, b) => byCodeUnits(a.path, b.path));
      return { head, fingerprint: bareFingerprint(ref, head), files };
    }

    // Not while another writer holds the index lock: its branch may have moved while the
    // files on disk are still the old ones (bounded: a stale lock only delays the read).
    await this.recoverIfNeeded(repo);
    await waitForIndexUnlocked(repo.gitDir);
    const { status, fingerprint } = await this.checkWorkTree(repo);
    const head = status.head;
    const listed = await runGit(['ls-files', '-s', '-z'], this.inWorkTree(repo));
    const tracked = new Map<string, TreeEntry>();
    for (const record of splitNul(listed.stdout)) {
      const tab = record.indexOf('\t');
      const [mode = '', oid = ''] = record.slice(0, tab).split(' ');
      if (mode === '160000') continue; // a submodule: not a file
      tracked.set(record.slice(tab + 1), { mode, oid });
    }
    // Read from disk: what git status says differs, plus tracked symbolic links (the editor
    // shows their target's content).
    const fromDisk = new Set(status.paths);
    for (const [path, entry] of tracked) if (entry.mode === '120000') fromDisk.add(path);
    const format = await this.objectFormat(repo);
    const diskBlobs = new Map<string, string>();
    const entries = new Map<string, SnapshotEntry>();
    for (const [path, entry] of tracked) if (!fromDisk.has(path)) entries.set(path, { path, oid: entry.oid });
    for (const path of fromDisk) {
      const read = await readWorkTreeEntry(repo.realWorkTree, repo.realGitDir, path);
      if (read === null) continue;
      const oid = blobId(read.content, format);
      entries.set(path, read.target === undefined ? { path, oid } : { path, oid, target: read.target });
      diskBlobs.set(oid, path);
    }
    this.workTreeBlobs.set(repo.name, diskBlobs);
    const files = [...entries.values()].sort((a, b) => byCodeUnits(a.path, b.path));
    return { head, fingerprint, files };
  }

  /**
   * Cheap when nothing changed: git runs only when the stat data of HEAD, the branch's ref,
   * packed-refs or the index moved, or (with a work tree) the work tree's watch saw a change,
   * or {@link FULL_CHECK_INTERVAL_MS} passed; otherwise the last fingerprint is the answer.
   * With a work tree, one `git status` gives the branch, its head and the changes.
   */
  async fingerprint(repoName: string): Promise<string> {
    const repo = await this.repo(repoName);
    const known = this.known.get(repo.gitDir);
    if (known !== undefined && (await this.unchangedSince(repo, known))) return known.fingerprint;
    if (repo.workTree === null) {
      const gitFiles = await this.gitFilesStat(repo, known?.ref ?? null);
      const ref = await this.headRef(repo);
      const head = await this.resolveHead(repo, ref);
      const fingerprint = bareFingerprint(ref, head);
      this.known.set(repo.gitDir, { fingerprint, ref, head, gitFiles, changes: null, at: Date.now() });
      return fingerprint;
    }
    await this.recoverIfNeeded(repo);
    return (await this.checkWorkTree(repo)).fingerprint;
  }

  async readBlobs(repoName: string, oids: readonly string[]): Promise<Buffer[]> {
    const repo = await this.repo(repoName);
    const objects = await catFileBatch(repo.gitDir, oids);
    const format = await this.objectFormat(repo);
    return Promise.all(
      objects.map(async (object) => {
        if (object.content !== null) {
          if (object.type !== 'blob') throw new Error(`${object.oid} in repository "${repo.name}" is a ${object.type}, not a blob`);
          return object.content;
        }
        // Work-tree contents are hashed for the snapshot but never written to the object
        // database: read them from disk, and only if they still have that content.
        const path = this.workTreeBlobs.get(repo.name)?.get(object.oid);
        if (path !== undefined && repo.realWorkTree !== null) {
          const content = await readWorkTreeFile(repo.realWorkTree, repo.realGitDir, path);
          if (content !== null && blobId(content, format) === object.oid) return content;
        }
        throw new Error(`Blob ${object.oid} is not in repository "${repo.name}" (nor in its work tree any more); take a new snapshot.`);
      }),
    );
  }

  async readFile(repoName: string, path: string): Promise<Buffer | null> {
    return (await this.readFileEntry(repoName, path))?.content ?? null;
  }

  /** In a bare repository a symbolic link is no file (as in the snapshot), so no entry has a `target`. */
  async readFileEntry(repoName: string, path: string): Promise<FileEntry | null> {
    const repo = await this.repo(repoName);
    assertRepoPath(path);
    if (repo.realWorkTree !== null) {
      await this.recoverIfNeeded(repo);
      await waitForIndexUnlocked(repo.gitDir);
      return readWorkTreeEntry(repo.realWorkTree, repo.realGitDir, path);
    }
    const head = await this.resolveHead(repo, await this.headRef(repo));
    if (head === null) return null;
    const entry = (await this.treeEntries(repo, head, [path])).get(path);
    if (entry === undefined || entry.mode === '120000') return null;
    const [blob] = await catFileBatch(repo.gitDir, [entry.oid]);
    const content = blob?.content ?? null;
    return content === null ? null : { content };
  }

  commit(repoName: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
    // One commit at a time per repository inside this process; correctness still comes from
    // update-ref's compare-and-swap, since other processes (git itself) may commit too.
    return this.commitQueues.run(repoName, () => this.commitNow(repoName, change, preparedFrom));
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.commitQueues.settled(), this.commitGraphs.close()]);
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
    this.known.clear();
  }

  private async commitNow(repoName: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
    const repo = await this.repo(repoName);
    const seen = new Set<string>();
    for (const file of change.files) {
      assertRepoPath(file.path);
      if (seen.has(file.path)) throw new VaultError('bad_arguments', `The change names "${file.path}" twice; give each file once.`);
      seen.add(file.path);
    }
    assertNoFolderOfItself(change);
    if (repo.realWorkTree !== null) {
      for (const file of change.files) {
        if (!(await isWritableInside(repo.realWorkTree, repo.realGitDir, file.path))) {
          throw new VaultError('invalid_path', `"${file.path}" lies behind a symbolic link that leads outside the repository; choose a path inside it.`);
        }
      }
    }
    const author = await this.authorOf(repo, change.author);
    if (repo.workTree === null) return this.commitLocked(repo, change, author, preparedFrom, null);
    // Held from before the index is looked at until the new index is in place: across
    // update-ref and the rewrite of the files, so another server sharing the work tree never
    // sees the branch moved while the files on disk are still the old ones.
    await this.recoverIfNeeded(repo, true);
    let lock = await IndexLock.take(resolve(repo.gitDir));
    if (lock === null) {
      // Its holder may have died while this one waited: a server's lock is then recovered from.
      await this.recoverIfNeeded(repo, true);
      lock = await IndexLock.take(resolve(repo.gitDir), 0);
    }
    if (lock === null) throw await this.lockedRefusal(repo);
    try {
      // A journal of a server that is gone, left while someone else held the lock: finished
      // now, so this commit never starts from files that lag the branch (the check of what
      // the change was prepared from then asks for a new preparation).
      const finished = await finishUnderLock({ name: repo.name, gitDir: repo.gitDir, workTree: repo.workTree, format: await this.objectFormat(repo) }, lock);
      for (const sentence of finished) this.onRecovery(sentence);
      return await this.commitLocked(repo, change, author, preparedFrom, lock);
    } finally {
      await lock.release();
    }
  }

  /**
   * VaultError `conflict` for a write that found the index lock held for COMMIT_LOCK_WAIT_MS (index-lock.ts):
   * names who holds it (a running Major Vault server, or another program) and how long it has
   * been there, from its mtime. A lock this server did not make is never removed by it.
   */
  private async lockedRefusal(repo: LocalRepo): Promise<VaultError> {
    const found = await inspectIndexLock(repo.gitDir);
    const age = found.state === 'absent' ? 'a moment' : describeAge(found.ageMs);
    const why =
      found.state === 'own'
        ? `another Major Vault server (process ${found.owner.pid}${found.owner.host === thisProcess().host ? '' : ` on ${found.owner.host}`}) has been committing there for ${age}`
        : `another program holds its .git/index.lock, made ${age} ago`;
    const advice =
      found.state === 'own'
        ? 'Retry in a moment.'
        : 'Retry in a moment; if no Git command is running there, a crashed one left the file behind: delete .git/index.lock and retry.';
    return new VaultError('conflict', `Nothing was written to the repository "${repo.name}": ${why}. ${advice}`);
  }

  /**
   * The commit itself, with the index lock held for a work tree: one `cat-file --batch` for the
   * head, the parent's tree along the paths and their index entries; the checks; one
   * `fast-import` for blobs, trees and commit; the new files staged beside their places; then
   * `update-ref HEAD NEW OLD`, the renames and one `update-index`. After update-ref, a failure
   * puts the files and the branch back as they were and throws.
   */
  private async commitLocked(repo: LocalRepo, change: Change, author: Person, preparedFrom: ReadonlyMap<string, string | null> | undefined, lock: IndexLock | null): Promise<CommitResult> {
    const parent = change.parent;
    const paths = change.files.map((file) => file.path);
    const format = await this.objectFormat(repo);
    // The index entries only matter for paths the change was not prepared from (see checkWorkTreePaths).
    const needIndex = lock !== null && paths.some((path) => !preparedFrom?.has(path));
    const look = await lookAtPaths(repo.gitDir, parent, paths, { index: needIndex });
    if (look.head !== parent) return { ok: false, conflict: 'head_moved', head: look.head };
    for (const file of change.files) {
      const entry = look.entries.get(file.path);
      const blockedBy = look.blocked.get(file.path);
      if (file.content !== null && blockedBy !== undefined) refuseClash(file.path, `"${blockedBy}" is a file, not a folder`);
      if (entry?.mode === '040000') refuseClash(file.path, 'it is a folder');
      if (entry?.mode === '160000') refuseClash(file.path, 'it is a submodule (another repository inside this one)');
    }
    const newOids = new Map<string, TreeItem>();
    for (const file of change.files) {
      if (file.content !== null) newOids.set(file.path, { mode: look.entries.get(file.path)?.mode === '100755' ? '100755' : '100644', oid: blobId(file.content, format) });
    }
    let before: Map<string, DiskBefore> | null = null;
    if (lock !== null) {
      const checked = await this.checkWorkTreePaths(repo, change, look, newOids, preparedFrom);
      if ('dirty' in checked) return { ok: false, conflict: 'worktree_dirty', head: parent, path: checked.dirty };
      before = checked.before;
    }

    // Exactly one commit or nothing: a change that changes nothing makes no commit.
    const changed = change.files.filter((file) => {
      const entry = look.entries.get(file.path);
      if (file.content === null) return entry !== undefined;
      const next = newOids.get(file.path)!;
      return entry === undefined || entry.oid !== next.oid || entry.mode !== next.mode;
    });
    if (parent !== null && changed.length === 0) {
      if (lock === null || !diskDiffers(change, before ?? new Map())) return { ok: true, commit: parent };
      // Nothing to commit, but the work tree held something else (the change undoes an
      // uncommitted edit): the files still go there, so the answer matches what is on disk.
      const token = await this.journal(repo, change, parent, parent, before ?? new Map());
      try {
        const staged = await WorkTreeWrite.stage(repo.workTree!, change.files.map((file) => ({ path: file.path, content: onDisk(file), mode: newOids.get(file.path)?.mode ?? '100644' })), (path) => tempName(token, path));
        try {
          await staged.place();
          await this.writeIndex(repo, lock, token, change, newOids);
        } catch (error) {
          await staged.restore(before ?? new Map());
          throw error;
        }
      } finally {
        await removeJournal(repo.gitDir);
      }
      return { ok: true, commit: parent };
    }

    // Git refuses a name made only of punctuation it trims (".", "'"…): fall back to the login.
    const usable = (name: string) => (/[^\s.,:;<>"'\\]/u.test(name) ? name : '');
    const name = usable(cleanIdentPart(author.name)) || usable(cleanIdentPart(author.login)) || DEFAULT_PERSON.name;
    const message = change.message.replace(/\0/g, '').replace(/\r\n?/g, '\n').replace(/\s*$/, '\n');
    const commit = await fastImportCommit(
      repo.gitDir,
      changed.map((file) => ({ path: file.path, content: file.content, mode: newOids.get(file.path)?.mode ?? '100644' })),
      { parent, name, email: cleanIdentPart(author.email), date: gitDate(new Date()), message },
    );

    if (lock === null) return this.updateRef(repo, commit, parent, format, message.split('\n')[0] ?? '');
    // From here on a crash is recovered from by the next server (interrupted-commit.ts): the
    // journal names the commit, the paths with what the disk held, and the temporaries.
    const token = await this.journal(repo, change, parent, commit, before ?? new Map());
    try {
      return await this.landInWorkTree(repo, lock, token, change, newOids, commit, parent, before ?? new Map(), message.split('\n')[0] ?? '');
    } finally {
      await removeJournal(repo.gitDir);
    }
  }

  /**
   * Writes the journal of a commit about to change the work tree (see commit-journal.ts):
   * the commit, its parent, and for each path the blob id of what Git sees on disk now. Returns
   * its token, which names the commit's temporaries.
   */
  private async journal(repo: LocalRepo, change: Change, parent: string | null, commit: string, before: ReadonlyMap<string, DiskBefore>): Promise<string> {
    const format = await this.objectFormat(repo);
    const token = newToken();
    const paths: JournalPath[] = [];
    for (const file of change.files) {
      const old = before.get(file.path) ?? null;
      const entry: JournalPath = { path: file.path, before: old === null ? null : old.kind === 'file' ? blobId(old.content, format) : 'other' };
      const disk = onDisk(file);
      // The person's uncommitted text around the change is in no commit: stored as a blob, so
      // recovery places exactly what this write would have.
      if (disk !== null && file.content !== null && !disk.equals(file.content)) {
        entry.disk = (await runGit(['hash-object', '-w', '--stdin'], { gitDir: repo.gitDir, input: disk })).stdout.toString('utf8').trim();
      }
      paths.push(entry);
    }
    await writeJournal(repo.gitDir, { owner: thisProcess(), token, old: parent, new: commit, paths });
    return token;
  }

  /**
   * Stages the files, moves the branch (`update-ref HEAD NEW OLD`), renames the files into place
   * and writes the index; after update-ref, a failure puts the files and the branch back as they
   * were and throws.
   */
  private async landInWorkTree(
    repo: LocalRepo,
    lock: IndexLock,
    token: string,
    change: Change,
    newOids: ReadonlyMap<string, TreeItem>,
    commit: string,
    parent: string | null,
    before: ReadonlyMap<string, DiskBefore>,
    subject: string,
  ): Promise<CommitResult> {
    const format = await this.objectFormat(repo);
    const files = change.files.map((file) => ({ path: file.path, content: onDisk(file), mode: newOids.get(file.path)?.mode ?? '100644' }));
    const staged = await WorkTreeWrite.stage(repo.workTree!, files, (path) => tempName(token, path));
    // The index goes in place before the branch moves. A person's plain `git commit` reads
    // HEAD, then the index, without taking the lock, and its own ref update expects the HEAD
    // it read: with the index first, it either commits on the new head with the new index, or
    // its ref update is refused because this one moved the branch. With the branch first, it
    // could see the new head with the old index and commit a revert of this change.
    try {
      await writeIndexEntries({ gitDir: repo.gitDir, workTree: repo.workTree! }, lock, token, ...indexEntriesOf(change, newOids), { refresh: false });
    } catch (error) {
      await staged.discard();
      throw error;
    }
    let landed: CommitResult;
    try {
      landed = await this.updateRef(repo, commit, parent, format, subject);
    } catch (error) {
      await staged.discard();
      await this.restoreIndexEntries(repo, lock, token, change, parent);
      throw error;
    }
    if (!landed.ok) {
      await staged.discard();
      // The branch moved meanwhile: these paths' entries go back to the head it moved to.
      await this.restoreIndexEntries(repo, lock, token, change, landed.head);
      return landed;
    }
    try {
      await staged.place();
    } catch (error) {
      await staged.restore(before);
      await this.restoreIndexEntries(repo, lock, token, change, parent).catch(() => undefined);
      const undone = await this.moveBranchBack(repo, commit, parent);
      const cause = error instanceof Error ? error.message : String(error);
      throw new Error(
        undone
          ? `Writing the commit into the work tree of "${repo.name}" failed (${cause}); the commit was undone, so nothing changed.`
          : `Writing the commit into the work tree of "${repo.name}" failed (${cause}), and the branch could not be moved back from ${commit}: check the repository with git status.`,
        { cause: error },
      );
    }
    return landed;
  }

  /**
   * Checks each changed path of a work tree, with the index lock held:
   * - refused with `exists`: a folder in the work tree where a file is to be written, or a file
   *   where one of its folders should be; a symbolic link where the change was prepared
   *   believing the path free;
   * - `dirty` (a conflict: prepare again) when the path's content as the editor shows it is not
   *   what the change was prepared from (`preparedFrom`), or, without `preparedFrom`, when the
   *   file on disk or in the index differs from the parent's (uncommitted work), unless the
   *   disk already holds the new content.
   * Returns what was on disk at each path, to put back if the commit has to be undone.
   */
  private async checkWorkTreePaths(
    repo: LocalRepo,
    change: Change,
    look: PathLook,
    newOids: ReadonlyMap<string, TreeItem>,
    preparedFrom: ReadonlyMap<string, string | null> | undefined,
  ): Promise<{ before: Map<string, DiskBefore> } | { dirty: string }> {
    const format = await this.objectFormat(repo);
    const workTree = repo.workTree!;
    const before = new Map<string, DiskBefore>();
    for (const file of change.files) {
      const path = file.path;
      const writing = file.content !== null;
      const onDisk = await readAsGitSeesIt(workTree, path);
      before.set(path, onDisk);
      if (writing) {
        if (onDisk?.kind === 'directory') refuseClash(path, 'a folder of that name is in the work tree');
        const fileOnTheWay = await firstFileOnTheWay(workTree, path);
        if (fileOnTheWay !== null) refuseClash(path, `"${fileOnTheWay}" is a file, not a folder`);
      }
      const head = look.entries.get(path);
      if (preparedFrom?.has(path)) {
        const prepared = preparedFrom.get(path) ?? null;
        if (prepared === null && writing && (head?.mode === '120000' || onDisk?.kind === 'symlink')) refuseClash(path, 'a symbolic link of that name is there');
        const seen = await readWorkTreeFile(repo.realWorkTree!, repo.realGitDir, path);
        if ((seen === null ? null : blobId(seen, format)) !== prepared) return { dirty: path };
        continue;
      }
      const headOid = head?.oid ?? null;
      const diskOid = onDisk === null ? null : onDisk.kind === 'directory' ? 'directory' : blobId(onDisk.content, format);
      if (diskOid === headOid && (look.indexOids.get(path) ?? null) === headOid) continue;
      if (onDisk?.kind === 'file' && diskOid === (newOids.get(path)?.oid ?? null)) continue;
      if (onDisk === null && !writing) continue;
      return { dirty: path };
    }
    return { before };
  }

  /** Moves the branch from `parent` to `commit` only if it is still at `parent` (`update-ref HEAD NEW OLD` follows HEAD to its branch). */
  private async updateRef(repo: LocalRepo, commit: string, parent: string | null, format: ObjectFormat, subject: string): Promise<CommitResult> {
    const args = ['update-ref', '-m', `major-vault: ${subject}`.slice(0, 200), 'HEAD', commit, parent ?? zeroOid(format)];
    for (let attempt = 0; ; attempt++) {
      try {
        await runGit(args, { gitDir: repo.gitDir });
        return { ok: true, commit };
      } catch (error) {
        if (!(error instanceof GitError)) throw error;
        const now = await this.resolveHead(repo, 'HEAD');
        if (now !== parent) return { ok: false, conflict: 'head_moved', head: now };
        // Still at the parent: the ref was locked by another git process for a moment.
        if (attempt >= 20) throw error;
        await delay(25 + attempt * 25);
      }
    }
  }

  /** Undoes a landed commit after a failure: `update-ref HEAD OLD NEW` (or deletes the branch it created); false when that failed. */
  private async moveBranchBack(repo: LocalRepo, commit: string, parent: string | null): Promise<boolean> {
    const args = parent === null ? ['update-ref', '-d', 'HEAD', commit] : ['update-ref', '-m', 'major-vault: undo a commit the work tree could not take', 'HEAD', parent, commit];
    try {
      await runGit(args, { gitDir: repo.gitDir });
      return true;
    } catch {
      return false;
    }
  }

  /** The changed paths' index entries (see {@link writeIndexEntries}); the index is put in place, the lock stays held. */
  private async writeIndex(repo: LocalRepo, lock: IndexLock, token: string, change: Change, newOids: ReadonlyMap<string, TreeItem>): Promise<void> {
    await writeIndexEntries({ gitDir: repo.gitDir, workTree: repo.workTree! }, lock, token, ...indexEntriesOf(change, newOids));
  }

  /** Puts the index entries of the change's paths back to those of `parent` (a commit; null: none), after a failed landing. */
  private async restoreIndexEntries(repo: LocalRepo, lock: IndexLock, token: string, change: Change, parent: string | null): Promise<void> {
    const paths = change.files.map((file) => file.path);
    const entries = parent === null ? new Map<string, { mode: string; oid: string }>() : await commitEntries(repo.gitDir, parent, paths);
    const written = paths.flatMap((path) => {
      const entry = entries.get(path);
      return entry === undefined ? [] : [{ path, ...entry }];
    });
    await writeIndexEntries({ gitDir: repo.gitDir, workTree: repo.workTree! }, lock, token, written, paths.filter((path) => !entries.has(path)), { refresh: false });
  }

  /**
   * The author of a commit: `author` as given, except in single-person mode without `--as`
   * (spec/README: "the name and e-mail from your Git configuration"), where the one person is
   * resolved as Git resolves it for this repository — its own config, then the global, then the
   * system one — by `git config` run in the repository with the person's configuration (not the
   * neutral environment of every other git call); cached per repository until its config file
   * changes. Falls back to the one person when the repository's Git has no user.name.
   */
  private async authorOf(repo: LocalRepo, author: Person): Promise<Person> {
    if (this.users !== null || this.as !== null) return author;
    const one = await this.onePerson();
    if (author.name !== one.name || author.email !== one.email || author.login !== one.login) return author;
    const key = await statLine(join(repo.gitDir, 'config'));
    const cached = this.repoPeople.get(repo.gitDir);
    if (cached !== undefined && cached.key === key) return cached.person;
    const person = (await gitConfigPerson(repo)) ?? one;
    this.repoPeople.set(repo.gitDir, { key, person });
    return person;
  }

  /**
   * Runs `git status` on a work tree and fingerprints what it says; remembers the result with
   * the watch's change count and the `.git` files' stat data taken before git ran, so a change
   * while git runs shows at the next call.
   */
  private async checkWorkTree(repo: LocalRepo): Promise<{ status: WorkTreeStatus; fingerprint: string }> {
    const watch = this.watchOf(repo);
    await watch.start();
    await watch.settle();
    const changes = watch.changes;
    const gitFiles = await this.gitFilesStat(repo, this.known.get(repo.gitDir)?.ref ?? null);
    const status = await this.workTreeStatus(repo);
    const fingerprint = await this.workTreeFingerprint(repo, status);
    const known = this.known.get(repo.gitDir);
    // The stat data was taken without the loose ref HEAD names now: take it again next time.
    const stale = known === undefined || known.ref !== status.ref;
    this.known.set(repo.gitDir, { fingerprint, ref: status.ref, head: status.head, gitFiles: stale ? '' : gitFiles, changes, at: Date.now() });
    return { status, fingerprint };
  }

  /** Whether nothing `known` rests on moved: the `.git` files' stat data and the work tree's watch. */
  private async unchangedSince(repo: LocalRepo, known: KnownFingerprint): Promise<boolean> {
    if (Date.now() - known.at >= FULL_CHECK_INTERVAL_MS || known.gitFiles === '') return false;
    if (repo.workTree !== null) {
      const watch = this.watches.get(repo.workTree);
      if (watch === undefined || !watch.healthy || known.changes === null) return false;
      // Let the events of writes that finished before this call arrive.
      await watch.settle();
      if (watch.changes !== known.changes) return false;
    }
    return (await this.gitFilesStat(repo, known.ref)) === known.gitFiles;
  }

  /**
   * The stat data of what says where the branch is: HEAD, the loose ref it names (`ref`, when
   * known), packed-refs, and the index of a work tree. Git replaces each by renaming a new
   * file over it, so any update shows. '' (never equal) where the refs live elsewhere: a
   * linked work tree (`commondir`) or the reftable format.
   */
  private async gitFilesStat(repo: LocalRepo, ref: string | null): Promise<string> {
    if ((await exists(join(repo.gitDir, 'commondir'))) || (await exists(join(repo.gitDir, 'reftable')))) return '';
    const files = ['HEAD', 'packed-refs', ...(repo.workTree !== null ? ['index'] : []), ...(ref !== null && ref.startsWith('refs/') ? [ref] : [])];
    const lines = await Promise.all(files.map((file) => statLine(join(repo.gitDir, ...file.split('/')))));
    return files.map((file, i) => `${file}\0${lines[i]}`).join('');
  }

  /** The work tree's watch, created on first use (it starts watching when checked). */
  private watchOf(repo: LocalRepo): WorkTreeWatch {
    let watch = this.watches.get(repo.workTree!);
    if (watch === undefined) {
      watch = new WorkTreeWatch(repo.workTree!);
      this.watches.set(repo.workTree!, watch);
    }
    return watch;
  }

  /** One `git status` for the branch, its head and every changed, deleted or untracked path. */
  private async workTreeStatus(repo: LocalRepo): Promise<WorkTreeStatus> {
    const { stdout } = await runGit(
      ['status', '--porcelain=v2', '--branch', '--no-ahead-behind', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'],
      this.inWorkTree(repo),
    );
    const records = splitNul(stdout);
    let branch = '(detached)';
    let oid = '(initial)';
    for (const record of records) {
      if (record.startsWith('# branch.head ')) branch = record.slice('# branch.head '.length);
      else if (record.startsWith('# branch.oid ')) oid = record.slice('# branch.oid '.length);
    }
    const changes = records.filter((record) => !record.startsWith('# '));
    return {
      ref: branch === '(detached)' ? 'HEAD' : `refs/heads/${branch}`,
      head: oid === '(initial)' ? null : oid,
      raw: changes.map((record) => `${record}\0`).join(''),
      paths: parseStatusPaths(changes),
    };
  }

  /** Branch, head, status and the stat data of the index and of every file status names, hashed. */
  private async workTreeFingerprint(repo: LocalRepo, status: WorkTreeStatus): Promise<string> {
    const hash = createHash('sha1').update(`worktree\0${status.ref}\0${status.head ?? ''}\0`);
    hash.update(await statLine(join(repo.gitDir, 'index')));
    hash.update(status.raw);
    // A file edited twice keeps the same status line: its size and mtime tell the edits apart.
    for (const path of status.paths) hash.update(`${path}\0${await statLine(join(repo.workTree!, ...path.split('/')))}`);
    return hash.digest('hex');
  }

  private inWorkTree(repo: LocalRepo) {
    return { gitDir: repo.gitDir, workTree: repo.workTree!, cwd: repo.workTree! };
  }

  /** The ref HEAD names (`refs/heads/main`), or `HEAD` itself when detached. */
  private async headRef(repo: LocalRepo): Promise<string> {
    const { stdout, code } = await runGit(['symbolic-ref', '-q', 'HEAD'], { gitDir: repo.gitDir, okCodes: [0, 1] });
    return code === 0 ? stdout.toString('utf8').trim() : 'HEAD';
  }

  private async resolveHead(repo: LocalRepo, ref: string): Promise<string | null> {
    const { stdout, code } = await runGit(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { gitDir: repo.gitDir, okCodes: [0, 1] });
    return code === 0 ? stdout.toString('utf8').trim() : null;
  }

  /** The entries of `paths` (exact, literal) in commit `commit`'s tree; paths not there are left out. */
  private async treeEntries(repo: LocalRepo, commit: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
    const entries = new Map<string, TreeEntry>();
    if (paths.length === 0) return entries;
    const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', commit, '--', ...paths], { gitDir: repo.gitDir, env: LITERAL });
    const wanted = new Set(paths);
    for (const record of splitNul(stdout)) {
      const parsed = parseTreeRecord(record);
      if (parsed && parsed.type === 'blob' && wanted.has(parsed.path)) entries.set(parsed.path, { mode: parsed.mode, oid: parsed.oid });
    }
    return entries;
  }

  private objectFormat(repo: LocalRepo): Promise<ObjectFormat> {
    let format = this.formats.get(repo.gitDir);
    if (format === undefined) {
      format = runGit(['rev-parse', '--show-object-format'], { gitDir: repo.gitDir }).then((out) => (out.stdout.toString('utf8').trim() === 'sha256' ? 'sha256' : 'sha1'));
      this.formats.set(repo.gitDir, format);
    }
    return format;
  }

  private async repo(name: string): Promise<LocalRepo> {
    const repo = await this.named(name);
    if (repo === null) throw repoNotFound(name);
    return repo;
  }

  /**
   * The repository served as `name`, by the rule of {@link listRepos}: the folder `name` when
   * it is a repository, else the folder `name.git` when that is one; null otherwise.
   */
  private async named(name: string): Promise<LocalRepo | null> {
    const plain = await this.detect(name);
    if (plain !== null && plain.name === name) return plain;
    const suffixed = await this.detect(`${name}.git`);
    return suffixed !== null && suffixed.name === name ? suffixed : null;
  }

  /** The repository in the folder `folder`, or null when that folder is not a Git repository. */
  private async detect(folder: string): Promise<LocalRepo | null> {
    if (folder === '' || folder.startsWith('.') || /[/\\\0]/.test(folder)) return null;
    const name = repoNameOf(folder);
    const cached = this.repos.get(folder);
    const dir = join(this.reposDir, folder);
    const dotGit = await lstat(join(dir, '.git')).catch(() => null);
    if (cached !== undefined && (cached.workTree !== null) === (dotGit !== null) && (await exists(cached.gitDir))) return cached;
    if (cached !== undefined) this.forgetRepo(cached);
    let repo: LocalRepo | null = null;
    try {
      if (dotGit !== null) {
        const gitDir = dotGit.isDirectory()
          ? join(dir, '.git')
          : (await runGit(['rev-parse', '--absolute-git-dir'], { cwd: dir })).stdout.toString('utf8').trim();
        repo = { name, folder, gitDir, workTree: dir, realWorkTree: await realpath(dir), realGitDir: await realpath(gitDir) };
      } else if ((await isFile(join(dir, 'HEAD'))) && (await isFolder(join(dir, 'objects'))) && (await isFolder(join(dir, 'refs')))) {
        repo = { name, folder, gitDir: dir, workTree: null, realWorkTree: null, realGitDir: await realpath(dir) };
      }
    } catch {
      repo = null;
    }
    if (repo !== null) this.repos.set(folder, repo);
    return repo;
  }

  /** Drops what is remembered about a repository that went away or changed its layout. */
  private forgetRepo(repo: LocalRepo): void {
    this.repos.delete(repo.folder);
    this.known.delete(repo.gitDir);
    if (repo.workTree !== null) {
      this.watches.get(repo.workTree)?.close();
      this.watches.delete(repo.workTree);
    }
  }

  /** The one person of single-person mode: `as`, else git's global user.name/user.email, else a default. */
  private onePerson(): Promise<Person> {
    if (this.as !== null) return Promise.resolve(this.as);
    this.localPerson ??= (async () => {
      for (const file of [join(homedir(), '.gitconfig'), join(homedir(), '.config', 'git', 'config')]) {
        if (!(await isFile(file))) continue;
        const get = async (key: string) => (await runGit(['config', '--file', file, '--get', key], { okCodes: [0, 1] })).stdout.toString('utf8').trim();
        const name = cleanIdentPart(await get('user.name'));
        if (name === '') continue;
        const email = cleanIdentPart(await get('user.email')) || DEFAULT_PERSON.email;
        return { login: email.split('@')[0] || DEFAULT_PERSON.login, name, email };
      }
      return DEFAULT_PERSON;
    })();
    return this.localPerson;
  }
}

/**
 * Refuses a path that could leave the repository or reach into `.git`, or that no file system
 * could hold: empty, absolute, NUL, CR or LF (Git's line-based batch input), `.`/`..`/empty
 * segments, a `.git` segment (any case), a segment longer than 255 bytes in UTF-8 (the limit of
 * ext4, APFS, NTFS…), or more than 4,000 bytes in all. Other characters Git allows (tabs,
 * quotes, `#`, any script) pass: the tools apply the vault's own path rules first
 * (notes/vault-path.ts); this is the adapter's last guard. VaultError `invalid_path`.
 */
function assertRepoPath(path: string): void {
  const segments = path.split('/');
  const bad = path === '' || /[\0\r\n]/.test(path) || segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.toLowerCase() === '.git');
  if (bad) throw new VaultError('invalid_path', `"${path}" is not a path inside the repository; give a relative path such as "notes/plan.md".`, { path });
  const long = segments.find((segment) => Buffer.byteLength(segment, 'utf8') > 255);
  if (long !== undefined) {
    throw new VaultError(
      'invalid_path',
      `The name "${long}" in "${path}" is ${Buffer.byteLength(long, 'utf8')} bytes long in UTF-8, and file systems hold at most 255 bytes per name (a letter of Japanese or Chinese takes 3). Choose a shorter name.`,
      { path },
    );
  }
  if (Buffer.byteLength(path, 'utf8') > 4000) throw new VaultError('invalid_path', `"${path.slice(0, 80)}…" is ${Buffer.byteLength(path, 'utf8')} bytes long; a path may have at most 4,000. Choose a shorter one.`, { path });
}

/** Refuses a change that writes a file at a path and other files inside it, as a folder: VaultError `exists`. */
function assertNoFolderOfItself(change: Change): void {
  const written = change.files.filter((file) => file.content !== null).map((file) => file.path);
  const ancestors = new Set<string>();
  for (const path of written) {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) ancestors.add(segments.slice(0, i).join('/'));
  }
  for (const path of written) if (ancestors.has(path)) refuseClash(path, 'the same change puts files inside it, as a folder');
}

/** Whether the work tree held something other than the change's content at any of its paths (`before`: what Git saw there). */
function diskDiffers(change: Change, before: ReadonlyMap<string, DiskBefore>): boolean {
  return change.files.some((file) => {
    const old = before.get(file.path) ?? null;
    const content = onDisk(file);
    if (content === null) return old !== null;
    return old === null || old.kind !== 'file' || !old.content.equals(content);
  });
}

/** What the work-tree file gets: the committed content, unless the change carries the person's uncommitted text around it. */
function onDisk(file: FileChange): Buffer | null {
  return file.content !== null && file.workTreeContent !== undefined ? file.workTreeContent : file.content;
}

/** VaultError `exists`: something at `path` (or on the way to it) that the change must not replace. */
function refuseClash(path: string, what: string): never {
  throw new VaultError('exists', `"${path}" cannot be written: ${what}. Choose another path, or move what is there first.`, { path });
}

/** The first folder on the way to `path` in the work tree that is something else (a file), following links; null when there is none. */
async function firstFileOnTheWay(workTree: string, path: string): Promise<string | null> {
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const ancestor = segments.slice(0, i).join('/');
    const info = await stat(join(workTree, ...segments.slice(0, i))).catch(() => null);
    if (info === null) return null;
    if (!info.isDirectory()) return ancestor;
  }
  return null;
}

/**
 * user.name and user.email as Git resolves them in `repo` for the person (repository config, then
 * global, then system): `git config` without the neutral environment's GIT_CONFIG_GLOBAL and
 * GIT_CONFIG_NOSYSTEM (given the values the process itself has; an undefined value leaves the
 * variable out of the child's environment, as Node documents). Null without a user.name.
 */
async function gitConfigPerson(repo: LocalRepo): Promise<Person | null> {
  const personal = { GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM } as unknown as Record<string, string>;
  const { stdout } = await runGit(['config', '-z', '--get-regexp', '^user\\.(name|email)$'], { gitDir: repo.gitDir, cwd: repo.workTree ?? repo.gitDir, env: personal, okCodes: [0, 1] });
  const values = new Map<string, string>();
  for (const record of splitNul(stdout)) {
    const newline = record.indexOf('\n');
    if (newline !== -1) values.set(record.slice(0, newline).toLowerCase(), record.slice(newline + 1)); // the last value wins, as in Git
  }
  const name = cleanIdentPart(values.get('user.name') ?? '');
  if (name === '') return null;
  const email = cleanIdentPart(values.get('user.email') ?? '') || DEFAULT_PERSON.email;
  return { login: email.split('@')[0] || DEFAULT_PERSON.login, name, email };
}

/** The all-zero id: "no object" (a ref that must not exist yet, an index entry to remove). */
function zeroOid(format: ObjectFormat): string {
  return '0'.repeat(format === 'sha256' ? 64 : 40);
}

/** Parses `<mode> <type> <oid>\t<path>` from `ls-tree -z`. */
function parseTreeRecord(record: string): { mode: string; type: string; oid: string; path: string } | null {
  const tab = record.indexOf('\t');
  if (tab === -1) return null;
  const [mode = '', type = '', oid = ''] = record.slice(0, tab).split(' ');
  return { mode, type, oid, path: record.slice(tab + 1) };
}

/**
 * The paths `git status --porcelain=v2 -z --no-renames` names (changed, unmerged, untracked),
 * from its records: `1 XY sub mH mI mW hH hI path`, `u XY sub m1 m2 m3 mW h1 h2 h3 path`,
 * `? path`; `2 …` (renames) also carries the original path in the next field. Folders (a
 * nested repository shows as `dir/`) are skipped.
 */
export function parseStatusPaths(records: readonly string[]): string[] {
  const paths: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    let path: string | null = null;
    if (record.startsWith('1 ')) path = afterFields(record, 8);
    else if (record.startsWith('2 ')) {
      path = afterFields(record, 9);
      i++; // the original path of a rename
    } else if (record.startsWith('u ')) path = afterFields(record, 10);
    else if (record.startsWith('? ')) path = record.slice(2);
    if (path !== null && path !== '' && !path.endsWith('/')) paths.push(path);
  }
  return paths;
}

function afterFields(record: string, count: number): string {
  let at = 0;
  for (let i = 0; i < count; i++) at = record.indexOf(' ', at) + 1;
  return record.slice(at);
}

function bareFingerprint(ref: string, head: string | null): string {
  return createHash('sha1').update(`bare\0${ref}\0${head ?? ''}`).digest('hex');
}

async function statLine(path: string): Promise<string> {
  const info = await lstat(path).catch(() => null);
  return info === null ? 'absent\0' : `${info.mtimeMs}:${info.size}:${info.ino}:${info.mode}\0`;
}

/** Git's date format `<unix seconds> <+hhmm>`, in the machine's time zone. */
function gitDate(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${Math.floor(date.getTime() / 1000)} ${sign}${hours}${minutes}`;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An age in ms as a person reads it: `42 s`, `12 min`, `3 h 5 min`, `2 days 4 h`. */
function describeAge(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days ${hours % 24} h`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/**
 * The name a repository folder is served as: the folder's name without a final `.git`, as Git
 * names bare repositories (`handbook.git` is `handbook`); any other folder by its own name.
 */
export function repoNameOf(folder: string): string {
  return folder.length > '.git'.length && folder.endsWith('.git') ? folder.slice(0, -'.git'.length) : folder;
}

function nameTakenMessage(folder: string, name: string): string {
  return `skipped the folder ${folder}: it would be served as "${name}", which the folder ${name} already is; rename one of them`;
}

/** The index entries a change sets (written files with their mode and blob) and the paths it removes. */
function indexEntriesOf(change: Change, newOids: ReadonlyMap<string, TreeItem>): [IndexEntry[], string[]] {
  const written = change.files.filter((file) => file.content !== null).map((file) => ({ path: file.path, ...newOids.get(file.path)! }));
  const deleted = change.files.filter((file) => file.content === null).map((file) => file.path);
  return [written, deleted];
}
