// The indexer: brings a repository's rows in the index up to date with its snapshot.
//
// Links are stored with the file they resolve to (`links.resolved`), so "who links here"
// is one indexed lookup. What a link resolves to depends only on the set of file paths,
// and only through the target's file name (Obsidian: exact path, else the file with that
// name), so when files are added or removed, just the links whose `target_key` (the
// target's file name, lower case, without `.md`) names one of those files are resolved again.
import { KeyedQueue } from '../keyed-queue.ts';
import { blobId } from '../repo-host/git/blob-id.ts';
import { runGit } from '../repo-host/git/run-git.ts';
import type { RepoHost, Snapshot } from '../repo-host/repo-host.ts';
import { LinkResolver } from '../notes/link-resolver.ts';
import { decodeNoteText } from '../notes/note-text.ts';
import { type ParsedNote } from '../notes/parse-note.ts';
import { runPoolTask } from '../instance/tools/match-pool.ts';
import { isReadable } from '../notes/vault-path.ts';
import { parseKeyOf, readParseFields, type ParseFields } from './parse-fields.ts';
import { parseNoteTask } from './parse-task.ts';
import type { SqlClient } from './sql-client.ts';
import { trigramKeys } from './trigram-keys.ts';
import { applyKeyChanges, buildPostingBuckets, deletePostingBuckets, insertPostingBuckets, type KeyChange } from './trigram-postings.ts';

/**
 * Bump when parsing or the trigram keys change what is stored: every note is then parsed
 * again and the posting lists built afresh.
 */
export const PARSER_VERSION = 2;

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
  await sql.transaction(async (tx) => {
    await tx.query('DELETE FROM links WHERE repo = $1', [repo]);
    await tx.query('DELETE FROM notes WHERE repo = $1', [repo]);
    await tx.query('DELETE FROM files WHERE repo = $1', [repo]);
    await deletePostingBuckets(tx, repo);
    await tx.query('DELETE FROM repos WHERE name = $1', [repo]);
  });
}

/** The key of a file path or link target that decides resolution: file name, lower case, without `.md`. */
export function targetKey(pathOrTarget: string): string {
  const name = pathOrTarget.slice(pathOrTarget.lastIndexOf('/') + 1).normalize('NFC').toLowerCase();
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

class StaleSync extends Error {}

async function syncWithRetry(sql: SqlClient, host: RepoHost, repo: string, options: SyncOptions): Promise<SyncResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await syncOnce(sql, host, repo, options);
    } catch (error) {
      if (!(error instanceof StaleSync) || attempt >= 5) throw error;
    }
  }
}

interface RepoState {
  head: string | null;
  fingerprint: string;
  parse_key: string;
}

interface NoteRecord {
  path: string;
  oid: string;
  size: number;
  text: string;
  parsed: ParsedNote;
  /** The distinct trigram keys of `text`. */
  keys: Int32Array;
}

/** A note read but not parsed yet. */
type NoteText = Omit<NoteRecord, 'parsed' | 'keys'>;

/**
 * Notes of more than this many UTF-16 code units are parsed, and their trigram keys
 * computed, on the worker pool: parsing runs at about 5 to 10 MB a second, so a 50 MB note
 * would hold every other call for seconds. Shorter ones are parsed here, where a round-trip
 * to a thread (copying the text there and the result back) would cost more than it saves.
 */
export const PARSE_ON_POOL_CHARS = 256 * 1024;
/** Parsing short notes here yields to the event loop after about this many ms. */
const SLICE_MS = 10;

/**
 * Parses the notes (parseNote) and computes their trigram keys, in order: long ones
 * ({@link PARSE_ON_POOL_CHARS}) on the worker pool, all at once (the pool queues them), short
 * ones here, yielding to the event loop every {@link SLICE_MS} ms so a large change never
 * holds other calls. Index work has no time budget: a note is indexed whole or not at all.
 */
