// Files by path, with their blob ids: in a commit's tree, or as the current state has them.
import { blobId } from '../git/blob-id.ts';
import { catFileBatch, parseCatFileBatch } from '../git/cat-file-batch.ts';
import { objectFormatOf } from '../git/object-format.ts';
import { runGit, splitNul } from '../git/run-git.ts';
import type { BlobFile } from '../repo-host.ts';
import type { KeptObject } from '../git/kept-cat-file.ts';
import { parseTree, type TreeItem } from './path-look.ts';
import { LITERAL_PATHSPECS, type RepoPlace } from './repo-place.ts';

/**
 * The regular files (not links or submodules) among `paths` in the tree of `commit`, with their
 * blobs, by one `cat-file --batch`: each path's folder tree (for its mode) and `<commit>:<path>`
 * (its blob) in the same process; absent paths (and all, for a null commit) are left out.
 * `objects`, when given, asks for the names instead of a `cat-file` of their own (the host's
 * kept one, KeptCatFiles.objects).
 */
export async function filesAt(
  gitDir: string,
  commit: string | null,
  paths: readonly string[],
  objects: (gitDir: string, names: readonly string[]) => Promise<KeptObject[]> = freshObjects,
): Promise<Map<string, BlobFile>> {
  const found = new Map<string, BlobFile>();
  if (commit === null || paths.length === 0) return found;
  // cat-file reads one name a line: a path with a line break is looked up the long way.
  if (paths.some((path) => /[\n\r]/.test(path))) return filesAtByListing(gitDir, commit, paths);
  const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  const folders = [...new Set(paths.map(folderOf))];
  const wanted = [...new Set(paths)];
  const names = [
    ...folders.map((folder) => (folder === '' ? `${commit}^{tree}` : `${commit}:${folder}`)),
    ...wanted.map((path) => `${commit}:${path}`),
  ];
  const answers = await objects(gitDir, names);
  const trees = new Map<string, Map<string, TreeItem>>();
  folders.forEach((folder, i) => {
    const answer = answers[i];
    if (answer?.type === 'tree') trees.set(folder, parseTree(answer.content, answer.oid.length / 2));
  });
  wanted.forEach((path, i) => {
    const answer = answers[folders.length + i];
    const item = trees.get(folderOf(path))?.get(path.slice(path.lastIndexOf('/') + 1));
    if (answer?.type !== 'blob' || item === undefined || item.oid !== answer.oid) return;
    if (item.mode !== '100644' && item.mode !== '100755') return; // a symbolic link, or a submodule
    found.set(path, { oid: answer.oid, content: answer.content });
  });
  return found;
}

/** `names` asked of a `cat-file --batch` of their own. */
async function freshObjects(gitDir: string, names: readonly string[]): Promise<KeptObject[]> {
  const { stdout } = await runGit(['cat-file', '--batch'], { gitDir, input: `${names.join('\n')}\n` });
  return parseCatFileBatch(stdout, names);
}

/** {@link filesAt} by one `ls-tree` and one `cat-file --batch` of the blob ids, for paths cat-file cannot name. */
async function filesAtByListing(gitDir: string, commit: string, paths: readonly string[]): Promise<Map<string, BlobFile>> {
  const found = new Map<string, BlobFile>();
  const wanted = new Set(paths);
  const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', commit, '--', ...paths], { gitDir, env: LITERAL_PATHSPECS });
  const oids = new Map<string, string>();
  for (const record of splitNul(stdout)) {
    const tab = record.indexOf('\t');
    const [mode = '', type = '', oid = ''] = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    if (type === 'blob' && mode !== '120000' && wanted.has(path)) oids.set(path, oid);
  }
  const blobs = await catFileBatch(gitDir, [...oids.values()]);
  [...oids.keys()].forEach((path, i) => {
    const blob = blobs[i];
    if (blob?.content) found.set(path, { oid: blob.oid, content: blob.content });
  });
  return found;
}

/**
 * Each of `paths` as the current state on top of `head` has it (see RepoHost.currentFiles): in a
 * work tree the file read by `readFile` (the host's own read, from disk), hashed for its blob id;
 * in a bare repository the regular file in `head`'s tree (read through `objects`, as
 * {@link filesAt}). Every path is a key; null: absent.
 */
export async function currentFiles(
  place: RepoPlace,
  head: string | null,
  paths: readonly string[],
  readFile: (path: string) => Promise<Buffer | null>,
  objects: (gitDir: string, names: readonly string[]) => Promise<KeptObject[]> = freshObjects,
): Promise<Map<string, BlobFile | null>> {
  const out = new Map<string, BlobFile | null>();
  if (place.workTree !== null) {
    const format = await objectFormatOf(place.gitDir);
    const contents = await Promise.all(paths.map((path) => readFile(path)));
    paths.forEach((path, i) => {
      const content = contents[i] ?? null;
      out.set(path, content === null ? null : { oid: blobId(content, format), content });
    });
    return out;
  }
  const atHead = await filesAt(place.gitDir, head, paths, objects);
  for (const path of paths) out.set(path, atHead.get(path) ?? null);
  return out;
}
