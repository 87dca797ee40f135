// Runs git against a repository's mirror (bare, or a `.git` folder with its work tree).
import { readHeadFiles } from '../read-head.ts';
import { runGit, type GitOutput, type RunGitOptions } from '../run-git.ts';
import type { Mirror } from '../mirror.ts';

/**
 * Runs `git ARGS` on `mirror`: `--git-dir` always, `--work-tree` (and the work tree as the
 * working directory, so blame and diff see uncommitted files) when the mirror has one.
 * Same errors as {@link runGit}.
 */
export function mirrorGit(
  mirror: Mirror,
  args: readonly string[],
  options: Omit<RunGitOptions, 'gitDir' | 'workTree' | 'cwd'> = {},
): Promise<GitOutput> {
  return runGit(args, {
    ...options,
    gitDir: mirror.gitDir,
    ...(mirror.workTree ? { workTree: mirror.workTree, cwd: mirror.workTree } : { cwd: mirror.gitDir }),
  });
}

/**
 * The commit `HEAD` points at (40 or 64 hex digits), or null in an empty repository. Read
 * from the files Git keeps (`HEAD`, the loose ref, else `packed-refs`), which is what
 * `git rev-parse HEAD` reads too, without starting it; where the layout is one this does
 * not read (a linked work tree, the reftable format, a symbolic ref to a symbolic ref),
 * `git rev-parse --verify HEAD^{commit}` answers.
 */
export async function headCommit(mirror: Mirror): Promise<string | null> {
  const read = await readHeadFiles(mirror.gitDir).catch(() => undefined);
  if (read !== undefined) return read;
  const { stdout, code } = await mirrorGit(mirror, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { okCodes: [0, 1] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/**
 * A pathspec that matches `path` exactly as written (a file, or a folder and everything
 * below it), whatever characters it holds: `:(literal)` turns off globs and magic, so a
 * caller's `*` or `:(…)` stays text. `''` is the whole repository.
 */
export function literalPathspec(path: string): string {
  return `:(literal)${path}`;
}

/** Pathspecs that leave out every hidden file and folder (any segment starting with a dot). */
export const hiddenExcludes: readonly string[] = [':(exclude,glob)**/.*', ':(exclude,glob)**/.*/**'];