async function parseNotes(texts: readonly NoteText[], fields: ParseFields): Promise<NoteRecord[]> {
  const taskFields = { typeField: fields.typeField, summaryField: fields.summaryField };
  const onPool = texts.map((note) => (note.text.length > PARSE_ON_POOL_CHARS ? runPoolTask('parseNote', { path: note.path, text: note.text, fields: taskFields }) : null));
  // A rejection is awaited below; until then it must not count as unhandled.
  for (const task of onPool) task?.catch(() => undefined);
  const records: NoteRecord[] = [];
  let slice = performance.now();
  for (const [i, note] of texts.entries()) {
    const task = onPool[i];
    if (task) {
      records.push({ ...note, ...(await task) });
      slice = performance.now();
      continue;
    }
    records.push({ ...note, ...parseNoteTask({ path: note.path, text: note.text, fields: taskFields }) });
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return records;
}

/**
 * The trigram keys of the long notes stored at these paths (as they are before a change), by
 * blob id, computed on the worker pool, so taking their keys out of the posting lists does
 * not hold the event loop; short notes are left to the caller.
 */
async function storedLongNoteKeys(sql: SqlClient, repo: string, paths: readonly string[]): Promise<Map<string, Int32Array>> {
  const keys = new Map<string, Int32Array>();
  if (paths.length === 0) return keys;
  const long = (await sql.query<{ path: string; oid: string }>(
    `SELECT path, oid FROM notes WHERE repo = $1 AND path = ANY($2::text[]) AND length(content) > ${PARSE_ON_POOL_CHARS}`,
    [repo, [...paths]],
  )).rows;
  await Promise.all(
    long.map(async (row) => {
      const content = (await sql.query<{ content: string }>('SELECT content FROM notes WHERE repo = $1 AND path = $2 AND oid = $3', [repo, row.path, row.oid])).rows[0]?.content;
      if (content !== undefined) keys.set(row.oid, await runPoolTask('noteKeys', content));
    }),
  );
  return keys;
}

async function syncOnce(sql: SqlClient, host: RepoHost, repo: string, options: SyncOptions): Promise<SyncResult> {
  const snapshot = await host.snapshot(repo);
  const fields = await readParseFields(host, repo, snapshot);
  const parseKey = parseKeyOf(PARSER_VERSION, fields);
  const state = (await sql.query<RepoState>('SELECT head, fingerprint, parse_key FROM repos WHERE name = $1', [repo])).rows[0] ?? null;
  if (state && state.fingerprint === snapshot.fingerprint && state.parse_key === parseKey) {
    return { head: snapshot.head, fingerprint: snapshot.fingerprint, changed: 0, removed: 0 };
  }

  const stored = new Map<string, { oid: string; is_note: boolean }>();
  for (const row of (await sql.query<{ path: string; oid: string; is_note: boolean }>('SELECT path, oid, is_note FROM files WHERE repo = $1', [repo])).rows) {
    stored.set(row.path, row);
  }
  const current = currentFiles(snapshot, fields.folders);
  const reparseAll = state !== null && state.parse_key !== parseKey;
  const changed = [...current].filter(([path, oid]) => {
    const before = stored.get(path);
    return before === undefined || before.oid !== oid || (reparseAll && path.endsWith('.md'));
  });
  const removed = [...stored.keys()].filter((path) => !current.has(path));
  const added = changed.filter(([path]) => !stored.has(path)).map(([path]) => path);

  const contents = await readChanged(host, repo, changed, options);
  const files: Array<{ path: string; oid: string; size: number | null; isNote: boolean }> = [];
  const texts: NoteText[] = [];
  for (const [path, oid] of changed) {
    const content = contents.get(path);
    const size = content?.size ?? null;
    const text = content?.buffer ? decodeNoteText(content.buffer) : null;
    if (text === null) {
      files.push({ path, oid, size, isNote: false });
      continue;
    }
    files.push({ path, oid, size, isNote: true });
    texts.push({ path, oid, size: size ?? Buffer.byteLength(text), text });
  }
  const notes = await parseNotes(texts, fields);

  const resolver = new LinkResolver(current.keys());
  const pathSetChanged = added.length > 0 || removed.length > 0;
  const firstBuild = state === null && stored.size === 0;
  // Every note written afresh (the first build, or a change of what parsing stores): ids
  // from 1 and the posting lists built whole, instead of changed key by key.
  const rebuildNotes = firstBuild || reparseAll;
  const oldKeys = rebuildNotes ? new Map<string, Int32Array>() : await storedLongNoteKeys(sql, repo, [...removed, ...changed.map(([path]) => path)]);

  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`major-vault:index:${repo}`]);
    const now = (await tx.query<RepoState>('SELECT head, fingerprint, parse_key FROM repos WHERE name = $1', [repo])).rows[0] ?? null;
    if ((now?.fingerprint ?? null) !== (state?.fingerprint ?? null) || (now?.parse_key ?? null) !== (state?.parse_key ?? null)) {
      throw new StaleSync('another sync of this repository committed first');
    }
    const bulkLoad = firstBuild && notes.length > 1000 && (await tablesAreEmpty(tx));
    // Tables emptied in this transaction get new files: with wal_level minimal (PGlite,
    // pglite-client.ts) Postgres then writes them without logging each row.
    if (bulkLoad) await tx.exec('TRUNCATE files, notes, links, trigram_buckets');

    const gone = [...removed, ...changed.map(([path]) => path)];
    let ids: number[];
    let keyChanges: KeyChange[] = [];
    if (rebuildNotes) {
      if (!firstBuild) {
        await tx.query('DELETE FROM links WHERE repo = $1', [repo]);
        await tx.query('DELETE FROM notes WHERE repo = $1', [repo]);
        await deletePostingBuckets(tx, repo);
      }
      ids = notes.map((_, i) => i + 1);
    } else {
      ({ ids, keyChanges } = await noteIdsAndKeyChanges(tx, repo, gone, notes, oldKeys));
    }
    if (!firstBuild && gone.length > 0) {
      await tx.query('DELETE FROM links WHERE repo = $1 AND source = ANY($2::text[])', [repo, gone]);
      await tx.query('DELETE FROM notes WHERE repo = $1 AND path = ANY($2::text[])', [repo, gone]);
      await tx.query('DELETE FROM files WHERE repo = $1 AND path = ANY($2::text[])', [repo, gone]);
    }
    await insertRows(
      tx,
      'files',
      ['repo', 'path', 'oid', 'size', 'is_note'],
      files.map((file) => [repo, file.path, file.oid, file.size, file.isNote]),
    );
    await insertRows(
      tx,
      'notes',
      ['repo', 'id', 'path', 'oid', 'size', 'content', 'total_lines', 'title', 'type', 'summary', 'frontmatter', 'frontmatter_error', 'headings', 'tags', 'grades'],
      notes.map((note, i) => noteRow(repo, ids[i]!, note)),
    );
    // Indexes built once after a bulk load, from sorted input, cost less than kept up row by row.
    if (bulkLoad) await tx.exec('DROP INDEX IF EXISTS links_resolved; DROP INDEX IF EXISTS links_target_key; ALTER TABLE links DROP CONSTRAINT links_pkey');
    await insertLinks(tx, repo, notes, resolver);
    if (bulkLoad) {
      await tx.exec('ALTER TABLE links ADD PRIMARY KEY (repo, source, ordinal); CREATE INDEX links_resolved ON links (repo, resolved); CREATE INDEX links_target_key ON links (repo, target_key)');
    }
    if (!firstBuild && pathSetChanged) await reresolveLinks(tx, repo, resolver, [...added, ...removed], new Set(notes.map((note) => note.path)));
    if (rebuildNotes) {
      await insertPostingBuckets(tx, repo, buildPostingBuckets(notes.map((note, i) => ({ id: ids[i]!, keys: note.keys }))));
    } else {
      await applyKeyChanges(tx, repo, keyChanges);
    }
    await tx.query(
      `INSERT INTO repos (name, head, fingerprint, parse_key, indexed_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (name) DO UPDATE SET head = EXCLUDED.head, fingerprint = EXCLUDED.fingerprint, parse_key = EXCLUDED.parse_key, indexed_at = now()`,
      [repo, snapshot.head, snapshot.fingerprint, parseKey],
    );
  });
  // Fresh statistics after a large change, so the planner fetches a rare word's few
  // candidates by id and scans a common word's in path order, stopping early.
  if (changed.length + removed.length > 500) await sql.exec('ANALYZE files, notes, links, trigram_buckets');
  return { head: snapshot.head, fingerprint: snapshot.fingerprint, changed: changed.length, removed: removed.length };
}

