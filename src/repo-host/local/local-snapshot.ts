// The current state of a local repository (snapshot) and its cheap fingerprint, kept by watching work trees.
import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { blobId } from '../git/blob-id.ts';
import { readBranchFiles } from '../git/read-head.ts';
import { runGit, splitNul } from '../git/run-git.ts';
import type { Snapshot, SnapshotEntry } from '../repo-host.ts';
import type { CommitRecovery } from './commit-recovery.ts';
import { waitForIndexUnlocked } from './index-lock.ts';
import {
  byCodeUnits,
  exists,
  headRef,
  inWorkTree,
  isFolder,
  LITERAL,
  parseTreeRecord,
  resolveHead,
  statLine,
  type LocalRepo,
  type ObjectFormats,
  type TreeEntry,
} from './local-repo.ts';
import { readWorkTreeEntry } from './work-tree-file.ts';
import { WorkTreeWatch } from './work-tree-watch.ts';
import { settleEach } from './settle-each.ts';

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

/** A work tree's last snapshot, current when a commit of this server took the index lock (see LocalSnapshots.beforeOwnCommit). */
export interface SnapshotBase {
  snapshot: Snapshot;
  known: KnownFingerprint;
  /** The watch's change count then. */
  mark: number;
}

/** One path an own commit wrote into the work tree and its index (see LocalSnapshots.afterOwnCommit). */
export interface OwnCommitPath {
  path: string;
  /** What the work tree got (null: the file was removed). */
  disk: Buffer | null;
  /** The Git mode of the written file (`100644`, `100755`). */
  mode: string;
  /** The blob id in the commit's tree, and in the new index; null: none. */
  head: string | null;
  index: string | null;
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
 * Snapshots and fingerprints of local repositories. In a work tree the current state is what
 * the person's editor shows, uncommitted edits included: files git status names are read from
 * disk and hashed (their blob ids remembered, so {@link workTreePath} can find them again).
 * The last fingerprint is remembered with the stat data it rests on and a watch of the work
 * tree, so an unchanged repository is answered without starting git.
 */
export class LocalSnapshots {
  /** Per repository: blob ids of work-tree contents (not in the object database) → their path, from the last snapshot. */
  private readonly workTreeBlobs = new Map<string, Map<string, string>>();
  /** Per repository: the last fingerprint and what it rests on (see {@link fingerprint}). */
  private readonly known = new Map<string, KnownFingerprint>();
  /** Per work tree (by its path): the watch that tells whether anything in it changed. */
  private readonly watches = new Map<string, WorkTreeWatch>();
  /** Per repository (by its git dir): the last work-tree snapshot, handed out again while nothing it rests on moved. */
  private readonly lastSnapshots = new Map<string, Snapshot>();
  /** Per repository (by its git dir): the work-tree snapshot being taken now, which a second caller waits for. */
  private readonly taking = new Map<string, Promise<Snapshot>>();

  private readonly formats: ObjectFormats;
  private readonly recovery: CommitRecovery;

  constructor(formats: ObjectFormats, recovery: CommitRecovery) {
    this.formats = formats;
    this.recovery = recovery;
  }

