// The instance launcher's process (instance-launcher.ts): a small Node process, forked by the
// front once, that starts the `major-vault instance` children when the front asks. Forking a
// process copies its parent's page tables: from a front of a few hundred MiB that holds the
// front's event loop for 2-4 ms (a cold tools/list arriving then waits); from this process, of
// a few MiB, it holds nothing of the front's. Plain CommonJS with no dependencies, so it starts
// in a few milliseconds. Messages (IPC, both ways) are documented in instance-launcher.ts.
/* global require */
/* eslint-disable @typescript-eslint/no-require-imports */
const { spawn } = require('node:child_process');
const { setPriority } = require('node:os');

/** glibc's malloc settings and the V8 option of a server: SERVER_MALLOC_ENV and SERVER_SEMI_SPACE_OPTION of bin/malloc-arenas.js. */
const SERVER_MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const SERVER_SEMI_SPACE_OPTION = '--max-semi-space-size=4';

/** The children started, by the front's id for them. */
const children = new Map();

function tell(message) {
  if (process.connected) process.send(message);
}

process.on('message', (request) => {
  if (request.op === 'start') {
    let child;
    try {
      // The malloc settings and young generation bin/malloc-arenas.js sets for a server started
      // by hand (an instance, with its IPC channel, cannot re-run itself for them); the front's own choices stand.
      const env = { ...SERVER_MALLOC_ENV, ...request.env };
      const semiSpaceGiven = /--max[-_]semi[-_]space[-_]size\b/.test(request.env.NODE_OPTIONS ?? '');
      const args = semiSpaceGiven ? request.args : [SERVER_SEMI_SPACE_OPTION, ...request.args];
      child = spawn(request.node, args, { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    } catch (error) {
      tell({ op: 'error', id: request.id, message: error.message });
      return;
    }
    children.set(request.id, child);
    if (child.pid !== undefined && typeof request.priority === 'number') {
      try {
        setPriority(child.pid, request.priority);
      } catch {
        // Not allowed here (a restricted container): the child runs at this process's priority.
      }
    }
    tell({ op: 'spawned', id: request.id, pid: child.pid });
    child.on('message', (message) => tell({ op: 'message', id: request.id, message }));
    child.once('error', (error) => tell({ op: 'error', id: request.id, message: error.message }));
    child.once('exit', (code, signal) => {
      children.delete(request.id);
      tell({ op: 'exit', id: request.id, code, signal });
    });
  } else if (request.op === 'kill') {
    children.get(request.id)?.kill(request.signal);
  }
});

// The front went: its children go too (each also stops when this process's IPC channel closes).
process.on('disconnect', () => {
  for (const child of children.values()) child.kill('SIGTERM');
  const check = setInterval(() => {
    if (children.size === 0) process.exit(0);
  }, 100);
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    clearInterval(check);
    process.exit(0);
  }, 10_000).unref();
});
