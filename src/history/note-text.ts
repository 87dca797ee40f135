// A note's text now (work tree first, else HEAD) and at a commit, read through git.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mirror } from '../repo-host/repo-host.ts';
import { mirrorGit } from './mirror-git.ts';

/**
 * The note's content as it is now: the file in the work tree when the mirror has one
 * (uncommitted changes count), else the blob at `HEAD:<path>`. Null when there is none.
 */
export async function currentContent(mirror: Mirror, path: string): Promise<Buffer | null> {
  if (mirror.workTree) {
    try {
      return await readFile(join(mirror.workTree, ...path.split('/')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw error;
    }
  }
  const blob = await blobAt(mirror, 'HEAD', path);
  return blob === null ? null : readBlob(mirror, blob);
}

/** The blob id at `<commit>:<path>`, or null when the commit has no such file (or there is no commit). */
export async function blobAt(mirror: Mirror, commit: string, path: string): Promise<string | null> {
  const { stdout, code } = await mirrorGit(mirror, ['rev-parse', '--verify', '--quiet', `${commit}:${path}`], { okCodes: [0, 1, 128] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/** A blob's content by id (`git cat-file blob`). Throws GitError when it is missing. */
export async function readBlob(mirror: Mirror, blob: string): Promise<Buffer> {
  const { stdout } = await mirrorGit(mirror, ['cat-file', 'blob', blob]);
  return stdout;
}

/** Text of a note's content: UTF-8, or null for binary content (a NUL byte). */
export function decodeText(content: Buffer): string | null {
  if (content.includes(0)) return null;
  return content.toString('utf8');
}
