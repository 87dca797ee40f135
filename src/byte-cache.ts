// Caches bounded by bytes, not entries (issue 14): every cache a long-lived server keeps is an
// lru-cache with `maxSize` in bytes and a size for each entry, so a few huge entries cannot
// grow the process however many there are. Neutral ground: the index, the tools and the
// repository host all use it. The bounds are named where each cache is made, and listed in
// README.md ("Memory").
import { LRUCache } from 'lru-cache';

/** What {@link byteCache} makes. */
export interface ByteCacheOptions<K, V> {
  /** The bound: the sizes of all entries together never exceed it, in bytes. */
  maxBytes: number;
  /** An entry's size in bytes (at least 1 is counted); {@link estimateBytes} when nothing better is known. */
  sizeOf: (value: V, key: K) => number;
  /** Told when an entry leaves the cache (evicted, replaced or deleted). */
  dispose?: (value: V, key: K) => void;
}

/**
 * An LRU cache whose entries together hold at most `maxBytes` (as `sizeOf` counts them): the
 * least recently used go first, and an entry larger than the bound alone is not kept at all.
 */
export function byteCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(options: ByteCacheOptions<K, V>): LRUCache<K, V> {
  return new LRUCache<K, V>({
    maxSize: options.maxBytes,
    maxEntrySize: options.maxBytes,
    sizeCalculation: (value, key) => Math.max(1, Math.ceil(options.sizeOf(value, key))),
    ...(options.dispose ? { dispose: (value: V, key: K) => options.dispose!(value, key) } : {}),
  });
}

/** What a pending promise counts for in a {@link PromiseByteCache} until it settles, in bytes. */
const pendingBytes = 1024;

/**
 * A byte-bounded cache of promises (work that is shared while it runs, then kept): a pending
 * promise counts {@link pendingBytes}; once it resolves it counts `sizeOf` of its value (and
 * may push older entries out, or itself when larger than the bound); a rejected one is dropped.
 */
export class PromiseByteCache<K extends NonNullable<unknown>, V> {
  private readonly cache: LRUCache<K, Promise<V>>;

  private readonly options: { maxBytes: number; sizeOf: (value: V, key: K) => number };

  constructor(options: { maxBytes: number; sizeOf: (value: V, key: K) => number }) {
    this.options = options;
    this.cache = new LRUCache<K, Promise<V>>({ maxSize: options.maxBytes, maxEntrySize: options.maxBytes });
  }

  /** The kept promise of `key` (marked as recently used), or undefined. */
  get(key: K): Promise<V> | undefined {
    return this.cache.get(key);
  }

  /** Keeps `promise` under `key` (dropped if it rejects). */
  set(key: K, promise: Promise<V>): void {
    this.cache.set(key, promise, { size: pendingBytes });
    promise.then(
      (value) => {
        if (this.cache.peek(key) !== promise) return;
        // The same promise under its real size (lru-cache sizes an entry when it is set).
        this.cache.delete(key);
        this.cache.set(key, promise, { size: Math.max(1, Math.ceil(this.options.sizeOf(value, key))) });
      },
      () => {
        if (this.cache.peek(key) === promise) this.cache.delete(key);
      },
    );
  }

  delete(key: K): void {
    this.cache.delete(key);
  }

  clear(): void {
    this.cache.clear();
  }

  /** The bytes the entries count for together (never above the bound). */
  get calculatedSize(): number {
    return this.cache.calculatedSize;
  }

  get size(): number {
    return this.cache.size;
  }
}

/**
 * A rough size of a value in V8's heap, in bytes: strings 2 bytes a character (plus a header),
 * numbers and booleans 8, typed arrays and buffers their byte length, arrays, maps, sets and
 * plain objects the sum of what they hold plus a header per slot. Shared parts are counted
 * each time they are reached (an upper bound), cycles once. Good to bound a cache, not to
 * account for memory exactly.
 */
export function estimateBytes(value: unknown, seen: Set<object> = new Set()): number {
  switch (typeof value) {
    case 'string':
      return 16 + 2 * value.length;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
    case 'symbol':
      return 8;
    case 'function':
      return 64;
  }
  if (value === null) return 8;
  const object = value as object;
  if (seen.has(object)) return 8;
  seen.add(object);
  if (ArrayBuffer.isView(object)) return 64 + object.byteLength;
  if (object instanceof ArrayBuffer || object instanceof SharedArrayBuffer) return 64 + object.byteLength;
  let bytes = 32;
  if (Array.isArray(object)) {
    for (const item of object) bytes += 8 + estimateBytes(item, seen);
    return bytes;
  }
  if (object instanceof Map) {
    for (const [key, item] of object) bytes += 16 + estimateBytes(key, seen) + estimateBytes(item, seen);
    return bytes;
  }
  if (object instanceof Set) {
    for (const item of object) bytes += 8 + estimateBytes(item, seen);
    return bytes;
  }
  if (object instanceof Date) return bytes;
  for (const [key, item] of Object.entries(object)) bytes += 8 + estimateBytes(key, seen) + estimateBytes(item, seen);
  return bytes;
}
