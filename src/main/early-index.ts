// The index opened before the server's code is loaded (issue 14, start-up). PGlite's start
// (its thread, its WebAssembly, Postgres reading the data folder: about half a second) runs
// on a thread of its own while the main thread loads the installation's modules, so the
// first tool call no longer waits for the one and then the other. Only the persistent PGlite
// index of `serve` and `stdio`, and only when the folder is free and already holds an index:
// everything else (Postgres, a first build, a folder in use, an index that does not open)
// is left to `openIndex` (local.ts), which opens it as before.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openPgliteThread } from '../note-index/pglite-thread.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { lockIndexDir, lockOptionsFromEnvironment, type IndexLock } from './index-lock.ts';

/** An index opened early: its client, the data folder's lock, and how to say who hears of its thread stopping. */
interface EarlyIndex {
  sql: SqlClient;
  lock: IndexLock;
  tellExitsTo(onExit: (reason: string) => void): void;
}

const opening = new Map<string, Promise<EarlyIndex | null>>();

/**
 * Starts opening the PGlite index of the repositories in `settings.reposDir` (data folder
 * `settings.dataDir`, default `<reposDir>/.major-vault`, as local.ts places it) and returns
 * at once; {@link takeEarlyIndex} hands it over. Does nothing with a Postgres server
 * (`settings.databaseUrl` or `DATABASE_URL`), when the folder has no index yet, or when
 * another process holds it. Never throws: a failure leaves the opening to `openIndex`.
 */
export function openIndexEarly(settings: { reposDir: string; dataDir?: string; databaseUrl?: string }): void {
  if (settings.databaseUrl !== undefined || process.env['DATABASE_URL']) return;
  const dataDir = resolve(settings.dataDir ?? join(settings.reposDir, '.major-vault'));
  const dir = join(dataDir, 'index');
  if (opening.has(dataDir) || !existsSync(join(dir, 'PG_VERSION'))) return;
  const early = (async (): Promise<EarlyIndex | null> => {
    const lock = await lockIndexDir(dataDir, 0, lockOptionsFromEnvironment());
    if (!lock) return null;
    // Until the index is taken over, a thread that stops is the taker's to hear of (none yet).
    let onExit = (_reason: string): void => undefined;
    try {
      const sql = await openPgliteThread(dir, { onExit: (reason) => onExit(reason) });
      return { sql, lock, tellExitsTo: (listener) => (onExit = listener) };
    } catch {
      lock.release();
      return null;
    }
  })().catch(() => null);
  opening.set(dataDir, early);
}

/**
 * The index {@link openIndexEarly} opened for data folder `dataDir`, once: its client, the
 * folder's lock (the caller releases it on close), with `onExit` told when its thread stops
 * on its own. Null when none was started or it did not open.
 */
export async function takeEarlyIndex(
  dataDir: string,
  onExit: (reason: string) => void,
): Promise<{ sql: SqlClient; lock: IndexLock } | null> {
  const early = opening.get(resolve(dataDir));
  if (early === undefined) return null;
  opening.delete(resolve(dataDir));
  const opened = await early;
  if (opened === null) return null;
  opened.tellExitsTo(onExit);
  return { sql: opened.sql, lock: opened.lock };
}
