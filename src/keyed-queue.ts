// Work run one at a time per key (a repository's commits, its index syncs), in call order.

/**
 * A queue per key: {@link run} starts `work` once every earlier `run` of the same key has
 * settled (fulfilled or rejected: a failure does not stop the next), while other keys go on
 * in parallel. Only within this process; a key's entry is dropped once its queue is empty.
 * Own code rather than p-limit/p-queue: those limit one queue, and keying them needs the same
 * map and the same idle check, which then depends on when the library updates its counters.
 */
export class KeyedQueue<K = string> {
  private readonly tails = new Map<K, Promise<unknown>>();

  /** `work()`'s result, run after the earlier work of `key`. */
  run<T>(key: K, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.tails.set(key, next);
    const forget = (): void => {
      if (this.tails.get(key) === next) this.tails.delete(key);
    };
    next.then(forget, forget);
    return next;
  }

  /** Resolves once the work queued so far has settled, for every key (never rejects). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }

  /** How many keys have work queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