/** The files of one commit, as {@link applyCommittedFiles} takes them. */
export interface CommittedFiles {
  /** The commit that holds them (the branch head after it). */
  head: string;
  /** The frontmatter fields of the repository's `.vault/` settings (type and summary). */
  fields: ParseFields;
  /** Each changed path with its new content; `content: null` when the commit deleted it. */
  files: ReadonlyArray<{ path: string; content: Buffer | null }>;
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

async function applyOnce(sql: SqlClient, repo: string, commit: CommittedFiles): Promise<boolean> {
  const parseKey = parseKeyOf(PARSER_VERSION, commit.fields);
  const state = (await sql.query<RepoState>('SELECT head, fingerprint, parse_key FROM repos WHERE name = $1', [repo])).rows[0] ?? null;
  if (state === null || state.parse_key !== parseKey) return false;
  const stored = new Set((await sql.query<{ path: string }>('SELECT path FROM files WHERE repo = $1', [repo])).rows.map((row) => row.path));
  const format = commit.head.length === 64 ? 'sha256' : 'sha1';
  const current = new Set(stored);
  const files: Array<{ path: string; oid: string; size: number | null; isNote: boolean }> = [];
  const texts: NoteText[] = [];
  const removed: string[] = [];
  const added: string[] = [];
  for (const { path, content } of commit.files) {
    // The write tools never write outside the open folders; this keeps the index's rule anyway.
    if (!isReadable({ path }, commit.fields.folders)) continue;
    if (content === null) {
      if (stored.has(path)) removed.push(path);
      current.delete(path);
      continue;
    }
    if (!stored.has(path)) added.push(path);
    current.add(path);
    const oid = blobId(content, format);
    const text = path.endsWith('.md') ? decodeNoteText(content) : null;
    files.push({ path, oid, size: content.length, isNote: text !== null });
    if (text !== null) texts.push({ path, oid, size: content.length, text });
  }
  const notes = await parseNotes(texts, commit.fields);
  const oldKeys = await storedLongNoteKeys(sql, repo, [...removed, ...files.map((file) => file.path)]);
  const resolver = new LinkResolver(current);
  try {
    await writeCommitted(sql, repo, state, { files, notes, removed, added, resolver, head: commit.head, oldKeys });
  } catch (error) {
    if (error instanceof StaleSync) return false; // a sync got there first; the next one covers these files
    throw error;
  }
  return true;
}

async function writeCommitted(
  sql: SqlClient,
  repo: string,
  state: RepoState,
  change: {
    files: Array<{ path: string; oid: string; size: number | null; isNote: boolean }>;
    notes: NoteRecord[];
    removed: string[];
    added: string[];
    resolver: LinkResolver;
    head: string;
    oldKeys: ReadonlyMap<string, Int32Array>;
  },
): Promise<void> {
  const { files, notes, removed, added, resolver } = change;
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`major-vault:index:${repo}`]);
    const now = (await tx.query<RepoState>('SELECT head, fingerprint, parse_key FROM repos WHERE name = $1', [repo])).rows[0] ?? null;
    if (now?.fingerprint !== state.fingerprint || now.parse_key !== state.parse_key) throw new StaleSync('another sync of this repository committed first');
    const gone = [...removed, ...files.map((file) => file.path)];
    const { ids, keyChanges } = await noteIdsAndKeyChanges(tx, repo, gone, notes, change.oldKeys);
    if (gone.length > 0) {
      await tx.query('DELETE FROM links WHERE repo = $1 AND source = ANY($2::text[])', [repo, gone]);
      await tx.query('DELETE FROM notes WHERE repo = $1 AND path = ANY($2::text[])', [repo, gone]);
      await tx.query('DELETE FROM files WHERE repo = $1 AND path = ANY($2::text[])', [repo, gone]);
    }
    await insertRows(tx, 'files', ['repo', 'path', 'oid', 'size', 'is_note'], files.map((file) => [repo, file.path, file.oid, file.size, file.isNote]));
    await insertRows(
      tx,
      'notes',
      ['repo', 'id', 'path', 'oid', 'size', 'content', 'total_lines', 'title', 'type', 'summary', 'frontmatter', 'frontmatter_error', 'headings', 'tags', 'grades'],
      notes.map((note, i) => noteRow(repo, ids[i]!, note)),
    );
    await insertLinks(tx, repo, notes, resolver);
    if (added.length > 0 || removed.length > 0) await reresolveLinks(tx, repo, resolver, [...added, ...removed], new Set(notes.map((note) => note.path)));
    await applyKeyChanges(tx, repo, keyChanges);
    await tx.query('UPDATE repos SET head = $2, fingerprint = $3, indexed_at = now() WHERE name = $1', [repo, change.head, `committed:${change.head}`]);
  });
}

