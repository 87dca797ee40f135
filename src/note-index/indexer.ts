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
  assignNoteIds,
  deleteRepoRows,
  linksToResolveAgain,
  longNoteKeysOf,
  readPreviousNotes,
  readRepoState,
  readStoredFiles,
  refreshStatistics,
  rewrittenNotes,
  StaleSync,
  storedLongNoteKeys,
  writeCommittedRows,
  writeSnapshotRows,
} from './index-rows.ts';
import { parseKeyOf, readParseFields } from './parse-fields.ts';
import { parseNotes } from './parse-notes.ts';
import { readChangedFiles } from './read-changed-files.ts';
import type { SqlClient } from './sql-client.ts';
import { KEPT_KEYS, putKeptFiles, takeKeptFiles, takeKeptFilesIfCurrent } from './stored-file-oids.ts';
import { trigramKeys } from './trigram-keys.ts';
import { planKeyChanges } from './trigram-postings.ts';

export { targetKey } from './target-key.ts';
export { PARSE_ON_POOL_CHARS } from './parse-notes.ts';
export type { CommittedFiles } from './committed-files.ts';

/**
 * Bump when parsing or the trigram keys change what is stored: every note is then parsed
 * again and the posting lists built afresh.
 */
export const PARSER_VERSION = 4;

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

  // The rows this process keeps for the stored state (after its own writes), else read.
  const kept = state === null ? null : takeKeptFilesIfCurrent(sql, repo, state.fingerprint);
  const stored = kept?.oids ?? (await readStoredFiles(sql, repo));
  const reparseAll = state !== null && state.parse_key !== parseKey;
  const { current, changed, removed, added } = diffSnapshot(snapshot, fields.folders, stored, reparseAll);
  const { files, texts } = await readChangedFiles(host, repo, changed, options.onProgress);
  const notes = await parseNotes(texts, fields);

  let resolver: LinkResolver;
  if (kept?.resolver) {
    // Kept, it follows the added and removed paths; a resolver built on `current` would answer the same.
    resolver = kept.resolver;
    for (const path of removed) resolver.delete(path);
    for (const path of added) resolver.add(path);
  } else {
    resolver = new LinkResolver(current.keys());
  }
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
  // Kept on only where this process kept them before: a sync alone keeps nothing.
  if (kept !== null) putKeptFiles(sql, repo, { fingerprint: snapshot.fingerprint, oids: current, resolver, keys: kept.keys });
  // Fresh statistics after a large change, so the planner fetches a rare word's few
  // candidates by id and scans a common word's in path order, stopping early.
  if (changed.length + removed.length > 500) await refreshStatistics(sql);
  return { head: snapshot.head, fingerprint: snapshot.fingerprint, changed: changed.length, removed: removed.length };
}

/**
 * One apply of a commit's files (see {@link applyCommittedFiles}). Everything is worked out
 * before the write, from what this process keeps and a few reads: the stored paths and their
 * link resolver are kept between updates (stored-file-oids.ts) and changed path by path, never
 * built again; the previous notes at the commit's paths (ids, blob ids, texts only where the
 * keys are not known: the notes the last update wrote keep theirs), the links elsewhere that
 * the added or removed paths may resolve otherwise, and the posting lists' buckets the key
 * changes touch are each read in one statement; then one transaction writes it all, after
 * checking that the stored state is still the one read (else nothing is written and the next
 * sync covers the commit).
 */
async function applyOnce(sql: SqlClient, repo: string, commit: CommittedFiles): Promise<boolean> {
  const parseKey = parseKeyOf(PARSER_VERSION, commit.fields);
  const state = await readRepoState(sql, repo);
  if (state === null || state.parse_key !== parseKey) return false;
  const kept = await takeKeptFiles(sql, repo, state.fingerprint);
  if (kept === null) return false; // the stored state moved meanwhile; the next sync covers these files
  const { oids, resolver } = kept;
  const { files, texts, removed, added, moves } = committedChange(oids, commit);
  const notes = await parseNotes(texts, commit.fields);

  // The keys known without reading a text: the notes just parsed, and those the last update wrote.
  const known = new Map(kept.keys);
  for (const note of notes) known.set(note.oid, note.keys);
  const gone = [...removed, ...files.map((file) => file.path)];
  const previous = gone.length === 0 ? { notes: [], maxId: 0 } : await readPreviousNotes(sql, repo, gone, [...known.keys()]);
  const before = new Map(previous.notes.map((note) => [note.path, note]));
  const rewritten = new Set(rewrittenNotes(before, notes, moves));
  const long = previous.notes.filter((note) => rewritten.has(note.path) && note.long && !known.has(note.oid));
  for (const [oid, keys] of await longNoteKeysOf(sql, repo, long)) known.set(oid, keys);
  const oldKeys = new Map<string, Int32Array>();
  for (const note of previous.notes) {
    if (rewritten.has(note.path)) oldKeys.set(note.path, known.get(note.oid) ?? trigramKeys(note.content ?? ''));
  }
  const { ids, keyChanges } = assignNoteIds(before, previous.maxId + 1, notes, moves, oldKeys);

  // The paths after the commit: the resolver changed in place (it is kept only if the write commits).
  for (const path of removed) {
    resolver.delete(path);
    oids.delete(path);
  }
  for (const file of files) {
    resolver.add(file.path);
    oids.set(file.path, file.oid);
  }
  const fresh = new Set(notes.map((note) => note.path));
  const linkUpdates = await linksToResolveAgain(
    sql,
    repo,
    resolver,
    added.length > 0 || removed.length > 0 ? [...added, ...removed] : [],
    fresh,
  );
  const buckets = await planKeyChanges(sql, repo, keyChanges);
  try {
    await writeCommittedRows(sql, repo, state, { files, notes, ids, gone, resolver, linkUpdates, buckets, head: commit.head });
  } catch (error) {
    if (error instanceof StaleSync) return false; // a sync got there first; the next one covers these files
    throw error;
  }
  let keyCount = 0;
  for (const note of notes) keyCount += note.keys.length;
  kept.fingerprint = `committed:${commit.head}`;
  kept.keys = keyCount <= KEPT_KEYS ? new Map(notes.map((note) => [note.oid, note.keys])) : new Map();
  putKeptFiles(sql, repo, kept);
  return true;
}
