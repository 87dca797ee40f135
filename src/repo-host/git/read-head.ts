// HEAD's commit from Git's own files, for the hot paths that would otherwise start `git rev-parse`.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * HEAD's commit read from the files Git keeps in `gitDir` (`HEAD`, the loose ref, else
 * `packed-refs`), without starting git: null when the branch has no commit yet, undefined
 * when the layout is one this does not read (a linked work tree, the reftable format, a
 * symbolic ref to a symbolic ref) and git must be asked. Throws when `HEAD` cannot be read.
 */
export async function readHeadFiles(gitDir: string): Promise<string | null | undefined> {
  return (await readBranchFiles(gitDir))?.head;
}

/**
 * The ref HEAD names (`refs/heads/main`; `HEAD` itself when detached) and its commit, read
 * from Git's files as {@link readHeadFiles} reads them: what `git symbolic-ref -q HEAD` and
 * `git rev-parse --verify <ref>^{commit}` answer, without starting git. Undefined when the
 * layout is one this does not read and git must be asked. Throws when `HEAD` cannot be read.
 */
export async function readBranchFiles(gitDir: string): Promise<{ ref: string; head: string | null } | undefined> {
  if (existsSync(join(gitDir, 'commondir')) || existsSync(join(gitDir, 'reftable'))) return undefined;
  const head = (await readFile(join(gitDir, 'HEAD'), 'utf8')).trim();
  if (OBJECT_ID.test(head)) return { ref: 'HEAD', head };
  const ref = /^ref: (refs\/[^\0\n]+)$/.exec(head)?.[1];
  if (ref === undefined || ref.split('/').includes('..')) return undefined;
  const loose = await readFile(join(gitDir, ref), 'utf8').then(
    (text) => text.trim(),
    () => null,
  );
  if (loose !== null) return OBJECT_ID.test(loose) ? { ref, head: loose } : undefined;
  const packed = await readFile(join(gitDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const space = line.indexOf(' ');
    if (space !== -1 && line.slice(space + 1) === ref && OBJECT_ID.test(line.slice(0, space))) return { ref, head: line.slice(0, space) };
  }
  // No such branch yet: an empty repository (or an unborn branch).
  return { ref, head: null };
}
