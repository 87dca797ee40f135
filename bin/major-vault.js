#!/usr/bin/env node
// The `major-vault` command: Node 22 runs the TypeScript sources as they are (its type
// stripping: the sources use erasable syntax only, tsconfig's `erasableSyntaxOnly`), so the
// checkout needs no build step and no loader; bin/node22.js re-runs it under node_modules'
// Node 22 from an older Node.
import module from 'node:module';
import { ensureNode22 } from './node22.js';

await ensureNode22();
// V8's compiled code of the modules (and Node's type-stripped sources) kept on disk between
// runs (os.tmpdir()/node-compile-cache): every start after the first loads faster.
module.enableCompileCache?.();
await import('../src/cli/main.ts');
