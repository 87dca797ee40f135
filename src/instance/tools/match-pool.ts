// Matching off the event loop: notes are matched on the worker pool (pool/worker-pool.ts,
// sized to the machine) under a time budget per call, so one heavy search never holds the server.
//
// A call (one search_notes or find_references) gets a {@link MatchRun} with a deadline. Its
// batches of notes go to the pool in tasks of about a megabyte, up to one per pool thread at
// once (so a long search uses every processor), answers taken in order; a worker stops between lines when the
// deadline passes and answers what it found, and a line that outlasts the deadline (RE2 over
// megabytes of one line) is ended by aborting the task, which stops its worker thread.
// Batches of a few kilobytes are matched inline: a round-trip to a thread would cost more.
import { availableParallelism } from 'node:os';
import { runPoolTask } from '../../pool/worker-pool.ts';
import { matchNotes, type MatchNotesResult, type MatchNotesTask, type MatchQuery, type NoteLineMatch } from './match-notes.ts';

/** The time budget of one call's matching, in milliseconds, unless the installation sets another. */
export const DEFAULT_MATCH_BUDGET_MS = 3000;

/** Batches smaller than this many UTF-16 code units are matched on the calling thread. */
const INLINE_CHARS = 64 * 1024;
/** A task to a worker holds notes up to about this many code units (a longer note is one task alone). */
const TASK_CHARS = 1024 * 1024;
/** How long past the deadline a worker may take before its task is aborted, in ms. */
const ABORT_GRACE_MS = 100;

/** What a batch gave: its matches in note and line order, and whether the run stopped at its deadline. */
export interface MatchBatchResult {
  matches: NoteLineMatch[];
  /** True when the deadline passed before the batch was searched to its end (or to `wanted` matches). */
  stopped: boolean;
  /** When stopped: the index of the note being searched then (every note before it was searched). */
  searched: number;
  /** When stopped inside that note (not at its start): the first of its lines (from 1) not searched. */
  line?: number;
}

/**
 * The matching of one call: every batch shares one deadline, `budgetMs` after the run
 * started. Once stopped, a run matches nothing more.
 */
export class MatchRun {
  /** The deadline, in ms since the epoch. */
  readonly deadline: number;
  private stoppedAt = false;

  readonly budgetMs: number;

  constructor(budgetMs: number = DEFAULT_MATCH_BUDGET_MS) {
    this.budgetMs = budgetMs;
    this.deadline = Date.now() + budgetMs;
  }

  /** True once the deadline has passed (or a batch was stopped by it). */
  get stopped(): boolean {
    if (!this.stoppedAt && Date.now() > this.deadline) this.stoppedAt = true;
    return this.stoppedAt;
  }

  /**
   * Matches `contents` against `query` in order until `wanted` matches are found, the notes
   * end or the deadline passes; `note` in each match is the index into `contents`. With
   * `lineTexts: false`, each match's `text` is `''` (MatchNotesTask.lineTexts).
   */
  async match(
    query: MatchQuery,
    contents: readonly string[],
    wanted: number,
    options: { lineTexts?: boolean } = {},
  ): Promise<MatchBatchResult> {
    const matches: NoteLineMatch[] = [];
    // The batch cut into tasks of about TASK_CHARS; up to one task per pool thread is under
    // way at once (the pool has one per processor), and their answers are taken in order.
    // A task sent before the ones ahead of it answered may search notes past the wanted
    // matches or the deadline: what it found there is dropped, its time bounded by the deadline.
    const tasks: Array<{ from: number; to: number; chars: number }> = [];
    for (let from = 0; from < contents.length;) {
      let to = from;
      let chars = 0;
      while (to < contents.length && (to === from || chars + contents[to]!.length <= TASK_CHARS)) chars += contents[to++]!.length;
      tasks.push({ from, to, chars });
      from = to;
    }
    const ahead = Math.max(1, availableParallelism());
    const running: Array<Promise<MatchNotesResult | null>> = [];
    const start = (index: number) => {
      const { from, to, chars } = tasks[index]!;
      const task: MatchNotesTask = {
        query,
        contents: contents.slice(from, to),
        wanted: wanted - matches.length,
        deadline: this.deadline,
        ...(options.lineTexts === false ? { lineTexts: false } : {}),
      };
      return chars < INLINE_CHARS ? Promise.resolve(matchNotes(task)) : this.onWorker(task);
    };
    for (let index = 0; index < tasks.length && matches.length < wanted; index++) {
      const { from } = tasks[index]!;
      if (running.length === 0 && this.stopped) return { matches, stopped: true, searched: from };
      // Inline tasks run one at a time, when their turn comes; pool tasks are sent ahead.
      for (let next = index + running.length; running.length < ahead && next < tasks.length; next++) {
        if (running.length > 0 && tasks[next]!.chars < INLINE_CHARS) break;
        const pending = start(next);
        // A task ahead whose answer is no longer awaited (the run ended first) fails for no one.
        pending.catch(() => {});
        running.push(pending);
      }
      const result = await running.shift()!;
      for (const match of result?.matches ?? []) {
        if (matches.length >= wanted) break;
        matches.push({ ...match, note: match.note + from });
      }
      if (result === null || result.cut) {
        this.stoppedAt = true;
        return {
          matches,
          stopped: true,
          searched: from + (result?.searched ?? 0),
          ...(result?.line === undefined ? {} : { line: result.line }),
        };
      }
    }
    return { matches, stopped: false, searched: contents.length };
  }

  /** The task run on the pool; null when it was aborted at the deadline (or waited past it). */
  private async onWorker(task: MatchNotesTask): Promise<MatchNotesResult | null> {
    const signal = AbortSignal.timeout(Math.max(0, this.deadline - Date.now()) + ABORT_GRACE_MS);
    try {
      return await runPoolTask<MatchNotesResult>('matchNotes', task, { signal });
    } catch (error) {
      if (signal.aborted) return null;
      throw error;
    }
  }
}
