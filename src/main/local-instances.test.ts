// The local InstanceLocator: one child per installation, concurrent wakes sharing its start,
// an exited child forgotten and started again, and every child stopped with the front. The
// children here are a small script standing in for `major-vault instance`: it says where it
// listens over IPC, as the instance does, and exits when told to.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { LocalInstances } from './local-instances.ts';

/** Says it listens on a port of its own pid, then waits; exits when its argument asks, or on SIGTERM. */
const childScript = `
const args = process.argv.slice(2);
const name = args[args.indexOf('--installation') + 1];
setTimeout(() => process.send({ listening: 'http://127.0.0.1:' + (10000 + (process.pid % 50000)) + '/' + name }), 100);
if (name === 'crashes') setTimeout(() => process.exit(3), 50);
if (name === 'idles') setTimeout(() => process.exit(0), 400);
setInterval(() => {}, 1000);
process.on('SIGTERM', () => process.exit(0));
`;

describe('LocalInstances', () => {
  const dirs: Array<{ path: string; cleanup(): void }> = [];
  const locators: LocalInstances[] = [];
  afterEach(async () => {
    for (const locator of locators.splice(0)) await locator.close();
    dirs.splice(0).forEach((dir) => dir.cleanup());
  });

  function locator(): LocalInstances {
    const dir = tempDir('mv-local-instances-');
    dirs.push(dir);
    const script = join(dir.path, 'child.cjs');
    writeFileSync(script, childScript);
    const made = new LocalInstances({
      dataDir: dir.path,
      publicUrls: ['http://127.0.0.1:8787/'],
      databaseUrl: 'postgres://unused',
      command: { node: process.execPath, script },
      log: pino({ level: 'silent' }),
    });
    locators.push(made);
    return made;
  }

  test('starts one child per installation; calls at the same time share its start', async () => {
    const instances = locator();
    const [first, second] = await Promise.all([instances.locate({ id: 1, name: 'acme' }), instances.locate({ id: 1, name: 'acme' })]);
    expect(first.href).toBe(second.href);
    expect(first.pathname).toBe('/');
    const other = await instances.locate({ id: 2, name: 'globex' });
    expect(other.href).not.toBe(first.href);
    expect(instances.running().sort()).toEqual(['acme', 'globex']);
    expect((await instances.locate({ id: 1, name: 'acme' })).href).toBe(first.href);
  });

  test('forgets a child that exited, and starts another on the next call', async () => {
    const instances = locator();
    const first = await instances.locate({ id: 3, name: 'idles' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(instances.running()).toEqual([]);
    const again = await instances.locate({ id: 3, name: 'idles' });
    expect(again.href).not.toBe(first.href);
  });

  test('a child that stops before it listens is a refusal saying so; an unreachable one is replaced', async () => {
    const instances = locator();
    await expect(instances.locate({ id: 4, name: 'crashes' })).rejects.toThrow(/stopped before it listened \(exit code 3\)/);
    const first = await instances.locate({ id: 1, name: 'acme' });
    // Told at once: the very next call starts another.
    instances.unreachable({ id: 1, name: 'acme' }, first);
    const again = await instances.locate({ id: 1, name: 'acme' });
    expect(again.href).not.toBe(first.href);
  });

  test('close stops every child and starts no more', async () => {
    const instances = locator();
    await instances.locate({ id: 1, name: 'acme' });
    await instances.close();
    expect(instances.running()).toEqual([]);
    await expect(instances.locate({ id: 1, name: 'acme' })).rejects.toThrow(/stopping/);
  });
});
