// The index thread's entry (pglite-thread.ts): PGlite runs on this worker thread, off the
// server's event loop. Plain CommonJS so the thread starts under node, tsx and vitest alike:
// tsx's require hook (in this thread) loads the TypeScript, as the worker pool's entry does.
/* global require */
/* eslint-disable @typescript-eslint/no-require-imports */
if (!process.features.typescript) require('tsx/cjs/api').register();
require('./pglite-thread-worker.ts').serveIndexThread();
