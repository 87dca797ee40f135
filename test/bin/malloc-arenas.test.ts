// bin/malloc-arenas.js: a long-lived command re-runs itself once, in the same process, under
// MALLOC_ARENA_MAX=2 with its arguments and Node options kept; other commands, a value the
// operator set, and a process with an IPC channel run as they are.
import { spawn } from 'node:child_process';
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
      'console.log(JSON.stringify({ first, pid: String(process.pid), args: process.argv.slice(2), execArgv: process.execArgv, arenas }));',
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
}

/** Runs the script with `args`, `env` added to this process's environment (MALLOC_ARENA_MAX removed), with an IPC channel if asked. */
async function run(args: string[], env: Record<string, string> = {}, ipc = false): Promise<Ran> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'MALLOC_ARENA_MAX'));
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

test.runIf(process.platform === 'linux' && typeof process.execve === 'function')(
  'a server re-runs once in the same process with two arenas, arguments and options kept',
  async () => {
    const out = await run(['serve', '--repos', 'some folder', '--port', '0']);
    expect(out.arenas).toBe('2');
    expect(out.pid).toBe(out.first);
    expect(out.args).toEqual(['serve', '--repos', 'some folder', '--port', '0']);
    expect(out.execArgv).toEqual(['--no-warnings']);
  },
);

test('a short command, a value already set, and an IPC child run as they are', async () => {
  expect((await run(['index', '--repos', '.'])).arenas).toBeNull();
  expect((await run(['serve'], { MALLOC_ARENA_MAX: '4' })).arenas).toBe('4');
  expect((await run(['instance'], {}, true)).arenas).toBeNull();
});
