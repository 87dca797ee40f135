#!/usr/bin/env node
// The `major-vault` command: Node 22 runs the TypeScript sources as they are (its type
// stripping: the sources use erasable syntax only, tsconfig's `erasableSyntaxOnly`), so the
// checkout needs no build step and no loader; bin/node22.js re-runs it under node_modules'
// Node 22 from an older Node.
import module from 'node:module';
import v8 from 'node:v8';
import { ensureMallocArenas } from './malloc-arenas.js';
import { ensureNode22 } from './node22.js';
import { cacheStrippedTypeScript } from './stripped-ts-cache.js';

await ensureNode22();
// Two malloc arenas for a server (bin/malloc-arenas.js): re-runs a long-lived command once.
ensureMallocArenas();
// V8 grows a heap by up to 100 % of what survived a full collection before it collects again;
// a server's live data is small next to the garbage its calls make (rows, parsed notes,
// answers), so every thread's heap ran at about twice its live size and crept up with each
// peak. 30 % keeps each heap near what it holds, at more frequent (and smaller) collections.
// Set before the server's code loads, it applies to the main thread's heap from here on and
// to every thread started after it (the index thread, the pool's).
v8.setFlagsFromString('--heap-growing-percent=30');
// V8's compiled code of the modules kept on disk between runs (os.tmpdir()/node-compile-cache),
// and beside it the sources as Node strips their types (bin/stripped-ts-cache.js): every
// start after the first loads faster.
module.enableCompileCache?.();
cacheStrippedTypeScript();
// `stdio`: the index starts opening on its own thread now (src/main/early-index.ts),
// while the command's modules (commander, the logger, the server's code) load: begun from the
// command's action, after them, it was 100-200 ms further from the first tool answer.
const earlyPlace = (await import('../src/cli/early-index-place.ts')).earlyIndexPlace(process.argv);
if (earlyPlace !== null) (await import('../src/main/early-index.ts')).openIndexEarly(earlyPlace);
await import('../src/cli/main.ts');
