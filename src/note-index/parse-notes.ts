// Parsing the notes an index update writes: the notes model and trigram keys, long notes on the worker pool.
import type { ParsedNote } from '../notes/parse-note.ts';
import type { ParseFields } from './parse-fields.ts';
import { parseNoteTask, runPoolTask } from './parse-task.ts';

/** A note as the index stores it: its file, text, what parsing found, and its trigram keys. */
export interface NoteRecord {
  path: string;
  oid: string;
  size: number;
  text: string;
  parsed: ParsedNote;
  /** The distinct trigram keys of `text`. */
  keys: Int32Array;
}

/** A note read but not parsed yet. */
export type NoteText = Omit<NoteRecord, 'parsed' | 'keys'>;

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
export async function parseNotes(texts: readonly NoteText[], fields: ParseFields): Promise<NoteRecord[]> {
  const taskFields = { typeField: fields.typeField, summaryField: fields.summaryField };
  const onPool = texts.map((note) =>
    note.text.length > PARSE_ON_POOL_CHARS ? runPoolTask('parseNote', { path: note.path, text: note.text, fields: taskFields }) : null,
  );
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
