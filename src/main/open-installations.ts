// The installations a process keeps open (issue 13: a Postgres server allows 100 connections in
// all, and one process may serve a hundred installations): opened on first use, shared by the
// runs that use them at once, and closed, least recently used first, once more than a few are
// open and idle.

/** One installation's entry: what opening it gives, how many runs use it now, and when it was last let go. */
interface Entry<T> {
  opened: Promise<T>;
  users: number;
  lastUsed: number;
  /** Set by {@link OpenInstallations.forget}: called when its last user lets go; it is never handed out again. */
  onIdle: (() => void) | null;
}

/** What {@link OpenInstallations} opens and closes, and how many it keeps. */
export interface OpenInstallationsOptions<T> {
  /** How many installations stay open while idle (1 or more); more are open only while runs use them. */
  max: number;
  /** Opens installation `id`; a rejection is passed to the run that asked (and the next run tries again). */
  open(id: number): Promise<T>;
  /** Closes what {@link open} gave; a rejection is passed to `onCloseError`. */
  close(value: T, id: number): Promise<void>;
  onCloseError?(error: unknown, id: number): void;
}

/**
 * Installations opened on demand and kept, least recently used closed first: at most
 * {@link OpenInstallationsOptions.max} stay open while no run uses them. An installation in
 * use is never closed under its runs.
 */
export class OpenInstallations<T> {
  private readonly entries = new Map<number, Entry<T>>();
  private readonly closing = new Set<Promise<void>>();

  private readonly options: OpenInstallationsOptions<T>;

  constructor(options: OpenInstallationsOptions<T>) {
    this.options = options;
    if (!Number.isInteger(options.max) || options.max < 1) throw new Error(`Keep 1 or more installations open, not ${options.max}.`);
  }

  /** How many installations are open (or being opened) now. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether installation `id` is open (or being opened) now. */
  has(id: number): boolean {
    return this.entries.has(id);
  }

  /** Runs `work` with installation `id`, opening it first when it is not open; rejects with what opening or `work` threw. */
  async use<R>(id: number, work: (value: T) => Promise<R>): Promise<R> {
    let entry = this.entries.get(id);
    if (entry === undefined) {
      entry = { opened: this.options.open(id), users: 0, lastUsed: Date.now(), onIdle: null };
      this.entries.set(id, entry);
    }
    entry.users += 1;
    try {
      let value: T;
      try {
        value = await entry.opened;
      } catch (error) {
        // Nothing was opened: the next use tries again.
        if (this.entries.get(id) === entry) this.entries.delete(id);
        throw error;
      }
      return await work(value);
    } finally {
      entry.users -= 1;
      entry.lastUsed = Date.now();
      if (entry.onIdle !== null) {
        if (entry.users === 0) entry.onIdle();
      } else this.closeIdle();
    }
  }

  /**
   * Closes installation `id` (it was uninstalled): at once when no run uses it, else when its
   * last run lets go, which this waits for. A later {@link use} opens it anew.
   */
  async forget(id: number): Promise<void> {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    if (entry.users > 0) await new Promise<void>((resolve) => (entry.onIdle = resolve));
    await this.closeEntry(id, entry);
  }

  /** Closes every open installation (those in use when their runs end) and waits for it. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.forget(id)));
    await Promise.allSettled([...this.closing]);
  }

  /** Closes idle installations, least recently used first, while more than `max` are open. */
  private closeIdle(): void {
    if (this.entries.size <= this.options.max) return;
    const idle = [...this.entries].filter(([, other]) => other.users === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [idleId, idleEntry] of idle) {
      if (this.entries.size <= this.options.max) break;
      this.entries.delete(idleId);
      void this.closeEntry(idleId, idleEntry);
    }
  }

  private closeEntry(id: number, entry: Entry<T>): Promise<void> {
    const closed = entry.opened
      .then(
        (value) => this.options.close(value, id),
        () => undefined,
      )
      .catch((error: unknown) => this.options.onCloseError?.(error, id));
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
    return closed;
  }
}
