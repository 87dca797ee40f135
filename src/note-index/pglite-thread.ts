// PGlite on a thread of its own: the embedded index's statements run on a worker thread, so
// the WebAssembly Postgres (and decoding its rows) never holds the server's event loop, and
// a second processor runs the index while the first answers HTTP, validates and serialises.
//
// Each statement is one message to the thread and one back; rows are copied between the
// threads (structured clone). A transaction holds PGlite's lock on the thread until this
// side ends it, as it does in process. When the thread dies (a crash, out of memory), every
// statement waiting on it is refused with VaultError `index_unavailable`, and the next one
// starts a new thread on the same data folder.
import { Worker } from 'node:worker_threads';
import { threadResourceLimits } from '../pool/thread-resource-limits.ts';
import { VaultError } from '../vault-error.ts';
import type { QueryResult, SqlClient } from './sql-client.ts';

/** A request to the index thread; `tx` names an open transaction to run in. */
export interface ThreadRequest {
  id: number;
  op: 'query' | 'exec' | 'begin' | 'end' | 'close';
  sql?: string;
  params?: readonly unknown[];
  tx?: number;
  /** For `end`: commit (true) or roll back. */
  commit?: boolean;
}

/** The thread's answer to request `id` (0: the database opened, or failed to). */
export interface ThreadReply {
  id: number;
  result?: unknown;
  error?: Record<string, unknown>;
}

const entry = new URL('./pglite-thread-entry.cjs', import.meta.url);

/** What the server's side keeps of one live thread. */
interface IndexThread {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, { resolve(value: unknown): void; reject(error: Error): void }>;
  dead: boolean;
}

/**
 * Opens PGlite in `dataDir` (null: in memory) on a worker thread, as `openPglite` would in
 * process; resolves once the database is open, rejects with the thread's error when it does
 * not open. The answers are those of the in-process client (same rows, same errors with
 * their Postgres `code`). `close` ends the thread. `options.onExit` is told when a thread
 * stops on its own (its exit code or error), for the log.
 */
export async function openPgliteThread(
  dataDir: string | null,
  options: { onExit?: (reason: string) => void } = {},
): Promise<ThreadedSqlClient> {
  let nextId = 1;
  let closed = false;
  let thread = start();
  await thread.ready;

  function start(): IndexThread {
    const worker = new Worker(entry, { workerData: { dataDir }, resourceLimits: threadResourceLimits });
    const pending: IndexThread['pending'] = new Map();
    const current: IndexThread = { worker, pending, dead: false, ready: Promise.resolve() };
    current.ready = new Promise<void>((resolve, reject) => {
      pending.set(0, { resolve: () => resolve(), reject });
    });
    worker.on('message', (message: ThreadReply) => {
      const waiting = pending.get(message.id);
      if (waiting === undefined) return;
      pending.delete(message.id);
      if (message.error === undefined) waiting.resolve(message.result);
      else waiting.reject(Object.assign(new Error(String(message.error['message'])), message.error));
    });
    const stop = (reason: string) => {
      if (current.dead) return;
      current.dead = true;
      if (!closed) options.onExit?.(reason);
      const error = new VaultError(
        'index_unavailable',
        `The index stopped while answering (${reason}); nothing was changed by this call. Try the call again: the index is being reopened.`,
      );
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    };
    worker.on('error', (error) => stop(error.message));
    worker.on('exit', (code) => stop(`its thread exited with code ${code}`));
    return current;
  }

  async function send(request: Omit<ThreadRequest, 'id'>): Promise<unknown> {
    if (closed) throw new Error('The index is closed.');
    // A transaction lives on its thread: a new thread cannot carry on one begun on a dead one.
    if (thread.dead && request.tx === undefined) thread = start();
    const current = thread;
    await current.ready;
    if (current.dead) throw new VaultError('index_unavailable', 'The index stopped while answering; try the call again.');
    const id = nextId++;
    return new Promise((resolve, reject) => {
      current.pending.set(id, { resolve, reject });
      current.worker.postMessage({ ...request, id });
    });
  }

  const clientIn = (tx: number | undefined): SqlClient => {
    const client: SqlClient = {
      engine: 'pglite',
      query: async <Row>(sql: string, params?: readonly unknown[]) =>
        (await send({
          op: 'query',
          sql,
          ...(params ? { params: [...params] } : {}),
          ...(tx === undefined ? {} : { tx }),
        })) as QueryResult<Row>,
      exec: async (sql) => {
        await send({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) });
      },
      // A nested transaction joins the one it is in, as in process.
      transaction: async (fn) => {
        if (tx !== undefined) return fn(client);
        const opened = (await send({ op: 'begin' })) as number;
        let value: Awaited<ReturnType<typeof fn>>;
        try {
          value = await fn(clientIn(opened));
        } catch (error) {
          await send({ op: 'end', tx: opened, commit: false }).catch(() => {});
          throw error;
        }
        await send({ op: 'end', tx: opened, commit: true });
        return value;
      },
      close: async () => {
        if (tx !== undefined) throw new Error('A transaction client cannot be closed; close the client that opened it.');
        if (closed) return;
        if (!thread.dead) await send({ op: 'close' }).catch(() => {});
        closed = true;
        await thread.worker.terminate();
      },
    };
    return client;
  };
  return {
    ...clientIn(undefined),
    async stopThread() {
      await thread.worker.terminate();
    },
  };
}

/** The client of {@link openPgliteThread}. */
export interface ThreadedSqlClient extends SqlClient {
  /**
   * Ends the index thread now, as a crash would (for tests and diagnostics): statements
   * waiting on it are refused with VaultError `index_unavailable`, and the next one starts a
   * new thread on the same data folder.
   */
  stopThread(): Promise<void>;
}
