#!/usr/bin/env node
// The `major-vault` command: Node 22 runs the TypeScript sources as they are (its type
// stripping: the sources use erasable syntax only, tsconfig's `erasableSyntaxOnly`), so the
// checkout needs no build step and no loader; bin/node22.js re-runs it under node_modules'
// Node 22 from an older Node.
import { ensureNode22 } from './node22.js';

await ensureNode22();
await import('../src/cli/main.ts');
