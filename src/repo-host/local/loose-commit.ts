// Writes a change's blobs, trees and commit as loose objects from this process, without moving any ref.
import { createHash } from 'node:crypto';
import { chmod, link, lstat, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import type { ObjectFormat } from '../git/blob-id.ts';
import type { CommitFile, CommitMeta } from './fast-import-commit.ts';

const deflated = promisify(deflate);

/** One entry of a raw tree: mode and name as Git wrote them, and the raw object id. */
interface RawEntry {
  mode: string;
  name: Buffer;
  oid: Buffer;
}

/** What a commit does below one folder: per name, a file written, a path removed, or a folder changed further down. */
type FolderEdits = Map<string, { kind: 'file'; mode: string; oid: Buffer } | { kind: 'remove' } | { kind: 'folder'; edits: FolderEdits }>;

/**
 * Where `gitDir` keeps its objects, or null when this process should not write them itself
 * (`GIT_OBJECT_DIRECTORY` set: Git would write elsewhere). A linked work tree's git dir names
 * the common one in `commondir`.
 */
export async function looseObjectsDir(gitDir: string): Promise<string | null> {
  if (process.env['GIT_OBJECT_DIRECTORY'] !== undefined) return null;
  const common = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => null);
  if (common === null) return join(gitDir, 'objects');
  const dir = common.trim();
  return join(isAbsolute(dir) ? dir : join(gitDir, dir), 'objects');
}

/**
 * Creates the commit of `files` on top of `meta.parent` and returns its id, as
 * {@link fastImportCommit} does and with the same objects (a test compares the two), but
 * without starting a process: each blob, each tree on the way to a changed path and the commit
 * are hashed here and written as loose objects into `objectsDir` (see {@link looseObjectsDir}),
 * as `git fast-import` writes a small import and `git hash-object -w` any object: zlib-deflated
 * `<type> <size>\0<content>`, written to a temporary file beside its place, then linked there
 * (an object already there is kept). `parentTrees` holds the raw tree of the parent at the root
 * ('') and at every folder on the way to each path (path-look.ts reads them); a folder the
 * parent lacks starts empty, and a folder the change leaves empty is dropped, as Git does. No
 * ref is created or moved (the caller lands the commit with `update-ref`). Throws the file
 * system's error; objects written before it are unreferenced, as after a failed import.
 */
export async function writeLooseCommit(
  objectsDir: string,
  format: ObjectFormat,
  parentTrees: ReadonlyMap<string, Buffer>,
  files: readonly CommitFile[],
  meta: CommitMeta,
): Promise<string> {
  const writer = new LooseObjects(objectsDir, format);
  const root: FolderEdits = new Map();
  const blobs: Array<Promise<Buffer>> = [];
  for (const file of files) {
    const segments = file.path.split('/');
    let edits = root;
    for (const segment of segments.slice(0, -1)) {
      let next = edits.get(segment);
      if (next?.kind !== 'folder') edits.set(segment, (next = { kind: 'folder', edits: new Map() }));
      edits = next.edits;
    }
    const name = segments[segments.length - 1]!;
    if (file.content === null) {
      edits.set(name, { kind: 'remove' });
    } else {
      const entry: { kind: 'file'; mode: string; oid: Buffer } = { kind: 'file', mode: file.mode, oid: Buffer.alloc(0) };
      edits.set(name, entry);
      blobs.push(writer.write('blob', file.content).then((oid) => (entry.oid = oid)));
    }
  }
  await Promise.all(blobs);
  const idBytes = format === 'sha256' ? 32 : 20;
  const tree = async (folder: string, edits: FolderEdits, isRoot: boolean): Promise<Buffer | null> => {
    const raw = parentTrees.get(folder);
    const entries = new Map<string, RawEntry>();
    if (raw !== undefined) for (const entry of parseRawTree(raw, idBytes)) entries.set(entry.name.toString('latin1'), entry);
    for (const [name, edit] of edits) {
      const key = Buffer.from(name, 'utf8').toString('latin1');
      const existing = entries.get(key);
      if (edit.kind === 'remove') entries.delete(key);
      else if (edit.kind === 'file') entries.set(key, { mode: edit.mode, name: Buffer.from(name, 'utf8'), oid: edit.oid });
      // Below something that is not a folder only removals can reach (writes there are refused first): nothing to remove.
      else if (existing !== undefined && existing.mode !== '40000') continue;
      else {
        const oid = await tree(folder === '' ? name : `${folder}/${name}`, edit.edits, false);
        if (oid === null) entries.delete(key);
        else entries.set(key, { mode: '40000', name: Buffer.from(name, 'utf8'), oid });
      }
    }
    if (entries.size === 0 && !isRoot) return null;
    return writer.write('tree', serializeTree([...entries.values()]));
  };
  const rootTree = (await tree('', root, true))!;
  const lines = [`tree ${rootTree.toString('hex')}`];
  if (meta.parent !== null) lines.push(`parent ${meta.parent}`);
  lines.push(`author ${meta.name} <${meta.email}> ${meta.date}`, `committer ${meta.name} <${meta.email}> ${meta.date}`, '', '');
  const commit = await writer.write('commit', Buffer.concat([Buffer.from(lines.join('\n'), 'utf8'), Buffer.from(meta.message, 'utf8')]));
  return commit.toString('hex');
}

