// glibc's malloc gives each thread that allocates its own arena (up to 8 per processor), and
// an arena keeps the memory its peak took: a server's threads (the main one, the index
// thread, the pool's, V8's and libuv's helpers) each grew one of up to 64 MiB. Two arenas
// (MALLOC_ARENA_MAX=2) serve them as well: through bench/memory.ts's session the server's
// memory (RSS) was about 45 MiB lower at the end (450 MiB instead of 495) and 20 lower at the
// start. glibc also raises its mmap threshold (up to 32 MiB) each time a large block is freed,
// after which blocks of up to that size come from the arenas and are seldom given back; fixed
// mmap and trim thresholds of 128 KiB (glibc's defaults, kept from moving) give large blocks
// back at once. The main thread's young generation is held to 4 MiB a semi-space
// (--max-semi-space-size=4; V8's default grows to 16): the server's objects are short-lived
// answers, and a larger young generation only keeps more of them resident between collections.
// glibc reads its settings only when a process starts, so a long-lived command re-runs
// itself once (same process id, same arguments: process.execve) with them set.

/** The commands that keep running (servers): only they re-run for the settings. */
const LONG_LIVED = new Set(['serve', 'stdio', 'instance', 'front', 'worker', 'demo', 'serve-github']);

/** glibc's malloc settings of a server, by environment variable (README "Memory"). */
export const SERVER_MALLOC_ENV = Object.freeze({
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
});

/** The V8 option a server's main thread starts with (its young generation's semi-space, in MiB). */
export const SERVER_SEMI_SPACE_OPTION = '--max-semi-space-size=4';

/**
 * For a long-lived command on Linux, replaces this process with the same command under
 * {@link SERVER_MALLOC_ENV} and {@link SERVER_SEMI_SPACE_OPTION} (never returns then).
 * Returns at once when every variable is already set (to any value: the operator's choice
 * stands, as does a semi-space size given in the Node options), for other commands and
 * platforms, on a Node without `process.execve`, and in a process with an IPC channel (a
 * hosted instance, whose launcher sets the variables itself, src/main/instance-launcher.cjs),
 * which a new image would not keep.
 */
export function ensureMallocArenas() {
  const env = mallocArenasEnv(process.argv, process.env);
  if (env === process.env) return;
  if (typeof process.execve !== 'function' || typeof process.send === 'function') return;
  process.execve(process.execPath, [process.execPath, ...serverExecArgv(process.execArgv, process.env), ...process.argv.slice(1)], env);
}

/**
 * The environment to run `argv` (a `major-vault` command line, as `process.argv`) with:
 * `env` itself, unless it is a long-lived command on Linux missing one of
 * {@link SERVER_MALLOC_ENV}'s variables, then a copy with the missing ones added (those set
 * keep their values). bin/node22.js starts Node 22 with it, so a command started by an older
 * Node is not re-run a second time for the settings.
 */
export function mallocArenasEnv(argv, env) {
  if (process.platform !== 'linux' || !LONG_LIVED.has(argv[2] ?? '')) return env;
  const missing = Object.entries(SERVER_MALLOC_ENV).filter(([name]) => env[name] === undefined);
  if (missing.length === 0) return env;
  return { ...env, ...Object.fromEntries(missing) };
}

/**
 * The Node options (`execArgv`) to start a server's Node with: {@link SERVER_SEMI_SPACE_OPTION}
 * first, then `execArgv`, unless `execArgv` or `env.NODE_OPTIONS` already sets a semi-space
 * size (then `execArgv` as it is).
 */
export function serverExecArgv(execArgv, env) {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].some((option) => /^--max[-_]semi[-_]space[-_]size\b/.test(option));
  return given ? [...execArgv] : [SERVER_SEMI_SPACE_OPTION, ...execArgv];
}
