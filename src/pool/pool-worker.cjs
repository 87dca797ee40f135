// The worker pool's thread entry (worker-pool.ts): every task a thread runs, by name. Plain
// CommonJS so a worker thread can start it under node, tsx and vitest alike: tsx's require
// hook (in this thread, no loader thread to start, so a thread is ready in a fraction of the
// time the ESM loader takes) loads the TypeScript. This list is the thread's composition
// root: it names the task modules of the index, the tools and the bases, which the pool
// itself never imports.
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports */
// Node 22.18+ strips the types itself (and require() takes an ES module): tsx only where it
// does not (vitest under an older Node).
if (!process.features.typescript) require('tsx/cjs/api').register();
// The modules' compiled code and stripped text kept between starts, as in the main thread.
else require('../../bin/stripped-ts-cache.js').cacheThreadModules();

const { parseNoteTask, noteKeysTask, containsTask } = require('../note-index/parse-task.ts');

module.exports.matchNotes = require('../instance/tools/match-notes.ts').matchNotes;
module.exports.parseNote = parseNoteTask;
module.exports.noteKeys = noteKeysTask;
module.exports.contains = containsTask;
// Loaded on a thread's first task of that kind, so a thread starts no slower for them.
module.exports.renderBaseView = (task) => require('../bases/render-base-task.ts').renderBaseTask(task);
module.exports.lineStarts = (text) => require('../notes/lines.ts').lineStartArray(text);
