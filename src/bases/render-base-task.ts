// A base view rendered on the worker pool: the task carries a snapshot of the repository's
// rows (one per index state, serialized once into shared memory, so a call copies no rows),
// and the thread keeps the last few snapshots decoded, so only the first view of a new
// state pays for decoding. A heavy base then never holds the event loop of the server.
import { deserialize, serialize } from 'node:v8';
import { LinkResolver } from '../notes/link-resolver.ts';
import { isInFolders } from '../notes/vault-path.ts';
import { isVaultError, type VaultErrorCode } from '../vault-error.ts';
import type { BaseNote } from './base-vault.ts';
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
}

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
  const found = { files, resolver: new LinkResolver(paths) };
  decoded.set(rows.key, { rows: found, bytes: rows.data.length });
  let total = [...decoded.values()].reduce((sum, entry) => sum + entry.bytes, 0);
  while (total > DECODED_BYTES && decoded.size > 1) {
    const [oldest, entry] = decoded.entries().next().value!;
    decoded.delete(oldest);
    total -= entry.bytes;
  }
  return found;
}

/**
 * Renders one view (renderBaseViewCooperatively) on a pool thread. A VaultError the render
 * throws (an unknown view, a file that does not parse) comes back as `refused`, since an
 * error loses its class between threads; anything else rejects.
 */
export async function renderBaseTask(task: RenderBaseTask): Promise<RenderBaseResult> {
  const { files, resolver } = decode(task.rows);
  const notes = files.filter((file) => isInFolders(file.path, task.folders));
  const context = notes.find((note) => note.path === task.basePath) ?? task.context;
  try {
    const page = await renderBaseViewCooperatively(
      {
        basePath: task.basePath,
        base: task.base,
        view: task.view,
        vault: { notes, resolveLink: (target, fromPath) => resolver.resolveTarget(target, fromPath) },
        context,
        limit: task.limit,
        offset: task.offset,
      },
      // Alone on its thread, the render need not yield: only the budget counts.
      { budgetMs: task.budgetMs, sliceMs: 60_000 },
    );
    return { page };
  } catch (error) {
    if (isVaultError(error))
      return { refused: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
    throw error;
  }
}
