// The indexer: brings a repository's rows in the index up to date with its snapshot.
//
// Links are stored with the file they resolve to (`links.resolved`), so "who links here"
// is one indexed lookup. What a link resolves to depends only on the set of file paths,
// and only through the target's file name (Obsidian: exact path, else the file with that
// name), so when files are added or removed, just the links whose `target_key` (the
// target's file name, lower case, without `.md`) names one of those files are resolved again.
//
// One step per file: what changed (index-diff.ts), reading it (read-changed-files.ts),
// parsing it (parse-notes.ts), the `.vault/` settings it depends on (parse-fields.ts), the
// rows written (index-rows.ts, all of the indexer's SQL), a commit's files (committed-files.ts).
import { KeyedQueue } from '../keyed-queue.ts';
import { LinkResolver } from '../notes/link-resolver.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import { committedChange, type CommittedFiles } from './committed-files.ts';
import { diffSnapshot } from './index-diff.ts';
import {
  deleteRepoRows,
  readRepoState,
  readStoredFiles,
  readStoredPaths,
  refreshStatistics,
  StaleSync,
  storedLongNoteKeys,
  writeCommittedRows,
  writeSnapshotRows,
} from './index-rows.ts';
import { parseKeyOf, readParseFields } from './parse-fields.ts';
import { parseNotes } from './parse-notes.ts';
import { readChangedFiles } from './read-changed-files.ts';
import type { SqlClient } from './sql-client.ts';

export { targetKey } from './target-key.ts';
export { PARSE_ON_POOL_CHARS } from './parse-notes.ts';
export type { CommittedFiles } from './committed-files.ts';

/**
 * Bump when parsing or the trigram keys change what is stored: every note is then parsed
 * again and the posting lists built afresh.
 */
export const PARSER_VERSION = 3;

/** What one sync did. `changed`: files added or changed; `removed`: files gone. */
export interface SyncResult {
  head: string | null;
  fingerprint: string;
  changed: number;
  removed: number;
}

/** Options of {@link syncRepo}. */
export interface SyncOptions {
  /** Called as files are read and parsed: how many of `total` changed files are done. */
  onProgress?: (done: number, total: number) => void;
}

const running = new WeakMap<SqlClient, KeyedQueue>();

/** The queue of index writes through `sql`, one repository's at a time. */
function queueOf(sql: SqlClient): KeyedQueue {
  let queue = running.get(sql);
  if (!queue) running.set(sql, (queue = new KeyedQueue()));
  return queue;
}

/**
 * Brings the index up to date with `host.snapshot(repo)` (DESIGN.md "Index"): the first
 * time a full build, then only the files whose blob id changed, the removed ones, and the
 * links whose resolution the added or removed files change. Every readable file (isReadable:
 * not hidden, in the open folders, not a symbolic link to a closed path) is a row of `files`,
 * so links resolve only among them; a `.md` file that is text is also a note, parsed with the notes model
 * using the repository's `typeField`/`summaryField`. The write is one transaction that
 * checks no other sync of the repository committed since this one read the stored state
 * (it starts over if one did), so the index always matches one snapshot. Idempotent: a
 * second call on an unchanged repository reads the fingerprint and returns. Syncs of one
 * repository through one client run one after another.
 */
export async function syncRepo(sql: SqlClient, host: RepoHost, repo: string, options: SyncOptions = {}): Promise<SyncResult> {
  return queueOf(sql).run(repo, () => syncWithRetry(sql, host, repo, options));
}

/** Removes every row of `repo` from the index (a repository taken out of the installation). */
export async function removeRepo(sql: SqlClient, repo: string): Promise<void> {
  await deleteRepoRows(sql, repo);
}

