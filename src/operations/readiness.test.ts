// Readiness checks on a real database: it answers, it is closed, a check that hangs.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { capturedLog } from '../../test/support/captured-log.ts';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { databaseCheck, readinessChecker } from './readiness.ts';

describe('readiness', () => {
  it('is ready while the database answers SELECT 1, and names it once it does not', async () => {
    const sql = await openTestDatabase();
    const { log, events } = capturedLog();
    const check = readinessChecker([databaseCheck(sql)], log);
    const ready = await check();
    expect(ready.ready).toBe(true);
    expect(ready.checks).toEqual([{ name: 'database', ok: true, durationMs: expect.any(Number) as number }]);

    await sql.close();
    const closed = await check();
    expect(closed.ready).toBe(false);
    expect(closed.checks).toEqual([{ name: 'database', ok: false, durationMs: expect.any(Number) as number, failure: 'failed' }]);
    await check();
    // Logged when it starts failing, not at every probe.
    expect(events('readiness_failed')).toHaveLength(1);
    expect(events('readiness_failed')[0]).toMatchObject({
      check: 'database',
      failure: 'failed',
      err: { message: expect.any(String) as string },
    });
  });

  it('counts a check that does not answer in time as failed, and says when it passes again', async () => {
    const { log, events } = capturedLog();
    let hang = true;
    const check = readinessChecker(
      [
        { name: 'queue', timeoutMs: 50, check: () => (hang ? new Promise<void>(() => {}) : Promise.resolve()) },
        { name: 'store', check: () => Promise.resolve() },
      ],
      log,
    );
    const started = performance.now();
    const report = await check();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(report.ready).toBe(false);
    expect(report.checks.map(({ name, ok, failure }) => ({ name, ok, failure }))).toEqual([
      { name: 'queue', ok: false, failure: 'timeout' },
      { name: 'store', ok: true, failure: undefined },
    ]);
    hang = false;
    expect((await check()).ready).toBe(true);
    expect(events('readiness_failed').map((line) => line['check'])).toEqual(['queue']);
    expect(events('readiness_restored').map((line) => line['check'])).toEqual(['queue']);
  });

  it.skipIf(!process.env.DATABASE_URL)('fails, within its time, on a Postgres server that is not there', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 500 });
    try {
      const report = await readinessChecker([databaseCheck(pool, { name: 'queue', timeoutMs: 1000 })])();
      expect(report.checks).toEqual([{ name: 'queue', ok: false, durationMs: expect.any(Number) as number, failure: 'failed' }]);
    } finally {
      await pool.end();
    }
  });
});
