#!/usr/bin/env node
// The `major-vault` command: Node 22 runs the TypeScript sources as they are (its type
// stripping: the sources use erasable syntax only, tsconfig's `erasableSyntaxOnly`), so the
// checkout needs no build step and no loader; bin/node22.js re-runs it under node_modules'
// Node 22 from an older Node.
import module from 'node:module';
import { ensureNode22 } from './node22.js';
import { cacheStrippedTypeScript } from './stripped-ts-cache.js';

await ensureNode22();
// V8's compiled code of the modules kept on disk between runs (os.tmpdir()/node-compile-cache),
// and beside it the sources as Node strips their types (bin/stripped-ts-cache.js): every
// start after the first loads faster.
module.enableCompileCache?.();
cacheStrippedTypeScript();
await import('../src/cli/main.ts');
