// When two paths name the same file: Unicode normalisation always, case on a case-insensitive checkout.
import { runGit } from '../repo-host/git/run-git.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';

/**
 * The existing path among `paths` that names the same file as `path`, or null: equal after
 * NFC normalisation, or (with `ignoreCase`) equal ignoring case as well. An exact match wins.
 */
export function sameFileAs(paths: Iterable<string>, path: string, ignoreCase: boolean): string | null {
  const key = fold(path, ignoreCase);
  let found: string | null = null;
  for (const existing of paths) {
    if (existing === path) return existing;
    if (found === null && fold(existing, ignoreCase) === key) found = existing;
  }
  return found;
}

const ignoreCaseByGitDir = new Map<string, Promise<boolean>>();

/**
 * True when the repository's checkout treats names that differ only in case as one
 * (`core.ignorecase`, which git sets when it creates the checkout); asked once per process and
 * repository, since a checkout's file system does not change under it.
 */
export async function ignoresCase(host: RepoHost, repo: string): Promise<boolean> {
  const mirror = await host.mirror(repo);
  if (mirror.workTree === null) return false;
  let answer = ignoreCaseByGitDir.get(mirror.gitDir);
  if (answer === undefined) {
    answer = runGit(['config', '--bool', '--get', 'core.ignorecase'], { gitDir: mirror.gitDir, okCodes: [0, 1] }).then((out) => out.stdout.toString('utf8').trim() === 'true');
    answer.catch(() => ignoreCaseByGitDir.delete(mirror.gitDir));
    ignoreCaseByGitDir.set(mirror.gitDir, answer);
  }
  return answer;
}

function fold(path: string, ignoreCase: boolean): string {
  const nfc = path.normalize('NFC');
  return ignoreCase ? nfc.toLowerCase() : nfc;
}
