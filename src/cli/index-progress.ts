// Shows the indexing of each repository as a progress bar on a terminal (cli-progress).
import cliProgress from 'cli-progress';
import type { IndexProgress } from '../instance/installation.ts';

/** A progress display: the callback for the installation, and `stop` to end it. */
export interface ProgressDisplay {
  onProgress: IndexProgress;
  stop(): void;
}

/**
 * One bar per repository on `stream` when it is a terminal; elsewhere (a pipe, a log file)
 * nothing until done, then one line per repository that had files to index.
 */
export function indexProgress(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  if (!stream.isTTY) {
    const totals = new Map<string, number>();
    return {
      onProgress: (repo, _done, total) => void totals.set(repo, total),
      stop: () => {
        for (const [repo, total] of totals) if (total > 0) stream.write(`Indexed ${total} changed files of ${repo}\n`);
      },
    };
  }
  const multibar = new cliProgress.MultiBar(
    { stream, format: '{repo} |{bar}| {value}/{total} files', hideCursor: true, clearOnComplete: false, stopOnComplete: false },
    cliProgress.Presets.shades_classic,
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
