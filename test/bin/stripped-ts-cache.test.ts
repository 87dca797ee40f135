// bin/stripped-ts-cache.js: modules loaded through the kept stripped text run exactly as Node
// runs them itself (same output, same stack traces), a changed source is stripped again, and
// a source that does not parse fails as it does without the hook.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

const hook = new URL('../../bin/stripped-ts-cache.js', import.meta.url).href;

/** A module that prints its own values and a stack trace through a second module. */
const user = [
  "import { fail, label } from './thrower.ts';",
  'interface Shown { name: string }',
  "const shown: Shown = { name: import.meta.url.split('/').pop()! };",
  'try {',
  '  fail(2);',
  '} catch (error) {',
  '  console.log(label, shown.name, (error as Error).stack);',
  '}',
  '',
].join('\n');

const thrower = (label: string) =>
  [
    `export const label: string = ${JSON.stringify(label)};`,
    'type Count = number;',
    'export function fail<T>(times: Count): T {',
    '  throw new Error(`failed ${times} times` as string);',
    '}',
    '',
  ].join('\n');

let dir: string;
let cache: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stripped-ts-'));
  cache = join(dir, 'compile-cache');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'user.ts'), user);
  writeFileSync(join(dir, 'thrower.ts'), thrower('first'));
  writeFileSync(
    join(dir, 'run.mjs'),
    [
      "import module from 'node:module';",
      `import { cacheStrippedTypeScript } from ${JSON.stringify(hook)};`,
      'module.enableCompileCache(process.argv[2]);',
      "if (process.argv[3] !== 'plain') cacheStrippedTypeScript();",
      "await import('./user.ts');",
      '',
    ].join('\n'),
  );
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `user.ts` with Node stripping its types, or through the hook; its output, errors and status. */
function run(withHook: boolean, env: NodeJS.ProcessEnv = {}): { stdout: string; stderr: string; status: number | null } {
  const { NODE_COMPILE_CACHE: _cache, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  const ran = spawnSync(process.execPath, ['run.mjs', cache, withHook ? 'hook' : 'plain'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...inherited, ...env },
  });
  return { stdout: ran.stdout, stderr: ran.stderr, status: ran.status };
}

/** The files the hook kept, in every folder of the compile cache. */
function kept(): string[] {
  try {
    return readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('major-vault-stripped/'));
  } catch {
    return [];
  }
}

describe('the stripped TypeScript kept between starts', () => {
  test('runs a module as Node does, stripped the first time and kept text the next', () => {
    const plain = run(false);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('first user.ts Error: failed 2 times');
    expect(plain.stdout).toContain('thrower.ts:4:9');

    const first = run(true);
    expect(first).toEqual(plain);
    expect(kept().filter((name) => name.endsWith('.js'))).toHaveLength(2);
    const second = run(true);
    expect(second).toEqual(plain);
  });

  test('strips a changed source again', () => {
    expect(run(true).stdout).toContain('first user.ts');
    writeFileSync(join(dir, 'thrower.ts'), `// one more line\n${thrower('second')}`);
    const changed = run(true);
    expect(changed).toEqual(run(false));
    expect(changed.stdout).toContain('second user.ts');
    expect(changed.stdout).toContain('thrower.ts:5:9');
    expect(kept().filter((name) => name.endsWith('.js'))).toHaveLength(2);
  });

  test('a source that does not parse fails as without the hook', () => {
    writeFileSync(join(dir, 'thrower.ts'), 'export const label: string = (;\n');
    const plain = run(false);
    const hooked = run(true);
    expect(plain.status).not.toBe(0);
    expect(hooked.status).toBe(plain.status);
    const firstError = (stderr: string) => stderr.split('\n').find((line) => /Error/.test(line));
    expect(firstError(hooked.stderr)).toBe(firstError(plain.stderr));
  });

  test('keeps nothing when the compile cache is off', () => {
    const off = run(true, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off).toEqual(run(false));
    expect(kept()).toEqual([]);
  });
});
