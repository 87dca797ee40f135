// The search index: for every trigram key, the ids of the notes that have it, kept in
// hash buckets of the table `trigram_buckets` (one row per repository and bucket).
//
// Why not pg_trgm's GIN index: building it over obsidian-help (25M characters) took 7–8 s
// of CPU in PGlite, most of a full build. Keys computed in JavaScript and written as
// compact posting lists cost a fraction of that, and a search reads only the few buckets
// of its needle's keys. Candidates are a superset of the notes that contain the needle
// (see trigram-keys.ts); the query still checks each with LIKE/ILIKE.
//
// A bucket's `postings` is a sequence of entries, ordered by key: the key (4 bytes, little
// endian, signed), the byte length of its id list (varint), then the ids ascending, each as
// the difference from the previous one (the first from 0), as varints. Buckets travel as
// base64 text: PGlite converts bytea parameters and results slowly, text quickly.
import type { SqlClient } from './sql-client.ts';
import { foldedTrigramKeys, type TrigramQuery } from './trigram-keys.ts';

/** Keys are spread over 2^14 buckets by their top bits: a note's keys touch at most that many rows. */
const BUCKET_BITS = 14;
const LOW_BITS = 32 - BUCKET_BITS;
const LOW_MASK = (1 << LOW_BITS) - 1;

/** The bucket of a trigram key. */
export function bucketOf(key: number): number {
  return key >>> LOW_BITS;
}

/** One note's keys, for building or changing posting lists. Ids are positive. */
export interface NoteKeys {
  id: number;
  keys: Int32Array;
}

/** How one note's keys changed: `added` and `removed` keys, each sorted or not. */
export interface KeyChange {
  id: number;
  added: Int32Array;
  removed: Int32Array;
}

/** One encoded bucket. */
export interface PostingBucket {
  bucket: number;
  postings: Uint8Array;
}

/**
 * Every bucket of `notes`, encoded. A first pass counts the (note, key) pairs per bucket, a
 * second lays them out bucket by bucket (in the order of `notes`, so ids ascend when
 * `notes` is by id); each bucket's pairs are then grouped by key in a small table that
 * stays in the processor's cache. Memory: 8 bytes per pair.
 */
export function buildPostingBuckets(notes: readonly NoteKeys[]): PostingBucket[] {
  const counts = new Int32Array(1 << BUCKET_BITS);
  let total = 0;
  for (const note of notes) {
    const keys = note.keys;
    for (let i = 0; i < keys.length; i++) counts[keys[i]! >>> LOW_BITS]!++;
    total += keys.length;
  }
  const starts = new Int32Array(counts.length + 1);
  for (let bucket = 0; bucket < counts.length; bucket++) starts[bucket + 1] = starts[bucket]! + counts[bucket]!;
  const fill = starts.slice(0, counts.length);
  const pairKeys = new Int32Array(total);
  const pairIds = new Int32Array(total);
  for (const note of notes) {
    const keys = note.keys;
    for (let i = 0; i < keys.length; i++) {
      const at = fill[keys[i]! >>> LOW_BITS]!++;
      pairKeys[at] = keys[i]!;
      pairIds[at] = note.id;
    }
  }
  const writer = new BucketWriter();
  const grouped = new BucketGrouper();
  const buckets: PostingBucket[] = [];
  for (let bucket = 0; bucket < counts.length; bucket++) {
    if (counts[bucket] === 0) continue;
    const entries = grouped.group(
      pairKeys.subarray(starts[bucket], starts[bucket + 1]),
      pairIds.subarray(starts[bucket], starts[bucket + 1]),
    );
    writer.reset();
    for (const { key, ids } of entries) writer.entry(key, ids);
    buckets.push({ bucket, postings: writer.bytes() });
  }
  return buckets;
}

/** Groups one bucket's (key, id) pairs by key, keeping the ids' order; keys by their low bits. */
class BucketGrouper {
  // Open addressing; a slot is in use when its stamp is the current group's number.
  private slotKey = new Int32Array(1 << 10);
  private slotIndex = new Int32Array(1 << 10);
  private slotStamp = new Int32Array(1 << 10);
  private stamp = 0;

