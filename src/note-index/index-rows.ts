// The indexer's SQL: the stored state of a repository, and the rows one update writes, each in one transaction.
import { runPoolTask } from './parse-task.ts';
import type { LinkResolver } from '../notes/link-resolver.ts';
import { PARSE_ON_POOL_CHARS, type NoteRecord } from './parse-notes.ts';
import type { SqlClient } from './sql-client.ts';
import { forgetFileOids } from './stored-file-oids.ts';
import { targetKey } from './target-key.ts';
import { trigramKeys } from './trigram-keys.ts';
import {
  applyKeyChanges,
  buildPostingBuckets,
  deletePostingBuckets,
  insertPostingBuckets,
  writeBucketChanges,
  type BucketChanges,
  type KeyChange,
} from './trigram-postings.ts';

/** A repository's row in `repos`: what the index was last built from. */
export interface RepoState {
  head: string | null;
  fingerprint: string;
  parse_key: string;
}

/** A row of `files`: a readable file, its blob id, its size in bytes (null: unknown) and whether it is a note. */
export interface FileRow {
  path: string;
  oid: string;
  size: number | null;
  isNote: boolean;
}

/** Thrown inside a write when another update of the repository committed since this one read the stored state. */
export class StaleSync extends Error {}

/** The stored state of `repo`; null when it was never indexed. */
export async function readRepoState(sql: SqlClient, repo: string): Promise<RepoState | null> {
  return (await sql.query<RepoState>('SELECT head, fingerprint, parse_key FROM repos WHERE name = $1', [repo])).rows[0] ?? null;
}

/** The stored files of `repo`: path → blob id. */
export async function readStoredFiles(sql: SqlClient, repo: string): Promise<Map<string, string>> {
  const rows = (await sql.query<{ path: string; oid: string }>('SELECT path, oid FROM files WHERE repo = $1', [repo])).rows;
  return new Map(rows.map((row) => [row.path, row.oid]));
}

/** Removes every row of `repo` from the index (a repository taken out of the installation). */
export async function deleteRepoRows(sql: SqlClient, repo: string): Promise<void> {
  forgetFileOids(sql, repo);
  await sql.transaction(async (tx) => {
    await tx.query('DELETE FROM links WHERE repo = $1', [repo]);
    await tx.query('DELETE FROM notes WHERE repo = $1', [repo]);
    await tx.query('DELETE FROM files WHERE repo = $1', [repo]);
    await deletePostingBuckets(tx, repo);
    await tx.query('DELETE FROM repos WHERE name = $1', [repo]);
  });
}

/** Fresh planner statistics, after a large change. */
export async function refreshStatistics(sql: SqlClient): Promise<void> {
  await sql.exec('ANALYZE files, notes, links, trigram_buckets');
}

/** What {@link writeSnapshotRows} writes: the rows of one snapshot's changed files, and the state they come from. */
export interface SnapshotRows {
  head: string | null;
  fingerprint: string;
  parseKey: string;
  files: FileRow[];
  notes: NoteRecord[];
  /** Paths of files rewritten (`changed`, see diffSnapshot). */
  changed: string[];
  removed: string[];
  added: string[];
  resolver: LinkResolver;
  /** The repository was never indexed and has no rows. */
  firstBuild: boolean;
  /** Every note is written afresh (first build, or a change of what parsing stores). */
  rebuildNotes: boolean;
  /** Trigram keys of stored long notes by blob id (storedLongNoteKeys); empty when `rebuildNotes`. */
  oldKeys: ReadonlyMap<string, Int32Array>;
}

/**
 * Writes the rows of one snapshot in one transaction (DESIGN.md "Index"): deletes the rows of
 * the removed and changed paths, inserts files, notes and links, re-resolves the links the added
 * or removed paths change, updates the trigram postings and the repository's state. Throws
 * {@link StaleSync} when the stored state is no longer `state` (another sync committed first).
 * A first build of many notes into an empty index loads in bulk.
 */
