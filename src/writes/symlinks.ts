// Symbolic links on the way to a path: a write tool never replaces one with a file, nor writes through one.
import { lstat, readlink } from 'node:fs/promises';
import { isAbsolute, join, relative, sep, posix } from 'node:path';
import { isHiddenPath, isReadable } from '../notes/vault-path.ts';
import { catFileBatch } from '../repo-host/git/cat-file-batch.ts';
import { runGit, splitNul } from '../repo-host/git/run-git.ts';
import type { Mirror } from '../repo-host/repo-host.ts';
import { VaultError } from '../vault-error.ts';

/** A symbolic link met on the way to a path. */
export interface LinkOnPath {
  /** The link: the path itself, or one of its folders. */
  link: string;
  /**
   * Where the link points, as a repository path (`..` and `.` resolved); null when it leads
   * outside the repository or into a hidden path, which no tool opens.
   */
  target: string | null;
}

/** How many paths one `ls-tree` is given. */
const LS_TREE_BATCH = 500;

/**
 * The paths among `paths` (normalised repository paths) that are a symbolic link or lie below
 * one, each with the first link on its way. In a work tree the disk is the current state
 * (`lstat` of each folder on the way, then of the path); in a bare repository, the tree at
 * `head` (mode 120000). Paths without a link are left out.
 */
export async function linksOnPaths(mirror: Mirror, head: string | null, paths: readonly string[]): Promise<Map<string, LinkOnPath>> {
  const found = new Map<string, LinkOnPath>();
  if (paths.length === 0) return found;
  const targets = mirror.workTree !== null ? await linksOnDisk(mirror.workTree, paths) : await linksAtHead(mirror.gitDir, head, paths);
  for (const path of paths) {
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      const text = targets.get(prefix);
      if (text === undefined) continue;
      found.set(path, { link: prefix, target: repoTarget(prefix, text, mirror.workTree) });
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
    const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', head, '--', ...all.slice(at, at + LS_TREE_BATCH)], { gitDir, env: { GIT_LITERAL_PATHSPECS: '1' } });
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

/** The repository path a link's target text names, or null when it leads outside or into a hidden path. */
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
  if (clean === '.' || clean === '..' || clean.startsWith('../') || isHiddenPath(clean)) return null;
  return clean;
}

/**
 * The refusal for writing `path` when `found` is a symbolic link on its way (`not_a_note`):
 * names the link and where it points, says that `tool` would `harm` it, and, when the link
 * leads to a readable path (isReadable with the open `folders`), which path to use instead
 * (`use`: the verb, such as "Edit"). A target outside the open folders is never named, as a
 * hidden one or one outside the repository is not: a closed path reads as missing.
 */
export function linkRefusal(path: string, link: LinkOnPath, tool: string, harm: string, use: string, folders: readonly string[]): VaultError {
  const found = link.target !== null && !isReadable({ path: link.target }, folders) ? { ...link, target: null } : link;
  const details = { path, link: found.link, target: found.target };
  const what =
    found.link === path
      ? `"${path}" is a symbolic link${found.target === null ? '' : ` to "${found.target}"`}, not a note of its own`
      : `"${path}" lies in "${found.link}", which is a symbolic link${found.target === null ? '' : ` to "${found.target}"`}, not a folder of its own`;
  if (found.target === null) {
    return new VaultError('not_a_note', `${what}; it leads outside the repository or into a hidden or closed path, and ${tool} never writes through a link, so this path cannot be changed with these tools. Nothing was written.`, details);
  }
  const instead = found.link === path ? found.target : `${found.target}${path.slice(found.link.length)}`;
  return new VaultError('not_a_note', `${what}, and ${tool} ${harm}. ${use} "${instead}" instead. Nothing was written.`, { ...details, instead });
}
