// Composition root of `major-vault demo` (and `npm start`): builds the demo installation
// when it is not there yet and serves it. Reads MAJOR_VAULT_DEMO_DIR from the environment.
import { join, resolve } from 'node:path';
import { buildDemo, isDemoBuilt } from '../demo/build-demo.ts';
import type { IndexProgress } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import { serveLocal, type LocalServer } from './local.ts';
import { ensurePortFree } from './port-free.ts';

/** The demo folder: `$MAJOR_VAULT_DEMO_DIR`, else `demo/` in the checkout. */
export function defaultDemoDir(): string {
  const fromEnvironment = process.env['MAJOR_VAULT_DEMO_DIR'];
  return fromEnvironment ? resolve(fromEnvironment) : join(import.meta.dirname, '..', '..', 'demo');
}

/** Options of {@link serveDemo}. */
export interface DemoSettings {
  dir?: string;
  port: number;
  hostname: string;
}

/**
 * Builds the demo in `dir` (default {@link defaultDemoDir}) unless it is built, then serves
 * installation `acme` from it, without a users file (the local person reads and writes all).
 * `onBuilt` is told whether it was built now.
 */
export async function serveDemo(
  settings: DemoSettings,
  options: { log?: Logger; onProgress?: IndexProgress; onBuilt?: (dir: string, builtNow: boolean) => void } = {},
): Promise<LocalServer> {
  const dir = resolve(settings.dir ?? defaultDemoDir());
  await ensurePortFree(settings.hostname, settings.port, "the demo's address", '--port');
  const builtBefore = isDemoBuilt(dir);
  const layout = await buildDemo(dir);
  options.onBuilt?.(dir, !builtBefore);
  return serveLocal(
    { reposDir: layout.reposDir, name: 'acme', port: settings.port, hostname: settings.hostname },
    { ...(options.log ? { log: options.log } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
  );
}
