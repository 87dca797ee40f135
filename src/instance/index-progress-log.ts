// Indexing progress as log lines, for when no terminal shows a progress bar (a pipe, a log
// file, the standard error of `stdio` that an MCP client collects).
import type { IndexProgress } from './installation.ts';
import type { Logger } from './log.ts';

/** How often a progress line is written while a repository is being indexed, in milliseconds. */
export const progressLogIntervalMs = 5_000;

/**
 * An {@link IndexProgress} that logs `index_progress` lines (`repo`, `done`, `total` files) at
 * info: the first report of each repository, then at most one line per `intervalMs` (default
 * {@link progressLogIntervalMs}), and the last one (`done === total`); a repository with
 * nothing to index says nothing. `now` gives the time in milliseconds (default `Date.now`).
 */
export function indexProgressLog(log: Logger, options: { intervalMs?: number; now?: () => number } = {}): IndexProgress {
  const intervalMs = options.intervalMs ?? progressLogIntervalMs;
  const now = options.now ?? Date.now;
  let lastAt = -Infinity;
  let lastRepo: string | null = null;
  return (repo, done, total) => {
    if (total === 0) return;
    const at = now();
    if (repo === lastRepo && done < total && at - lastAt < intervalMs) return;
    lastAt = at;
    lastRepo = done < total ? repo : null;
    log.info({ event: 'index_progress', repo, done, total }, `indexing ${repo}: ${done} of ${total} files`);
  };
}
