// glibc's malloc gives each thread that allocates its own arena (up to 8 per processor), and
// an arena keeps the memory its peak took: a server's threads (the main one, the index
// thread, the pool's, V8's and libuv's helpers) each grew one of up to 64 MiB. Two arenas
// (MALLOC_ARENA_MAX=2) serve them as well: through bench/memory.ts's session the server's
// memory (RSS) was about 45 MiB lower at the end (450 MiB instead of 495) and 20 lower at the
// start. glibc reads the setting only when a process starts, so a long-lived command re-runs
// itself once (same process id, same arguments: process.execve) with it set.

/** The commands that keep running (servers): only they re-run for the setting. */
const LONG_LIVED = new Set(['serve', 'stdio', 'instance', 'front', 'worker', 'demo', 'serve-github']);

/**
 * For a long-lived command on Linux, replaces this process with the same command under
 * MALLOC_ARENA_MAX=2 (never returns then). Returns at once when the variable is already set
 * (to any value: the operator's choice stands), for other commands and platforms, on a Node
 * without `process.execve`, and in a process with an IPC channel (a hosted instance, whose
 * launcher sets the variable itself, src/main/instance-launcher.ts), which a new image would not keep.
 */
export function ensureMallocArenas() {
  if (mallocArenasEnv(process.argv, process.env) === process.env) return;
  if (typeof process.execve !== 'function' || typeof process.send === 'function') return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX: '2',
  });
}

/**
 * The environment to run `argv` (a `major-vault` command line, as `process.argv`) with:
 * `env` itself, unless it is a long-lived command on Linux without MALLOC_ARENA_MAX, then a
 * copy with MALLOC_ARENA_MAX=2. bin/node22.js starts Node 22 with it, so a command started
 * by an older Node is not re-run a second time for the setting.
 */
export function mallocArenasEnv(argv, env) {
  if (process.platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined || !LONG_LIVED.has(argv[2] ?? '')) return env;
  return { ...env, MALLOC_ARENA_MAX: '2' };
}
