// Matching off the event loop: notes are matched on worker threads (piscina, sized to the
// machine) under a time budget per call, so one heavy search never holds the server.
//
// A call (one search_notes or find_references) gets a {@link MatchRun} with a deadline. Its
// batches of notes go to the pool one after another; a worker stops between lines when the
// deadline passes and answers what it found, and a line that outlasts the deadline (RE2 over
// megabytes of one line) is ended by aborting the task, which stops its worker thread.
// Batches of a few kilobytes are matched inline: a round-trip to a thread would cost more.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ContainsTask, ParsedNoteWithKeys, ParseNoteTask } from '../../note-index/parse-task.ts';
import { matchNotes, type MatchNotesResult, type MatchNotesTask, type MatchQuery, type NoteLineMatch } from './match-notes.ts';

/** The time budget of one call's matching, in milliseconds, unless the installation sets another. */
export const DEFAULT_MATCH_BUDGET_MS = 3000;

/** Batches smaller than this many UTF-16 code units are matched on the calling thread. */
const INLINE_CHARS = 64 * 1024;
/** A task to a worker holds notes up to about this many code units (a longer note is one task alone). */
const TASK_CHARS = 1024 * 1024;
/** How long past the deadline a worker may take before its task is aborted, in ms. */
const ABORT_GRACE_MS = 100;

let shared: Piscina | null = null;

/**
 * The process's pool: one thread per processor (`os.availableParallelism()`), started when
 * first needed (or by {@link startMatchPool}), at lower priority than the event loop
 * (nice +10). A thread stopped by an abort is replaced at once, in the background.
 */
function matchPool(): Piscina {
  shared ??= new Piscina({
    filename: new URL('./match-worker.cjs', import.meta.url).href,
    minThreads: availableParallelism(),
    maxThreads: availableParallelism(),
    idleTimeout: 60_000,
    niceIncrement: 10,
  });
  return shared;
}

/**
 * Starts the process's pool now, so its threads are ready (each takes about half a second
 * to load the matching code) before the first search; servers call it when they start.
 */
export function startMatchPool(): void {
  matchPool();
}

/** Ends the process's pool (its threads), if it was started; a later call starts a new one. */
export async function closeMatchPool(): Promise<void> {
  const pool = shared;
  shared = null;
  await pool?.destroy();
}

/** The named tasks of the worker besides matching (match-worker.cjs), with their input and result. */
export interface PoolTasks {
  /** Parses one note and computes its trigram keys (note-index/parse-task.ts). */
  parseNote: { task: ParseNoteTask; result: ParsedNoteWithKeys };
  /** The trigram keys of one text. */
  noteKeys: { task: string; result: Int32Array };
  /** Whether a long note contains a plain needle (scanNotes). */
  contains: { task: ContainsTask; result: boolean };
}

/**
 * Runs the named task on the process's pool, off the event loop (the task and its result are
 * copied between threads). With `signal`, an abort ends the task (stopping its worker thread)
 * and rejects with the abort's reason. Rejects with what the task threw.
 */
export async function runPoolTask<K extends keyof PoolTasks>(name: K, task: PoolTasks[K]['task'], signal?: AbortSignal): Promise<PoolTasks[K]['result']> {
  return (await matchPool().run(task, { name, ...(signal ? { signal } : {}) })) as PoolTasks[K]['result'];
}

/** What a batch gave: its matches in note and line order, and whether the run stopped at its deadline. */
export interface MatchBatchResult {
  matches: NoteLineMatch[];
  /** True when the deadline passed before the batch was searched to its end (or to `wanted` matches). */
  stopped: boolean;
  /** When stopped: the index of the note being searched then (every note before it was searched). */
  searched: number;
}

/**
 * The matching of one call: every batch shares one deadline, `budgetMs` after the run
 * started. Once stopped, a run matches nothing more.
 */
export class MatchRun {
  /** The deadline, in ms since the epoch. */
  readonly deadline: number;
  private stoppedAt = false;

  constructor(readonly budgetMs: number = DEFAULT_MATCH_BUDGET_MS) {
    this.deadline = Date.now() + budgetMs;
  }

  /** True once the deadline has passed (or a batch was stopped by it). */
  get stopped(): boolean {
    if (!this.stoppedAt && Date.now() > this.deadline) this.stoppedAt = true;
    return this.stoppedAt;
  }

  /**
   * Matches `contents` against `query` in order until `wanted` matches are found, the notes
   * end or the deadline passes; `note` in each match is the index into `contents`.
   */
  async match(query: MatchQuery, contents: readonly string[], wanted: number): Promise<MatchBatchResult> {
    const matches: NoteLineMatch[] = [];
    for (let from = 0; from < contents.length && matches.length < wanted; ) {
      if (this.stopped) return { matches, stopped: true, searched: from };
      let to = from;
      let chars = 0;
      while (to < contents.length && (to === from || chars + contents[to]!.length <= TASK_CHARS)) chars += contents[to++]!.length;
      const task: MatchNotesTask = { query, contents: contents.slice(from, to), wanted: wanted - matches.length, deadline: this.deadline };
      const result = chars < INLINE_CHARS ? matchNotes(task) : await this.onWorker(task);
      for (const match of result?.matches ?? []) matches.push({ ...match, note: match.note + from });
      if (result === null || result.cut) {
        this.stoppedAt = true;
        return { matches, stopped: true, searched: from + (result?.searched ?? 0) };
      }
      from = to;
    }
    return { matches, stopped: false, searched: contents.length };
  }

  /** The task run on the pool; null when it was aborted at the deadline (or waited past it). */
  private async onWorker(task: MatchNotesTask): Promise<MatchNotesResult | null> {
    const signal = AbortSignal.timeout(Math.max(0, this.deadline - Date.now()) + ABORT_GRACE_MS);
    try {
      return (await matchPool().run(task, { signal })) as MatchNotesResult;
    } catch (error) {
      if (signal.aborted) return null;
      throw error;
    }
  }
}
