// A note's content now (read like every other tool reads it, never through a symbolic link), and its text.
import type { RepoHost } from '../repo-host/repo-host.ts';

/**
 * The note's content as it is now, from `host.readFileEntry` (the work tree's file where there
 * is one, uncommitted changes included, else the blob at HEAD), so history reads exactly what
 * read_note reads. Null when there is none, and when the path is not a note: a symbolic link,
 * or a path through one (a link to a folder), whether the link is committed or only on disk
 * and wherever it leads. Git is never asked to read the path from disk.
 */
export async function noteNow(host: RepoHost, repo: string, path: string): Promise<Buffer | null> {
  // Without a work tree, a link itself is no file, and Git's tree has no path through one.
  const entry = await host.readFileEntry(repo, path);
  return entry === null || entry.target !== undefined ? null : entry.content;
}
