// A taken port is refused before a long start, naming the option that changes it.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ensurePortFree } from './port-free.ts';

describe('a port checked before a start', () => {
  it('is refused while another program listens on it, naming the option; free again once it stops', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    await expect(ensurePortFree('127.0.0.1', port, "the demo's address", '--port')).rejects.toThrow(
      `Port ${port} on 127.0.0.1 (the demo's address) is in use by another program. Stop it, or choose another port with --port (0 picks a free one).`,
    );
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    await expect(ensurePortFree('127.0.0.1', port, "the demo's address", '--port')).resolves.toBeUndefined();
    await expect(ensurePortFree('127.0.0.1', 0, "the demo's address", '--port')).resolves.toBeUndefined();
  });
});
