// Whether a local repository's checkout treats names that differ only in case as one file.
import { runGit } from '../git/run-git.ts';
import type { RepoPlace } from './repo-place.ts';

const answers = new Map<string, Promise<boolean>>();

/**
 * True when the work tree's file system folds case (`core.ignorecase`, which git sets when it
 * creates the checkout); always false for a bare repository. Asked once per process and
 * repository, since a checkout's file system does not change under it; a failed ask is not kept.
 */
export function foldsCase(place: RepoPlace): Promise<boolean> {
  if (place.workTree === null) return Promise.resolve(false);
  const gitDir = place.gitDir;
  let answer = answers.get(gitDir);
  if (answer === undefined) {
    answer = runGit(['config', '--bool', '--get', 'core.ignorecase'], { gitDir, okCodes: [0, 1] }).then(
      (out) => out.stdout.toString('utf8').trim() === 'true',
    );
    answer.catch(() => answers.delete(gitDir));
    answers.set(gitDir, answer);
  }
  return answer;
}
