// Parsing one note and computing its trigram keys: the work the indexer gives the worker
// pool (pool/worker-pool.ts) for a long note, so a 50 MB note never holds the
// event loop for seconds, and runs inline for a short one.
import { parseNote, type ParsedNote } from '../notes/parse-note.ts';
import type { ParseFields } from './parse-fields.ts';
import { runPoolTask as runOnPool } from '../pool/worker-pool.ts';
import { searchFold, trigramKeys } from './trigram-keys.ts';

/** A note to parse: its repository path, its text and the repository's frontmatter fields. */
export interface ParseNoteTask {
  path: string;
  text: string;
  fields: Pick<ParseFields, 'typeField' | 'summaryField'>;
}

/** What the index stores of a note besides its text: the parsed note and its distinct trigram keys. */
export interface ParsedNoteWithKeys {
  parsed: ParsedNote;
  keys: Int32Array;
}

/** Parses the note (parseNote) and computes its trigram keys (trigramKeys). Never throws for any text. */
export function parseNoteTask(task: ParseNoteTask): ParsedNoteWithKeys {
  return { parsed: parseNote(task.path, task.text, task.fields), keys: trigramKeys(task.text) };
}

/** The distinct trigram keys of `text` (trigramKeys), as a pool task. */
export function noteKeysTask(text: string): Int32Array {
  return trigramKeys(text);
}

/** A text and a needle, as scanNotes checks a long note for it. */
export interface ContainsTask {
  text: string;
  needle: string;
  caseSensitive: boolean;
}

/**
 * Whether the text contains the needle: both in NFC when `caseSensitive`, else both folded
 * with searchFold (as the trigram keys and the line matching compare).
 */
export function containsTask(task: ContainsTask): boolean {
  return task.caseSensitive
    ? task.text.normalize('NFC').includes(task.needle.normalize('NFC'))
    : searchFold(task.text).includes(searchFold(task.needle));
}

/** The index's tasks on the worker pool (pool/pool-worker.cjs), with their input and result. */
export interface PoolTasks {
  /** Parses one note and computes its trigram keys ({@link parseNoteTask}). */
  parseNote: { task: ParseNoteTask; result: ParsedNoteWithKeys };
  /** The trigram keys of one text ({@link noteKeysTask}). */
  noteKeys: { task: string; result: Int32Array };
  /** Whether a long note contains a plain needle ({@link containsTask}). */
  contains: { task: ContainsTask; result: boolean };
}

/**
 * Runs one of the index's tasks on the process's worker pool, off the event loop (the task
 * and its result are copied between threads). With `signal`, an abort ends the task and
 * rejects with the abort's reason. Rejects with what the task threw.
 */
export async function runPoolTask<K extends keyof PoolTasks>(
  name: K,
  task: PoolTasks[K]['task'],
  signal?: AbortSignal,
): Promise<PoolTasks[K]['result']> {
  return runOnPool<PoolTasks[K]['result']>(name, task, signal ? { signal } : {});
}
