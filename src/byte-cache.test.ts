import { describe, expect, test } from 'vitest';
import { byteCache, estimateBytes, PromiseByteCache } from './byte-cache.ts';

describe('byteCache', () => {
  test('never holds more than its bound, however many entries come', () => {
    const cache = byteCache<string, string>({ maxBytes: 10_000, sizeOf: (value) => estimateBytes(value) });
    for (let i = 0; i < 1_000; i++) {
      cache.set(`k${i}`, 'x'.repeat(i % 300));
      expect(cache.calculatedSize).toBeLessThanOrEqual(10_000);
    }
    // The most recent entries stay; the oldest went.
    expect(cache.has('k999')).toBe(true);
    expect(cache.has('k0')).toBe(false);
  });

  test('does not keep an entry larger than the whole bound', () => {
    const cache = byteCache<string, Uint8Array>({ maxBytes: 1_000, sizeOf: (value) => value.byteLength });
    cache.set('small', new Uint8Array(500));
    cache.set('huge', new Uint8Array(5_000));
    expect(cache.has('huge')).toBe(false);
    expect(cache.has('small')).toBe(true);
    expect(cache.calculatedSize).toBeLessThanOrEqual(1_000);
  });
});

describe('PromiseByteCache', () => {
  test('counts a promise by its value once it resolves, and stays within its bound', async () => {
    const cache = new PromiseByteCache<string, number[]>({ maxBytes: 50_000, sizeOf: (value) => estimateBytes(value) });
    for (let i = 0; i < 100; i++) {
      const list = Array.from({ length: 500 }, (_, j) => j);
      cache.set(`list${i}`, Promise.resolve(list));
      await Promise.resolve();
      await Promise.resolve();
      expect(cache.calculatedSize).toBeLessThanOrEqual(50_000);
    }
    // Each list counts about 8 KB: a handful fit, not a hundred.
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.size).toBeLessThan(10);
    await expect(cache.get('list99')).resolves.toHaveLength(500);
  });

  test('drops a promise that rejects', async () => {
    const cache = new PromiseByteCache<string, string>({ maxBytes: 10_000, sizeOf: (value) => estimateBytes(value) });
    const failing = Promise.reject(new Error('git failed'));
    failing.catch(() => undefined);
    cache.set('bad', failing);
    await failing.catch(() => undefined);
    await Promise.resolve();
    expect(cache.get('bad')).toBeUndefined();
  });
});

describe('estimateBytes', () => {
  test('grows with what a value holds, and survives cycles', () => {
    expect(estimateBytes('a'.repeat(1_000))).toBeGreaterThanOrEqual(2_000);
    expect(estimateBytes([{ path: 'a'.repeat(100) }, { path: 'b'.repeat(100) }])).toBeGreaterThan(400);
    expect(estimateBytes(new Uint8Array(4_096))).toBeGreaterThanOrEqual(4_096);
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic['self'] = cyclic;
    expect(estimateBytes(cyclic)).toBeGreaterThan(0);
  });
});
