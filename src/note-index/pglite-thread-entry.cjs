// The index thread's entry (pglite-thread.ts): PGlite runs on this worker thread, off the
// server's event loop. Plain CommonJS so the thread starts under node, tsx and vitest alike:
// tsx's require hook (in this thread) loads the TypeScript, as the worker pool's entry does.
/* global require */
/* eslint-disable @typescript-eslint/no-require-imports */
// PGlite compiles its WebAssembly (WebAssembly.instantiate) on this thread, synchronously:
// with V8's asynchronous compilation, the thread's event loop stayed blocked about 250 ms
// after PGlite had opened (V8 finishing the compilation's background jobs before the next
// task), so the first statement of every start waited that long. Measured on obsidian-help's
// index, PGlite alone: open to the first answer 990 -> 850 ms. The flag is V8's, so
// process-wide: a PGlite opened in process after this thread started (tests) compiles
// synchronously too, at the same cost; Node's own type stripping compiled its WebAssembly
// before this thread ran.
require('node:v8').setFlagsFromString('--no-wasm-async-compilation');
if (!process.features.typescript) require('tsx/cjs/api').register();
else require('../../bin/stripped-ts-cache.js').cacheThreadModules();
require('./pglite-thread-worker.ts').serveIndexThread();
