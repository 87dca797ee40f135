// A base view rendered on the worker pool: the task carries a snapshot of the repository's
// rows (one per index state, serialized once into shared memory, so a call copies no rows),
// and the thread keeps the last few snapshots decoded, so only the first view of a new
// state pays for decoding; with it the thread keeps, per set of open folders, the rows in
// them with their lookup by path and backlinks, so a view that shows `file.backlinks` builds
// them once per index state, not once per call. A heavy base then never holds the event
// loop of the server.
import { deserialize, serialize } from 'node:v8';
import { LinkResolver } from '../notes/link-resolver.ts';
import { isInFolders } from '../notes/vault-path.ts';
import { isVaultError, type VaultErrorCode } from '../vault-error.ts';
import { BaseNotesIndex, type BaseNote } from './base-vault.ts';
import { renderBaseViewCooperatively, type BaseViewPage } from './render-base-view.ts';

/** The rows a base sees in one repository at one index state, as the thread decodes them. */
export interface BaseRowsSnapshot {
  /** Names the index state: equal keys mean equal rows. */
  key: string;
  /** v8-serialized `{ files: BaseNote[]; paths: string[] }`, in shared memory. */
  data: Uint8Array;
}

/**
 * A snapshot of `files` (every non-hidden file as a row) and `paths` (every file, for link
 * resolution), serialized once for many renders; `key` names the index state they are of.
 */
export function snapshotRows(key: string, files: readonly BaseNote[], paths: readonly string[]): BaseRowsSnapshot {
  const bytes = serialize({ files, paths });
  const data = new Uint8Array(new SharedArrayBuffer(bytes.length));
  data.set(bytes);
  return { key, data };
}

/** One render: the `.base` file, the view and page, the open folders and the budget. */
export interface RenderBaseTask {
  rows: BaseRowsSnapshot;
  /** The repository's open folders (settings `folders`): only rows inside them are seen. */
  folders: readonly string[];
  basePath: string;
  /** The `.base` file's text. */
  base: string;
  view: string | null;
  /** `this` when the `.base` file is not itself a row (a hidden or closed one cannot be read). */
  context: BaseNote;
  limit: number;
  offset: number;
  /**
   * The render's time budget in ms, counted from when it starts on its thread (a thread
   * still starting, or busy with another call, does not eat it): past it the render stops
   * and answers what it has.
   */
  budgetMs: number;
}

/** A render's page, or the refusal it threw (a VaultError, as code, message and details). */
export type RenderBaseResult =
  { page: BaseViewPage } | { refused: { code: VaultErrorCode; message: string; details?: Record<string, unknown> } };

interface DecodedRows {
  files: BaseNote[];
  resolver: LinkResolver;
  /** By the open folders (joined with NUL): the rows in them, indexed (built on first use). */
  inFolders: Map<string, BaseNotesIndex>;
}

/** How many sets of open folders a decoded snapshot keeps its rows for (a repository has one; tests use a few). */
const FOLDER_VIEWS = 4;

/** The thread's decoded snapshots, least recently used first, with their serialized size. */
const decoded = new Map<string, { rows: DecodedRows; bytes: number }>();

/**
 * How many serialized bytes of snapshots a thread keeps decoded (their decoded objects take a
 * few times that): the newest state of a few repositories. An older state of a repository is
 * dropped as soon as a newer one is decoded (a key starts with the repository's name), so a
 * session of edits does not leave stale copies of every row on each thread.
 */
export const DECODED_BYTES = 48 * 1024 * 1024;

/** The keys of the snapshots this thread keeps decoded, least recently used first (tests, diagnostics). */
export function decodedSnapshots(): string[] {
  return [...decoded.keys()];
}

function decode(rows: BaseRowsSnapshot): DecodedRows {
  const kept = decoded.get(rows.key);
  if (kept !== undefined) {
    decoded.delete(rows.key);
    decoded.set(rows.key, kept);
    return kept.rows;
  }
  const repo = rows.key.slice(0, rows.key.indexOf('\u0000') + 1);
  for (const key of [...decoded.keys()]) if (repo !== '' && key.startsWith(repo)) decoded.delete(key);
  const { files, paths } = deserialize(rows.data) as { files: BaseNote[]; paths: string[] };
  const found = { files, resolver: new LinkResolver(paths), inFolders: new Map<string, BaseNotesIndex>() };
  decoded.set(rows.key, { rows: found, bytes: rows.data.length });
  trim();
  return found;
}

/**
 * The bytes a decoded snapshot counts for: its serialized size, and what its rows' indexes
 * (lookup by path, backlinks) add.
 */
function entryBytes(entry: { rows: DecodedRows; bytes: number }): number {
  let bytes = entry.bytes;
  for (const index of entry.rows.inFolders.values()) bytes += index.estimatedBytes;
  return bytes;
}

/** Drops the least recently used snapshots until the rest fit in {@link DECODED_BYTES} (the newest always stays). */
function trim(): void {
  let total = [...decoded.values()].reduce((sum, entry) => sum + entryBytes(entry), 0);
  while (total > DECODED_BYTES && decoded.size > 1) {
    const [oldest, entry] = decoded.entries().next().value!;
    decoded.delete(oldest);
    total -= entryBytes(entry);
  }
}

/** The rows of `rows` inside `folders`, with their lookup by path and backlinks, kept with the snapshot. */
function rowsInFolders(rows: DecodedRows, folders: readonly string[]): BaseNotesIndex {
  const key = folders.join('\u0000');
  let index = rows.inFolders.get(key);
  if (index === undefined) {
    if (rows.inFolders.size >= FOLDER_VIEWS) rows.inFolders.delete(rows.inFolders.keys().next().value!);
    index = new BaseNotesIndex(rows.files.filter((file) => isInFolders(file.path, folders)));
    rows.inFolders.set(key, index);
  }
  return index;
}

/**
 * Renders one view (renderBaseViewCooperatively) on a pool thread. A VaultError the render
 * throws (an unknown view, a file that does not parse) comes back as `refused`, since an
 * error loses its class between threads; anything else rejects.
 */
export async function renderBaseTask(task: RenderBaseTask): Promise<RenderBaseResult> {
  const rows = decode(task.rows);
  const index = rowsInFolders(rows, task.folders);
  const { notes } = index;
  const context = index.get(task.basePath) ?? task.context;
  try {
    const page = await renderBaseViewCooperatively(
      {
        basePath: task.basePath,
        base: task.base,
        view: task.view,
        vault: { notes, index, resolveLink: (target, fromPath) => rows.resolver.resolveTarget(target, fromPath) },
        context,
        limit: task.limit,
        offset: task.offset,
      },
      // Alone on its thread, the render need not yield: only the budget counts.
      { budgetMs: task.budgetMs, sliceMs: 60_000 },
    );
    // The backlinks built by this render now count towards the bound.
    trim();
    return { page };
  } catch (error) {
    if (isVaultError(error))
      return { refused: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
    throw error;
  }
}
