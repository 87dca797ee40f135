// When each file was created and last changed, and how big each blob is, from a commit's history and tree.
import { runGit, splitNul } from '../git/run-git.ts';
import type { FileTimes } from '../repo-host.ts';

/**
 * See RepoHost.fileTimes: one `git log --name-only --no-renames` pass from `at`, newest first,
 * so the first commit seen for a path is its last change and the last one seen its creation.
 */
export async function fileTimes(gitDir: string, at: string): Promise<Map<string, FileTimes>> {
  const times = new Map<string, FileTimes>();
  const log = await runGit(['log', '-z', '--name-only', '--no-renames', '--format=%x01%aI', at, '--'], { gitDir });
  let current: Date | null = null;
  for (const field of splitNul(log.stdout)) {
    if (field.startsWith('\u0001')) {
      current = new Date(field.slice(1).trim());
      continue;
    }
    const path = field.replace(/^\n/, '');
    if (path === '' || current === null) continue;
    const seen = times.get(path);
    if (seen === undefined) times.set(path, { ctime: current, mtime: current });
    else seen.ctime = current;
  }
  return times;
}

/** See RepoHost.fileSizes: `git ls-tree -r -l` of `at`. */
export async function fileSizes(gitDir: string, at: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const tree = await runGit(['ls-tree', '-r', '-l', '-z', at], { gitDir });
  for (const entry of splitNul(tree.stdout)) {
    const tab = entry.indexOf('\t');
    const size = Number(entry.slice(0, tab).trim().split(/\s+/)[3]);
    if (tab !== -1 && Number.isFinite(size)) sizes.set(entry.slice(tab + 1), size);
  }
  return sizes;
}