  group(keys: Int32Array, ids: Int32Array): Array<{ key: number; ids: Int32Array }> {
    const size = 1 << Math.max(4, Math.ceil(Math.log2(keys.length * 2)));
    if (this.slotKey.length < size) {
      this.slotKey = new Int32Array(size);
      this.slotIndex = new Int32Array(size);
      this.slotStamp = new Int32Array(size);
    }
    const stamp = ++this.stamp;
    const mask = size - 1;
    const { slotKey, slotIndex, slotStamp } = this;
    const distinct: number[] = [];
    const counts: number[] = [];
    const pairIndex = new Int32Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      let slot = (key ^ (key >>> 7)) & mask;
      while (slotStamp[slot] === stamp && slotKey[slot] !== key) slot = (slot + 1) & mask;
      if (slotStamp[slot] !== stamp) {
        slotStamp[slot] = stamp;
        slotKey[slot] = key;
        slotIndex[slot] = distinct.length;
        distinct.push(key);
        counts.push(0);
      }
      const k = slotIndex[slot]!;
      counts[k]!++;
      pairIndex[i] = k;
    }
    const starts = new Int32Array(distinct.length + 1);
    for (let k = 0; k < distinct.length; k++) starts[k + 1] = starts[k]! + counts[k]!;
    const fill = starts.slice(0, distinct.length);
    const grouped = new Int32Array(keys.length);
    for (let i = 0; i < keys.length; i++) grouped[fill[pairIndex[i]!]!++] = ids[i]!;
    return distinct
      .map((key, k) => ({ key, ids: grouped.subarray(starts[k], starts[k + 1]) }))
      .sort((a, b) => (a.key & LOW_MASK) - (b.key & LOW_MASK));
  }
}

/** Decodes a bucket into key → ascending ids. */
export function decodeBucket(postings: Uint8Array): Map<number, number[]> {
  const entries = new Map<number, number[]>();
  for (let at = 0; at < postings.length;) {
    const key = readKey(postings, at);
    const [length, listAt] = readVarint(postings, at + 4);
    entries.set(key, readIds(postings, listAt, listAt + length));
    at = listAt + length;
  }
  return entries;
}

/** The ids listed for `key` in an encoded bucket; empty when it has none. */
export function idsInBucket(postings: Uint8Array, key: number): number[] {
  for (let at = 0; at < postings.length;) {
    const [length, listAt] = readVarint(postings, at + 4);
    if (readKey(postings, at) === key) return readIds(postings, listAt, listAt + length);
    at = listAt + length;
  }
  return [];
}

/** Encodes key → ascending ids (keys with no ids left out) in key order. */
export function encodeBucket(entries: ReadonlyMap<number, readonly number[]>): Uint8Array {
  const writer = new BucketWriter();
  for (const key of [...entries.keys()].sort((a, b) => (a & LOW_MASK) - (b & LOW_MASK))) {
    const ids = entries.get(key)!;
    if (ids.length > 0) writer.entry(key, ids);
  }
  return writer.bytes();
}

/** Writes `buckets` of `repo` (none of which may exist yet), a few megabytes per statement. */
export async function insertPostingBuckets(tx: SqlClient, repo: string, buckets: readonly PostingBucket[]): Promise<void> {
  for (let start = 0; start < buckets.length;) {
    let end = start;
    let bytes = 0;
    while (end < buckets.length && (end === start || bytes < 4 * 1024 * 1024)) bytes += buckets[end++]!.postings.length;
    const batch = buckets.slice(start, end);
    await tx.query(
      `INSERT INTO trigram_buckets (repo, bucket, postings)
       SELECT $1, bucket, decode(postings, 'base64') FROM unnest($2::int[], $3::text[]) AS b(bucket, postings)`,
      [repo, batch.map((b) => b.bucket), batch.map((b) => base64(b.postings))],
    );
    start = end;
  }
}

/** Removes every posting list of `repo`. */
export async function deletePostingBuckets(tx: SqlClient, repo: string): Promise<void> {
  await tx.query('DELETE FROM trigram_buckets WHERE repo = $1', [repo]);
}

/**
 * Applies notes' key changes to the stored posting lists of `repo`: reads the buckets the
 * changed keys fall in, changes them and writes them back (a bucket left empty is deleted).
 * An edit changes few keys; a new or removed note touches up to a thousand or so buckets.
 */
export async function applyKeyChanges(tx: SqlClient, repo: string, changes: readonly KeyChange[]): Promise<void> {
  await writeBucketChanges(tx, repo, await planKeyChanges(tx, repo, changes));
}

