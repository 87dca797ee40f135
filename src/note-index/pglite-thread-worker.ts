// The index thread's side of pglite-thread.ts: opens PGlite (pglite-client.ts) in the data
// folder it was given and answers the statements the server's thread sends, one message each.
import { parentPort, workerData } from 'node:worker_threads';
import { openPglite } from './pglite-client.ts';
import type { SqlClient } from './sql-client.ts';
import type { ThreadReply, ThreadRequest } from './pglite-thread.ts';

/** A transaction the server's thread holds open: its client here, and how to end it. */
interface OpenTransaction {
  client: SqlClient;
  end(commit: boolean): void;
  /** Settles when the transaction has committed (resolves) or rolled back (rejects). */
  done: Promise<unknown>;
}

/** Thrown inside a transaction's body to roll it back at the server thread's request. */
class Rollback extends Error {}

/**
 * Runs on the index thread: opens the database (`workerData.dataDir`, a folder, or null for
 * memory), posts `{ ready: true }` (or `{ error }`), then answers each request in order of
 * arrival; PGlite's own lock serialises statements, and those of an open transaction run on
 * its connection until the server's thread ends it.
 */
export function serveIndexThread(): void {
  const port = parentPort!;
  const { dataDir } = workerData as { dataDir: string | null };
  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;
  const reply = (message: ThreadReply) => port.postMessage(message);
  const fail = (id: number, error: unknown) => reply({ id, error: errorFields(error) });

  void openPglite(dataDir).then(
    (sql) => {
      port.on('message', (request: ThreadRequest) => {
        const client = request.tx === undefined ? sql : transactions.get(request.tx)?.client;
        if (client === undefined) return fail(request.id, new Error(`No open transaction ${request.tx} on the index thread.`));
        switch (request.op) {
          case 'query':
            client.query(request.sql!, request.params).then(
              (result) => reply({ id: request.id, result }),
              (error: unknown) => fail(request.id, error),
            );
            return;
          case 'exec':
            client.exec(request.sql!).then(
              () => reply({ id: request.id, result: null }),
              (error: unknown) => fail(request.id, error),
            );
            return;
          case 'begin': {
            const tx = nextTransaction++;
            let end: (commit: boolean) => void = () => {};
            const ended = new Promise<boolean>((resolve) => (end = resolve));
            const done = client.transaction(async (txClient) => {
              transactions.set(tx, { client: txClient, end, done });
              reply({ id: request.id, result: tx });
              if (!(await ended)) throw new Rollback('rolled back');
            });
            // Until the body runs, `done` is the only place a failure to begin shows.
            done.catch((error: unknown) => {
              if (!transactions.has(tx)) fail(request.id, error);
            });
            return;
          }
          case 'end': {
            const open = transactions.get(request.tx!)!;
            transactions.delete(request.tx!);
            open.end(request.commit === true);
            open.done.then(
              () => reply({ id: request.id, result: null }),
              (error: unknown) => (error instanceof Rollback ? reply({ id: request.id, result: null }) : fail(request.id, error)),
            );
            return;
          }
          case 'close':
            sql.close().then(
              () => reply({ id: request.id, result: null }),
              (error: unknown) => fail(request.id, error),
            );
            return;
        }
      });
      reply({ id: 0, result: 'ready' });
    },
    (error: unknown) => reply({ id: 0, error: errorFields(error) }),
  );
}

/** An error as plain data a message can carry: its message, name and own fields (Postgres's `code`, `detail`, …). */
function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}
