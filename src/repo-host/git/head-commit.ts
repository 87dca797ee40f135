// The commit HEAD resolves to: the one definition every reader of "the head" uses.
import { readHeadFiles } from './read-head.ts';
import { runGit } from './run-git.ts';

/**
 * The commit HEAD resolves to in `gitDir` (40 or 64 hex digits), or null for a branch with no
 * commit yet. Read from Git's files where their layout allows ({@link readHeadFiles}, no
 * process started), else `git rev-parse --verify HEAD^{commit}`. Throws a GitError when git
 * fails for another reason (not a repository).
 */
export async function headCommit(gitDir: string): Promise<string | null> {
  const read = await readHeadFiles(gitDir).catch(() => undefined);
  if (read !== undefined) return read;
  const { stdout, code } = await runGit(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { gitDir, okCodes: [0, 1] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}