/** The buckets a set of key changes writes: the changed ones encoded, and those left empty. */
export interface BucketChanges {
  upserts: PostingBucket[];
  emptied: number[];
}

/**
 * Reads the buckets `changes` fall in (one statement; none when no key changes) and makes
 * them as the changes leave them, for {@link writeBucketChanges}. What it read must still be
 * the stored state when they are written: the caller checks that in its transaction (or
 * reads inside it).
 */
export async function planKeyChanges(sql: SqlClient, repo: string, changes: readonly KeyChange[]): Promise<BucketChanges> {
  const byBucket = new Map<number, Array<{ key: number; id: number; add: boolean }>>();
  const note = (key: number, id: number, add: boolean) => {
    const bucket = key >>> LOW_BITS;
    let list = byBucket.get(bucket);
    if (!list) byBucket.set(bucket, (list = []));
    list.push({ key, id, add });
  };
  for (const change of changes) {
    for (const key of change.removed) note(key, change.id, false);
    for (const key of change.added) note(key, change.id, true);
  }
  const upserts: PostingBucket[] = [];
  const emptied: number[] = [];
  if (byBucket.size === 0) return { upserts, emptied };
  const stored = await readBuckets(sql, repo, [...byBucket.keys()]);
  for (const [bucket, edits] of byBucket) {
    const entries = stored.has(bucket) ? decodeBucket(stored.get(bucket)!) : new Map<number, number[]>();
    const touched = new Set<number>();
    for (const { key, id, add } of edits) {
      let ids = entries.get(key);
      if (!ids) entries.set(key, (ids = []));
      if (add) ids.push(id);
      else {
        const at = ids.indexOf(id);
        if (at !== -1) ids.splice(at, 1);
      }
      touched.add(key);
    }
    for (const key of touched) {
      const ids = [...new Set(entries.get(key))].sort((a, b) => a - b);
      if (ids.length === 0) entries.delete(key);
      else entries.set(key, ids);
    }
    if (entries.size === 0) emptied.push(bucket);
    else upserts.push({ bucket, postings: encodeBucket(entries) });
  }
  return { upserts, emptied };
}

/** Writes the buckets {@link planKeyChanges} made: deletes the emptied ones, upserts the others, 2000 a statement. */
export async function writeBucketChanges(tx: SqlClient, repo: string, changes: BucketChanges): Promise<void> {
  const { upserts, emptied } = changes;
  if (emptied.length > 0) await tx.query('DELETE FROM trigram_buckets WHERE repo = $1 AND bucket = ANY($2::int[])', [repo, emptied]);
  for (let start = 0; start < upserts.length; start += 2000) {
    const batch = upserts.slice(start, start + 2000);
    await tx.query(
      `INSERT INTO trigram_buckets (repo, bucket, postings)
       SELECT $1, bucket, decode(postings, 'base64') FROM unnest($2::int[], $3::text[]) AS b(bucket, postings)
       ON CONFLICT (repo, bucket) DO UPDATE SET postings = EXCLUDED.postings`,
      [repo, batch.map((b) => b.bucket), batch.map((b) => base64(b.postings))],
    );
  }
}

/**
 * The ids of the notes of `repo` that have every one of `keys`, ascending. `keys` must not
 * be empty (a needle too short for keys narrows nothing: the caller scans every note).
 */
export async function candidateNoteIds(sql: SqlClient, repo: string, keys: Int32Array): Promise<number[]> {
  const buckets = await readBuckets(sql, repo, [...new Set(Array.from(keys, (key) => key >>> LOW_BITS))]);
  const lists: number[][] = [];
  for (const key of new Set(keys)) {
    const postings = buckets.get(key >>> LOW_BITS);
    const ids = postings ? idsInBucket(postings, key) : [];
    if (ids.length === 0) return [];
    lists.push(ids);
  }
  lists.sort((a, b) => a.length - b.length);
  let result = lists[0]!;
  for (const list of lists.slice(1)) {
    result = intersectSorted(result, list);
    if (result.length === 0) break;
  }
  return result;
}

/**
 * The ids of the notes of `repo` whose keys satisfy `query`, ascending; null when the query
 * narrows nothing (`all`, or an `or` with a part that does). The buckets of all its trigrams
 * are read with one statement, then the query is evaluated on their posting lists.
 */
