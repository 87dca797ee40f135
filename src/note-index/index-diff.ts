// What an index update has to do: the snapshot's readable files compared with the rows stored.
import { isReadable } from '../notes/vault-path.ts';
import type { Snapshot } from '../repo-host/repo-host.ts';

/** The difference between a snapshot and the stored rows of its repository. */
export interface IndexDiff {
  /** The snapshot's readable files, path → blob id. */
  current: Map<string, string>;
  /** Files to read and write again, `[path, blob id]`: new, changed, or (`reparseAll`) every note. */
  changed: Array<[string, string]>;
  /** Paths stored that the snapshot no longer has (or that are no longer readable). */
  removed: string[];
  /** Paths of `changed` that were not stored before. */
  added: string[];
}

/**
 * Compares the snapshot's readable files (see {@link currentFiles}) with the `stored` rows
 * (path → blob id): a file is changed when it is new or its blob id differs, and, with
 * `reparseAll` (what parsing stores changed), every `.md` file is.
 */
export function diffSnapshot(
  snapshot: Snapshot,
  folders: readonly string[],
  stored: ReadonlyMap<string, string>,
  reparseAll: boolean,
): IndexDiff {
  const current = currentFiles(snapshot, folders);
  const changed = [...current].filter(([path, oid]) => {
    const before = stored.get(path);
    return before === undefined || before !== oid || (reparseAll && path.endsWith('.md'));
  });
  const removed = [...stored.keys()].filter((path) => !current.has(path));
  const added = changed.filter(([path]) => !stored.has(path)).map(([path]) => path);
  return { current, changed, removed, added };
}

/**
 * The snapshot's readable files (isReadable: not hidden, in the open `folders`, and a file
 * reached through a symbolic link only when where it leads is readable too), path → blob id.
 * What is left out is, to every tool, not there.
 */
export function currentFiles(snapshot: Snapshot, folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of snapshot.files) {
    if (isReadable(entry, folders)) files.set(entry.path, entry.oid);
  }
  return files;
}
