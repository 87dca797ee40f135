// Sets a few paths' entries in a work tree's Git index, on a private copy renamed into place.
import { unlink } from 'node:fs/promises';
import { runGit } from '../git/run-git.ts';
import type { IndexLock } from './index-lock.ts';

/** A file's new index entry: Git mode (`100644`, `100755`) and blob id. */
export interface IndexEntry {
  path: string;
  mode: string;
  oid: string;
}

/**
 * The paths' index entries, in a copy of the index made while `lock` is held
 * (`index.mv-<token>`) and put in place by renaming it (the lock stays held); see
 * {@link prepareIndexEntries} for `refresh` (default true: the files are in place). Throws
 * what git throws; the copy is removed then and the lock stays held.
 */
export async function writeIndexEntries(
  where: { gitDir: string; workTree: string },
  lock: IndexLock,
  token: string,
  written: readonly IndexEntry[],
  deleted: readonly string[],
  options: { refresh: boolean } = { refresh: true },
): Promise<void> {
  const copy = await prepareIndexEntries(where, lock, token, written, deleted, options);
  try {
    await lock.commitIndex(copy);
  } catch (error) {
    await unlink(copy).catch(() => undefined);
    throw error;
  }
}

/**
 * Makes, and returns the path of, a copy of the index (`index.mv-<token>`, made while `lock` is
 * held) with the paths' entries set: one `update-index` sets each written file's mode and blob
 * (`--cacheinfo`, exact, no filters) and removes the `deleted` paths; with `refresh`, it also
 * records the written files' stat data (`--refresh`, so `git status` need not read them again:
 * only when the files are in place already). The caller puts it in place with
 * {@link IndexLock.commitIndex}, or removes it. Pathspecs are literal. Throws what git throws,
 * after removing the copy.
 */
export async function prepareIndexEntries(
  where: { gitDir: string; workTree: string },
  lock: IndexLock,
  token: string,
  written: readonly IndexEntry[],
  deleted: readonly string[],
  options: { refresh: boolean },
): Promise<string> {
  const copy = await lock.copyIndex(token);
  try {
    const infos = written.map((entry) => `${entry.mode},${entry.oid},${entry.path}`);
    const gitOptions = {
      gitDir: where.gitDir,
      workTree: where.workTree,
      cwd: where.workTree,
      env: { GIT_LITERAL_PATHSPECS: '1', GIT_INDEX_FILE: copy },
      okCodes: [0, 1],
    };
    // Batches keep each command line far below the system's limit; usually it is one call.
    const batches = splitByLength(infos, 64 * 1024);
    const removals = deleted.length === 0 ? [] : ['--force-remove', '--', ...deleted];
    const removeLast = removals.join('').length < 64 * 1024;
    for (const [i, batch] of batches.entries()) {
      const last = i === batches.length - 1;
      const args = ['update-index', '-q', '--add', ...batch.flatMap((info) => ['--cacheinfo', info])];
      if (last) args.push(...(options.refresh ? ['--refresh'] : []), ...(removeLast ? removals : []));
      await runGit(args, gitOptions);
    }
    if (!removeLast)
      for (const batch of splitByLength(deleted, 64 * 1024))
        await runGit(['update-index', '-q', '--force-remove', '--', ...batch], gitOptions);
    return copy;
  } catch (error) {
    await unlink(copy).catch(() => undefined);
    throw error;
  }
}

/** Splits `items` into runs whose joined length stays under `limit` characters (each run has at least one item). */
function splitByLength(items: readonly string[], limit: number): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  let length = 0;
  for (const item of items) {
    if (run.length > 0 && length + item.length > limit) {
      runs.push(run);
      run = [];
      length = 0;
    }
    run.push(item);
    length += item.length + 16;
  }
  if (run.length > 0 || runs.length === 0) runs.push(run);
  return runs;
}