/**
 * The snapshot's readable files (isReadable: not hidden, in the open `folders`, and a file
 * reached through a symbolic link only when where it leads is readable too), path → blob id.
 * What is left out is, to every tool, not there.
 */
function currentFiles(snapshot: Snapshot, folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of snapshot.files) {
    if (isReadable(entry, folders)) files.set(entry.path, entry.oid);
  }
  return files;
}

function noteRow(repo: string, id: number, note: NoteRecord): unknown[] {
  const { parsed } = note;
  return [
    repo,
    id,
    note.path,
    note.oid,
    note.size,
    note.text,
    parsed.totalLines,
    parsed.title,
    parsed.type,
    parsed.summary,
    parsed.frontmatter.data === null ? null : JSON.stringify(parsed.frontmatter.data),
    parsed.frontmatter.error,
    JSON.stringify(parsed.headings),
    parsed.tags,
    JSON.stringify(parsed.grades),
  ];
}

/**
 * The id of each note to write (its old one when the path had a note, else a new one above
 * every id in use) and how the trigram keys of each note change: a note whose content
 * changed loses the keys it no longer has and gains the new ones; a removed note loses all
 * of its keys; a new note gains all. Reads the previous notes at the `gone` paths; the keys
 * of a previous note whose blob id is in `oldKeys` are taken from there (computed off the
 * event loop by {@link storedLongNoteKeys}), and its text is not read.
 */