export async function writeSnapshotRows(sql: SqlClient, repo: string, state: RepoState | null, rows: SnapshotRows): Promise<void> {
  const { files, notes, removed, added, resolver, firstBuild, rebuildNotes } = rows;
  const pathSetChanged = added.length > 0 || removed.length > 0;
  forgetFileOids(sql, repo);
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

    const gone = [...removed, ...rows.changed];
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
      ({ ids, keyChanges } = await noteIdsAndKeyChanges(tx, repo, gone, notes, rows.oldKeys));
    }
    await replaceRows(tx, repo, firstBuild ? [] : gone, files, notes, ids);
    // Indexes built once after a bulk load, from sorted input, cost less than kept up row by row.
    if (bulkLoad)
      await tx.exec(
        'DROP INDEX IF EXISTS links_resolved; DROP INDEX IF EXISTS links_target_key; ALTER TABLE links DROP CONSTRAINT links_pkey',
      );
    await insertLinks(tx, repo, notes, resolver);
    if (bulkLoad) {
      await tx.exec(
        'ALTER TABLE links ADD PRIMARY KEY (repo, source, ordinal); CREATE INDEX links_resolved ON links (repo, resolved); CREATE INDEX links_target_key ON links (repo, target_key)',
      );
    }
    if (!firstBuild && pathSetChanged)
      await reresolveLinks(tx, repo, resolver, [...added, ...removed], new Set(notes.map((note) => note.path)));
    if (rebuildNotes) {
      await insertPostingBuckets(tx, repo, buildPostingBuckets(notes.map((note, i) => ({ id: ids[i]!, keys: note.keys }))));
    } else {
      await applyKeyChanges(tx, repo, keyChanges);
    }
    await tx.query(
      `INSERT INTO repos (name, head, fingerprint, parse_key, indexed_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (name) DO UPDATE SET head = EXCLUDED.head, fingerprint = EXCLUDED.fingerprint, parse_key = EXCLUDED.parse_key, indexed_at = now()`,
      [repo, rows.head, rows.fingerprint, rows.parseKey],
    );
  });
}

/** A note stored before a commit's update, at a path the commit writes or removes. */
export interface PreviousNote {
  path: string;
  id: number;
  oid: string;
  /** Longer than PARSE_ON_POOL_CHARS: its keys are computed on the worker pool. */
  long: boolean;
  /** Its text; null when long or when its blob id was among those the caller knows the keys of. */
  content: string | null;
}

/**
 * The notes stored at `paths` (as they are before a commit's update) and the highest note id
 * of `repo` (0: none), in one statement outside any transaction: the caller's write checks in
 * its transaction that the stored state is still the one it read. The text of a note whose
 * blob id is in `knownOids` (the caller has its keys), or that is long, is not read.
 */
export async function readPreviousNotes(
  sql: SqlClient,
  repo: string,
  paths: readonly string[],
  knownOids: readonly string[],
): Promise<{ notes: PreviousNote[]; maxId: number }> {
  const rows = (
    await sql.query<{ max_id: number | null; path: string | null; id: number; oid: string; long: boolean; content: string | null }>(
      `SELECT m.max_id, n.path, n.id, n.oid, n.long,
         CASE WHEN n.long OR n.oid = ANY($3::text[]) THEN NULL ELSE n.content END AS content
       FROM (SELECT max(id) AS max_id FROM notes WHERE repo = $1) AS m
       LEFT JOIN (SELECT path, id, oid, content, length(content) > ${PARSE_ON_POOL_CHARS} AS long
                  FROM notes WHERE repo = $1 AND path = ANY($2::text[])) AS n ON true`,
      [repo, [...paths], [...knownOids]],
    )
  ).rows;
  const notes = rows.flatMap((row) =>
    row.path === null ? [] : [{ path: row.path, id: row.id, oid: row.oid, long: row.long, content: row.content }],
  );
  return { notes, maxId: rows[0]?.max_id ?? 0 };
}

/**
 * The trigram keys of stored long notes, by blob id: each one's text read (one statement a
 * note, so no more than one long text is in hand at a time) and its keys computed on the
 * worker pool.
 */
export async function longNoteKeysOf(
  sql: SqlClient,
  repo: string,
  notes: readonly Pick<PreviousNote, 'path' | 'oid'>[],
): Promise<Map<string, Int32Array>> {
  const keys = new Map<string, Int32Array>();
  await Promise.all(
    notes.map(async (note) => {
      const content = (
        await sql.query<{ content: string }>('SELECT content FROM notes WHERE repo = $1 AND path = $2 AND oid = $3', [
          repo,
          note.path,
          note.oid,
        ])
      ).rows[0]?.content;
      if (content !== undefined) keys.set(note.oid, await runPoolTask('noteKeys', content));
    }),
  );
  return keys;
}

