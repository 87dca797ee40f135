#!/usr/bin/env node
// The `major-vault` command: runs the TypeScript sources through tsx's loader, so the
// checkout needs no build step, on Node 22 (bin/node22.js re-runs it there from an older Node).
import { ensureNode22 } from './node22.js';

await ensureNode22();
const { register } = await import('tsx/esm/api');
register();
await import('../src/cli/main.ts');
