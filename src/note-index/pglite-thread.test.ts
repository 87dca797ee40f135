// PGlite on its own thread answers as PGlite in process: rows and their types, transactions,
// errors with their Postgres code; a thread that dies refuses what waited on it and is
// started again by the next statement, on the same data folder.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { isVaultError } from '../vault-error.ts';
import { openPglite } from './pglite-client.ts';
import { openPgliteThread, type ThreadedSqlClient } from './pglite-thread.ts';
import type { SqlClient } from './sql-client.ts';

describe('PGlite on a thread', () => {
  const dir = tempDir('mv-pglite-thread-');
  let threaded: ThreadedSqlClient;
  let inProcess: SqlClient;
  const exits: string[] = [];

  beforeAll(async () => {
    threaded = await openPgliteThread(join(dir.path, 'index'), { onExit: (reason) => exits.push(reason) });
    inProcess = await openPglite(null);
    for (const sql of [threaded, inProcess]) await sql.exec('CREATE TABLE kept (id int PRIMARY KEY, note text)');
  }, 60_000);

  afterAll(async () => {
    await threaded?.close();
    await inProcess?.close();
    dir.cleanup();
  });

  it('answers rows of every type the index uses as in process', async () => {
    const statement =
      "SELECT $1::int AS n, $2::text AS t, $3::jsonb AS j, $4::bytea AS b, $5::text[] AS a, '2026-01-02T03:04:05Z'::timestamptz AS at, NULL::text AS nothing, 12345678901::bigint AS big";
    const params = [7, 'crème ✓', JSON.stringify({ a: [1, 'x'] }), new Uint8Array([0, 1, 255]), ['x', 'y']];
    const expected = await inProcess.query(statement, params);
    const got = await threaded.query(statement, params);
    expect(got).toEqual(expected);
    expect(got.rows[0]!['at']).toBeInstanceOf(Date);
    expect(got.rows[0]!['b']).toBeInstanceOf(Uint8Array);
  });

  it('commits a transaction, rolls one back when its body throws, and joins a nested one', async () => {
    await threaded.transaction(async (tx) => {
      await tx.query('INSERT INTO kept VALUES (1, $1)', ['committed']);
      await tx.transaction((inner) => inner.query('INSERT INTO kept VALUES (2, $1)', ['nested']));
    });
    await expect(
      threaded.transaction(async (tx) => {
        await tx.query('INSERT INTO kept VALUES (3, $1)', ['rolled back']);
        throw new Error('the body failed');
      }),
    ).rejects.toThrow('the body failed');
    expect((await threaded.query('SELECT id, note FROM kept ORDER BY id')).rows).toEqual([
      { id: 1, note: 'committed' },
      { id: 2, note: 'nested' },
    ]);
    expect((await threaded.query("UPDATE kept SET note = 'x' WHERE id > 0")).affectedRows).toBe(2);
  });

  it('refuses a failing statement with its Postgres code, and the thread goes on', async () => {
    await inProcess.query('INSERT INTO kept VALUES (1, $1)', ['x']);
    const failure = async (sql: SqlClient): Promise<Error & { code?: string }> =>
      sql.query('INSERT INTO kept VALUES (1, $1)', ['again']).then(
        () => new Error('expected a refusal'),
        (error: unknown) => error as Error & { code?: string },
      );
    const [expected, got] = [await failure(inProcess), await failure(threaded)];
    expect(got.message).toBe(expected.message);
    expect(got.code).toBe('23505');
    expect(got.code).toBe(expected.code);
    expect((await threaded.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 2 }]);
  });

  it('refuses what waited on a thread that died, then opens the same index on a new thread', async () => {
    const waiting = threaded.query('SELECT pg_sleep(3)');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await threaded.stopThread();
    const error = await waiting.catch((caught: unknown) => caught);
    expect(isVaultError(error, 'index_unavailable')).toBe(true);
    expect((error as Error).message).toContain('Try the call again');
    expect(exits).toHaveLength(1);
    expect((await threaded.query('SELECT id FROM kept ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
  }, 60_000);
});
