// The match pool's worker entry, plain CommonJS so a worker thread can start it under node,
// tsx and vitest alike: tsx's require hook (in this thread, no loader thread to start, so
// a thread is ready in a fraction of the time the ESM loader takes) loads match-notes.ts.
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports */
require('tsx/cjs/api').register();

module.exports = require('./match-notes.ts').matchNotes;