/** A stored link to resolve again: its source, ordinal, and what it resolves to now (null: nothing). */
export interface LinkUpdate {
  source: string;
  ordinal: number;
  resolved: string | null;
}

/**
 * The stored links whose target names one of `paths` (added or removed files; by
 * {@link targetKey}), except those of the notes in `fresh` (written again anyway), that
 * `resolver` (the paths after the change) resolves otherwise than stored: one statement. Run
 * before an own commit's write (which checks the stored state is still the one read), or inside
 * a sync's transaction (reresolveLinks). `raw` is read too: a Markdown image (`![](x.png)`,
 * kind embed) resolves as a Markdown link does.
 */
export async function linksToResolveAgain(
  sql: SqlClient,
  repo: string,
  resolver: LinkResolver,
  paths: readonly string[],
  fresh: ReadonlySet<string>,
): Promise<LinkUpdate[]> {
  if (paths.length === 0) return [];
  const keys = [...new Set(paths.map(targetKey))];
  const rows = (
    await sql.query<{
      source: string;
      ordinal: number;
      kind: 'wiki' | 'embed' | 'markdown';
      raw: string;
      target: string;
      resolved: string | null;
    }>('SELECT source, ordinal, kind, raw, target, resolved FROM links WHERE repo = $1 AND target_key = ANY($2::text[])', [repo, keys])
  ).rows;
  return rows
    .filter((row) => !fresh.has(row.source))
    .map((row) => ({
      source: row.source,
      ordinal: row.ordinal,
      was: row.resolved,
      resolved: row.target === '' ? null : resolver.resolve(row, row.source),
    }))
    .filter((row) => row.resolved !== row.was)
    .map(({ source, ordinal, resolved }) => ({ source, ordinal, resolved }));
}

/** What {@link writeCommittedRows} writes: the rows of one commit's files, all worked out beforehand. */
export interface CommittedRows {
  files: FileRow[];
  notes: NoteRecord[];
  /** The id of each of `notes`. */
  ids: readonly number[];
  /** Paths whose rows go first: removed, and every file written. */
  gone: readonly string[];
  /** Resolves the links of `notes` (the paths after the commit). */
  resolver: LinkResolver;
  /** Stored links of other notes that resolve otherwise now. */
  linkUpdates: readonly LinkUpdate[];
  /** The posting lists' buckets as the commit leaves them. */
  buckets: BucketChanges;
  head: string;
}

/**
 * Writes the rows of one commit's files in one transaction, in few statements (each one a
 * round trip to the index thread): the stored state checked, the old rows deleted, the new
 * files, notes and links inserted, the links elsewhere that resolve otherwise updated, the
 * posting lists' buckets and the repository's state (fingerprint `committed:<head>`)
 * written. Throws {@link StaleSync} when the stored state is no longer `state`: what the
 * caller read outside the transaction (previous notes, links, buckets) was then not current.
 */
export async function writeCommittedRows(sql: SqlClient, repo: string, state: RepoState, change: CommittedRows): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`major-vault:index:${repo}`]);
    const now = (await tx.query<RepoState>('SELECT head, fingerprint, parse_key FROM repos WHERE name = $1', [repo])).rows[0] ?? null;
    if (now?.fingerprint !== state.fingerprint || now.parse_key !== state.parse_key)
      throw new StaleSync('another sync of this repository committed first');
    if (change.gone.length > 0) {
      await tx.query(
        `WITH l AS (DELETE FROM links WHERE repo = $1 AND source = ANY($2::text[])),
              n AS (DELETE FROM notes WHERE repo = $1 AND path = ANY($2::text[]))
         DELETE FROM files WHERE repo = $1 AND path = ANY($2::text[])`,
        [repo, [...change.gone]],
      );
    }
    await insertCommitted(tx, repo, change);
    for (let i = 0; i < change.linkUpdates.length; i += 5000) {
      const batch = change.linkUpdates.slice(i, i + 5000);
      await tx.query(
        `UPDATE links SET resolved = v.resolved
         FROM (SELECT unnest($2::text[]) AS source, unnest($3::int[]) AS ordinal, unnest($4::text[]) AS resolved) AS v
         WHERE links.repo = $1 AND links.source = v.source AND links.ordinal = v.ordinal`,
        [repo, batch.map((row) => row.source), batch.map((row) => row.ordinal), batch.map((row) => row.resolved)],
      );
    }
    await writeBucketChanges(tx, repo, change.buckets);
    await tx.query('UPDATE repos SET head = $2, fingerprint = $3, indexed_at = now() WHERE name = $1', [
      repo,
      change.head,
      `committed:${change.head}`,
    ]);
  });
}

