// The entries directly in a folder of a local repository's current state.
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { runGit, splitNul } from '../git/run-git.ts';
import type { FolderEntry } from '../repo-host.ts';
import { LITERAL_PATHSPECS, type RepoPlace } from './repo-place.ts';

/**
 * See RepoHost.folderEntries. In a work tree the disk is the current state: the folder's
 * entries as `readdir` gives them (a checked-out submodule is a folder there; `.git` at the
 * root left out). In a bare repository: `ls-tree` of the folder at `head`.
 */
export async function folderEntries(place: RepoPlace, head: string | null, folder: string): Promise<FolderEntry[]> {
  const entries: FolderEntry[] = [];
  const prefix = folder === '' ? '' : `${folder}/`;
  if (place.workTree !== null) {
    const onDisk = await readdir(join(place.workTree, ...(folder === '' ? [] : folder.split('/'))), { withFileTypes: true }).catch(
      () => [],
    );
    for (const dirent of onDisk) {
      if (folder === '' && dirent.name === '.git') continue;
      entries.push({
        path: `${prefix}${dirent.name}`,
        kind: dirent.isSymbolicLink() ? 'symlink' : dirent.isDirectory() ? 'folder' : 'file',
      });
    }
  } else if (head !== null) {
    const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', head, ...(folder === '' ? [] : ['--', prefix])], {
      gitDir: place.gitDir,
      env: LITERAL_PATHSPECS,
    });
    for (const record of splitNul(stdout)) {
      const tab = record.indexOf('\t');
      const mode = record.slice(0, tab).split(' ')[0] ?? '';
      const path = record.slice(tab + 1);
      if (parentFolder(path) !== folder) continue;
      entries.push({ path, kind: mode === '120000' ? 'symlink' : mode === '160000' ? 'submodule' : mode === '040000' ? 'folder' : 'file' });
    }
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function parentFolder(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}
