// The Queue port (DESIGN.md "Ports and adapters"): jobs by name, each run for one key (a
// repository). In-process here (in-process-queue.ts); hosted later, pg-boss on Postgres.

/** Runs one job for one key, e.g. the index update of one repository. */
export type JobHandler = (key: string) => Promise<void>;

/**
 * Jobs by name. Runs of one name for one key never overlap, and the triggers that arrive
 * while one runs share a single next run: a burst of triggers for one repository costs at
 * most the run going on plus one.
 */
export interface Queue {
  /** Says how jobs named `name` run. Once per name, before its first {@link send}; a second call throws. */
  work(name: string, handler: JobHandler): void;
  /**
   * Asks for a run of `name` for `key`. Resolves when a run that started after this call has
   * finished, so it saw everything that happened before the call; rejects with that run's
   * error. Throws for a name nobody {@link work}s on.
   */
  send(name: string, key: string): Promise<void>;
}
