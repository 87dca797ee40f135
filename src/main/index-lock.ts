// One process at a time in a PGlite data folder: PGlite is a single-process database, and a
// second `major-vault` on the same repositories (a `serve` next to a `stdio`, or the SDK's
// stdio probe process) must not open it at the same time.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A held lock; `release` removes it (also done when the process exits). */
export interface IndexLock {
  release(): void;
}

/**
 * Takes `DIR/index.lock` (holding this process's id), waiting up to `waitMs` for another
 * live process to let go. A lock whose process is gone is taken over. Resolves to null when
 * the folder stays locked by a live process.
 */
export async function lockIndexDir(dir: string, waitMs: number): Promise<IndexLock | null> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'index.lock');
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

function holderAlive(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path, 'utf8').trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
