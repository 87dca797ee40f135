// A note's content now (read like every other tool reads it, never through a symbolic link) and at a commit.
import type { Mirror, RepoHost } from '../repo-host/repo-host.ts';
import { mirrorGit } from './mirror-git.ts';
import { SYMLINK_MODE } from './parse-log.ts';

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

/** The blob id at `<commit>:<path>`, or null when the commit has no such file (or there is no commit). */
export async function blobAt(mirror: Mirror, commit: string, path: string): Promise<string | null> {
  const { stdout, code } = await mirrorGit(mirror, ['rev-parse', '--verify', '--quiet', `${commit}:${path}`], { okCodes: [0, 1, 128] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/**
 * The blob id of the note at `path` in `commit`: null when the commit has no file there, or
 * has a symbolic link there (never a note). A path through a link has no entry in Git's tree.
 */
export async function noteBlobAt(mirror: Mirror, commit: string, path: string): Promise<string | null> {
  const { stdout } = await mirrorGit(mirror, ['ls-tree', '-z', '--full-tree', commit, '--', path], { env: { GIT_LITERAL_PATHSPECS: '1' } });
  for (const record of stdout.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab === -1 || record.slice(tab + 1) !== path) continue;
    const [mode = '', type = '', oid = ''] = record.slice(0, tab).split(' ');
    return type === 'blob' && mode !== SYMLINK_MODE ? oid : null;
  }
  return null;
}

/** A blob's content by id (`git cat-file blob`). Throws GitError when it is missing. */
export async function readBlob(mirror: Mirror, blob: string): Promise<Buffer> {
  const { stdout } = await mirrorGit(mirror, ['cat-file', 'blob', blob]);
  return stdout;
}
