// Git's own `index.lock` as the lock between processes that write one work tree (servers, git itself).
import { randomBytes } from 'node:crypto';
import { copyFile, link, lstat, mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatOwner, ownerAlive, parseOwner, thisProcess, type LockOwner } from './lock-owner.ts';

/** The server's own folder in a `.git`: its commit journal and the files it makes the lock from. */
export function serverFolder(gitDir: string): string {
  return join(gitDir, 'major-vault');
}

/**
 * How long a commit waits for another process's `index.lock` (ms) before it gives up with a
 * conflict: a Git command holds it for milliseconds, a server's commit for tens of them; a
 * `git commit` waiting in its editor holds it until the message is written.
 */
export const COMMIT_LOCK_WAIT_MS = 5_000;

/** How long a read (snapshot, file) waits for a held `index.lock` before it reads anyway (ms). */
export const READ_LOCK_WAIT_MS = 2_000;

/**
 * `<gitDir>/index.lock`, created with O_EXCL exactly as Git creates it (Git's lockfile API): while
 * it exists, no Git command writes the index, and servers sharing the work tree neither read it
 * (they wait, see {@link waitForIndexUnlocked}) nor commit. A commit holds it from before it
 * looks at the index until the new index is in place, across `update-ref` and the rewrite of the
 * work tree, so nobody sees the branch moved while the files on disk are still the old ones.
 */
export class IndexLock {
  private held = true;

  readonly gitDir: string;
  readonly path: string;

  private constructor(gitDir: string, path: string) {
    this.gitDir = gitDir;
    this.path = path;
  }

  /**
   * Takes the lock, retrying every 10-40 ms while another process holds it; null when it is
   * still held after `waitMs`. Errors other than "exists" (a read-only `.git`) are thrown.
   * The lock is born holding this process's {@link formatOwner} line: the line is written to
   * a file in {@link serverFolder} first, which is then hard-linked as `index.lock` (atomic,
   * fails when it exists, as O_EXCL), so a lock of ours is never seen empty and a crashed
   * server's lock can be told from Git's (see {@link inspectIndexLock}).
   */
  static async take(gitDir: string, waitMs: number = COMMIT_LOCK_WAIT_MS): Promise<IndexLock | null> {
    const path = join(gitDir, 'index.lock');
    const folder = serverFolder(gitDir);
    await mkdir(folder, { recursive: true });
    const marker = join(folder, `lock-${process.pid}-${randomBytes(4).toString('hex')}`);
    await writeFile(marker, formatOwner(thisProcess()), { flag: 'wx' });
    const deadline = Date.now() + waitMs;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await link(marker, path);
          return new IndexLock(gitDir, path);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          if (Date.now() >= deadline) return null;
          await delay(Math.min(10 + attempt * 5, 40));
        }
      }
    } finally {
      await unlink(marker).catch(() => undefined);
    }
  }

  /**
   * A private copy of the current index to change while the lock is held (`GIT_INDEX_FILE`),
   * beside the index so {@link commitIndex} can rename it over: `index.mv-<token>`, named
   * after the commit's journal so a crashed server's copy is found and removed. When the
   * repository has no index yet, nothing is copied and git starts an empty one at that path.
   */
  async copyIndex(token: string = randomBytes(4).toString('hex')): Promise<string> {
    const copy = indexCopyPath(this.gitDir, token);
    try {
      await copyFile(join(this.gitDir, 'index'), copy);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return copy;
  }

  /**
   * Puts `copy` in place as the index (one rename: readers see the old or the new one). The
   * lock stays held: the caller removes its commit journal first, then {@link release}s.
   */
  async commitIndex(copy: string): Promise<void> {
    await rename(copy, join(this.gitDir, 'index'));
  }

  /** Releases the lock without changing the index (idempotent). */
  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await unlink(this.path).catch(() => undefined);
  }
}

/** The private index copy of the commit with journal token `token` (see {@link IndexLock.copyIndex}). */
export function indexCopyPath(gitDir: string, token: string): string {
  return join(gitDir, `index.mv-${token}`);
}

/**
 * What `<gitDir>/index.lock` is now: absent; `own` (a Major Vault server's, naming it, with
 * whether that process still runs); or `foreign` (Git's, or anything else). `ageMs`: since it
 * was made (its mtime), in ms.
 */
export type IndexLockState =
  { state: 'absent' } | { state: 'own'; owner: LockOwner; alive: boolean; ageMs: number } | { state: 'foreign'; ageMs: number };

/** Looks at `<gitDir>/index.lock` (see {@link IndexLockState}). */
export async function inspectIndexLock(gitDir: string): Promise<IndexLockState> {
  const path = join(gitDir, 'index.lock');
  const info = await lstat(path).catch(() => null);
  if (info === null) return { state: 'absent' };
  const ageMs = Math.max(0, Date.now() - info.mtimeMs);
  const content = info.isFile() ? await readHead(path) : null;
  if (content === null) return (await lstat(path).catch(() => null)) === null ? { state: 'absent' } : { state: 'foreign', ageMs };
  const owner = parseOwner(content);
  if (owner === null) return { state: 'foreign', ageMs };
  return { state: 'own', owner, alive: ownerAlive(owner), ageMs };
}

/**
 * Removes `<gitDir>/index.lock` when a Major Vault server made it and that process is gone;
 * true when it did. Never a lock of a live process or one it did not make: the lock is
 * first moved aside (one rename), its content read again there, and a lock that turns out to
 * be live (taken between the look and the move) is linked back at once.
 */
export async function removeStaleOwnLock(gitDir: string): Promise<boolean> {
  const found = await inspectIndexLock(gitDir);
  if (found.state !== 'own' || found.alive) return false;
  const folder = serverFolder(gitDir);
  await mkdir(folder, { recursive: true });
  const aside = join(folder, `stale-${randomBytes(4).toString('hex')}`);
  try {
    await rename(join(gitDir, 'index.lock'), aside);
  } catch {
    return false; // gone meanwhile
  }
  const owner = parseOwner((await readFile(aside).catch(() => null)) ?? '');
  if (owner !== null && !ownerAlive(owner)) {
    await unlink(aside).catch(() => undefined);
    return true;
  }
  await link(aside, join(gitDir, 'index.lock')).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return false;
}

/**
 * A lock older than this (ms, by its mtime) is not a writer between update-ref and its files:
 * a Git command waiting for its user (`git commit` in the editor) or one that crashed. Reads do
 * not wait for it.
 */
export const LONG_HELD_LOCK_MS = 5_000;

/**
 * Waits until `<gitDir>/index.lock` is absent, at most `waitMs`; false when it is still there
 * then, or at once when it has been there longer than {@link LONG_HELD_LOCK_MS}. A read taken
 * while another writer holds the lock could see its new head with the old files on disk.
 */
export async function waitForIndexUnlocked(gitDir: string, waitMs: number = READ_LOCK_WAIT_MS): Promise<boolean> {
  const path = join(gitDir, 'index.lock');
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    const info = await lstat(path).catch(() => null);
    if (info === null) return true;
    if (Date.now() >= deadline || Date.now() - info.mtimeMs > LONG_HELD_LOCK_MS) return false;
    await delay(Math.min(5 + attempt * 5, 40));
  }
}

/** The first 400 bytes of a file (Git's own lock holds the whole new index: no need to read it); null when gone. */
async function readHead(path: string): Promise<Buffer | null> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(400);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