async function noteIdsAndKeyChanges(
  tx: SqlClient,
  repo: string,
  gone: readonly string[],
  notes: readonly NoteRecord[],
  oldKeys: ReadonlyMap<string, Int32Array>,
): Promise<{ ids: number[]; keyChanges: KeyChange[] }> {
  const before = new Map<string, { id: number; oid: string }>();
  if (gone.length > 0) {
    const rows = (await tx.query<{ path: string; id: number; oid: string }>('SELECT path, id, oid FROM notes WHERE repo = $1 AND path = ANY($2::text[])', [repo, gone])).rows;
    for (const row of rows) before.set(row.path, row);
  }
  let next = ((await tx.query<{ max: number | null }>('SELECT max(id) AS max FROM notes WHERE repo = $1', [repo])).rows[0]?.max ?? 0) + 1;
  const written = new Map(notes.map((note) => [note.path, note]));
  const rewritten = [...before].filter(([path, old]) => written.get(path)?.oid !== old.oid).map(([path]) => path);
  const oldContent = new Map<string, Int32Array>();
  if (rewritten.length > 0) {
    const rows = (await tx.query<{ path: string; oid: string; content: string | null }>(
      'SELECT path, oid, CASE WHEN oid = ANY($3::text[]) THEN NULL ELSE content END AS content FROM notes WHERE repo = $1 AND path = ANY($2::text[])',
      [repo, rewritten, [...oldKeys.keys()]],
    )).rows;
    for (const row of rows) oldContent.set(row.path, oldKeys.get(row.oid) ?? trigramKeys(row.content ?? ''));
  }
  const none = new Int32Array(0);
  const keyChanges: KeyChange[] = [];
  for (const [path, keys] of oldContent) {
    if (!written.has(path)) keyChanges.push({ id: before.get(path)!.id, added: none, removed: keys });
  }
  const ids = notes.map((note) => {
    const old = before.get(note.path);
    if (!old) {
      const id = next++;
      keyChanges.push({ id, added: note.keys, removed: none });
      return id;
    }
    const keys = oldContent.get(note.path);
    if (keys !== undefined) keyChanges.push({ id: old.id, ...keyDifference(keys, note.keys) });
    return old.id;
  });
  return { ids, keyChanges };
}

