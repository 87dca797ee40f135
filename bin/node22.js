// Node 22 for the `major-vault` command and bin/run-ts.js: when started by an older Node (a
// system Node 20, as in a client's stdio configuration), runs the same command again under
// the Node 22 that the `node` package installed into node_modules, passing stdio, signals,
// an IPC channel and the exit status through. Returns only when this process is already Node 22 or newer and strips types.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mallocArenasEnv, serverExecArgv } from './malloc-arenas.js';

const REQUIRED_MAJOR = 22;

/**
 * Re-runs `process.argv` under node_modules' Node 22 when this Node is older; never returns
 * then (the process exits with the child's status). Exits with status 1 and a sentence when
 * no Node 22 is installed (run `npm install`).
 */
export async function ensureNode22() {
  const major = Number(process.versions.node.split('.')[0]);
  // Node 22.18 and later strip TypeScript's types by default; an earlier 22 (or one started
  // with --no-experimental-strip-types) runs the installed one instead.
  if (major >= REQUIRED_MAJOR && process.features.typescript) return;
  const node22 = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(node22)) {
    console.error(
      `major-vault needs Node ${REQUIRED_MAJOR} or newer (this is ${process.version}); run \`npm install\` in the checkout, which installs it.`,
    );
    process.exit(1);
  }
  // Started with an IPC channel (the hosted front starts its instances so): the channel is
  // passed on, and messages relayed both ways, so the parent hears the real process.
  const ipc = typeof process.send === 'function';
  // A server's malloc settings and young generation from the start (bin/malloc-arenas.js), not by a second re-run.
  const env = ipc ? process.env : mallocArenasEnv(process.argv, process.env);
  const execArgv = env === process.env ? process.execArgv : serverExecArgv(process.execArgv, process.env);
  const child = spawn(node22, [...execArgv, ...process.argv.slice(1)], {
    stdio: ipc ? ['inherit', 'inherit', 'inherit', 'ipc'] : 'inherit',
    env,
  });
  if (ipc) {
    child.on('message', (message) => process.send(message));
    process.on('message', (message) => child.send(message));
    process.on('disconnect', () => child.connected && child.disconnect());
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  if (signal) process.kill(process.pid, signal);
  process.exit(code ?? 1);
}
