// bin/malloc-arenas.js: a long-lived command re-runs itself once, in the same process, under
// glibc's malloc settings of a server (two arenas, fixed mmap and trim thresholds) and a 4 MiB
// semi-space, with its arguments and Node options kept; other commands, values the operator
// set, and a process with an IPC channel run as they are.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';

const module = new URL('../../bin/malloc-arenas.js', import.meta.url).href;

let dir: string;
let script: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'malloc-arenas-'));
  script = join(dir, 'run.mjs');
  // Prints what the process ends up with: its id (before and after), arguments, options and the variable.
  writeFileSync(
    script,
    [
      `import { ensureMallocArenas } from ${JSON.stringify(module)};`,
      'const first = process.env.FIRST_PID ?? String(process.pid);',
      'process.env.FIRST_PID = first;',
      'ensureMallocArenas();',
      'const arenas = process.env.MALLOC_ARENA_MAX ?? null;',
      'const thresholds = [process.env.MALLOC_MMAP_THRESHOLD_ ?? null, process.env.MALLOC_TRIM_THRESHOLD_ ?? null];',
      'console.log(JSON.stringify({ first, pid: String(process.pid), args: process.argv.slice(2), execArgv: process.execArgv, arenas, thresholds }));',
      'process.disconnect?.();',
      '',
    ].join('\n'),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ran {
  first: string;
  pid: string;
  args: string[];
  execArgv: string[];
  arenas: string | null;
  thresholds: Array<string | null>;
}

/** Runs the script with `args`, `env` added to this process's environment (MALLOC_* and NODE_OPTIONS removed), with an IPC channel if asked. */
async function run(args: string[], env: Record<string, string> = {}, ipc = false): Promise<Ran> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^MALLOC_|^NODE_OPTIONS$/.test(key)));
  const child = spawn(process.execPath, ['--no-warnings', script, ...args], {
    env: { ...base, ...env },
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(status, err).toBe(0);
  return JSON.parse(out) as Ran;
}

const linuxExecve = process.platform === 'linux' && typeof process.execve === 'function';

test.runIf(linuxExecve)('a server re-runs once in the same process with its malloc settings, arguments and options kept', async () => {
  const out = await run(['serve', '--repos', 'some folder', '--port', '0']);
  expect(out.arenas).toBe('2');
  expect(out.thresholds).toEqual(['131072', '131072']);
  expect(out.pid).toBe(out.first);
  expect(out.args).toEqual(['serve', '--repos', 'some folder', '--port', '0']);
  expect(out.execArgv).toEqual(['--max-semi-space-size=4', '--no-warnings']);
});

test.runIf(linuxExecve)("a server keeps the operator's values and adds the missing ones", async () => {
  const arenas = await run(['serve'], { MALLOC_ARENA_MAX: '4' });
  expect([arenas.arenas, ...arenas.thresholds]).toEqual(['4', '131072', '131072']);
  expect(arenas.pid).toBe(arenas.first);
  const semiSpace = await run(['stdio'], { NODE_OPTIONS: '--max-semi-space-size=1' });
  expect(semiSpace.execArgv).toEqual(['--no-warnings']);
  expect(semiSpace.arenas).toBe('2');
});

test('a short command, every value already set, and an IPC child run as they are', async () => {
  const index = await run(['index', '--repos', '.']);
  expect([index.arenas, ...index.thresholds, index.execArgv]).toEqual([null, null, null, ['--no-warnings']]);
  const set = { MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '65536' };
  const chosen = await run(['serve'], set);
  expect([chosen.arenas, ...chosen.thresholds, chosen.execArgv]).toEqual(['4', '65536', '65536', ['--no-warnings']]);
  const instance = await run(['instance'], {}, true);
  expect([instance.arenas, ...instance.thresholds]).toEqual([null, null, null]);
});

/** A Node older than 22 on this machine (a system Node), if any: bin/node22.js starts Node 22 from it. */
const olderNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
  try {
    return Number(execFileSync(path, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim()) < 22;
  } catch {
    return false;
  }
});

test.runIf(process.platform === 'linux' && olderNode !== undefined)(
  'a server started by an older Node starts Node 22 with its settings, and does not re-run again',
  async () => {
    const node22 = new URL('../../bin/node22.js', import.meta.url).href;
    const started = join(dir, 'started.mjs');
    // Counts the Node starts through the environment (an exec passes it on).
    writeFileSync(
      started,
      [
        `import { ensureNode22 } from ${JSON.stringify(node22)};`,
        `import { ensureMallocArenas } from ${JSON.stringify(module)};`,
        'process.env.STARTS = String(Number(process.env.STARTS ?? 0) + 1);',
        'await ensureNode22();',
        'ensureMallocArenas();',
        'const malloc = [process.env.MALLOC_ARENA_MAX, process.env.MALLOC_MMAP_THRESHOLD_, process.env.MALLOC_TRIM_THRESHOLD_];',
        'console.log(JSON.stringify({ major: process.versions.node.split(".")[0], starts: process.env.STARTS, execArgv: process.execArgv, malloc }));',
        '',
      ].join('\n'),
    );
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^MALLOC_|^NODE_OPTIONS$/.test(key)));
    const out = JSON.parse(execFileSync(olderNode!, [started, 'serve'], { env, encoding: 'utf8' })) as Record<string, unknown>;
    expect(Number(out['major'])).toBeGreaterThanOrEqual(22);
    expect(out).toMatchObject({ starts: '2', execArgv: ['--max-semi-space-size=4'], malloc: ['2', '131072', '131072'] });
  },
);
