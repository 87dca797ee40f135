// The V8 limits of the server's worker threads, in a module of its own so that the index
// thread (started early at start-up) can use them without loading the pool (piscina).

/**
 * The V8 limits of the server's worker threads (the pool's and the index thread,
 * note-index/pglite-thread.ts): a young generation of 8 MiB instead of V8's default (up to
 * 3 × 16 MiB semi-spaces here). A thread's work is a task at a time whose garbage dies
 * young, and V8 keeps a young generation it grew to under one heavy task (a base view's
 * rows, an index read of every note) for the thread's life: with the default, a pool thread
 * took 150–270 MiB of heap through bench/memory.ts's session, with this about 100 MiB. The
 * old generation is not limited: a long note or a large base still gets the memory it needs.
 */
export const threadResourceLimits = { maxYoungGenerationSizeMb: 8 } as const;
