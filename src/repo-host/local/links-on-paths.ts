// Symbolic links on the way to paths of a local repository: on disk in a work tree, in the tree when bare.
import { lstat, readlink } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { catFileBatch } from '../git/cat-file-batch.ts';
import { runGit, splitNul } from '../git/run-git.ts';
import type { LinkOnPath } from '../repo-host.ts';
import { LITERAL_PATHSPECS, type RepoPlace } from './repo-place.ts';

/** How many paths one `ls-tree` is given. */
const LS_TREE_BATCH = 500;

/**
 * See RepoHost.linksOnPaths. In a work tree the disk is the current state (`lstat` of each
 * folder on the way, then of the path); in a bare repository, the tree at `head` (mode 120000).
 */
export async function linksOnPaths(place: RepoPlace, head: string | null, paths: readonly string[]): Promise<Map<string, LinkOnPath>> {
  const found = new Map<string, LinkOnPath>();
  if (paths.length === 0) return found;
  const targets = place.workTree !== null ? await linksOnDisk(place.workTree, paths) : await linksAtHead(place.gitDir, head, paths);
  for (const path of paths) {
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      const text = targets.get(prefix);
      if (text === undefined) continue;
      found.set(path, { link: prefix, target: repoTarget(prefix, text, place.workTree) });
      break;
    }
  }
  return found;
}

/** Every prefix of the paths (the folders on the way and the paths) that is a link on disk, with its target text. */
async function linksOnDisk(workTree: string, paths: readonly string[]): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  const looked = new Set<string>();
  for (const path of paths) {
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      if (looked.has(prefix)) {
        if (targets.has(prefix)) break;
        continue;
      }
      looked.add(prefix);
      const full = join(workTree, ...segments.slice(0, i));
      const info = await lstat(full).catch(() => null);
      if (info === null) break;
      if (info.isSymbolicLink()) {
        targets.set(prefix, await readlink(full).catch(() => ''));
        break;
      }
    }
  }
  return targets;
}

/** Every prefix of the paths that is a link (mode 120000) in the tree at `head`, with its target text. */
async function linksAtHead(gitDir: string, head: string | null, paths: readonly string[]): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  if (head === null) return targets;
  const prefixes = new Set<string>();
  for (const path of paths) {
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) prefixes.add(segments.slice(0, i).join('/'));
  }
  const all = [...prefixes];
  const oids = new Map<string, string>();
  for (let at = 0; at < all.length; at += LS_TREE_BATCH) {
    const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', head, '--', ...all.slice(at, at + LS_TREE_BATCH)], {
      gitDir,
      env: LITERAL_PATHSPECS,
    });
    for (const record of splitNul(stdout)) {
      const tab = record.indexOf('\t');
      const [mode = '', , oid = ''] = record.slice(0, tab).split(' ');
      if (mode === '120000') oids.set(record.slice(tab + 1), oid);
    }
  }
  if (oids.size === 0) return targets;
  const blobs = await catFileBatch(gitDir, [...oids.values()]);
  [...oids.keys()].forEach((path, i) => targets.set(path, blobs[i]?.content?.toString('utf8') ?? ''));
  return targets;
}

/** The repository path a link's target text names, or null when it is empty, leads outside, or names the root. */
function repoTarget(link: string, text: string, workTree: string | null): string | null {
  if (text === '') return null;
  let path: string;
  if (isAbsolute(text)) {
    if (workTree === null) return null;
    const inside = relative(workTree, text);
    if (inside === '' || isAbsolute(inside)) return null;
    path = inside.split(sep).join('/');
  } else {
    const folder = posix.dirname(link);
    path = folder === '.' ? text : `${folder}/${text}`;
  }
  const clean = posix.normalize(path).replace(/\/+$/, '');
  if (clean === '.' || clean === '..' || clean.startsWith('../')) return null;
  return clean;
}
