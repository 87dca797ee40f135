// The process's worker pool: CPU-heavy work of one request (matching, parsing a long note,
// a long note's line starts, rendering a base view) runs on worker threads (piscina, up to one per
// processor), so one request never holds the event loop for other calls.
//
// Neutral ground: the index (note-index/) and the tool handlers (instance/tools/) both give
// it work, so it imports neither. Each consumer types its own tasks over runPoolTask; the
// thread's entry (pool-worker.cjs) is the one list of every task a thread can run.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { VaultError } from '../vault-error.ts';
import { threadResourceLimits } from './thread-resource-limits.ts';

let shared: Piscina | null = null;

/**
 * How long a pool thread beyond the first may sit idle before it exits, in ms (issue 14): each
 * thread holds its own V8 heap and malloc arena (tens of MiB), so an idle server keeps one
 * warm thread and starts the others again (about half a second each) when work queues up.
 */
export const IDLE_THREAD_MS = 20_000;

/**
 * The process's pool: up to one thread per processor (`os.availableParallelism()`), at least
 * one, started when first needed (or by {@link startWorkerPool}), at lower priority than the
 * event loop (nice +10); threads beyond the first exit after {@link IDLE_THREAD_MS} idle. A thread stopped by an abort is replaced at once, in the background.
 */
function workerPool(): Piscina {
  // piscina (CommonJS) loads with the pool, not with every start: a start's first answers need no thread.
  shared ??= new (createRequire(import.meta.url)('piscina') as typeof import('piscina')).Piscina({
    filename: new URL('./pool-worker.cjs', import.meta.url).href,
    minThreads: 1,
    maxThreads: availableParallelism(),
    idleTimeout: IDLE_THREAD_MS,
    niceIncrement: 10,
    resourceLimits: threadResourceLimits,
  });
  return shared;
}

/**
 * Starts the process's pool now, so its first thread is ready (each takes about half a second
 * to load its code) before the first heavy call; servers call it when they start.
 */
export function startWorkerPool(): void {
  workerPool();
}

/**
 * The pool's threads at this moment (none before it starts), as piscina runs them: for
 * diagnostics and tests (ending one shows what a crash of a thread does to its task).
 */
export function workerPoolThreads(): readonly Worker[] {
  return shared?.threads ?? [];
}

/** Ends the process's pool (its threads), if it was started; a later task starts a new one. */
export async function closeWorkerPool(): Promise<void> {
  const pool = shared;
  shared = null;
  await pool?.destroy();
}

/**
 * Runs the task `name` (an export of pool-worker.cjs) on a thread of the pool with `task`
 * as its input; the input and the result are copied between threads (structured clone),
 * except what `transferList` moves. With `signal`, an abort ends the task (stopping its
 * thread) and rejects with the abort's reason. Rejects with what the task threw; when the
 * thread itself stopped under the task (a crash, out of memory), with VaultError
 * `worker_failed`, a refusal that says so (the pool starts a new thread in its place). The
 * caller names the result's type `R`: the thread's entry is plain CommonJS, unchecked.
 */
export async function runPoolTask<R>(name: string, task: unknown, options: { signal?: AbortSignal } = {}): Promise<R> {
  tasksInProgress += 1;
  try {
    return (await workerPool().run(task, { name, ...(options.signal ? { signal: options.signal } : {}) })) as R;
  } catch (error) {
    if (!options.signal?.aborted && threadStopped(error)) {
      throw new VaultError(
        'worker_failed',
        'The thread doing the heavy part of this call stopped before it finished (it ran out of memory or crashed); nothing was changed. Try the call again, or ask for less at once (a narrower path, a smaller limit, a more specific query).',
        {},
        { cause: error },
      );
    }
    throw error;
  } finally {
    tasksInProgress -= 1;
  }
}

let tasksInProgress = 0;

/** How many tasks {@link runPoolTask} has sent to the pool and not yet had back (queued or running). */
export function poolTasksInProgress(): number {
  return tasksInProgress;
}

/**
 * Whether `error` says the task's thread stopped under it (piscina's "worker exited", a
 * thread out of memory, an error thrown outside the task), rather than the task throwing.
 */
function threadStopped(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    /^worker exited with code/.test(error.message) || code === 'ERR_WORKER_OUT_OF_MEMORY' || error.message === 'Terminating worker thread'
  );
}
