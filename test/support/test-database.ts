// A fresh, migrated index database per test: PGlite in memory, or a throw-away schema on
// the Postgres server named by DATABASE_URL (the suite runs on both).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/note-index/migrate.ts';
import { openPglite } from '../../src/note-index/pglite-client.ts';
import { openPostgres } from '../../src/note-index/postgres-client.ts';
import type { SqlClient } from '../../src/note-index/sql-client.ts';

/**
 * Opens a migrated database of its own. Without `DATABASE_URL`: PGlite in memory. With it:
 * a new schema `t_<random>` on that server, dropped (with everything in it) by `close()`.
 */
export async function openTestDatabase(): Promise<SqlClient> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const sql = await openPglite(null);
    await migrate(sql);
    return sql;
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const sql = await openPostgres(url, schema);
  await migrate(sql);
  return {
    ...sql,
    close: async () => {
      await sql.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
