// Where each line of a note starts, for read_note: computed on the worker pool for a long
// note (a 50 MB note takes over 100 ms to scan, which would hold every other call) and kept
// per blob in a cache bounded by bytes, so reading on through a long note costs nothing more.
import { LRUCache } from 'lru-cache';
import { lineStartArray } from '../../notes/lines.ts';
import { runPoolTask } from '../../pool/worker-pool.ts';

/** Notes shorter than this many UTF-16 code units are scanned on the calling thread. */
const INLINE_CHARS = 256 * 1024;
/** The cache's bound: the line starts of all cached notes together, in bytes (4 per line). */
export const LINE_STARTS_CACHE_BYTES = 16 * 1024 * 1024;

const cache = new LRUCache<string, Int32Array>({
  maxSize: LINE_STARTS_CACHE_BYTES,
  sizeCalculation: (starts) => Math.max(1, starts.byteLength),
});
/** Scans under way, so two reads of one new long note scan it once. */
const pending = new Map<string, Promise<Int32Array>>();

/**
 * The line starts of a note's text ({@link lineStartArray}): `starts[n - 1]` is the UTF-16
 * offset of line `n`. `oid` is the blob id of `content`, so a changed note is scanned anew.
 * A long note is scanned on the worker pool once per (repo, path, blob) and then cached.
 * Rejects only when the pool fails (a thread that cannot start).
 */
export async function noteLineStarts(note: { repo: string; path: string; oid: string; content: string }): Promise<Int32Array> {
  if (note.content.length < INLINE_CHARS) return lineStartArray(note.content);
  const key = `${note.repo}\u0000${note.path}\u0000${note.oid}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let scan = pending.get(key);
  if (scan === undefined) {
    scan = runPoolTask<Int32Array>('lineStarts', note.content).finally(() => pending.delete(key));
    pending.set(key, scan);
    cache.set(key, await scan);
  }
  return scan;
}