/**
 * Inserts a commit's files, notes and links: one statement (data-modifying WITH, one table
 * each) for a commit of a few notes (an edit, a create: saves two round trips to the index
 * thread), as {@link replaceRows} and {@link insertLinks} do otherwise (a move's rewrites:
 * no faster as one statement in a loaded A/B, so the tried path).
 */
async function insertCommitted(tx: SqlClient, repo: string, change: CommittedRows): Promise<void> {
  const { files, notes, ids, resolver } = change;
  const links = linkRows(notes);
  let textBytes = 0;
  for (const note of notes) textBytes += note.text.length;
  if (files.length > 16 || notes.length > 8 || links.length > 1000 || textBytes > 1024 * 1024) {
    await replaceRows(tx, repo, [], files, notes, ids);
    await insertLinks(tx, repo, notes, resolver);
    return;
  }
  const params: unknown[] = [repo];
  const p = (value: unknown) => `$${params.push(value)}`;
  const parts: string[] = [];
  if (files.length > 0) {
    parts.push(
      `INSERT INTO files (repo, path, oid, size, is_note) SELECT $1, * FROM unnest(${p(files.map((f) => f.path))}::text[], ${p(
        files.map((f) => f.oid),
      )}::text[], ${p(files.map((f) => f.size))}::int[], ${p(files.map((f) => f.isNote))}::bool[])`,
    );
  }
  if (notes.length > 0) {
    const tuples = notes.map((note, i) => `(${['$1', ...noteRow(repo, ids[i]!, note).slice(1).map(p)].join(', ')})`);
    parts.push(`INSERT INTO notes (${NOTE_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`);
  }
  if (links.length > 0) {
    const columns = linkColumns(links, resolver).map((column, i) => `${p(column)}::${LINK_TYPES[i]}[]`);
    parts.push(`INSERT INTO links (${LINK_COLUMNS.join(', ')}) SELECT $1, * FROM unnest(${columns.join(', ')})`);
  }
  if (parts.length === 0) return;
  const last = parts.pop()!;
  const statement = parts.length === 0 ? last : `WITH ${parts.map((part, i) => `w${i} AS (${part})`).join(', ')} ${last}`;
  await tx.query(statement, params);
}

/**
 * The trigram keys of the long notes stored at these paths (as they are before a change), by
 * blob id, computed on the worker pool, so taking their keys out of the posting lists does
 * not hold the event loop; short notes are left to the caller.
 */
export async function storedLongNoteKeys(sql: SqlClient, repo: string, paths: readonly string[]): Promise<Map<string, Int32Array>> {
  if (paths.length === 0) return new Map();
  const long = (
    await sql.query<{ path: string; oid: string }>(
      `SELECT path, oid FROM notes WHERE repo = $1 AND path = ANY($2::text[]) AND length(content) > ${PARSE_ON_POOL_CHARS}`,
      [repo, [...paths]],
    )
  ).rows;
  return longNoteKeysOf(sql, repo, long);
}

/** The columns of `notes`, in the order of {@link noteRow}. */
const NOTE_COLUMNS = [
  'repo',
  'id',
  'path',
  'oid',
  'size',
  'content',
  'total_lines',
  'title',
  'type',
  'summary',
  'frontmatter',
  'frontmatter_error',
  'headings',
  'tags',
  'grades',
];

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
 * The ids and key changes of a snapshot's notes (see {@link assignNoteIds}), reading the
 * previous notes at the `gone` paths in the transaction; the keys of a previous note whose
 * blob id is in `oldKeys` (computed off the event loop by {@link storedLongNoteKeys}) are
 * taken from there, and its text is not read.
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
    const rows = (
      await tx.query<{ path: string; id: number; oid: string }>(
        'SELECT path, id, oid FROM notes WHERE repo = $1 AND path = ANY($2::text[])',
        [repo, gone],
      )
    ).rows;
    for (const row of rows) before.set(row.path, row);
  }
  const max = (await tx.query<{ max: number | null }>('SELECT max(id) AS max FROM notes WHERE repo = $1', [repo])).rows[0]?.max ?? 0;
  const rewritten = rewrittenNotes(before, notes, new Map());
  const oldContent = new Map<string, Int32Array>();
  if (rewritten.length > 0) {
    const rows = (
      await tx.query<{ path: string; oid: string; content: string | null }>(
        'SELECT path, oid, CASE WHEN oid = ANY($3::text[]) THEN NULL ELSE content END AS content FROM notes WHERE repo = $1 AND path = ANY($2::text[])',
        [repo, rewritten, [...oldKeys.keys()]],
      )
    ).rows;
    for (const row of rows) oldContent.set(row.path, oldKeys.get(row.oid) ?? trigramKeys(row.content ?? ''));
  }
  return assignNoteIds(before, max + 1, notes, new Map(), oldContent);
}

