#!/usr/bin/env node
// The `major-vault` command: runs the TypeScript sources through tsx's loader, so the
// checkout needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