export async function queryNoteIds(sql: SqlClient, repo: string, query: TrigramQuery): Promise<number[] | null> {
  const keyOf = new Map<string, number>();
  const collect = (part: TrigramQuery): void => {
    if (part.op === 'all' || part.op === 'none') return;
    for (const trigram of part.trigrams) if (!keyOf.has(trigram)) keyOf.set(trigram, foldedTrigramKeys(trigram)[0]!);
    part.subs.forEach(collect);
  };
  collect(query);
  const buckets =
    keyOf.size === 0 ? new Map<number, Uint8Array>() : await readBuckets(sql, repo, [...new Set(Array.from(keyOf.values(), bucketOf))]);
  const idsOf = (trigram: string): number[] => {
    const key = keyOf.get(trigram)!;
    const postings = buckets.get(bucketOf(key));
    return postings ? idsInBucket(postings, key) : [];
  };
  const evaluate = (part: TrigramQuery): number[] | null => {
    if (part.op === 'all') return null;
    if (part.op === 'none') return [];
    const lists: number[][] = [];
    for (const trigram of part.trigrams) lists.push(idsOf(trigram));
    for (const sub of part.subs) {
      const ids = evaluate(sub);
      if (ids === null) {
        if (part.op === 'or') return null;
      } else lists.push(ids);
    }
    if (part.op === 'or') return lists.reduce(unionSorted, []);
    if (lists.length === 0) return null;
    lists.sort((a, b) => a.length - b.length);
    return lists.slice(1).reduce((result, list) => (result.length === 0 ? result : intersectSorted(result, list)), lists[0]!);
  };
  return evaluate(query);
}

function unionSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) out.push(a[i++]!);
    else if (i >= a.length || b[j]! < a[i]!) out.push(b[j++]!);
    else {
      out.push(a[i++]!);
      j++;
    }
  }
  return out;
}

async function readBuckets(sql: SqlClient, repo: string, buckets: readonly number[]): Promise<Map<number, Uint8Array>> {
  const rows = (
    await sql.query<{ bucket: number; postings: string }>(
      `SELECT bucket, encode(postings, 'base64') AS postings FROM trigram_buckets WHERE repo = $1 AND bucket = ANY($2::int[])`,
      [repo, buckets],
    )
  ).rows;
  return new Map(rows.map((row) => [row.bucket, Buffer.from(row.postings, 'base64')]));
}

function intersectSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return out;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function readKey(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24) | 0;
}

/** A varint at `at`: [value, position after it]. */
function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, at];
    scale *= 0x80;
  }
}

function readIds(bytes: Uint8Array, from: number, to: number): number[] {
  const ids: number[] = [];
  let id = 0;
  for (let at = from; at < to;) {
    const [delta, next] = readVarint(bytes, at);
    id += delta;
    ids.push(id);
    at = next;
  }
  return ids;
}

/** Appends bucket entries to a growing buffer. */
class BucketWriter {
  private buffer: Uint8Array = new Uint8Array(1 << 16);
  private length = 0;
  private list: Uint8Array = new Uint8Array(1 << 12);

  reset(): void {
    this.length = 0;
  }

  /** One entry: `key`, then the ascending `ids` as deltas. */
  entry(key: number, ids: ArrayLike<number>): void {
    let listLength = 0;
    let previous = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (this.list.length < listLength + 10) this.list = grow(this.list, listLength + 10);
      listLength = writeVarint(this.list, listLength, id - previous);
      previous = id;
    }
    if (this.buffer.length < this.length + 4 + 10 + listLength) this.buffer = grow(this.buffer, this.length + 4 + 10 + listLength);
    const b = this.buffer;
    b[this.length] = key & 0xff;
    b[this.length + 1] = (key >>> 8) & 0xff;
    b[this.length + 2] = (key >>> 16) & 0xff;
    b[this.length + 3] = (key >>> 24) & 0xff;
    this.length = writeVarint(b, this.length + 4, listLength);
    b.set(this.list.subarray(0, listLength), this.length);
    this.length += listLength;
  }

  /** A copy of what was written since the last reset. */
  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

function grow(bytes: Uint8Array, needed: number): Uint8Array {
  const bigger = new Uint8Array(Math.max(needed, bytes.length * 2));
  bigger.set(bytes);
  return bigger;
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  bytes[at++] = value;
  return at;
}
