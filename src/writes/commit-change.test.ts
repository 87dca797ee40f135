import { afterEach, describe, expect, it } from 'vitest';
import { Installation } from '../instance/installation.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import { isVaultError } from '../vault-error.ts';
import { commitOutside, openWriteFixture, type WriteFixture } from '../../test/writes/write-fixture.ts';
import { commitChange, MAX_ATTEMPTS } from './commit-change.ts';
import { silentLogger } from '../instance/log.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** `host` with `commit` replaced. */
function withCommit(host: RepoHost, commit: RepoHost['commit']): RepoHost {
  return new Proxy(host, {
    get(target, key, receiver) {
      if (key === 'commit') return commit;
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('commitChange', () => {
  it('leaves the repository as it was when the process dies between preparing and committing', async () => {
    fixture = await openWriteFixture({ 'n.md': 'a\n' });
    const ctx = await fixture.context();
    const crashing = { ...ctx, host: withCommit(ctx.host, async () => {
      throw new Error('killed');
    }) };
    await expect(
      commitChange(crashing, 'notes', { tool: 'edit_note', summary: 'S' }, async () => ({ files: [{ path: 'n.md', content: Buffer.from('b\n') }], result: null })),
    ).rejects.toThrow('killed');
    expect(fixture.commitCount()).toBe(1);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect(fixture.git(['fsck', '--no-progress', '--connectivity-only'])).toBe('');
    expect((await ctx.index.getNote('notes', 'n.md'))?.content).toBe('a\n');
  });

  it('lets the index catch up on restart when the process dies after the commit', async () => {
    fixture = await openWriteFixture({ 'n.md': 'a\n' });
    const ctx = await fixture.context();
    const dying = { ...ctx, refresh: async () => {
      throw new Error('killed before the index was updated');
    } };
    const done = await commitChange(dying, 'notes', { tool: 'edit_note', summary: 'S' }, async () => ({ files: [{ path: 'n.md', content: Buffer.from('b\n') }], result: null }));
    expect(done.notes[0]).toContain('catches up');
    expect(fixture.commitCount()).toBe(2);
    await fixture.installation.close();
    // A new installation over the same database and repositories: startup brings the index up to date.
    const restarted = Installation.open({ name: 'test', host: fixture.host, sql: fixture.sql, log: silentLogger() });
    await restarted.start({ poll: false });
    expect((await restarted.index.getNote('notes', 'n.md'))?.content).toBe('b\n');
    await restarted.close();
  });

  it('refuses with a conflict naming what landed when the head keeps moving', async () => {
    fixture = await openWriteFixture({ 'n.md': 'a\n' });
    const ctx = await fixture.context();
    let prepared = 0;
    const error = await commitChange(ctx, 'notes', { tool: 'edit_note', summary: 'S' }, async (read) => {
      prepared++;
      commitOutside(fixture!, { 'n.md': `outside ${prepared}\n` }, `Outside edit ${prepared}`);
      return { files: [{ path: 'n.md', content: Buffer.from(`${read.head}\n`) }], result: null };
    }).catch((e: unknown) => e);
    expect(isVaultError(error, 'conflict')).toBe(true);
    expect(prepared).toBe(MAX_ATTEMPTS);
    expect((error as Error).message).toContain(`Outside edit ${MAX_ATTEMPTS}`);
    expect((error as Error).message).toContain('"n.md"');
    expect(fixture.commitCount()).toBe(1 + MAX_ATTEMPTS);
    expect(fixture.show('n.md').toString()).toBe(`outside ${MAX_ATTEMPTS}\n`);
  });

  it('makes no commit for a change that changes nothing', async () => {
    fixture = await openWriteFixture({ 'n.md': 'a\n' });
    const ctx = await fixture.context();
    const done = await commitChange(ctx, 'notes', { tool: 'edit_note', summary: 'S' }, async () => ({ files: [], result: 1 }));
    expect(done).toEqual({ commit: null, parent: fixture.git(['rev-parse', 'HEAD']), result: 1, notes: [] });
    expect(fixture.commitCount()).toBe(1);
  });
});
