// Shows the indexing of each repository as a progress bar on a terminal (cli-progress), and
// as a log line every few seconds elsewhere.
import { createRequire } from 'node:module';
import type cliProgress from 'cli-progress';
import { indexProgressLog } from '../instance/index-progress-log.ts';
import type { IndexProgress } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';

/** A progress display: the callback for the installation, and `stop` to end it. */
export interface ProgressDisplay {
  onProgress: IndexProgress;
  stop(): void;
}

/**
 * One bar per repository on `stream` when it is a terminal; elsewhere (a pipe, a log file)
 * `index_progress` lines through `log` every few seconds ({@link indexProgressLog}).
 */
export function indexProgress(log: Logger, stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  if (!stream.isTTY) return { onProgress: indexProgressLog(log), stop: () => undefined };
  // Loaded for a terminal only (CommonJS, about 20 modules): a server's start under a client or a service has none.
  const { MultiBar, Presets } = createRequire(import.meta.url)('cli-progress') as typeof cliProgress;
  const multibar = new MultiBar(
    { stream, format: '{repo} |{bar}| {value}/{total} files', hideCursor: true, clearOnComplete: false, stopOnComplete: false },
    Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  return {
    onProgress: (repo, done, total) => {
      if (total === 0) return;
      let bar = bars.get(repo);
      if (!bar) {
        bar = multibar.create(total, 0, { repo: repo.padEnd(12) });
        bars.set(repo, bar);
      }
      bar.setTotal(total);
      bar.update(done, { repo: repo.padEnd(12) });
    },
    stop: () => multibar.stop(),
  };
}
