// The match pool's worker entry, plain CommonJS so a worker thread can start it under node,
// tsx and vitest alike: tsx's require hook (in this thread, no loader thread to start, so
// a thread is ready in a fraction of the time the ESM loader takes) loads the TypeScript.
// The default task matches a batch of notes; the named ones parse a long note for the index.
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports */
require('tsx/cjs/api').register();

const { parseNoteTask, noteKeysTask, containsTask } = require('../../note-index/parse-task.ts');

module.exports = require('./match-notes.ts').matchNotes;
module.exports.parseNote = parseNoteTask;
module.exports.noteKeys = noteKeysTask;
module.exports.contains = containsTask;