/** What changes from keys `before` to keys `after` (each distinct). */
function keyDifference(before: Int32Array, after: Int32Array): { added: Int32Array; removed: Int32Array } {
  const had = new Set(before);
  const has = new Set(after);
  return { added: after.filter((key) => !had.has(key)), removed: before.filter((key) => !has.has(key)) };
}

/**
 * The content (notes) and size (every file) of the changed files. Blobs in the object
 * store are read in batches with `readBlobs`; a work-tree file whose blob Git does not
 * have yet (modified, not committed) is read with `readFile`. Only `.md` files are read in
 * full; other files only need their size, which `git cat-file --batch-check` gives (null for
 * one Git does not have yet).
 */
async function readChanged(
  host: RepoHost,
  repo: string,
  changed: ReadonlyArray<readonly [string, string]>,
  options: SyncOptions,
): Promise<Map<string, { size: number | null; buffer: Buffer | null }>> {
  const result = new Map<string, { size: number | null; buffer: Buffer | null }>();
  if (changed.length === 0) return result;
  const sizes = await blobSizes(host, repo, [...new Set(changed.map(([, oid]) => oid))]);
  const total = changed.length;
  let done = 0;
  const inStore: Array<readonly [string, string]> = [];
  for (const entry of changed) {
    const [path, oid] = entry;
    if (!path.endsWith('.md')) {
      // Other files only need a size: unknown (null) for one not in the object store yet,
      // rather than reading a large attachment, or a submodule, from disk.
      result.set(path, { size: sizes.get(oid) ?? null, buffer: null });
      done++;
    } else if (sizes.has(oid)) {
      inStore.push(entry);
    } else {
      const buffer = await host.readFile(repo, path);
      result.set(path, { size: buffer?.length ?? null, buffer });
      done++;
    }
  }
  options.onProgress?.(done, total);
  for (let start = 0; start < inStore.length; ) {
    // Batches of about 8 MB, so a few large notes do not hold everything in one read.
    let end = start;
    let bytes = 0;
    while (end < inStore.length && (end === start || bytes < 8 * 1024 * 1024) && end - start < 1000) {
      bytes += sizes.get(inStore[end]![1]) ?? 0;
      end++;
    }
    const batch = inStore.slice(start, end);
    const buffers = await host.readBlobs(repo, batch.map(([, oid]) => oid));
    batch.forEach(([path], i) => {
      const buffer = buffers[i] ?? null;
      result.set(path, { size: buffer?.length ?? null, buffer });
    });
    done += batch.length;
    options.onProgress?.(done, total);
    start = end;
  }
  return result;
}

/** Sizes of the blobs the repository's object store has, by id; missing blobs are left out. */
async function blobSizes(host: RepoHost, repo: string, oids: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (oids.length === 0) return sizes;
  const mirror = await host.mirror(repo);
  const output = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
    gitDir: mirror.gitDir,
    input: `${oids.join('\n')}\n`,
  });
  for (const line of output.stdout.toString('utf8').split('\n')) {
    const [oid, kind, size] = line.split(' ');
    if (oid && kind === 'blob' && size !== undefined) sizes.set(oid, Number(size));
  }
  return sizes;
}

/**
 * Resolves again the links whose target names one of the added or removed files (by
 * {@link targetKey}), except those of notes written in this sync, and stores what changed.
 */
