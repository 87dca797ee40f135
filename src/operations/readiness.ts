// Readiness: whether a process can do its work now (its database answers, …), as a
// container platform's readiness probe asks it at `GET /readyz` (with-operations.ts).
import type { Logger } from 'pino';

/** One thing a process needs to do its work, checked at every readiness probe. */
export interface ReadinessCheck {
  /** What is checked, named in the probe's answer: `database`, `queue`, `store`, … (letters, digits, `_` and `-`). */
  name: string;
  /** Resolves when the thing works; rejects (or takes longer than `timeoutMs`) when it does not. */
  check(): Promise<void>;
  /** How long the check may take before it counts as failed, in milliseconds (default 2000). */
  timeoutMs?: number;
}

/** Anything that runs SQL: the index's `SqlClient` (note-index/sql-client.ts), a pg `Pool` or `Client`. */
export interface SqlQueryable {
  query(sql: string): Promise<unknown>;
}

/** A check that `sql` answers `SELECT 1` within `timeoutMs` (default 2000 ms); named `name` (default `database`). */
export function databaseCheck(sql: SqlQueryable, options: { name?: string; timeoutMs?: number } = {}): ReadinessCheck {
  return {
    name: options.name ?? 'database',
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    check: async () => {
      await sql.query('SELECT 1');
    },
  };
}

/** One check's result in a {@link ReadinessReport}. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** How long it took, in milliseconds (the timeout when it timed out). */
  durationMs: number;
  /** Why it failed: `timeout` (no answer within its time) or `failed` (it threw); the cause goes to the log only. */
  failure?: 'timeout' | 'failed';
}

/** The answer of a readiness probe: ready when every check passed. */
export interface ReadinessReport {
  ready: boolean;
  checks: CheckResult[];
}

const defaultTimeoutMs = 2000;

/**
 * Runs every check at once, each bounded by its timeout. A failing check's cause is logged to
 * `log` at warn (`readiness_failed`: `check`, `failure`, `err`) when it starts failing, and at
 * info (`readiness_restored`) when it passes again, never at every probe; the report names
 * the check and the kind of failure only, since a probe may be reachable from outside and a
 * database error names hosts and users.
 */
export function readinessChecker(checks: readonly ReadinessCheck[], log?: Logger): () => Promise<ReadinessReport> {
  const failing = new Set<string>();
  return async () => {
    const results = await Promise.all(
      checks.map(async (check): Promise<CheckResult> => {
        const timeoutMs = check.timeoutMs ?? defaultTimeoutMs;
        const started = performance.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
        try {
          const outcome = await Promise.race([check.check().then(() => 'ok' as const), timedOut]);
          const durationMs = Math.round(performance.now() - started);
          if (outcome === 'ok') {
            if (failing.delete(check.name)) log?.info({ event: 'readiness_restored', check: check.name }, `${check.name} is ready again`);
            return { name: check.name, ok: true, durationMs };
          }
          noteFailure(check.name, 'timeout', new Error(`${check.name} did not answer within ${timeoutMs} ms`));
          return { name: check.name, ok: false, durationMs, failure: 'timeout' };
        } catch (error) {
          noteFailure(check.name, 'failed', error);
          return { name: check.name, ok: false, durationMs: Math.round(performance.now() - started), failure: 'failed' };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return { ready: results.every((result) => result.ok), checks: results };
  };

  function noteFailure(name: string, failure: 'timeout' | 'failed', error: unknown): void {
    if (failing.has(name)) return;
    failing.add(name);
    log?.warn({ event: 'readiness_failed', check: name, failure, err: error }, `${name} is not ready: ${failure}`);
  }
}
