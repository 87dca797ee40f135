// The V8 limits of the server's worker threads, in a module of its own so that the index
// thread (started early at start-up) can use them without loading the pool (piscina).

/**
 * The V8 limits of the server's worker threads (the pool's and the index thread,
 * note-index/pglite-thread.ts), in MiB:
 * - a young generation of 8 MiB instead of V8's default (up to 3 × 16 MiB semi-spaces here):
 *   a thread's work is a task at a time whose garbage dies young, and V8 keeps a young
 *   generation a heavy task grew (a base view's rows, an index read of every note) for the
 *   thread's life;
 * - an old generation of at most 1 GiB instead of a quarter of the machine's memory: V8 lets
 *   a heap grow to 4 times what is live before collecting when its limit is 2 GiB or more,
 *   and to about 1.6 times under 1 GiB. A thread holds little between tasks (about 30 MiB
 *   after a base view of obsidian-help), so it is collected sooner; a 50 MB note still parses.
 *   A task that needs more stops its thread: the call is refused with `worker_failed` (the
 *   pool) or `index_unavailable` (the index thread), and the thread is replaced.
 * Through bench/memory.ts's session a pool thread took 150–270 MiB of heap with V8's
 * defaults, about 100 MiB with these; the index thread 150 MiB, then 55.
 */
export const threadResourceLimits = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 1024 } as const;
