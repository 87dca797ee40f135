// Posting lists built on a worker thread equal those built on this one.
import { describe, expect, it } from 'vitest';
import { buildPostingBucketsAside } from './posting-worker.ts';
import { trigramKeys } from './trigram-keys.ts';
import { buildPostingBuckets, decodeBucket } from './trigram-postings.ts';

describe('buildPostingBucketsAside', () => {
  it('answers the buckets buildPostingBuckets makes', async () => {
    const notes = Array.from({ length: 500 }, (_, i) => ({ id: i + 1, text: `Note ${i}: kanban ${i % 7}, Über ${i % 13}, 東京 ${i % 3}` }));
    const decoded = (buckets: Awaited<ReturnType<typeof buildPostingBucketsAside>>) => buckets.map((b) => [b.bucket, decodeBucket(b.postings)]);
    const here = buildPostingBuckets(notes.map((note) => ({ id: note.id, keys: trigramKeys(note.text) })));
    expect(decoded(await buildPostingBucketsAside(notes))).toEqual(decoded(here));
  });
});
