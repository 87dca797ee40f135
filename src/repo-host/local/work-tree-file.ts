// Finds what a repository path means on disk in a work tree, never following a symbolic link out of it.
import { lstat, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/**
 * A path of the work tree as the person's editor sees it:
 * - `file`: a regular file (reached directly, or through symbolic links that stay inside the
 *   work tree); `realPath` is where its bytes are.
 * - `absent`: nothing there, a folder, something other than a file, or a symbolic link that
 *   leads outside the work tree or into `.git` (read as absent, so nothing outside leaks in).
 */
export type WorkTreeFile = { kind: 'file'; realPath: string } | { kind: 'absent' };

/** Whether `candidate` is `root` itself or inside it (both already resolved with realpath). */
export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolves repository path `path` (`/`-separated, already validated) in the work tree whose
 * real (symlink-free) location is `realWorkTree`; `realGitDir` is excluded.
 */
export async function resolveWorkTreeFile(realWorkTree: string, realGitDir: string, path: string): Promise<WorkTreeFile> {
  let real: string;
  try {
    real = await realpath(join(realWorkTree, ...path.split('/')));
  } catch {
    return { kind: 'absent' };
  }
  if (!isInside(realWorkTree, real) || isInside(realGitDir, real)) return { kind: 'absent' };
  try {
    const info = await stat(real);
    return info.isFile() ? { kind: 'file', realPath: real } : { kind: 'absent' };
  } catch {
    return { kind: 'absent' };
  }
}

/** Reads a work-tree path's content as the editor shows it; null when absent (see {@link resolveWorkTreeFile}). */
export async function readWorkTreeFile(realWorkTree: string, realGitDir: string, path: string): Promise<Buffer | null> {
  const found = await resolveWorkTreeFile(realWorkTree, realGitDir, path);
  if (found.kind === 'absent') return null;
  try {
    return await readFile(found.realPath);
  } catch {
    return null;
  }
}

/**
 * Reads a work-tree path's content as the editor shows it, with `target` (the repository path
 * the content is read from) when a symbolic link on the way leads elsewhere in the work tree;
 * null when absent (see {@link resolveWorkTreeFile}).
 */
export async function readWorkTreeEntry(
  realWorkTree: string,
  realGitDir: string,
  path: string,
): Promise<{ content: Buffer; target?: string } | null> {
  const found = await resolveWorkTreeFile(realWorkTree, realGitDir, path);
  if (found.kind === 'absent') return null;
  let content: Buffer;
  try {
    content = await readFile(found.realPath);
  } catch {
    return null;
  }
  if (found.realPath === join(realWorkTree, ...path.split('/'))) return { content };
  return { content, target: relative(realWorkTree, found.realPath).split(sep).join('/') };
}

/**
 * What Git itself sees at a path (it never follows links): a regular file's bytes, a
 * symbolic link's target text, `directory` for a folder (or anything else), null when absent.
 */
export async function readAsGitSeesIt(
  workTree: string,
  path: string,
): Promise<{ kind: 'file' | 'symlink'; content: Buffer } | { kind: 'directory' } | null> {
  const full = join(workTree, ...path.split('/'));
  try {
    const info = await lstat(full);
    if (info.isSymbolicLink()) return { kind: 'symlink', content: Buffer.from(await readlink(full), 'utf8') };
    if (info.isFile()) return { kind: 'file', content: await readFile(full) };
    return { kind: 'directory' };
  } catch {
    return null;
  }
}

/**
 * Whether writing repository path `path` stays inside the work tree: the nearest folder on
 * the way that exists resolves (through any symbolic links) inside it and not into `.git`.
 */
export async function isWritableInside(realWorkTree: string, realGitDir: string, path: string): Promise<boolean> {
  let folder = dirname(join(realWorkTree, ...path.split('/')));
  for (;;) {
    try {
      const real = await realpath(folder);
      return isInside(realWorkTree, real) && !isInside(realGitDir, real);
    } catch {
      const up = dirname(folder);
      if (up === folder) return false;
      folder = up;
    }
  }
}
