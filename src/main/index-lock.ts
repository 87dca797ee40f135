// One process at a time in a PGlite data folder: PGlite is a single-process database, and a
// second `major-vault` on the same repositories (a `serve` next to a `stdio`, or the SDK's
// stdio probe process) must not open it at the same time.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processRuns } from '../repo-host/local/lock-owner.ts';

/**
 * The lock options of this process: `lentBy` its parent's id when the parent lent it the folder
 * (MAJOR_VAULT_INDEX_LENT_BY, set by local.ts for a child that builds the index), else none.
 */
export function lockOptionsFromEnvironment(): { lentBy?: number } {
  const lentBy = Number(process.env['MAJOR_VAULT_INDEX_LENT_BY']);
  return Number.isInteger(lentBy) && lentBy > 0 ? { lentBy } : {};
}

/** A held lock; `release` removes it (also done when the process exits). */
export interface IndexLock {
  release(): void;
}

/**
 * Takes `DIR/index.lock` (holding this process's id), waiting up to `waitMs` for another
 * live process to let go. A lock whose process is gone is taken over. Resolves to null when
 * the folder stays locked by a live process.
 *
 * `lentBy`: the id of this process's parent when the parent holds the lock and lends the
 * folder to it (a child that builds the index while its parent waits, see local.ts). When
 * the lock holds exactly that id, the folder is this process's without taking the lock,
 * and `release` leaves the lock to the parent.
 */
export async function lockIndexDir(dir: string, waitMs: number, options: { lentBy?: number } = {}): Promise<IndexLock | null> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'index.lock');
  if (options.lentBy !== undefined && options.lentBy === process.ppid && holderPid(path) === options.lentBy)
    return { release: () => undefined };
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lock = tryLock(path);
    if (lock) return lock;
    if (Date.now() >= deadline) return null;
    await sleep(100);
  }
}

function tryLock(path: string): IndexLock | null {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (holderAlive(path)) return null;
    try {
      unlinkSync(path);
    } catch {
      /* another process took it over first; the next attempt decides */
    }
    return null;
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      unlinkSync(path);
    } catch {
      /* already gone */
    }
  };
  process.on('exit', release);
  return { release };
}

/** The process id written in the lock file; null when there is none or it is not a number. */
function holderPid(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function holderAlive(path: string): boolean {
  const pid = holderPid(path);
  return pid !== null && processRuns(pid);
}
