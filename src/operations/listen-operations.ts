// A small HTTP listener of its own for the operations (`/healthz`, `/readyz`, `/metrics`): the
// worker's `--ops-port`, which has no other HTTP face, or any process's internal port when its
// main listener is public.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Logger } from 'pino';
import type { OperationsHandler } from './with-operations.ts';

/** A listening operations port: its origin (e.g. `http://127.0.0.1:9464`) and how to stop it. */
export interface OperationsListener {
  origin: URL;
  close(): Promise<void>;
}

/**
 * Serves `operations` (with-operations.ts, usually built with a null handler) with `node:http`
 * on `hostname:port` (port 0 picks a free one; `0.0.0.0` so a platform's probes and scraper
 * reach it in a container) and resolves once it listens. Rejects with the listen error (a port
 * in use: `EADDRINUSE`). `close` stops accepting and ends open connections.
 */
export async function listenOperations(
  operations: OperationsHandler,
  options: { port: number; hostname: string; log?: Logger },
): Promise<OperationsListener> {
  const handle = toNodeHandler(operations, { onerror: (error) => options.log?.error({ err: error }, 'an operations request failed') });
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: new URL(`http://${host}:${address.port}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
