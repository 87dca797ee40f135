// The folders a history search may look in, from the open folders and the scope asked.

/**
 * The roots a history search may look in: the open `folders` (each ending in "/"; "/" or
 * none is everything) within `scope` (a normalised folder or file path, '' for the root):
 * `scope` itself when it lies in an open folder, else the open folders below it. Null when
 * `scope` and the open folders do not overlap. Hidden paths are left out separately.
 */
export function openRoots(folders: readonly string[], scope = ''): string[] | null {
  const open = folders.map((folder) => folder.replace(/^\/+/, '').replace(/\/+$/, ''));
  if (open.length === 0 || open.includes('')) return [scope];
  const roots = new Set<string>();
  for (const folder of open) {
    if (scope === folder || scope.startsWith(`${folder}/`)) roots.add(scope);
    else if (scope === '' || folder.startsWith(`${scope}/`)) roots.add(folder);
  }
  return roots.size === 0 ? null : [...roots];
}
