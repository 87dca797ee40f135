// Symbolic links on the way to a path: a write tool never replaces one with a file, nor writes through one.
import { isHiddenPath, isReadable } from '../notes/vault-path.ts';
import type { LinkOnPath, RepoHost } from '../repo-host/repo-host.ts';
import { VaultError } from '../vault-error.ts';

export type { LinkOnPath } from '../repo-host/repo-host.ts';

/**
 * The paths among `paths` (normalised repository paths) that are a symbolic link or lie below
 * one in the current state on top of `head` (RepoHost.linksOnPaths), each with the first link
 * on its way; a link into a hidden path has no `target`, as one leading outside does, since no
 * tool opens either. Paths without a link are left out.
 */
export async function linksOnPaths(
  host: RepoHost,
  repo: string,
  head: string | null,
  paths: readonly string[],
): Promise<Map<string, LinkOnPath>> {
  if (paths.length === 0) return new Map();
  const found = await host.linksOnPaths(repo, head, paths);
  for (const [path, link] of found)
    if (link.target !== null && isHiddenPath(link.target)) found.set(path, { link: link.link, target: null });
  return found;
}

/**
 * The refusal for writing `path` when `found` is a symbolic link on its way (`not_a_note`):
 * names the link and where it points, says that `tool` would `harm` it, and, when the link
 * leads to a readable path (isReadable with the open `folders`), which path to use instead
 * (`use`: the verb, such as "Edit"). A target outside the open folders is never named, as a
 * hidden one or one outside the repository is not: a closed path reads as missing.
 */
export function linkRefusal(
  path: string,
  link: LinkOnPath,
  tool: string,
  harm: string,
  use: string,
  folders: readonly string[],
): VaultError {
  const found = link.target !== null && !isReadable({ path: link.target }, folders) ? { ...link, target: null } : link;
  const details = { path, link: found.link, target: found.target };
  const what =
    found.link === path
      ? `"${path}" is a symbolic link${found.target === null ? '' : ` to "${found.target}"`}, not a note of its own`
      : `"${path}" lies in "${found.link}", which is a symbolic link${found.target === null ? '' : ` to "${found.target}"`}, not a folder of its own`;
  if (found.target === null) {
    return new VaultError(
      'not_a_note',
      `${what}; it leads outside the repository or into a hidden or closed path, and ${tool} never writes through a link, so this path cannot be changed with these tools. Nothing was written.`,
      details,
    );
  }
  const instead = found.link === path ? found.target : `${found.target}${path.slice(found.link.length)}`;
  return new VaultError('not_a_note', `${what}, and ${tool} ${harm}. ${use} "${instead}" instead. Nothing was written.`, {
    ...details,
    instead,
  });
}
