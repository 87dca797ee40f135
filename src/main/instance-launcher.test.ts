// The launcher starts children for the front (so no fork holds the front's event loop), relays
// their messages and exits, kills them when asked, and tells the front when it went itself.
import { writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { instanceLauncher, type InstanceLauncher, type LaunchedProcess } from './instance-launcher.ts';

const childScript = `
process.send({
  hello: process.argv[2],
  nice: require('node:os').getPriority(),
  execArgv: process.execArgv,
  malloc: [process.env.MALLOC_ARENA_MAX, process.env.MALLOC_MMAP_THRESHOLD_, process.env.MALLOC_TRIM_THRESHOLD_],
});
setInterval(() => {}, 1000);
process.on('disconnect', () => process.exit(0));
`;

const next = <T>(child: LaunchedProcess, event: string) =>
  new Promise<T[]>((resolve) => child.once(event, (...args: T[]) => resolve(args)));

describe('instanceLauncher', () => {
  const dir = tempDir('mv-launcher-');
  const script = join(dir.path, 'child.cjs');
  writeFileSync(script, childScript);
  let launcher: InstanceLauncher | null = null;
  afterEach(async () => {
    await launcher?.close();
  });

  test('starts a child at the priority asked, relays its messages, and kills it', async () => {
    launcher = instanceLauncher();
    const lower = Math.min(19, getPriority() + 3);
    const child = launcher.start(process.execPath, [script, 'acme'], process.env, lower);
    const [message] = await next<{ hello: string; nice: number }>(child, 'message');
    expect(message).toMatchObject({ hello: 'acme', nice: lower });
    expect(child.pid).toBeGreaterThan(0);
    const exited = next<unknown>(child, 'exit');
    expect(child.kill('SIGTERM')).toBe(true);
    expect((await exited)[1]).toBe('SIGTERM');
    expect(child.kill('SIGTERM')).toBe(false);
  });

  test('a launcher that went reports its children gone, and the next start forks another', async () => {
    launcher = instanceLauncher();
    const child = launcher.start(process.execPath, [script, 'one'], process.env);
    await next(child, 'message');
    const first = launcher.pid()!;
    const exited = next<unknown>(child, 'exit');
    process.kill(first, 'SIGKILL');
    expect((await exited)[1]).toBe('SIGKILL');
    const again = launcher.start(process.execPath, [script, 'two'], process.env);
    const [message] = await next<{ hello: string }>(again, 'message');
    expect(message!.hello).toBe('two');
    expect(launcher.pid()).not.toBe(first);
    again.kill('SIGTERM');
  });

  test("a child runs with a server's malloc settings and young generation; the front's own choices stand", async () => {
    launcher = instanceLauncher();
    const plain = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^MALLOC_|^NODE_OPTIONS$/.test(name)));
    type Settings = { execArgv: string[]; malloc: string[] };
    const child = launcher.start(process.execPath, [script, 'plain'], plain);
    const [message] = await next<Settings>(child, 'message');
    expect(message).toMatchObject({ execArgv: ['--max-semi-space-size=4'], malloc: ['2', '131072', '131072'] });
    child.kill('SIGTERM');
    const chosen = { ...plain, MALLOC_ARENA_MAX: '8', NODE_OPTIONS: '--max-semi-space-size=2' };
    const other = launcher.start(process.execPath, [script, 'chosen'], chosen);
    const [settings] = await next<Settings>(other, 'message');
    expect(settings).toMatchObject({ execArgv: [], malloc: ['8', '131072', '131072'] });
    other.kill('SIGTERM');
  });
});
