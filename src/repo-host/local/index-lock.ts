// Git's own `index.lock` as the lock between processes that write one work tree (servers, git itself).
import { randomBytes } from 'node:crypto';
import { copyFile, lstat, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

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

  private constructor(
    readonly gitDir: string,
    readonly path: string,
  ) {}

  /**
   * Takes the lock, retrying every 10-40 ms while another process holds it; null when it is
   * still held after `waitMs`. Errors other than "exists" (a read-only `.git`) are thrown.
   */
  static async take(gitDir: string, waitMs: number = COMMIT_LOCK_WAIT_MS): Promise<IndexLock | null> {
    const path = join(gitDir, 'index.lock');
    const deadline = Date.now() + waitMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const handle = await open(path, 'wx');
        await handle.close();
        return new IndexLock(gitDir, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (Date.now() >= deadline) return null;
        await delay(Math.min(10 + attempt * 5, 40));
      }
    }
  }

  /**
   * A private copy of the current index to change while the lock is held (`GIT_INDEX_FILE`),
   * beside the index so {@link commitIndex} can rename it over. When the repository has no
   * index yet, nothing is copied and git starts an empty one at that path.
   */
  async copyIndex(): Promise<string> {
    const copy = join(this.gitDir, `index.mv-${randomBytes(4).toString('hex')}`);
    try {
      await copyFile(join(this.gitDir, 'index'), copy);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return copy;
  }

  /** Puts `copy` in place as the index (one rename: readers see the old or the new one), then releases the lock. */
  async commitIndex(copy: string): Promise<void> {
    await rename(copy, join(this.gitDir, 'index'));
    await this.release();
  }

  /** Releases the lock without changing the index (idempotent). */
  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await unlink(this.path).catch(() => undefined);
  }
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
