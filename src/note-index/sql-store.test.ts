// The Store's SQL adapter on PGlite, and on the Postgres server when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/support/test-database.ts';
import type { SqlClient } from './sql-client.ts';
import { sqlStore } from './sql-store.ts';
import type { Store } from '../store/store.ts';

describe('the Store over SQL', () => {
  let sql: SqlClient;
  let store: Store;
  beforeAll(async () => {
    sql = await openTestDatabase();
    store = sqlStore(sql);
  });
  afterAll(() => sql.close());

  it('keeps a short record until it expires, and only the first of two racing claims wins', async () => {
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => store.records.putIfAbsent('code:1', `claim ${i}`, 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims.indexOf(true);
    expect(await store.records.get('code:1')).toBe(`claim ${winner}`);
    await store.records.put('code:1', 'replaced', 60_000);
    expect(await store.records.get('code:1')).toBe('replaced');
    await store.records.delete('code:1');
    expect(await store.records.get('code:1')).toBeNull();
  });

  it('reads an expired record as absent, and lets a new claim take its key', async () => {
    await store.records.put('grace:1', 'old', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.records.get('grace:1')).toBeNull();
    expect(await store.records.putIfAbsent('grace:1', 'new', 60_000)).toBe(true);
    expect(await store.records.get('grace:1')).toBe('new');
  });

  it('records installations as pending, switches them on by name, and keeps names unique', async () => {
    const seen = await store.installations.seen(41, 'acme');
    expect(seen).toMatchObject({ id: 41, account: 'acme', name: null, status: 'pending' });
    expect(await store.installations.seen(41, null)).toMatchObject({ account: 'acme', status: 'pending' });
    expect(await store.installations.switchOn(41, 'acme')).toMatchObject({ id: 41, name: 'acme', status: 'on' });
    expect(await store.installations.seen(41, 'acme-corp')).toMatchObject({ account: 'acme-corp', name: 'acme', status: 'on' });
    expect(await store.installations.byName('ACME')).toMatchObject({ id: 41 });
    await expect(store.installations.switchOn(42, 'Acme')).rejects.toThrow(/belongs to installation 41/);
    expect(await store.installations.get(42)).toBeNull();
    expect(await store.installations.switchOff(41)).toMatchObject({ status: 'off', name: 'acme' });
    expect(await store.installations.switchOff(99)).toBeNull();
    expect((await store.installations.list()).map((record) => record.id)).toEqual([41]);
  });

  it('keeps the catalogue source per installation and answers per version and set, in any order of names', async () => {
    expect(await store.catalogues.source(7)).toBeNull();
    const repos = [
      { name: 'projects', summary: 'Projects', instructions: null },
      { name: 'handbook', summary: null, instructions: 'Write in English.' },
    ];
    expect(await store.catalogues.putSource(7, 'v1', repos)).toBe(true);
    expect(await store.catalogues.putSource(7, 'v1', repos)).toBe(false);
    const source = await store.catalogues.source(7);
    expect(source).toMatchObject({ version: 'v1', repos: [repos[1], repos[0]] });
    expect(await store.catalogues.source(8)).toBeNull();
    // Every source's version, or those written since a moment (the database's clock).
    expect(await store.catalogues.sourceVersions(null)).toContainEqual({ installationId: 7, version: 'v1', updatedAt: source!.updatedAt });
    expect(await store.catalogues.sourceVersions(source!.updatedAt)).toContainEqual(expect.objectContaining({ installationId: 7 }));
    expect(await store.catalogues.sourceVersions(new Date(source!.updatedAt.getTime() + 1))).not.toContainEqual(
      expect.objectContaining({ installationId: 7 }),
    );

    const answer = { instructions: 'Both.', tools: [{ name: 'read_note' }] };
    await store.catalogues.putAnswer(7, 'v1', ['projects', 'handbook'], answer);
    await store.catalogues.putAnswer(7, 'v1', [], { instructions: 'None.', tools: [] });
    expect(await store.catalogues.answer(7, 'v1', ['handbook', 'projects'])).toEqual(answer);
    expect(await store.catalogues.answer(7, 'v2', ['handbook', 'projects'])).toBeNull();
    expect(await store.catalogues.answer(8, 'v1', ['handbook', 'projects'])).toBeNull();
    expect(await store.catalogues.setsUsedSince(7, new Date(Date.now() - 60_000))).toEqual([[], ['handbook', 'projects']]);

    // A new version: the builder answers the sets in use again, then prunes the old version's.
    expect(await store.catalogues.putSource(7, 'v2', repos)).toBe(true);
    await store.catalogues.putAnswer(7, 'v2', ['handbook', 'projects'], answer);
    expect(await store.catalogues.prune(7, 'v2', new Date(Date.now() - 60_000))).toBe(2);
    expect(await store.catalogues.answer(7, 'v2', ['projects', 'handbook'])).toEqual(answer);
    expect(await store.catalogues.prune(7, 'v2', new Date(Date.now() + 60_000))).toBe(1);

    await store.catalogues.drop(7);
    expect(await store.catalogues.source(7)).toBeNull();
  });

  it('keeps when a person last asked a tool, per installation and tool, never moving it back', async () => {
    const first = new Date('2026-03-01T10:00:00.000Z');
    expect(await store.lastLooks.get('acme', 'maya', 'projects__changes')).toBeNull();
    await store.lastLooks.put('acme', 'maya', 'projects__changes', first);
    expect(await store.lastLooks.get('acme', 'maya', 'projects__changes')).toEqual(first);
    expect(await store.lastLooks.get('other', 'maya', 'projects__changes')).toBeNull();
    expect(await store.lastLooks.get('acme', 'priya', 'projects__changes')).toBeNull();
    expect(await store.lastLooks.get('acme', 'maya', 'handbook__changes')).toBeNull();
    await store.lastLooks.put('acme', 'maya', 'projects__changes', new Date('2026-02-01T00:00:00.000Z'));
    expect(await store.lastLooks.get('acme', 'maya', 'projects__changes')).toEqual(first);
    const later = new Date('2026-03-02T08:30:00.000Z');
    await store.lastLooks.put('acme', 'maya', 'projects__changes', later);
    expect(await store.lastLooks.get('acme', 'maya', 'projects__changes')).toEqual(later);
  });
});
