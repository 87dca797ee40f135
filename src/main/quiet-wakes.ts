// Wake-ups of local instances, held back a moment while catalogue answers keep coming (issue 13,
// "A cold tools/list is answered from the store while the instance starts"): starting a local
// instance forks the front, which holds its event loop for a few milliseconds (2-4 ms for a
// front of a few hundred MiB), and a cold tools/list arriving at that moment would wait for it.
import type { Logger } from 'pino';

/** What {@link quietWakes} gives. */
export interface QuietWakes {
  /** Asks for `wake` under `key` (an installation's name; one pending wake per key). */
  add(key: string, wake: () => void): void;
  /** Drops the pending wakes (a front shutting down starts no instance) and takes no new ones. */
  close(): void;
}

/**
 * Wake-ups run together once no new one was asked for `quietMs` (default 25 ms), and at the
 * latest `maxDelayMs` (default 250 ms) after the first pending one: a burst of cold lists is
 * answered first, then its instances start. A tools/call never waits for this: the forward
 * starts an asleep instance itself. A wake that throws is logged, not thrown.
 */
export function quietWakes(options: { quietMs?: number; maxDelayMs?: number; log?: Logger } = {}): QuietWakes {
  const quietMs = options.quietMs ?? 25;
  const maxDelayMs = options.maxDelayMs ?? 250;
  const pending = new Map<string, () => void>();
  let timer: NodeJS.Timeout | null = null;
  let firstAt = 0;
  let closed = false;
  const run = () => {
    timer = null;
    const wakes = [...pending.values()];
    pending.clear();
    for (const wake of wakes) {
      try {
        wake();
      } catch (error) {
        options.log?.warn({ event: 'instance_wake_failed', err: error }, 'a wake-up failed');
      }
    }
  };
  return {
    add(key, wake) {
      if (closed) return;
      if (pending.size === 0) firstAt = Date.now();
      pending.set(key, wake);
      if (timer !== null) clearTimeout(timer);
      const wait = Math.max(0, Math.min(quietMs, firstAt + maxDelayMs - Date.now()));
      timer = setTimeout(run, wait);
      timer.unref();
    },
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
