// Finishes, or clears away, a commit that a server was killed in the middle of (its journal, lock and temporaries).
import { lstat, readdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { blobId, type ObjectFormat } from '../git/blob-id.ts';
import { catFileBatch } from '../git/cat-file-batch.ts';
import { headCommit } from '../git/head-commit.ts';
import { runGit, splitNul } from '../git/run-git.ts';
import { readJournal, removeJournal, tempName, type CommitJournal } from './commit-journal.ts';
import {
  IndexLock,
  indexCopyPath,
  inspectIndexLock,
  LONG_HELD_LOCK_MS,
  READ_LOCK_WAIT_MS,
  removeStaleOwnLock,
  serverFolder,
} from './index-lock.ts';
import { ownerAlive, processRuns } from './lock-owner.ts';
import { readAsGitSeesIt } from './work-tree-file.ts';
import { WorkTreeWrite } from './work-tree-write.ts';
import { writeIndexEntries, type IndexEntry } from './write-index-entries.ts';

/** A work-tree repository as recovery needs it. */
export interface RecoveryRepo {
  name: string;
  gitDir: string;
  workTree: string;
  format: ObjectFormat;
}

/**
 * Whether a Major Vault server that is no longer running left something behind in the
 * repository: its commit journal, or its `index.lock`. Cheap (a failed open and an lstat when
 * nothing is there), so every read and write can ask.
 */
export async function needsRecovery(gitDir: string): Promise<boolean> {
  const journal = await readJournal(gitDir);
  if (journal !== null && !ownerAlive(journal.owner)) return true;
  const lock = await inspectIndexLock(gitDir);
  return lock.state === 'own' && !lock.alive;
}

/**
 * Recovers from a server killed during a commit (issue 9: a crash never leaves a repository
 * that the next write corrupts). Removes its `index.lock` when its process is gone (never a
 * lock a live process or another program made), then, holding the lock itself, reads the
 * journal (commit-journal.ts) of a process that is gone:
 * - the branch is at the journal's new commit (`update-ref` ran): each path's file is put in
 *   the work tree as the write meant it (the commit's content, or the journal's `disk` blob:
 *   the change around the person's uncommitted edits) where the disk still holds what was
 *   there before the commit (or nothing was placed yet), never over a later edit, and every
 *   path's index entry is set to the commit's, so `git status` shows only the person's own
 *   pending edits and the next write starts from the head;
 * - the branch is elsewhere (the commit never landed, or someone moved on by hand): nothing
 *   of it is placed;
 * then its temporaries (`.mv-*` beside the paths, `index.mv-<token>`) and the journal go.
 * Returns a sentence per thing it did, for the log; [] when there was nothing to do, or when a
 * live process holds the lock (then that process is working and nothing is stale).
 */
export async function recoverInterruptedCommit(repo: RecoveryRepo): Promise<string[]> {
  const done: string[] = [];
  const before = await inspectIndexLock(repo.gitDir);
  if (before.state === 'own' && !before.alive && (await removeStaleOwnLock(repo.gitDir))) {
    done.push(
      `removed the .git/index.lock that Major Vault process ${before.owner.pid} left in "${repo.name}" ${Math.round(before.ageMs / 1000)} s ago (that process is gone)`,
    );
  }
  const journal = await readJournal(repo.gitDir);
  if ((journal === null || ownerAlive(journal.owner)) && done.length === 0) return done;
  // Not held up by a lock that has been there long (another program's, waiting for its user):
  // the next write, which waits for the lock anyway, finishes the journal under its own lock.
  const now = await inspectIndexLock(repo.gitDir);
  const lock = await IndexLock.take(repo.gitDir, now.state !== 'absent' && now.ageMs > LONG_HELD_LOCK_MS ? 0 : READ_LOCK_WAIT_MS);
  if (lock === null) return done;
  try {
    done.push(...(await finishUnderLock(repo, lock)));
    if (done.length > 0) await removeDeadMarkers(repo.gitDir);
  } finally {
    await lock.release();
  }
  return done;
}

/**
 * The part of {@link recoverInterruptedCommit} done with the index lock held (by the caller,
 * e.g. a write that has just taken it): finishes or drops the journaled commit of a process
 * that is gone, removes its temporaries and journal; [] when there is no such journal. Under
 * the lock, a journal whose process is gone cannot be in anyone else's hands.
 */
export async function finishUnderLock(repo: RecoveryRepo, lock: IndexLock): Promise<string[]> {
  const done: string[] = [];
  const journal = await readJournal(repo.gitDir);
  if (journal !== null && !ownerAlive(journal.owner)) {
    done.push(await finish(repo, lock, journal));
    await removeJournal(repo.gitDir);
    await removeDeadMarkers(repo.gitDir);
  }
  return done;
}

/** Finishes (or drops) the journaled commit with `lock` held; a sentence saying what was done. */
async function finish(repo: RecoveryRepo, lock: IndexLock, journal: CommitJournal): Promise<string> {
  await removeTemporaries(repo, journal);
  const head = await headCommit(repo.gitDir);
  const short = journal.new.slice(0, 7);
  if (head !== journal.new) {
    // The index may already hold the commit's entries (it goes in place before the branch
    // moves): the paths' entries go back to the branch head's.
    const paths = journal.paths.map((entry) => entry.path);
    const entries = head === null ? new Map<string, { mode: string; oid: string }>() : await commitEntries(repo.gitDir, head, paths);
    const kept = paths.flatMap((path) => {
      const entry = entries.get(path);
      return entry === undefined ? [] : [{ path, ...entry }];
    });
    await writeIndexEntries(
      repo,
      lock,
      journal.token,
      kept,
      paths.filter((path) => !entries.has(path)),
      { refresh: false },
    );
    const where =
      head === journal.old ? 'it never landed on the branch' : `the branch has moved on since, to ${head?.slice(0, 7) ?? 'nothing'}`;
    // A write interrupted before its commit was made journals no commit id.
    const what = short === '' ? 'a commit' : `the commit ${short}`;
    return `dropped ${what} that an interrupted Major Vault write left unfinished in "${repo.name}": ${where}, so none of its files were written`;
  }
  const paths = journal.paths.map((entry) => entry.path);
  const entries = await commitEntries(repo.gitDir, journal.new, paths);
  const toPlace: { path: string; mode: string; oid: string | null }[] = [];
  const kept: string[] = [];
  for (const { path, before, disk: diskWanted } of journal.paths) {
    const want = entries.get(path) ?? null;
    if (want?.mode === '120000') continue; // a link is never written by a commit of ours
    const target = want === null ? null : (diskWanted ?? want.oid);
    const onDisk = await readAsGitSeesIt(repo.workTree, path);
    const disk = onDisk === null ? null : onDisk.kind === 'file' ? blobId(onDisk.content, repo.format) : 'other';
    if (disk === target) continue;
    if (disk === before) toPlace.push({ path, mode: want?.mode ?? '100644', oid: target });
    else kept.push(path);
  }
  const blobs = await catFileBatch(
    repo.gitDir,
    toPlace.flatMap((file) => (file.oid === null ? [] : [file.oid])),
  );
  const contents = new Map(blobs.map((blob) => [blob.oid, blob.content]));
  const files = toPlace.map((file) => ({
    path: file.path,
    mode: file.mode,
    content: file.oid === null ? null : (contents.get(file.oid) ?? null),
  }));
  if (files.some((file, i) => file.content === null && toPlace[i]!.oid !== null))
    throw new Error(`A blob of commit ${journal.new} is missing in "${repo.name}"; run git fsck.`);
  const staged = await WorkTreeWrite.stage(repo.workTree, files, (path) => tempName(journal.token, path));
  await staged.place();
  const written: IndexEntry[] = [];
  const deleted: string[] = [];
  for (const path of paths) {
    const want = entries.get(path);
    if (want === undefined) deleted.push(path);
    else written.push({ path, mode: want.mode, oid: want.oid });
  }
  await writeIndexEntries(repo, lock, journal.token, written, deleted);
  const what = journal.new === journal.old ? 'the files of a write that needed no commit' : `the commit ${short}`;
  const keptNote = kept.length === 0 ? '' : `; left alone, since edited after the crash: ${kept.map((path) => `"${path}"`).join(', ')}`;
  return `finished placing ${what} in the work tree and the Git index of "${repo.name}", which an interrupted Major Vault write had left behind the branch (${toPlace.length} of ${paths.length} files written${keptNote})`;
}

/** Each path's entry (mode, blob id) in `commit`'s tree; paths not there are left out. */
export async function commitEntries(
  gitDir: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, { mode: string; oid: string }>> {
  const entries = new Map<string, { mode: string; oid: string }>();
  if (paths.length === 0) return entries;
  const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', commit, '--', ...paths], {
    gitDir,
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
  const wanted = new Set(paths);
  for (const record of splitNul(stdout)) {
    const tab = record.indexOf('\t');
    const [mode = '', type = '', oid = ''] = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    if (type === 'blob' && wanted.has(path)) entries.set(path, { mode, oid });
  }
  return entries;
}

/** The commit's staged files (`.mv-<8 hex>` beside each path) and its index copy, wherever the crash left them. */
async function removeTemporaries(repo: RecoveryRepo, journal: CommitJournal): Promise<void> {
  for (const { path } of journal.paths) {
    const full = join(repo.workTree, ...path.split('/'));
    const temp = join(dirname(full), tempName(journal.token, path));
    const info = await lstat(temp).catch(() => null);
    if (info?.isFile()) await unlink(temp).catch(() => undefined);
  }
  const copy = indexCopyPath(repo.gitDir, journal.token);
  await unlink(copy).catch(() => undefined);
  await unlink(`${copy}.lock`).catch(() => undefined);
}

/** Files in the server folder that dead processes left: a lock's marker (`lock-<pid>-…`) or a journal being written. Called with the lock held. */
async function removeDeadMarkers(gitDir: string): Promise<void> {
  const folder = serverFolder(gitDir);
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const marker = /^lock-(\d+)-[0-9a-f]{8}$/.exec(name);
    const stale = name.startsWith('commit-in-progress.') || (marker !== null && !processRuns(Number(marker[1])));
    if (stale) await unlink(join(folder, name)).catch(() => undefined);
  }
}