  /** The state of the repository's branch, work-tree edits included (RepoHost.snapshot). */
  async snapshot(repo: LocalRepo): Promise<Snapshot> {
    if (repo.workTree === null || repo.realWorkTree === null) {
      const ref = await headRef(repo);
      const head = await resolveHead(repo, ref);
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

    // Callers at once share one `git status` and `git ls-files` (the server's start asks for
    // the same repository from several places); a later caller gets the last snapshot again
    // while nothing it rests on moved (the same test as fingerprint's).
    const running = this.taking.get(repo.gitDir);
    if (running !== undefined) await running.catch(() => undefined);
    const last = this.lastSnapshots.get(repo.gitDir);
    const known = this.known.get(repo.gitDir);
    if (last !== undefined && known !== undefined && last.fingerprint === known.fingerprint && (await this.unchangedSince(repo, known)))
      return copyOf(last);
    const taking = this.takeWorkTreeSnapshot(repo, repo.realWorkTree);
    this.taking.set(repo.gitDir, taking);
    try {
      const taken = await taking;
      this.lastSnapshots.set(repo.gitDir, taken);
      return copyOf(taken);
    } catch (error) {
      this.lastSnapshots.delete(repo.gitDir);
      throw error;
    } finally {
      if (this.taking.get(repo.gitDir) === taking) this.taking.delete(repo.gitDir);
    }
  }

  /**
   * The paths of the files under `folder/` that {@link snapshot} would list now (RepoHost
   * pathsUnder), without its whole-work-tree `git status` and watch: the same status and
   * index entries, limited to the folder (nothing to ask when the work tree has no such
   * folder); the last snapshot when it is still current. For the first answers of a start.
   */
  async pathsUnder(repo: LocalRepo, folder: string): Promise<string[]> {
    const prefix = `${folder}/`;
    const last = this.lastSnapshots.get(repo.gitDir);
    const known = this.known.get(repo.gitDir);
    const current =
      repo.workTree === null || repo.realWorkTree === null
        ? null
        : last !== undefined && known !== undefined && last.fingerprint === known.fingerprint && (await this.unchangedSince(repo, known))
          ? last
          : undefined;
    if (current === null) return (await this.snapshot(repo)).files.map((file) => file.path).filter((path) => path.startsWith(prefix));
    if (current !== undefined) return current.files.map((file) => file.path).filter((path) => path.startsWith(prefix));
    const realWorkTree = repo.realWorkTree!;
    await this.recovery.ifNeeded(repo);
    // No such folder on disk: the work tree (what the snapshot lists) has no file in it.
    if (!(await isFolder(join(repo.workTree!, ...folder.split('/'))))) return [];
    await waitForIndexUnlocked(repo.gitDir);
    // Side by side, as the snapshot: both only read the index.
    const [status, listed] = await Promise.all([
      workTreeStatus(repo, folder),
      runGit(['ls-files', '-s', '-z', '--', folder], { ...inWorkTree(repo), env: LITERAL }),
    ]);
    const tracked = trackedEntries(listed.stdout);
    const fromDisk = pathsOnDisk(status.paths, tracked);
    const paths = new Set<string>();
    for (const path of tracked.keys()) if (!fromDisk.has(path)) paths.add(path);
    for (const path of fromDisk) if ((await readWorkTreeEntry(realWorkTree, repo.realGitDir, path)) !== null) paths.add(path);
    return [...paths].filter((path) => path.startsWith(prefix)).sort(byCodeUnits);
  }

  /** A work tree's snapshot from git (status, then the index's entries) and the disk. */
  private async takeWorkTreeSnapshot(repo: LocalRepo, realWorkTree: string): Promise<Snapshot> {
    // Not while another writer holds the index lock: its branch may have moved while the
    // files on disk are still the old ones (bounded: a stale lock only delays the read).
    await this.recovery.ifNeeded(repo);
    await waitForIndexUnlocked(repo.gitDir);
    // Side by side: both only read the index (GIT_OPTIONAL_LOCKS=0 keeps status from writing it).
    const [{ status, fingerprint }, listed] = await Promise.all([
      this.checkWorkTree(repo),
      runGit(['ls-files', '-s', '-z'], inWorkTree(repo)),
    ]);
    const head = status.head;
    const tracked = trackedEntries(listed.stdout);
    const fromDisk = pathsOnDisk(status.paths, tracked);
    const format = await this.formats.of(repo);
    const diskBlobs = new Map<string, string>();
    const entries = new Map<string, SnapshotEntry>();
    for (const [path, entry] of tracked) if (!fromDisk.has(path)) entries.set(path, { path, oid: entry.oid });
    for (const path of fromDisk) {
      const read = await readWorkTreeEntry(realWorkTree, repo.realGitDir, path);
      if (read === null) continue;
      const oid = blobId(read.content, format);
      entries.set(path, read.target === undefined ? { path, oid } : { path, oid, target: read.target });
      diskBlobs.set(oid, path);
    }
    this.workTreeBlobs.set(repo.name, diskBlobs);
    const files = [...entries.values()].sort((a, b) => byCodeUnits(a.path, b.path));
    return { head, fingerprint, files, uncommitted: fromDisk };
  }

  /**
   * Called by a commit of this server with the index lock held, before it changes anything:
   * the last snapshot of the work tree when it is still current (the test of {@link snapshot}),
   * to carry forward with {@link afterOwnCommit}; null otherwise.
   */
  async beforeOwnCommit(repo: LocalRepo): Promise<SnapshotBase | null> {
    if (repo.workTree === null || this.taking.has(repo.gitDir)) return null;
    const last = this.lastSnapshots.get(repo.gitDir);
    const known = this.known.get(repo.gitDir);
    if (last === undefined || known === undefined || known.changes === null || last.fingerprint !== known.fingerprint) return null;
    if (!(await this.unchangedSince(repo, known))) return null;
    return { snapshot: last, known, mark: known.changes };
  }

  /**
   * After a commit of this server landed on `base`'s head in the work tree (branch moved to
   * `commit`, files placed, index in place, the index lock still held): keeps `base` with the
   * commit's paths changed as the snapshot, so the next write needs no `git status` and
   * `git ls-files`. Only when that is provably what they would find: the watch saw nothing
   * since `base` but at these paths, their folders and their temporaries; HEAD still names the
   * same branch, now at `commit` (read after the stat data the next test compares); and each
   * path holds what the commit wrote (read back after the watch's count was taken). A path is
   * uncommitted, as git status would name it, when disk, index and commit differ. Otherwise
   * the last snapshot is dropped and the next one asks git. Never throws.
   */
  async afterOwnCommit(
    repo: LocalRepo,
    base: SnapshotBase,
    parent: string | null,
    commit: string,
    paths: readonly OwnCommitPath[],
  ): Promise<void> {
    try {
      if (!(await this.carryForward(repo, base, parent, commit, paths))) this.lastSnapshots.delete(repo.gitDir);
    } catch {
      this.lastSnapshots.delete(repo.gitDir);
    }
  }

  private async carryForward(
    repo: LocalRepo,
    base: SnapshotBase,
    parent: string | null,
    commit: string,
    paths: readonly OwnCommitPath[],
  ): Promise<boolean> {
    const workTree = repo.workTree;
    if (workTree === null || base.snapshot.head !== parent || this.taking.has(repo.gitDir)) return false;
    if (this.lastSnapshots.get(repo.gitDir) !== base.snapshot || this.known.get(repo.gitDir) !== base.known) return false;
    const watch = this.watches.get(workTree);
    if (watch === undefined || !watch.healthy) return false;
    // Until a new folder's watch is in place: its count would otherwise come after the mark.
    await watch.quiet();
    const mark = watch.changes;
    const seen = watch.pathsSince(base.mark);
    if (seen === null) return false;
    const files = new Set<string>([join(workTree, '.git')]);
    const folders = new Set<string>();
    for (const { path } of paths) {
      const segments = path.split('/');
      files.add(join(workTree, ...segments));
      folders.add(dirname(join(workTree, ...segments)));
      for (let i = 0; i < segments.length; i++) files.add(join(workTree, ...segments.slice(0, i)));
    }
    // The commit's own temporaries (`.mv-*`, commit-journal.ts) beside its paths.
    const ours = (seenPath: string) => files.has(seenPath) || (basename(seenPath).startsWith('.mv-') && folders.has(dirname(seenPath)));
    for (const seenPath of seen) {
      if (ours(seenPath)) continue;
      // A watched folder that went away names itself (`<folder>/<its name>`): ours when it is
      // one of the commit's folders and nothing of that name is there.
      const folder = dirname(seenPath);
      const itself = files.has(folder) && basename(seenPath) === basename(folder);
      if (!itself || (await lstat(seenPath).catch(() => null)) !== null) return false;
    }
    // What each path holds now, read side by side (a move rewrites hundreds of files) and,
    // like the stat data below, after the mark.
    const onDisk = settleEach(paths, async (file) => {
      const full = join(workTree, ...file.path.split('/'));
      const info = await lstat(full).catch(() => null);
      const same = info !== null && info.isFile() && file.disk !== null ? (await readFile(full)).equals(file.disk) : false;
      return { info, same };
    });
    const gitFiles = await this.gitFilesStat(repo, base.known.ref);
    if (gitFiles === '') return false;
    const branch = await readBranchFiles(repo.gitDir).catch(() => undefined);
    if (branch === undefined || branch.ref !== base.known.ref || branch.head !== commit) return false;
    const format = await this.formats.of(repo);
    const entries = new Map(base.snapshot.files.map((entry) => [entry.path, entry]));
    const uncommitted = new Set(base.snapshot.uncommitted ?? []);
    const diskBlobs = new Map(this.workTreeBlobs.get(repo.name) ?? []);
    const found = await onDisk;
    for (const [i, file] of paths.entries()) {
      const outcome = found[i]!;
      if (outcome.status === 'rejected') return false;
      const { info, same } = outcome.value;
      entries.delete(file.path);
      uncommitted.delete(file.path);
      if (file.disk === null) {
        if (info !== null) return false;
        if (file.index !== null || file.head !== null) uncommitted.add(file.path);
        continue;
      }
      if (info === null || !info.isFile() || ((info.mode & 0o100) !== 0) !== (file.mode === '100755')) return false;
      if (!same) return false;
      const disk = blobId(file.disk, format);
      if (disk === file.index && file.index === file.head) {
        entries.set(file.path, { path: file.path, oid: disk });
        continue;
      }
      entries.set(file.path, { path: file.path, oid: disk });
      uncommitted.add(file.path);
      diskBlobs.set(disk, file.path);
    }
    const fingerprint = createHash('sha1').update(`own-commit\0${commit}\0${gitFiles}\0${mark}`).digest('hex');
    const sorted = [...entries.values()].sort((a, b) => byCodeUnits(a.path, b.path));
    this.workTreeBlobs.set(repo.name, diskBlobs);
    this.known.set(repo.gitDir, { fingerprint, ref: base.known.ref, head: commit, gitFiles, changes: mark, at: base.known.at });
    this.lastSnapshots.set(repo.gitDir, { head: commit, fingerprint, files: sorted, uncommitted });
    return true;
  }

  /** The work-tree path whose content had blob id `oid` at the last snapshot of `repoName`, if any. */
  workTreePath(repoName: string, oid: string): string | undefined {
    return this.workTreeBlobs.get(repoName)?.get(oid);
  }

  /**
   * Cheap when nothing changed: git runs only when the stat data of HEAD, the branch's ref,
   * packed-refs or the index moved, or (with a work tree) the work tree's watch saw a change,
   * or {@link FULL_CHECK_INTERVAL_MS} passed; otherwise the last fingerprint is the answer.
   * With a work tree, one `git status` gives the branch, its head and the changes.
   */
  async fingerprint(repo: LocalRepo): Promise<string> {
    const known = this.known.get(repo.gitDir);
    if (known !== undefined && (await this.unchangedSince(repo, known))) return known.fingerprint;
    if (repo.workTree === null) {
      const gitFiles = await this.gitFilesStat(repo, known?.ref ?? null);
      const ref = await headRef(repo);
      const head = await resolveHead(repo, ref);
      const fingerprint = bareFingerprint(ref, head);
      this.known.set(repo.gitDir, { fingerprint, ref, head, gitFiles, changes: null, at: Date.now() });
      return fingerprint;
    }
    await this.recovery.ifNeeded(repo);
    return (await this.checkWorkTree(repo)).fingerprint;
  }

  /**
   * The ref HEAD names and its commit: from the last fingerprint when the stat data of HEAD,
   * the ref, packed-refs and the index are still what they were then (no git process), else
   * from git.
   */
  async branchOf(repo: LocalRepo): Promise<{ ref: string; head: string | null }> {
    const known = this.known.get(repo.gitDir);
    if (known !== undefined && known.gitFiles !== '' && (await this.gitFilesStat(repo, known.ref)) === known.gitFiles)
      return { ref: known.ref, head: known.head };
    // Git's files answer without a process where their layout allows (the first calls of a start).
    const read = await readBranchFiles(repo.gitDir).catch(() => undefined);
    if (read !== undefined) return read;
    const ref = await headRef(repo);
    return { ref, head: await resolveHead(repo, ref) };
  }

  /** Drops the fingerprint and the watch of a repository that went away or changed its layout. */
  forget(repo: LocalRepo): void {
    this.known.delete(repo.gitDir);
    this.lastSnapshots.delete(repo.gitDir);
    if (repo.workTree !== null) {
      this.watches.get(repo.workTree)?.close();
      this.watches.delete(repo.workTree);
    }
  }

  /** Stops every watch and forgets every fingerprint. */
  close(): void {
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
    this.known.clear();
    this.lastSnapshots.clear();
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
    // The ref HEAD names, for its stat data: the last one known, else read from HEAD (or asked
    // of git, a cheap `symbolic-ref`), so even the first check can answer the next call without `git status`.
    const ref =
      this.known.get(repo.gitDir)?.ref ?? (await readBranchFiles(repo.gitDir).catch(() => undefined))?.ref ?? (await headRef(repo));
    const gitFiles = await this.gitFilesStat(repo, ref);
    const status = await workTreeStatus(repo);
    const fingerprint = await workTreeFingerprint(repo, status);
    // The stat data was taken without the loose ref HEAD names now: take it again next time.
    const stale = ref !== status.ref;
    this.known.set(repo.gitDir, {
      fingerprint,
      ref: status.ref,
      head: status.head,
      gitFiles: stale ? '' : gitFiles,
      changes,
      at: Date.now(),
    });
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
    const files = [
      'HEAD',
      'packed-refs',
      ...(repo.workTree !== null ? ['index'] : []),
      ...(ref !== null && ref.startsWith('refs/') ? [ref] : []),
    ];
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
}

/** One `git status` for the branch, its head and every changed, deleted or untracked path (only under `folder`, when given). */
async function workTreeStatus(repo: LocalRepo, folder?: string): Promise<WorkTreeStatus> {
  const { stdout } = await runGit(
    [
      'status',
      '--porcelain=v2',
      '--branch',
      '--no-ahead-behind',
      '-z',
      '--untracked-files=all',
      '--no-renames',
      '--ignore-submodules=all',
      ...(folder !== undefined ? ['--', folder] : []),
    ],
    folder !== undefined ? { ...inWorkTree(repo), env: LITERAL } : inWorkTree(repo),
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
async function workTreeFingerprint(repo: LocalRepo, status: WorkTreeStatus): Promise<string> {
  const hash = createHash('sha1').update(`worktree\0${status.ref}\0${status.head ?? ''}\0`);
  hash.update(await statLine(join(repo.gitDir, 'index')));
  hash.update(status.raw);
  // A file edited twice keeps the same status line: its size and mtime tell the edits apart.
  for (const path of status.paths) hash.update(`${path}\0${await statLine(join(repo.workTree!, ...path.split('/')))}`);
  return hash.digest('hex');
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
  return createHash('sha1')
    .update(`bare\0${ref}\0${head ?? ''}`)
    .digest('hex');
}

/** A snapshot a caller may change without changing the one kept: its own list of files and set of uncommitted paths. */
function copyOf(snapshot: Snapshot): Snapshot {
  return {
    ...snapshot,
    files: [...snapshot.files],
    ...(snapshot.uncommitted !== undefined ? { uncommitted: new Set(snapshot.uncommitted) } : {}),
  };
}

/** The files in `git ls-files -s -z` output, by path (submodules, mode 160000, are not files). */
function trackedEntries(lsFilesOutput: Buffer): Map<string, TreeEntry> {
  const tracked = new Map<string, TreeEntry>();
  for (const record of splitNul(lsFilesOutput)) {
    const tab = record.indexOf('\t');
    const [mode = '', oid = ''] = record.slice(0, tab).split(' ');
    if (mode === '160000') continue;
    tracked.set(record.slice(tab + 1), { mode, oid });
  }
  return tracked;
}

/**
 * The paths whose content is read from disk: what git status says differs, plus tracked
 * symbolic links (the editor shows their target's content); the rest is the index's blobs.
 */
function pathsOnDisk(statusPaths: Iterable<string>, tracked: Map<string, TreeEntry>): Set<string> {
  const fromDisk = new Set(statusPaths);
  for (const [path, entry] of tracked) if (entry.mode === '120000') fromDisk.add(path);
  return fromDisk;
}