/**
 * For each written path, the stored path whose note it continues: its own, or the old path of
 * a move (`moves`: new path → old path; taken over only when no note is written there again
 * and the new path had none).
 */
function continuations(
  before: ReadonlyMap<string, { id: number; oid: string }>,
  notes: readonly NoteRecord[],
  moves: ReadonlyMap<string, string>,
): Map<string, string> {
  const written = new Set(notes.map((note) => note.path));
  const previousPath = new Map<string, string>();
  for (const note of notes) if (before.has(note.path)) previousPath.set(note.path, note.path);
  for (const [to, from] of moves) {
    if (written.has(to) && !before.has(to) && before.has(from) && !written.has(from)) previousPath.set(to, from);
  }
  return previousPath;
}

/**
 * The stored paths among `before` whose trigram keys change: removed, or continued
 * ({@link continuations}) by a note of another blob id. Their old keys are what
 * {@link assignNoteIds} needs.
 */
export function rewrittenNotes(
  before: ReadonlyMap<string, { id: number; oid: string }>,
  notes: readonly NoteRecord[],
  moves: ReadonlyMap<string, string>,
): string[] {
  const written = new Map(notes.map((note) => [note.path, note]));
  const continued = new Map([...continuations(before, notes, moves)].map(([path, old]) => [old, path]));
  return [...before]
    .filter(([path, old]) => {
      const now = continued.get(path);
      return now === undefined || written.get(now)!.oid !== old.oid;
    })
    .map(([path]) => path);
}

/**
 * The id of each note to write (its old one when the path had a note, or when it is a move
 * (`moves`: new path → old path) of a note the change removes; else a new one from `next` on,
 * above every id in use) and how the trigram keys of each note change: a note whose content
 * changed loses the keys it no longer has and gains the new ones (a moved note compared with
 * the note it was, so a move alone changes no posting list); a removed note loses all of its
 * keys; a new note gains all. `before`: the stored notes at the paths the change removes or
 * writes; `oldKeys`: the keys of those of them {@link rewrittenNotes} names, by path.
 */
export function assignNoteIds(
  before: ReadonlyMap<string, { id: number; oid: string }>,
  next: number,
  notes: readonly NoteRecord[],
  moves: ReadonlyMap<string, string>,
  oldKeys: ReadonlyMap<string, Int32Array>,
): { ids: number[]; keyChanges: KeyChange[] } {
  const previousPath = continuations(before, notes, moves);
  const continued = new Set(previousPath.values());
  const none = new Int32Array(0);
  const keyChanges: KeyChange[] = [];
  for (const [path, keys] of oldKeys) {
    if (!continued.has(path)) keyChanges.push({ id: before.get(path)!.id, added: none, removed: keys });
  }
  const ids = notes.map((note) => {
    const oldPath = previousPath.get(note.path);
    if (oldPath === undefined) {
      const id = next++;
      keyChanges.push({ id, added: note.keys, removed: none });
      return id;
    }
    const old = before.get(oldPath)!;
    const keys = oldKeys.get(oldPath);
    if (keys !== undefined) keyChanges.push({ id: old.id, ...keyDifference(keys, note.keys) });
    return old.id;
  });
  return { ids, keyChanges };
}

/** What changes from keys `before` to keys `after` (each distinct): both sorted (typed-array sort) and walked side by side. */
function keyDifference(before: Int32Array, after: Int32Array): { added: Int32Array; removed: Int32Array } {
  const a = before.slice().sort();
  const b = after.slice().sort();
  const added = new Int32Array(b.length);
  const removed = new Int32Array(a.length);
  let addedCount = 0;
  let removedCount = 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) removed[removedCount++] = a[i++]!;
    else if (i >= a.length || b[j]! < a[i]!) added[addedCount++] = b[j++]!;
    else {
      i++;
      j++;
    }
  }
  return { added: added.slice(0, addedCount), removed: removed.slice(0, removedCount) };
}

