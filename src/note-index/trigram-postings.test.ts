// Posting lists in buckets: built whole, changed note by note, read for candidates (PGlite, or the server with DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/support/test-database.ts';
import type { SqlClient } from './sql-client.ts';
import { trigramKeys } from './trigram-keys.ts';
import {
  applyKeyChanges,
  buildPostingBuckets,
  candidateNoteIds,
  decodeBucket,
  encodeBucket,
  idsInBucket,
  insertPostingBuckets,
  type KeyChange,
} from './trigram-postings.ts';

/** Deterministic pseudo-random text over a small alphabet, so keys repeat across notes. */
function randomTexts(count: number, seed: number): string[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const words = ['plan', 'budget', 'Über', 'straße', 'graph view', '東京', 'kanban', 'callout', 'Σίσυφος', 'x'];
  return Array.from({ length: count }, () =>
    Array.from({ length: 5 + Math.floor(next() * 40) }, () => words[Math.floor(next() * words.length)]).join(next() < 0.2 ? '\n' : ' '),
  );
}

const bruteForce = (notes: ReadonlyMap<number, string>, needle: string) =>
  [...notes].filter(([, text]) => [...trigramKeys(needle)].every((key) => trigramKeys(text).includes(key))).map(([id]) => id);

describe('posting buckets', () => {
  it('encode and decode each other, and find one key', () => {
    const entries = new Map([
      [7, [1, 2, 300, 70_000]],
      [-5, [4]],
      [1 << 20, [9, 10]],
    ]);
    const bytes = encodeBucket(entries);
    expect(decodeBucket(bytes)).toEqual(entries);
    expect(idsInBucket(bytes, 7)).toEqual([1, 2, 300, 70_000]);
    expect(idsInBucket(bytes, 8)).toEqual([]);
  });

  it('list, for every key, exactly the notes that have it', () => {
    const texts = randomTexts(300, 1);
    const buckets = buildPostingBuckets(texts.map((text, i) => ({ id: i + 1, keys: trigramKeys(text) })));
    const byBucket = new Map(buckets.map((b) => [b.bucket, b.postings]));
    for (const key of trigramKeys('budget kanban Über')) {
      const expected = texts.flatMap((text, i) => (trigramKeys(text).includes(key) ? [i + 1] : []));
      expect(idsInBucket(byBucket.get(key >>> 18) ?? new Uint8Array(0), key)).toEqual(expected);
    }
  });
});

describe('posting buckets in the database', () => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await openTestDatabase();
  });
  afterAll(async () => {
    await sql?.close();
  });

  it('answer candidates as a fresh build would after notes are added, changed and removed', async () => {
    const notes = new Map(randomTexts(200, 2).map((text, i) => [i + 1, text]));
    await sql.transaction((tx) =>
      insertPostingBuckets(tx, 'r', buildPostingBuckets([...notes].map(([id, text]) => ({ id, keys: trigramKeys(text) })))),
    );
    const needles = ['budget', 'graph view', 'über', '東京の', 'ίσυφ', 'kanban callout', 'zzz'];
    for (const needle of needles) expect(await candidateNoteIds(sql, 'r', trigramKeys(needle))).toEqual(bruteForce(notes, needle));

    const replacements = randomTexts(30, 3);
    const changes: KeyChange[] = [];
    for (let i = 0; i < 30; i++) {
      const id = 1 + i * 6;
      const before = new Set(trigramKeys(notes.get(id)!));
      const after = new Set(trigramKeys(replacements[i]!));
      changes.push({
        id,
        added: Int32Array.from([...after].filter((k) => !before.has(k))),
        removed: Int32Array.from([...before].filter((k) => !after.has(k))),
      });
      notes.set(id, replacements[i]!);
    }
    for (const id of [2, 3, 4]) {
      changes.push({ id, added: new Int32Array(0), removed: trigramKeys(notes.get(id)!) });
      notes.delete(id);
    }
    changes.push({ id: 201, added: trigramKeys('a new budget note'), removed: new Int32Array(0) });
    notes.set(201, 'a new budget note');
    await sql.transaction((tx) => applyKeyChanges(tx, 'r', changes));
    for (const needle of [...needles, 'new budget'])
      expect(await candidateNoteIds(sql, 'r', trigramKeys(needle))).toEqual(bruteForce(notes, needle));

    const fresh = buildPostingBuckets([...notes].sort(([a], [b]) => a - b).map(([id, text]) => ({ id, keys: trigramKeys(text) })));
    const stored = (
      await sql.query<{ bucket: number; postings: string }>(
        `SELECT bucket, encode(postings, 'base64') AS postings FROM trigram_buckets WHERE repo = 'r' ORDER BY bucket`,
      )
    ).rows;
    expect(stored.map((row) => [row.bucket, decodeBucket(Buffer.from(row.postings, 'base64'))])).toEqual(
      fresh.map((b) => [b.bucket, decodeBucket(b.postings)]),
    );
    expect(await candidateNoteIds(sql, 'other', trigramKeys('budget'))).toEqual([]);
  });
});
