// The Queue port run in this process (DESIGN.md "Ports and adapters", embedded default).
import type { JobHandler, Queue } from './queue.ts';

/** One name and key's runs: the one going on, and the one queued behind it that new triggers join. */
interface Slot {
  running: Promise<void> | null;
  queued: Promise<void> | null;
}

/**
 * Runs jobs in this process, as they are sent, with per-key coalescing: while a run for a
 * name and key goes on, every trigger for them joins one queued run that starts when it ends
 * (see {@link Queue}). Runs for different keys go on side by side.
 */
export class InProcessQueue implements Queue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly slots = new Map<string, Slot>();

  work(name: string, handler: JobHandler): void {
    if (this.handlers.has(name)) throw new Error(`Jobs named "${name}" have a handler already.`);
    this.handlers.set(name, handler);
  }

  send(name: string, key: string): Promise<void> {
    const handler = this.handlers.get(name);
    if (handler === undefined) throw new Error(`No handler works on jobs named "${name}".`);
    const id = `${name}\0${key}`;
    let slot = this.slots.get(id);
    if (slot === undefined) this.slots.set(id, (slot = { running: null, queued: null }));
    if (slot.running === null) return this.start(id, slot, () => handler(key));
    if (slot.queued !== null) return slot.queued;
    const queued = slot.running
      .catch(() => undefined)
      .then(() => {
        slot.queued = null;
        return this.start(id, slot, () => handler(key));
      });
    slot.queued = queued;
    return queued;
  }

  /** Starts a run in `slot` now (not a tick later); the slot is forgotten once nothing runs or waits in it. */
  private start(id: string, slot: Slot, run: () => Promise<void>): Promise<void> {
    let started: Promise<void>;
    try {
      started = run();
    } catch (error) {
      started = Promise.reject(error as Error);
    }
    const running = started.finally(() => {
      if (slot.running !== running) return;
      slot.running = null;
      if (slot.queued === null) this.slots.delete(id);
    });
    slot.running = running;
    return running;
  }
}