async function reresolveLinks(tx: SqlClient, repo: string, resolver: LinkResolver, paths: readonly string[], fresh: ReadonlySet<string>): Promise<void> {
  const keys = [...new Set(paths.map(targetKey))];
  const rows = (
    await tx.query<{ source: string; ordinal: number; kind: 'wiki' | 'embed' | 'markdown'; target: string; resolved: string | null }>(
      'SELECT source, ordinal, kind, target, resolved FROM links WHERE repo = $1 AND target_key = ANY($2::text[])',
      [repo, keys],
    )
  ).rows;
  const updates = rows
    .filter((row) => !fresh.has(row.source))
    .map((row) => ({ ...row, next: row.target === '' ? null : resolver.resolve(row, row.source) }))
    .filter((row) => row.next !== row.resolved);
  for (let i = 0; i < updates.length; i += 5000) {
    const batch = updates.slice(i, i + 5000);
    await tx.query(
      `UPDATE links SET resolved = v.resolved
       FROM (SELECT unnest($2::text[]) AS source, unnest($3::int[]) AS ordinal, unnest($4::text[]) AS resolved) AS v
       WHERE links.repo = $1 AND links.source = v.source AND links.ordinal = v.ordinal`,
      [repo, batch.map((row) => row.source), batch.map((row) => row.ordinal), batch.map((row) => row.next)],
    );
  }
}

/** Whether no repository has rows yet (a first build into a new index). */
async function tablesAreEmpty(tx: SqlClient): Promise<boolean> {
  const row = (await tx.query<{ empty: boolean }>(
    'SELECT NOT (EXISTS (SELECT FROM files) OR EXISTS (SELECT FROM notes) OR EXISTS (SELECT FROM links) OR EXISTS (SELECT FROM trigram_buckets)) AS empty',
  )).rows[0];
  return row?.empty === true;
}

/**
 * Inserts the links of `notes`, resolved, as one array parameter per column (`unnest`):
 * tens of thousands of small rows go faster that way than as multi-row VALUES.
 */
async function insertLinks(tx: SqlClient, repo: string, notes: readonly NoteRecord[], resolver: LinkResolver): Promise<void> {
  const rows = notes.flatMap((note) => note.parsed.links.map((link, ordinal) => ({ source: note.path, ordinal, link })));
  for (let start = 0; start < rows.length; start += 10_000) {
    const batch = rows.slice(start, start + 10_000);
    const column = <T>(pick: (row: (typeof batch)[number]) => T) => batch.map(pick);
    await tx.query(
      `INSERT INTO links (repo, source, ordinal, line, kind, raw, target, subpath, alias, start_offset, end_offset, in_frontmatter, target_key, resolved)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::int[], $12::bool[], $13::text[], $14::text[])`,
      [
        repo,
        column((r) => r.source),
        column((r) => r.ordinal),
        column((r) => r.link.line),
        column((r) => r.link.kind),
        column((r) => r.link.raw),
        column((r) => r.link.target),
        column((r) => r.link.subpath),
        column((r) => r.link.alias),
        column((r) => r.link.start),
        column((r) => r.link.end),
        column((r) => r.link.inFrontmatter === true),
        column((r) => targetKey(r.link.target)),
        column((r) => (r.link.target === '' ? null : resolver.resolve(r.link, r.source))),
      ],
    );
  }
}

/**
 * Multi-row INSERTs, batched to stay under Postgres's 65,535 parameters and about 4 MB of
 * values per statement (a full build sends thousands of notes).
 */
async function insertRows(tx: SqlClient, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  const maxRows = Math.floor(30_000 / columns.length);
  for (let start = 0; start < rows.length; ) {
    let end = start;
    let bytes = 0;
    while (end < rows.length && end - start < maxRows && (end === start || bytes < 4 * 1024 * 1024)) {
      for (const value of rows[end]!) if (typeof value === 'string') bytes += value.length;
      end++;
    }
    const params: unknown[] = [];
    const tuples: string[] = [];
    for (const row of rows.slice(start, end)) {
      tuples.push(`(${row.map((value) => `$${params.push(value)}`).join(', ')})`);
    }
    await tx.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params);
    start = end;
  }
}


