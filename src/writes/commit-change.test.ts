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

/** `host` with the members of `replaced` replaced. */
function withMembers(host: RepoHost, replaced: Partial<RepoHost>): RepoHost {
  return new Proxy(host, {
    get(target, key, receiver) {
      if (key in replaced) return replaced[key as keyof RepoHost];
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

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
    const crashing = {
      ...ctx,
      host: withCommit(ctx.host, async () => {
        throw new Error('killed');
      }),
    };
    await expect(
      commitChange(crashing, 'notes', { tool: 'edit_note', summary: 'S' }, async () => ({
        files: [{ path: 'n.md', content: Buffer.from('b\n') }],
        result: null,
      })),
    ).rejects.toThrow('killed');
    expect(fixture.commitCount()).toBe(1);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect(fixture.git(['fsck', '--no-progress', '--connectivity-only'])).toBe('');
    expect((await ctx.index.getNote('notes', 'n.md'))?.content).toBe('a\n');
  });

  it('lets the index catch up on restart when the process dies after the commit', async () => {
    fixture = await openWriteFixture({ 'n.md': 'a\n' });
    const ctx = await fixture.context();
    const dying = {
      ...ctx,
      refresh: async () => {
        throw new Error('killed before the index was updated');
      },
    };
    const done = await commitChange(dying, 'notes', { tool: 'edit_note', summary: 'S' }, async () => ({
      files: [{ path: 'n.md', content: Buffer.from('b\n') }],
      result: null,
    }));
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

  for (const bare of [false, true]) {
    describe(bare ? 'in a bare repository' : 'in a work tree', () => {
      it('asks the host again for its head after a failed compare-and-swap, not the commit it made last', async () => {
        fixture = await openWriteFixture({ 'n.md': 'a\n' }, { bare });
        const ctx = await fixture.context();
        const events: string[] = [];
        const host = ctx.host;
        const watched = withMembers(host, {
          head: async (repo) => {
            const head = await host.head(repo);
            events.push(`head ${head}`);
            return head;
          },
          commit: async (repo, change, preparedFrom) => {
            const result = await host.commit(repo, change, preparedFrom);
            events.push(result.ok ? `commit on ${change.parent}` : `refused on ${change.parent}`);
            return result;
          },
        });
        const own = await commitChange({ ...ctx, host: watched }, 'notes', { tool: 'edit_note', summary: 'Own' }, async (read) => {
          await read.files(['n.md']);
          return { files: [{ path: 'n.md', content: Buffer.from('b\n') }], result: null };
        });
        // Another writer (through the host itself, so bare repositories take part too).
        const landed = await host.commit('notes', {
          parent: own.commit,
          files: [{ path: 'o.md', content: Buffer.from('outside\n') }],
          author: ctx.access.person,
          message: 'Outside',
        });
        if (!landed.ok) throw new Error('the outside commit was refused');
        const outside = landed.commit;
        events.length = 0;
        const heads: Array<string | null> = [];
        const done = await commitChange({ ...ctx, host: watched }, 'notes', { tool: 'edit_note', summary: 'Again' }, async (read) => {
          heads.push(read.head);
          await read.files(['n.md']);
          return { files: [{ path: 'n.md', content: Buffer.from('c\n') }], result: null };
        });
        // First attempt: on this process's own last commit, without asking; the refusal makes it ask.
        expect(heads).toEqual([own.commit, outside]);
        expect(events).toEqual([`refused on ${own.commit}`, `head ${outside}`, `commit on ${outside}`]);
        expect(done.parent).toBe(outside);
        expect(fixture.show('n.md').toString()).toBe('c\n');
        expect(fixture.show('o.md').toString()).toBe('outside\n');
      });

      it('retries on the head the host answers, not on the head a refusal named', async () => {
        fixture = await openWriteFixture({ 'n.md': 'a\n' }, { bare });
        const ctx = await fixture.context();
        const real = fixture.git(['rev-parse', 'HEAD']);
        const host = ctx.host;
        let refusals = 0;
        const parents: Array<string | null> = [];
        const stale = withMembers(host, {
          commit: async (repo, change, preparedFrom) => {
            parents.push(change.parent);
            // A refusal naming a head the host has not seen (a mirror one fetch behind would).
            if (refusals++ === 0) return { ok: false, conflict: 'head_moved', head: 'f'.repeat(40) };
            return host.commit(repo, change, preparedFrom);
          },
        });
        const done = await commitChange({ ...ctx, host: stale }, 'notes', { tool: 'edit_note', summary: 'S' }, async (read) => {
          await read.files(['n.md']);
          return { files: [{ path: 'n.md', content: Buffer.from('b\n') }], result: null };
        });
        expect(parents).toEqual([real, real]);
        expect(done.parent).toBe(real);
        expect(fixture.commitCount()).toBe(2);
      });
    });
  }
});