/**
 * Resolves again the links whose target names one of the added or removed files (by
 * {@link targetKey}), except those of notes written in this sync, and stores what changed.
 */
async function reresolveLinks(
  tx: SqlClient,
  repo: string,
  resolver: LinkResolver,
  paths: readonly string[],
  fresh: ReadonlySet<string>,
): Promise<void> {
  const updates = await linksToResolveAgain(tx, repo, resolver, paths, fresh);
  for (let i = 0; i < updates.length; i += 5000) {
    const batch = updates.slice(i, i + 5000);
    await tx.query(
      `UPDATE links SET resolved = v.resolved
       FROM (SELECT unnest($2::text[]) AS source, unnest($3::int[]) AS ordinal, unnest($4::text[]) AS resolved) AS v
       WHERE links.repo = $1 AND links.source = v.source AND links.ordinal = v.ordinal`,
      [repo, batch.map((row) => row.source), batch.map((row) => row.ordinal), batch.map((row) => row.resolved)],
    );
  }
}

/** Whether no repository has rows yet (a first build into a new index). */
async function tablesAreEmpty(tx: SqlClient): Promise<boolean> {
  const row = (
    await tx.query<{ empty: boolean }>(
      'SELECT NOT (EXISTS (SELECT FROM files) OR EXISTS (SELECT FROM notes) OR EXISTS (SELECT FROM links) OR EXISTS (SELECT FROM trigram_buckets)) AS empty',
    )
  ).rows[0];
  return row?.empty === true;
}

/** The columns of `links`, and the SQL type of each after `repo` (for unnest). */
const LINK_COLUMNS = [
  'repo',
  'source',
  'ordinal',
  'line',
  'kind',
  'raw',
  'target',
  'subpath',
  'alias',
  'start_offset',
  'end_offset',
  'in_frontmatter',
  'target_key',
  'resolved',
];
const LINK_TYPES = ['text', 'int', 'int', 'text', 'text', 'text', 'text', 'text', 'int', 'int', 'bool', 'text', 'text'];

type LinkRow = { source: string; ordinal: number; link: NoteRecord['parsed']['links'][number] };

/** Every link of `notes`, with its note and ordinal. */
function linkRows(notes: readonly NoteRecord[]): LinkRow[] {
  return notes.flatMap((note) => note.parsed.links.map((link, ordinal) => ({ source: note.path, ordinal, link })));
}

/** The links as one array per column after `repo` (LINK_COLUMNS), each resolved with `resolver`. */
function linkColumns(rows: readonly LinkRow[], resolver: LinkResolver): unknown[][] {
  const column = <T>(pick: (row: LinkRow) => T) => rows.map(pick);
  return [
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
  ];
}

/**
 * Inserts the links of `notes`, resolved, as one array parameter per column (`unnest`):
 * tens of thousands of small rows go faster that way than as multi-row VALUES.
 */
async function insertLinks(tx: SqlClient, repo: string, notes: readonly NoteRecord[], resolver: LinkResolver): Promise<void> {
  const rows = linkRows(notes);
  for (let start = 0; start < rows.length; start += 10_000) {
    const columns = linkColumns(rows.slice(start, start + 10_000), resolver);
    await tx.query(
      `INSERT INTO links (${LINK_COLUMNS.join(', ')})
       SELECT $1, * FROM unnest(${columns.map((_, i) => `$${i + 2}::${LINK_TYPES[i]}[]`).join(', ')})`,
      [repo, ...columns],
    );
  }
}

/**
 * Multi-row INSERTs, batched to stay under Postgres's 65,535 parameters and about 4 MB of
 * values per statement (a full build sends thousands of notes).
 */
async function insertRows(tx: SqlClient, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  const maxRows = Math.floor(30_000 / columns.length);
  for (let start = 0; start < rows.length;) {
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

/**
 * Deletes the rows (links, notes, files) of the paths `gone`, then inserts `files` and
 * `notes` (note `i` under id `ids[i]`): the part a snapshot's write and a commit's write share.
 */
async function replaceRows(
  tx: SqlClient,
  repo: string,
  gone: readonly string[],
  files: readonly FileRow[],
  notes: readonly NoteRecord[],
  ids: readonly number[],
): Promise<void> {
  if (gone.length > 0) {
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
    NOTE_COLUMNS,
    notes.map((note, i) => noteRow(repo, ids[i]!, note)),
  );
}
