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
});
