// Reads a `git log -z LOG_FORMAT --raw --numstat` while it runs, one commit at a time.
import { GitError, startGit } from '../run-git.ts';
import type { Mirror } from '../mirror.ts';
import { headCommit } from './mirror-git.ts';
import { LogParser, type LogCommit } from './parse-log.ts';

/**
 * Runs `git ARGS` (a `log -z` with {@link LOG_FORMAT}, `--raw` and `--numstat`) on `mirror`
 * and hands each commit to `onCommit` as soon as all of its files are printed, in Git's
 * order, so the caller can start on it (or feed another process) while Git goes on.
 * Returns how many commits Git printed, or null when the log failed because the repository
 * has no commit yet. Throws GitError when git fails otherwise.
 */
export async function streamLog(mirror: Mirror, args: readonly string[], onCommit: (commit: LogCommit) => void): Promise<number | null> {
  const parser = new LogParser();
  let printed = 0;
  let failure: unknown = null;
  const handle = (commits: readonly LogCommit[]) => {
    for (const commit of commits) {
      printed += 1;
      onCommit(commit);
    }
  };
  const log = startGit(args, {
    gitDir: mirror.gitDir,
    ...(mirror.workTree ? { workTree: mirror.workTree, cwd: mirror.workTree } : { cwd: mirror.gitDir }),
    onStdout: (chunk) => {
      if (failure !== null) return;
      try {
        handle(parser.push(chunk));
        const settled = parser.settled();
        if (settled !== null) handle([settled]);
      } catch (error) {
        failure = error;
        log.stop();
      }
    },
  });
  log.end();
  try {
    await log.done;
  } catch (error) {
    if (error instanceof GitError && (await headCommit(mirror)) === null) return null;
    throw error;
  }
  if (failure !== null) throw failure;
  handle(parser.end());
  return printed;
}
