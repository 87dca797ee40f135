// The local Changes adapter: a timer that says, about once a second, that any repository may
// have moved (the core compares fingerprints: work trees, `.git`, branch heads).
import type { ChangeNotice, Changes } from '../changes.ts';

/** Options of {@link ChangesPoll}. */
export interface ChangesPollOptions {
  /** How often to say that any repository may have moved, in milliseconds. Default 1000. */
  intervalMs?: number;
  /** Every this many ticks, the repositories are to be listed again first. Default 5. */
  listEveryTicks?: number;
}

/**
 * Changes by polling, for repositories in a folder: each tick sends `{ kind: 'moved', repo:
 * null }`, every fifth tick `{ kind: 'listed' }` before it. A tick that comes while the last
 * one's notices are still being handled is skipped. The timer does not keep Node running.
 */
export class ChangesPoll implements Changes {
  private readonly intervalMs: number;
  private readonly listEveryTicks: number;
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking: Promise<void> | null = null;
  private ticks = 0;

  constructor(options: ChangesPollOptions = {}) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.listEveryTicks = options.listEveryTicks ?? 5;
  }

  start(onNotice: (notice: ChangeNotice) => Promise<void>): void {
    if (this.timer !== null) throw new Error('The poll runs already.');
    this.timer = setInterval(() => {
      if (this.ticking !== null) return;
      this.ticking = this.tick(onNotice).finally(() => {
        this.ticking = null;
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  private async tick(onNotice: (notice: ChangeNotice) => Promise<void>): Promise<void> {
    this.ticks += 1;
    if (this.ticks % this.listEveryTicks === 0) await onNotice({ kind: 'listed' }).catch(() => undefined);
    if (this.timer === null) return;
    await onNotice({ kind: 'moved', repo: null }).catch(() => undefined);
  }
}
