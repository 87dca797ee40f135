// A port checked before a long start (the demo builds and indexes first): a taken port is
// refused at once with the option that changes it, not after minutes with "listen EADDRINUSE".
import { createServer } from 'node:net';

/**
 * Resolves when `hostname:port` can be listened on now (it listens and closes at once); port 0
 * (any free one) always can. Throws a sentence naming the port, what it was for, and `option`
 * (e.g. `--port`) to choose another when it is in use (EADDRINUSE); other listen errors as
 * they come. A port freed or taken after the check is not covered.
 */
export async function ensurePortFree(hostname: string, port: number, what: string, option: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolvePromise, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${port} on ${hostname} (${what}) is in use by another program. Stop it, or choose another port with ${option} (0 picks a free one).`,
            )
          : error,
      );
    });
    probe.listen({ host: hostname, port, exclusive: true }, () => probe.close(() => resolvePromise()));
  });
}
