// `major-vault serve` stopped by SIGTERM lets the calls in progress answer before it ends (it
// once closed their connections at once: a write could land while its caller got a
// connection error), then exits with nothing left running.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../support/git-fixture.ts';
import { connectHttp } from './demo-fixture.ts';
import { heavyBase } from '../support/heavy-base.ts';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'major-vault.js');

describe('serve stopped by SIGTERM', () => {
  const dir = tempDir('mv-serve-signal-');
  let child: ChildProcess;
  let url: URL;

  beforeAll(async () => {
    // A base whose formula takes milliseconds a row over 2,000 notes: its view runs for seconds (up to its 3 s budget).
    makeRepo(join(dir.path, 'repos', 'notes'), [
      {
        message: 'Many notes and a heavy base',
        files: {
          'small.md': '# Small\n',
          'Heavy.base': heavyBase,
          ...Object.fromEntries(Array.from({ length: 2000 }, (_, n) => [`items/item-${n}.md`, `# Item ${n}\n`])),
        },
      },
    ]);
    child = spawn(process.execPath, [bin, 'serve', '--repos', join(dir.path, 'repos'), '--port', '0', '--data', join(dir.path, 'data')], {
      env: { ...process.env, DATABASE_URL: '', MAJOR_VAULT_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<URL>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const address = /Major Vault serving \S+ at (\S+)/.exec(out)?.[1];
        if (address) resolve(new URL(address));
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    dir.cleanup();
  });

  it('answers the call in progress, then exits', async () => {
    const client = await connectHttp(url, '2026-07-28');
    // The index is built before the call starts its search.
    expect((await client.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'small.md' } })).isError).toBeFalsy();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const started = Date.now();
    const call = client.callTool({ name: 'base_view', arguments: { repo: 'notes', path: 'Heavy.base' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.kill('SIGTERM');
    const answer = await call;
    expect(answer.isError).toBeFalsy();
    expect(Date.now() - started).toBeGreaterThan(500);
    expect(await exited).toBe(0);
  }, 60_000);
});