/** Parses a raw tree object (`<mode> <name>\0<raw id>` repeated), keeping the bytes Git wrote. */
function parseRawTree(content: Buffer, idBytes: number): RawEntry[] {
  const entries: RawEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0x00, space + 1);
    if (space === -1 || nul === -1 || nul + 1 + idBytes > content.length) throw new Error('Malformed tree object from git cat-file');
    entries.push({
      mode: content.toString('latin1', at, space),
      name: content.subarray(space + 1, nul),
      oid: content.subarray(nul + 1, nul + 1 + idBytes),
    });
    at = nul + 1 + idBytes;
  }
  return entries;
}

/** A raw tree of `entries` in Git's order: by name bytes, a folder's name compared as if it ended in `/`. */
function serializeTree(entries: RawEntry[]): Buffer {
  const sortKey = (entry: RawEntry) => (entry.mode === '40000' ? Buffer.concat([entry.name, Buffer.from('/')]) : entry.name);
  const sorted = entries.map((entry) => ({ entry, key: sortKey(entry) })).sort((a, b) => Buffer.compare(a.key, b.key));
  return Buffer.concat(sorted.flatMap(({ entry }) => [Buffer.from(`${entry.mode} `, 'latin1'), entry.name, Buffer.from([0]), entry.oid]));
}

/** Loose objects of one object directory, written as Git writes them. */
class LooseObjects {
  private readonly objectsDir: string;
  private readonly format: ObjectFormat;

  constructor(objectsDir: string, format: ObjectFormat) {
    this.objectsDir = objectsDir;
    this.format = format;
  }

  /** Writes the object (unless a loose copy is there already) and returns its raw id. */
  async write(type: 'blob' | 'tree' | 'commit', content: Buffer): Promise<Buffer> {
    const header = Buffer.from(`${type} ${content.length}\0`, 'latin1');
    const oid = createHash(this.format).update(header).update(content).digest();
    const hex = oid.toString('hex');
    const dir = join(this.objectsDir, hex.slice(0, 2));
    const place = join(dir, hex.slice(2));
    if ((await lstat(place).catch(() => null)) !== null) return oid;
    // Git's default for loose objects (core.looseCompression): fastest.
    const body = await deflated(Buffer.concat([header, content]), { level: 1 });
    if ((await stat(dir).catch(() => null)) === null) {
      await mkdir(dir, { recursive: true });
      // As the objects folder itself is (a shared repository's folders are group-writable).
      const mode = (await stat(this.objectsDir)).mode & 0o7777;
      await chmod(dir, mode).catch(() => undefined);
    }
    const temporary = join(dir, `tmp_obj_mv_${process.pid}_${Math.random().toString(36).slice(2)}`);
    await writeFile(temporary, body, { mode: 0o444 });
    try {
      await link(temporary, place).catch(async (error: NodeJS.ErrnoException) => {
        // Where the file system makes no hard links, Git renames the temporary file instead.
        if (error.code !== 'EEXIST') await rename(temporary, place);
      });
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
    return oid;
  }
}
