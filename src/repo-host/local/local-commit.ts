// Commits to a local repository: plumbing on a temporary index, landed with compare-and-swap, written into the work tree.
import { stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { VaultError } from '../../vault-error.ts';
import { blobId, type ObjectFormat } from '../git/blob-id.ts';
import { cleanIdentPart } from '../git/commit-ident.ts';
import { GitError, runGit } from '../git/run-git.ts';
import type { Person } from '../person.ts';
import { contentAfter, type Change, type CommitResult, type FileChange } from '../repo-host.ts';
import type { CommitAuthors } from './commit-author.ts';
import { newToken, removeJournal, tempName, writeJournal, type JournalPath } from './commit-journal.ts';
import type { CommitRecovery } from './commit-recovery.ts';
import { fastImportCommit, type CommitFile, type CommitMeta } from './fast-import-commit.ts';
import { looseObjectsDir, writeLooseCommit } from './loose-commit.ts';
import { IndexLock, inspectIndexLock } from './index-lock.ts';
import { commitEntries, finishUnderLock } from './interrupted-commit.ts';
import { resolveHead, type LocalRepo, type ObjectFormats } from './local-repo.ts';
import { DEFAULT_PERSON } from './local-sign-in.ts';
import { thisProcess } from './lock-owner.ts';
import { lookAtPaths, type KnownState, type PathLook, type StableObjectReader, type TreeItem } from './path-look.ts';
import { assertRepoPath } from './repo-path.ts';
import { settleEach } from './settle-each.ts';
import { isWritableInside, readAsGitSeesIt, readWorkTreeFile } from './work-tree-file.ts';
import { WorkTreeWrite, type DiskBefore } from './work-tree-write.ts';
import { KeyedQueue } from '../../keyed-queue.ts';
import type { LocalSnapshots, SnapshotBase } from './local-snapshot.ts';
import { keepStagedChanges, type KnownEntries } from './staged-entries.ts';
import { prepareIndexEntries, writeIndexEntries, type IndexEntry } from './write-index-entries.ts';

/** What {@link LocalCommits} works with. */
export interface LocalCommitsDeps {
  /** The repository served as a name; VaultError `repo_not_found` when there is none. */
  repoNamed: (name: string) => Promise<LocalRepo>;
  formats: ObjectFormats;
  recovery: CommitRecovery;
  authors: CommitAuthors;
  /** The host's snapshots, carried forward over its own commits (LocalSnapshots.beforeOwnCommit); absent: not. */
  snapshots?: Pick<LocalSnapshots, 'beforeOwnCommit' | 'afterOwnCommit'>;
  /** Reads of objects that never change through a kept `cat-file` (KeptCatFiles.objects); absent: a process per commit. */
  objects?: StableObjectReader;
}

/**
 * Commits a change to a local repository (RepoHost.commit). Commits are written as loose
 * objects by this process (loose-commit.ts) and land with `update-ref HEAD NEW OLD`
 * (compare-and-swap). In a work tree the index lock is held from before the index is looked at until the new index is in place,
 * a journal lets the next server finish or drop a commit a crash interrupted
 * (interrupted-commit.ts), and the files are written back into the work tree and its index.
 */
export class LocalCommits {
  private readonly commitQueues = new KeyedQueue();
  private readonly repoNamed: (name: string) => Promise<LocalRepo>;
  private readonly formats: ObjectFormats;
  private readonly recovery: CommitRecovery;
  private readonly authors: CommitAuthors;
  private readonly snapshots: LocalCommitsDeps['snapshots'];
  private readonly objects: StableObjectReader | undefined;

  constructor(deps: LocalCommitsDeps) {
    this.snapshots = deps.snapshots;
    this.objects = deps.objects;
    this.repoNamed = deps.repoNamed;
    this.formats = deps.formats;
    this.recovery = deps.recovery;
    this.authors = deps.authors;
  }

  /** Commits `change` to the repository served as `repoName`, one commit at a time per repository (see RepoHost.commit). */
  commit(repoName: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
    // One commit at a time per repository inside this process; correctness still comes from
    // update-ref's compare-and-swap, since other processes (git itself) may commit too.
    return this.commitQueues.run(repoName, () => this.commitNow(repoName, change, preparedFrom));
  }

  /** Settles when the commits running or queued now have settled, to wait for at close. */
  settled(): Promise<void> {
    return this.commitQueues.settled();
  }

  private async commitNow(repoName: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
    const repo = await this.repoNamed(repoName);
    assertWellFormedChange(change);
    if (repo.realWorkTree !== null) {
      const realWorkTree = repo.realWorkTree;
      const writable = await settleEach(change.files, (file) => isWritableInside(realWorkTree, repo.realGitDir, file.path));
      for (const [i, file] of change.files.entries()) {
        const outcome = writable[i]!;
        if (outcome.status === 'rejected') throw outcome.reason;
        if (!outcome.value) {
          throw new VaultError(
            'invalid_path',
            `"${file.path}" lies behind a symbolic link that leads outside the repository; choose a path inside it.`,
          );
        }
      }
    }
    const author = await this.authors.authorOf(repo, change.author);
    if (repo.workTree === null) return this.commitLocked(repo, change, author, preparedFrom, null);
    // Held from before the index is looked at until the new index is in place: across
    // update-ref and the rewrite of the files, so another server sharing the work tree never
    // sees the branch moved while the files on disk are still the old ones.
    await this.recovery.ifNeeded(repo, true);
    let lock = await IndexLock.take(resolve(repo.gitDir));
    if (lock === null) {
      // Its holder may have died while this one waited: a server's lock is then recovered from.
      await this.recovery.ifNeeded(repo, true);
      lock = await IndexLock.take(resolve(repo.gitDir), 0);
    }
    if (lock === null) throw await this.lockedRefusal(repo);
    try {
      // A journal of a server that is gone, left while someone else held the lock: finished
      // now, so this commit never starts from files that lag the branch (the check of what
      // the change was prepared from then asks for a new preparation).
      const finished = await finishUnderLock(
        { name: repo.name, gitDir: repo.gitDir, workTree: repo.workTree, format: await this.formats.of(repo) },
        lock,
      );
      for (const sentence of finished) this.recovery.tell(sentence);
      const base = (await this.snapshots?.beforeOwnCommit(repo)) ?? null;
      return await this.commitLocked(repo, change, author, preparedFrom, lock, base);
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
   * head, the parent's tree along the paths and their index entries (none started when `base`,
   * the snapshot proven current under the lock, knows the head and that no path has uncommitted
   * changes: the trees then come from the kept `cat-file`, see {@link knownState}); the checks;
   * blobs, trees and commit written with no process ({@link makeCommit}); the new files staged
   * beside their places; then
   * `update-ref HEAD NEW OLD`, the renames and one `update-index`. After update-ref, a failure
   * puts the files and the branch back as they were and throws.
   */
  private async commitLocked(
    repo: LocalRepo,
    change: Change,
    author: Person,
    preparedFrom: ReadonlyMap<string, string | null> | undefined,
    lock: IndexLock | null,
    base: SnapshotBase | null = null,
  ): Promise<CommitResult> {
    const parent = change.parent;
    const paths = change.files.map((file) => file.path);
    const format = await this.formats.of(repo);
    // The index entries only matter for paths the change was not prepared from (see checkWorkTreePaths).
    // With a work tree the index entries are always read here (the same cat-file): the new
    // index keeps staged changes (keepStagedChanges), and that need not ask git again.
    const look = await lookAtPaths(repo.gitDir, parent, paths, { index: lock !== null, ...this.knownState(lock, base, paths) });
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
      if (file.content !== null)
        newOids.set(file.path, {
          mode: look.entries.get(file.path)?.mode === '100755' ? '100755' : '100644',
          oid: blobId(file.content, format),
        });
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
      const token = await this.journal(repo, change, parent, before ?? new Map());
      try {
        const staged = await WorkTreeWrite.stage(
          repo.workTree!,
          change.files.map((file) => ({ path: file.path, content: onDisk(file), mode: newOids.get(file.path)?.mode ?? '100644' })),
          (path) => tempName(token, path),
        );
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
    const commitFiles = changed.map((file) => ({ path: file.path, content: file.content, mode: newOids.get(file.path)?.mode ?? '100644' }));
    const meta = { parent, name, email: cleanIdentPart(author.email), date: gitDate(new Date()), message };
    const subject = message.split('\n')[0] ?? '';
    if (lock === null) return this.updateRef(repo, await makeCommit(repo, format, look, commitFiles, meta), parent, format, subject);
    // A journal without its commit yet (`new` empty: recovery drops it and removes its
    // temporaries), so the files and the index copy can be prepared while the commit is written.
    const token = newToken();
    const journaled = await this.journalPaths(repo, change, before ?? new Map());
    await writeJournal(repo.gitDir, { owner: thisProcess(), token, old: parent, new: '', paths: journaled });
    try {
      const made = await this.prepareLanding(repo, lock, token, change, newOids, makeCommit(repo, format, look, commitFiles, meta), {
        staged: look.indexOids,
        parent: look.entries,
      });
      // From here on a crash is recovered from by the next server (interrupted-commit.ts): the
      // journal names the commit, the paths with what the disk held, and the temporaries.
      try {
        await writeJournal(repo.gitDir, { owner: thisProcess(), token, old: parent, new: made.commit, paths: journaled });
      } catch (error) {
        await made.staged.discard();
        await unlink(made.indexCopy).catch(() => undefined);
        throw error;
      }
      const landed = await this.landInWorkTree(repo, lock, token, change, made, parent, before ?? new Map(), subject);
      if (landed.ok && base !== null && this.snapshots !== undefined) {
        const indexOids = new Map(made.indexEntries.map((entry) => [entry.path, entry.oid]));
        const paths = change.files.map((file) => ({
          path: file.path,
          disk: onDisk(file),
          mode: newOids.get(file.path)?.mode ?? '100644',
          head: newOids.get(file.path)?.oid ?? null,
          index: indexOids.get(file.path) ?? null,
        }));
        await this.snapshots.afterOwnCommit(repo, base, parent, made.commit, paths);
      }
      return landed;
    } finally {
      await removeJournal(repo.gitDir);
    }
  }

  /**
   * What `base` (the last snapshot, proven current with the index lock held) tells
   * {@link lookAtPaths} so that it starts no git: the head, and that each of `paths` is in the
   * index as at the head (none is uncommitted); nothing when there is no such snapshot, no kept
   * `cat-file`, or a path has uncommitted changes (its index entry is then asked of git).
   */
  private knownState(
    lock: IndexLock | null,
    base: SnapshotBase | null,
    paths: readonly string[],
  ): { known?: KnownState; objects?: StableObjectReader } {
    const uncommitted = base?.snapshot.uncommitted;
    if (lock === null || base === null || uncommitted === undefined || this.objects === undefined) return {};
    if (paths.some((path) => uncommitted.has(path))) return {};
    return { known: { head: base.snapshot.head }, objects: this.objects };
  }

  /**
   * Side by side, as none needs another: `importing` makes the commit (see {@link makeCommit}), the files are staged
   * beside their places, and the private index copy gets the change's entries (the committed
   * blobs' ids are known without the objects). A failure of any undoes the others and throws.
   */
  private async prepareLanding(
    repo: LocalRepo,
    lock: IndexLock,
    token: string,
    change: Change,
    newOids: ReadonlyMap<string, TreeItem>,
    importing: Promise<string>,
    known: KnownEntries,
  ): Promise<PreparedLanding> {
    const where = { gitDir: repo.gitDir, workTree: repo.workTree! };
    const files = change.files.map((file) => ({ path: file.path, content: onDisk(file), mode: newOids.get(file.path)?.mode ?? '100644' }));
    const [written, deleted] = indexEntriesOf(change, newOids);
    const [commit, staged, indexCopy] = await Promise.allSettled([
      importing,
      WorkTreeWrite.stage(repo.workTree!, files, (path) => tempName(token, path)),
      keepStagedChanges(where, change.parent, written, known, importing).then(async (entries) => ({
        entries,
        copy: await prepareIndexEntries(where, lock, token, entries, deleted, { refresh: false }),
      })),
    ]);
    if (commit.status === 'fulfilled' && staged.status === 'fulfilled' && indexCopy.status === 'fulfilled')
      return { commit: commit.value, staged: staged.value, indexCopy: indexCopy.value.copy, indexEntries: indexCopy.value.entries };
    if (staged.status === 'fulfilled') await staged.value.discard();
    if (indexCopy.status === 'fulfilled') await unlink(indexCopy.value.copy).catch(() => undefined);
    throw [commit, staged, indexCopy].find((settled) => settled.status === 'rejected')!.reason;
  }

  /**
   * Writes the journal of a write that changes only the work tree (see commit-journal.ts):
   * `new` is the parent. Returns its token, which names the write's temporaries.
   */
  private async journal(repo: LocalRepo, change: Change, parent: string, before: ReadonlyMap<string, DiskBefore>): Promise<string> {
    const token = newToken();
    const paths = await this.journalPaths(repo, change, before);
    await writeJournal(repo.gitDir, { owner: thisProcess(), token, old: parent, new: parent, paths });
    return token;
  }

  /**
   * The journal's paths (see commit-journal.ts): for each path the blob id of what Git sees on
   * disk now, and the blob of the person's uncommitted text around the change, written now.
   */
  private async journalPaths(repo: LocalRepo, change: Change, before: ReadonlyMap<string, DiskBefore>): Promise<JournalPath[]> {
    const format = await this.formats.of(repo);
    const paths: JournalPath[] = [];
    for (const file of change.files) {
      const old = before.get(file.path) ?? null;
      const entry: JournalPath = {
        path: file.path,
        before: old === null ? null : old.kind === 'file' ? blobId(old.content, format) : 'other',
      };
      const disk = onDisk(file);
      // The person's uncommitted text around the change is in no commit: stored as a blob, so
      // recovery places exactly what this write would have.
      if (disk !== null && file.content !== null && !disk.equals(file.content)) {
        entry.disk = (await runGit(['hash-object', '-w', '--stdin'], { gitDir: repo.gitDir, input: disk })).stdout.toString('utf8').trim();
      }
      paths.push(entry);
    }
    return paths;
  }

  /**
   * Puts the prepared index copy in place, moves the branch (`update-ref HEAD NEW OLD`) and
   * renames the staged files into place; after update-ref, a failure puts the files and the
   * branch back as they were and throws.
   */
  private async landInWorkTree(
    repo: LocalRepo,
    lock: IndexLock,
    token: string,
    change: Change,
    made: PreparedLanding,
    parent: string | null,
    before: ReadonlyMap<string, DiskBefore>,
    subject: string,
  ): Promise<CommitResult> {
    const format = await this.formats.of(repo);
    const { commit, staged } = made;
    // The index goes in place before the branch moves. A person's plain `git commit` reads
    // HEAD, then the index, without taking the lock, and its own ref update expects the HEAD
    // it read: with the index first, it either commits on the new head with the new index, or
    // its ref update is refused because this one moved the branch. With the branch first, it
    // could see the new head with the old index and commit a revert of this change.
    try {
      await lock.commitIndex(made.indexCopy);
    } catch (error) {
      await unlink(made.indexCopy).catch(() => undefined);
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
    const format = await this.formats.of(repo);
    const workTree = repo.workTree!;
    const before = new Map<string, DiskBefore>();
    // What each path needs from the disk, read side by side; then judged path by path, in order.
    const settled = await settleEach(change.files, async (file) => {
      const writing = file.content !== null;
      const [onDisk, fileOnTheWay, seen] = await Promise.all([
        readAsGitSeesIt(workTree, file.path),
        writing ? firstFileOnTheWay(workTree, file.path) : null,
        preparedFrom?.has(file.path) ? readWorkTreeFile(repo.realWorkTree!, repo.realGitDir, file.path) : null,
      ]);
      return { onDisk, fileOnTheWay, seen };
    });
    for (const [i, file] of change.files.entries()) {
      const read = settled[i]!;
      if (read.status === 'rejected') throw read.reason;
      const { onDisk, fileOnTheWay, seen } = read.value;
      const path = file.path;
      const writing = file.content !== null;
      before.set(path, onDisk);
      if (writing) {
        if (onDisk?.kind === 'directory') refuseClash(path, 'a folder of that name is in the work tree');
        if (fileOnTheWay !== null) refuseClash(path, `"${fileOnTheWay}" is a file, not a folder`);
      }
      const head = look.entries.get(path);
      if (preparedFrom?.has(path)) {
        const prepared = preparedFrom.get(path) ?? null;
        if (prepared === null && writing && (head?.mode === '120000' || onDisk?.kind === 'symlink'))
          refuseClash(path, 'a symbolic link of that name is there');
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
  private async updateRef(
    repo: LocalRepo,
    commit: string,
    parent: string | null,
    format: ObjectFormat,
    subject: string,
  ): Promise<CommitResult> {
    const args = ['update-ref', '-m', `major-vault: ${subject}`.slice(0, 200), 'HEAD', commit, parent ?? zeroOid(format)];
    for (let attempt = 0; ; attempt++) {
      try {
        await runGit(args, { gitDir: repo.gitDir });
        return { ok: true, commit };
      } catch (error) {
        if (!(error instanceof GitError)) throw error;
        const now = await resolveHead(repo, 'HEAD');
        // The branch is at this commit: update-ref moved it, and only its answer was lost (the
        // git runner ended, git was killed after the move). The commit landed.
        if (now === commit) return { ok: true, commit };
        if (now !== parent) return { ok: false, conflict: 'head_moved', head: now };
        // Still at the parent: the ref was locked by another git process for a moment.
        if (attempt >= 20) throw error;
        await delay(25 + attempt * 25);
      }
    }
  }

  /** Undoes a landed commit after a failure: `update-ref HEAD OLD NEW` (or deletes the branch it created); false when that failed. */
  private async moveBranchBack(repo: LocalRepo, commit: string, parent: string | null): Promise<boolean> {
    const args =
      parent === null
        ? ['update-ref', '-d', 'HEAD', commit]
        : ['update-ref', '-m', 'major-vault: undo a commit the work tree could not take', 'HEAD', parent, commit];
    try {
      await runGit(args, { gitDir: repo.gitDir });
      return true;
    } catch {
      return false;
    }
  }

  /** The changed paths' index entries (see {@link writeIndexEntries}); the index is put in place, the lock stays held. */
  private async writeIndex(
    repo: LocalRepo,
    lock: IndexLock,
    token: string,
    change: Change,
    newOids: ReadonlyMap<string, TreeItem>,
  ): Promise<void> {
    const [written, deleted] = indexEntriesOf(change, newOids);
    const where = { gitDir: repo.gitDir, workTree: repo.workTree! };
    await writeIndexEntries(where, lock, token, await keepStagedChanges(where, change.parent, written), deleted);
  }

  /** Puts the index entries of the change's paths back to those of `parent` (a commit; null: none), after a failed landing. */
  private async restoreIndexEntries(repo: LocalRepo, lock: IndexLock, token: string, change: Change, parent: string | null): Promise<void> {
    const paths = change.files.map((file) => file.path);
    const entries = parent === null ? new Map<string, { mode: string; oid: string }>() : await commitEntries(repo.gitDir, parent, paths);
    const written = paths.flatMap((path) => {
      const entry = entries.get(path);
      return entry === undefined ? [] : [{ path, ...entry }];
    });
    await writeIndexEntries(
      { gitDir: repo.gitDir, workTree: repo.workTree! },
      lock,
      token,
      written,
      paths.filter((path) => !entries.has(path)),
      { refresh: false },
    );
  }
}

/** A commit made and its landing prepared (see LocalCommits.prepareLanding): the files staged, the index copy written. */
interface PreparedLanding {
  commit: string;
  staged: WorkTreeWrite;
  /** The private index copy with the change's entries, to rename over the index. */
  indexCopy: string;
  /** The entries written into it (the removed paths left out). */
  indexEntries: IndexEntry[];
}

/**
 * Writes the commit of `files` on `meta.parent` and returns its id: from this process as loose
 * objects (loose-commit.ts), on the parent's trees `look` read, which saves starting
 * `git fast-import` (and the `unpack-objects` it starts); with `git fast-import` where Git would
 * put objects elsewhere (`GIT_OBJECT_DIRECTORY`). Throws what either throws.
 */
async function makeCommit(
  repo: LocalRepo,
  format: ObjectFormat,
  look: PathLook,
  files: readonly CommitFile[],
  meta: CommitMeta,
): Promise<string> {
  const objectsDir = await looseObjectsDir(repo.gitDir);
  if (objectsDir === null) return fastImportCommit(repo.gitDir, files, meta);
  return writeLooseCommit(objectsDir, format, look.trees, files, meta);
}

/** The all-zero id: "no object" (a ref that must not exist yet, an index entry to remove). */
function zeroOid(format: ObjectFormat): string {
  return '0'.repeat(format === 'sha256' ? 64 : 40);
}

/** Git's date format `<unix seconds> <+hhmm>`, in the machine's time zone. */
function gitDate(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${Math.floor(date.getTime() / 1000)} ${sign}${hours}${minutes}`;
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

/** The index entries a change sets (written files with their mode and blob) and the paths it removes. */
function indexEntriesOf(change: Change, newOids: ReadonlyMap<string, TreeItem>): [IndexEntry[], string[]] {
  const written = change.files.filter((file) => file.content !== null).map((file) => ({ path: file.path, ...newOids.get(file.path)! }));
  const deleted = change.files.filter((file) => file.content === null).map((file) => file.path);
  return [written, deleted];
}

/**
 * Refuses a change no host can commit as it stands, before anything is written: a path the
 * port's rules refuse (repo-path.ts), one path named twice (VaultError `bad_arguments`), a file
 * written at a path the same change puts files inside (`exists`). Every adapter's commit starts here.
 */
export function assertWellFormedChange(change: Change): void {
  const seen = new Set<string>();
  for (const file of change.files) {
    assertRepoPath(file.path);
    if (seen.has(file.path)) throw new VaultError('bad_arguments', `The change names "${file.path}" twice; give each file once.`);
    seen.add(file.path);
  }
  assertNoFolderOfItself(change);
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
  return contentAfter(file);
}

/** VaultError `exists`: something at `path` (or on the way to it) that the change must not replace. */
export function refuseClash(path: string, what: string): never {
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
