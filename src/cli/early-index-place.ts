// The index's place read from a `stdio` command line before the command's modules
// load (bin/major-vault.js), so that PGlite starts opening on its own thread at once
// (main/early-index.ts) instead of once commander, the logger and the rest have loaded.

/** The options of `stdio` and `serve` (all take a value; `serve`'s are refused below). */
const withValue = new Set(['--repos', '--name', '--data', '--users', '--as', '--port', '--host', '--log-level']);

/**
 * The folders of a `major-vault stdio …` command line (`argv` as
 * `process.argv`): `reposDir` from `--repos`, `dataDir` from `--data` when given (`--opt DIR`
 * or `--opt=DIR`; the last one wins, as with commander). Null for any other command, without
 * `--repos`, with a Postgres server (`--database-url`), and for anything it does not know
 * (another option, help or version asked, a value starting with `-`): the command itself
 * then opens the index as it always does (src/cli/main.ts), so a guess never opens a folder
 * the command would not.
 */
export function earlyIndexPlace(argv: readonly string[]): { reposDir: string; dataDir?: string } | null {
  const command = argv[2];
  // Not `serve`: its first tools/list needs no index, and PGlite's thread started this early
  // took a processor from the main thread's loading (first tools/list 1,078 -> 1,224 ms).
  if (command !== 'stdio') return null;
  const values = new Map<string, string>();
  for (let i = 3; i < argv.length; i++) {
    const arg = argv[i]!;
    const equals = arg.indexOf('=');
    const name = arg.startsWith('--') && equals > 0 ? arg.slice(0, equals) : arg;
    if (!withValue.has(name)) return null;
    const value = name === arg ? argv[++i] : arg.slice(equals + 1);
    if (value === undefined || value === '' || value.startsWith('-')) return null;
    values.set(name, value);
  }
  const reposDir = values.get('--repos');
  if (reposDir === undefined) return null;
  const dataDir = values.get('--data');
  return dataDir === undefined ? { reposDir } : { reposDir, dataDir };
}
