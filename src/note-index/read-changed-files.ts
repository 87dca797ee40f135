// Reading the files an index update writes: notes in full, other files only their size.
import { decodeNoteText } from '../notes/note-text.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import type { FileRow } from './index-rows.ts';
import type { NoteText } from './parse-notes.ts';

/**
 * Reads the changed files (`[path, blob id]`, see diffSnapshot) from the host and sorts them:
 * every file becomes a row of `files` with its size; a `.md` file whose content is text
 * (decodeNoteText) is a note, whose text is returned to be parsed. `onProgress` is told how many
 * of the changed files are read.
 */
export async function readChangedFiles(
  host: RepoHost,
  repo: string,
  changed: ReadonlyArray<readonly [string, string]>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ files: FileRow[]; texts: NoteText[] }> {
  const contents = await readChanged(host, repo, changed, onProgress);
  const files: FileRow[] = [];
  const texts: NoteText[] = [];
  for (const [path, oid] of changed) {
    const content = contents.get(path);
    const size = content?.size ?? null;
    const text = content?.buffer ? decodeNoteText(content.buffer) : null;
    if (text === null) {
      files.push({ path, oid, size, isNote: false });
      continue;
    }
    files.push({ path, oid, size, isNote: true });
    texts.push({ path, oid, size: size ?? Buffer.byteLength(text), text });
  }
  return { files, texts };
}

/**
 * The content (notes) and size (every file) of the changed files. Blobs in the object
 * store are read in batches with `readBlobs`; a work-tree file whose blob Git does not
 * have yet (modified, not committed) is read with `readFile`. Only `.md` files are read in
 * full; other files only need their size, which `blobSizes` gives (null for one the object
 * store does not have yet).
 */
async function readChanged(
  host: RepoHost,
  repo: string,
  changed: ReadonlyArray<readonly [string, string]>,
  onProgress: ((done: number, total: number) => void) | undefined,
): Promise<Map<string, { size: number | null; buffer: Buffer | null }>> {
  const result = new Map<string, { size: number | null; buffer: Buffer | null }>();
  if (changed.length === 0) return result;
  const sizes = await host.blobSizes(repo, [...new Set(changed.map(([, oid]) => oid))]);
  const total = changed.length;
  let done = 0;
  const inStore: Array<readonly [string, string]> = [];
  for (const entry of changed) {
    const [path, oid] = entry;
    if (!path.endsWith('.md')) {
      // Other files only need a size: unknown (null) for one not in the object store yet,
      // rather than reading a large attachment, or a submodule, from disk.
      result.set(path, { size: sizes.get(oid) ?? null, buffer: null });
      done++;
    } else if (sizes.has(oid)) {
      inStore.push(entry);
    } else {
      const buffer = await host.readFile(repo, path);
      result.set(path, { size: buffer?.length ?? null, buffer });
      done++;
    }
  }
  onProgress?.(done, total);
  for (let start = 0; start < inStore.length;) {
    // Batches of about 8 MB, so a few large notes do not hold everything in one read.
    let end = start;
    let bytes = 0;
    while (end < inStore.length && (end === start || bytes < 8 * 1024 * 1024) && end - start < 1000) {
      bytes += sizes.get(inStore[end]![1]) ?? 0;
      end++;
    }
    const batch = inStore.slice(start, end);
    const buffers = await host.readBlobs(
      repo,
      batch.map(([, oid]) => oid),
    );
    batch.forEach(([path], i) => {
      const buffer = buffers[i] ?? null;
      result.set(path, { size: buffer?.length ?? null, buffer });
    });
    done += batch.length;
    onProgress?.(done, total);
    start = end;
  }
  return result;
}
