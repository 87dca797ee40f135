#!/usr/bin/env node
// Runs one TypeScript file (a benchmark, a script) as bin/major-vault.js runs the command, on
// Node 22's type stripping: `node bin/run-ts.js FILE [ARGS]`.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import module from 'node:module';
import { ensureNode22 } from './node22.js';
import { cacheStrippedTypeScript } from './stripped-ts-cache.js';

await ensureNode22();
// As bin/major-vault.js: compiled code and stripped sources kept between runs.
module.enableCompileCache?.();
cacheStrippedTypeScript();
const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bin/run-ts.js FILE.ts [ARGS]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(file), ...rest];
await import(pathToFileURL(resolve(file)).href);
