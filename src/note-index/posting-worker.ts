// Builds a repository's posting lists on a worker thread, while the indexer writes the notes
// and links on the main thread (a full build: about a second of CPU each way on obsidian-help).
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { trigramKeys } from './trigram-keys.ts';
import { buildPostingBuckets, type PostingBucket } from './trigram-postings.ts';

/** One note's id and text. */
export interface NoteText {
  id: number;
  text: string;
}

/**
 * {@link buildPostingBuckets} of the notes' {@link trigramKeys}, computed on a worker thread.
 * The source runs as TypeScript through tsx, whose loader a worker does not inherit: the
 * worker registers it before loading this module. If the worker cannot start or fails, the
 * buckets are built on this thread instead, so the answer is the same either way.
 */
export function buildPostingBucketsAside(notes: readonly NoteText[]): Promise<PostingBucket[]> {
  return new Promise<PostingBucket[]>((resolve) => {
    let settled = false;
    const fallback = () => {
      if (settled) return;
      settled = true;
      void worker?.terminate();
      resolve(bucketsOf(notes));
    };
    let worker: Worker | null = null;
    try {
      const tsx = import.meta.resolve('tsx/esm/api');
      const self = import.meta.url;
      worker = new Worker(
        `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(self)}); })`,
        { eval: true, workerData: { postingWorker: true } },
      );
    } catch {
      fallback();
      return;
    }
    worker.once('message', (buckets: PostingBucket[]) => {
      if (settled) return;
      settled = true;
      void worker!.terminate();
      resolve(buckets);
    });
    worker.once('error', fallback);
    worker.once('exit', fallback);
    worker.postMessage(notes);
  });
}

function bucketsOf(notes: readonly NoteText[]): PostingBucket[] {
  return buildPostingBuckets(notes.map((note) => ({ id: note.id, keys: trigramKeys(note.text) })));
}

// On the worker (marked by its workerData, not merely any worker thread): one message of
// notes in, their buckets out.
if ((workerData as { postingWorker?: boolean } | null)?.postingWorker === true && parentPort) {
  const port = parentPort;
  port.once('message', (notes: NoteText[]) => {
    const buckets = bucketsOf(notes);
    port.postMessage(buckets, buckets.map((bucket) => bucket.postings.buffer as ArrayBuffer));
  });
}
