#!/usr/bin/env node
// Runs one TypeScript file (a benchmark, a script) through tsx's loader: `node bin/run-ts.js FILE [ARGS]`.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { ensureNode22 } from './node22.js';

await ensureNode22();
const { register } = await import('tsx/esm/api');
register();
const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bin/run-ts.js FILE.ts [ARGS]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(file), ...rest];
await import(pathToFileURL(resolve(file)).href);