/**
 * Puts the files of a commit this process just made straight into the index, instead of
 * taking a snapshot and comparing every file (the write tools know each changed file's new
 * content): the same rows a sync would write for them (files, parsed notes, links resolved
 * against the new set of paths, links elsewhere re-resolved when paths came or went, trigram
 * postings), in one transaction, in the same queue as {@link syncRepo}. The repository's
 * stored fingerprint becomes `committed:<head>`, which no snapshot has, so the next sync
 * compares the files and finds these already done. Returns false and changes nothing when the
 * repository was never indexed or was indexed with other parse fields: the next sync does it.
 */
export async function applyCommittedFiles(sql: SqlClient, repo: string, commit: CommittedFiles): Promise<boolean> {
  return queueOf(sql).run(repo, () => applyOnce(sql, repo, commit));
}

async function syncWithRetry(sql: SqlClient, host: RepoHost, repo: string, options: SyncOptions): Promise<SyncResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await syncOnce(sql, host, repo, options);
    } catch (error) {
      if (!(error instanceof StaleSync) || attempt >= 5) throw error;
    }
  }
}

/** One sync: the snapshot compared with the stored rows, the changed files read and parsed, the rows written. */
async function syncOnce(sql: SqlClient, host: RepoHost, repo: string, options: SyncOptions): Promise<SyncResult> {
  const snapshot = await host.snapshot(repo);
  const fields = await readParseFields(host, repo, snapshot);
  const parseKey = parseKeyOf(PARSER_VERSION, fields);
  const state = await readRepoState(sql, repo);
  if (state && state.fingerprint === snapshot.fingerprint && state.parse_key === parseKey) {
    return { head: snapshot.head, fingerprint: snapshot.fingerprint, changed: 0, removed: 0 };
  }

  const stored = await readStoredFiles(sql, repo);
  const reparseAll = state !== null && state.parse_key !== parseKey;
  const { current, changed, removed, added } = diffSnapshot(snapshot, fields.folders, stored, reparseAll);
  const { files, texts } = await readChangedFiles(host, repo, changed, options.onProgress);
  const notes = await parseNotes(texts, fields);

  const resolver = new LinkResolver(current.keys());
  const firstBuild = state === null && stored.size === 0;
  // Every note written afresh (the first build, or a change of what parsing stores): ids
  // from 1 and the posting lists built whole, instead of changed key by key.
  const rebuildNotes = firstBuild || reparseAll;
  const changedPaths = changed.map(([path]) => path);
  const oldKeys = rebuildNotes ? new Map<string, Int32Array>() : await storedLongNoteKeys(sql, repo, [...removed, ...changedPaths]);

  await writeSnapshotRows(sql, repo, state, {
    head: snapshot.head,
    fingerprint: snapshot.fingerprint,
    parseKey,
    files,
    notes,
    changed: changedPaths,
    removed,
    added,
    resolver,
    firstBuild,
    rebuildNotes,
    oldKeys,
  });
  // Fresh statistics after a large change, so the planner fetches a rare word's few
  // candidates by id and scans a common word's in path order, stopping early.
  if (changed.length + removed.length > 500) await refreshStatistics(sql);
  return { head: snapshot.head, fingerprint: snapshot.fingerprint, changed: changed.length, removed: removed.length };
}

/** One apply of a commit's files (see {@link applyCommittedFiles}). */
async function applyOnce(sql: SqlClient, repo: string, commit: CommittedFiles): Promise<boolean> {
  const parseKey = parseKeyOf(PARSER_VERSION, commit.fields);
  const state = await readRepoState(sql, repo);
  if (state === null || state.parse_key !== parseKey) return false;
  const stored = await readStoredPaths(sql, repo);
  const { files, texts, removed, added, moves, current } = committedChange(stored, commit);
  const notes = await parseNotes(texts, commit.fields);
  const oldKeys = await storedLongNoteKeys(sql, repo, [...removed, ...files.map((file) => file.path)]);
  const resolver = new LinkResolver(current);
  try {
    await writeCommittedRows(sql, repo, state, { files, notes, removed, added, moves, resolver, head: commit.head, oldKeys });
  } catch (error) {
    if (error instanceof StaleSync) return false; // a sync got there first; the next one covers these files
    throw error;
  }
  return true;
}
