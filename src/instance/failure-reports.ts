// Failures of the installation's background work, said once per key until it recovers, so a
// broken repository does not fill the log every second.
import type { Logger } from './log.ts';

/** Logs each failure once per key (a repository, `poll`, `startup`) until that key recovers. */
export class FailureReports {
  private readonly reported = new Set<string>();

  private readonly log: Logger;

  constructor(log: Logger) {
    this.log = log;
  }

  /** Logs `message` at error level with `error` as its cause, unless `key` has been reported since it last {@link recovered}. */
  report(key: string, message: string, error: unknown): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.log.error({ err: error }, message);
  }

  /** Says that `key` works again: its next failure is logged. */
  recovered(key: string): void {
    this.reported.delete(key);
  }
}
