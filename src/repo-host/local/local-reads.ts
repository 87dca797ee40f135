// Reads from a local repository: blobs by id, their sizes, and a file's current content.
import { blobId } from '../git/blob-id.ts';
import { catFileBatch } from '../git/cat-file-batch.ts';
import type { KeptObject } from '../git/kept-cat-file.ts';
import { runGit } from '../git/run-git.ts';
import type { FileEntry } from '../repo-host.ts';
import { waitForIndexUnlocked } from './index-lock.ts';
import { headRef, resolveHead, treeEntries, type LocalRepo, type ObjectFormats } from './local-repo.ts';
import { readWorkTreeEntry, readWorkTreeFile } from './work-tree-file.ts';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The content of blobs by id, in the order asked (RepoHost.readBlobs). A blob that is not in the
 * object database is read from the work tree at `workTreePath(oid)` (the path the last snapshot
 * hashed it from), only if the file still has that content. `objects` asks git for objects by
 * name (the host's kept `cat-file`, KeptCatFiles.objects). Error: a missing blob, an id that is
 * not hex, or an id that names another kind of object.
 */
export async function readBlobs(
  repo: LocalRepo,
  oids: readonly string[],
  formats: ObjectFormats,
  workTreePath: (oid: string) => string | undefined,
  objects: (gitDir: string, names: readonly string[]) => Promise<KeptObject[]>,
): Promise<Buffer[]> {
  for (const oid of oids) {
    if (!OBJECT_ID.test(oid)) throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
  }
  const answers = await objects(repo.gitDir, oids);
  const found = oids.map((oid, i) => {
    const answer = answers[i] ?? null;
    if (answer !== null && answer.oid !== oid) throw new Error(`git cat-file --batch answered ${answer.oid} ${answer.type} for ${oid}`);
    return answer ?? { oid, type: 'missing', content: null };
  });
  const format = await formats.of(repo);
  return Promise.all(
    found.map(async (object) => {
      if (object.content !== null) {
        if (object.type !== 'blob') throw new Error(`${object.oid} in repository "${repo.name}" is a ${object.type}, not a blob`);
        return object.content;
      }
      // Work-tree contents are hashed for the snapshot but never written to the object
      // database: read them from disk, and only if they still have that content.
      const path = workTreePath(object.oid);
      if (path !== undefined && repo.realWorkTree !== null) {
        const content = await readWorkTreeFile(repo.realWorkTree, repo.realGitDir, path);
        if (content !== null && blobId(content, format) === object.oid) return content;
      }
      throw new Error(`Blob ${object.oid} is not in repository "${repo.name}" (nor in its work tree any more); take a new snapshot.`);
    }),
  );
}

/**
 * A file's current content (RepoHost.readFileEntry), `path` already checked: from the work tree
 * where there is one (once no other writer holds its index lock), else from the head commit.
 * In a bare repository a symbolic link is no file (as in the snapshot), so no entry has a `target`.
 */
export async function readFileEntry(repo: LocalRepo, path: string): Promise<FileEntry | null> {
  if (repo.realWorkTree !== null) {
    await waitForIndexUnlocked(repo.gitDir);
    return readWorkTreeEntry(repo.realWorkTree, repo.realGitDir, path);
  }
  const head = await resolveHead(repo, await headRef(repo));
  if (head === null) return null;
  const entry = (await treeEntries(repo, head, [path])).get(path);
  if (entry === undefined || entry.mode === '120000') return null;
  const [blob] = await catFileBatch(repo.gitDir, [entry.oid]);
  const content = blob?.content ?? null;
  return content === null ? null : { content };
}

/**
 * The sizes of the blobs in `repo`'s object database, by id (RepoHost.blobSizes), from one
 * `git cat-file --batch-check`: ids git answers as missing, or as another type, are left out,
 * and so is work-tree content not yet hashed into the object database. Throws an Error for an
 * id that is not 40 or 64 lowercase hex digits (it would break git's line protocol).
 */
export async function blobSizes(repo: LocalRepo, oids: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (oids.length === 0) return sizes;
  for (const oid of oids) {
    if (!OBJECT_ID.test(oid)) throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
  }
  const output = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
    gitDir: repo.gitDir,
    input: `${oids.join('\n')}\n`,
  });
  for (const line of output.stdout.toString('utf8').split('\n')) {
    const [oid, kind, size] = line.split(' ');
    if (oid && kind === 'blob' && size !== undefined) sizes.set(oid, Number(size));
  }
  return sizes;
}
