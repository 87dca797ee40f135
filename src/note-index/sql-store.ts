// The Store port over SQL (store/store.ts): the same statements on PGlite (the embedded
// default keeps them in the index database) and on the front's Postgres server.
import type { InstallationRecord, InstallationStatus, Installations, ShortRecords, Store } from '../store/store.ts';
import type { SqlClient } from './sql-client.ts';

/** How many expired records one write clears on its way, so the table never grows unbounded. */
const sweepBatch = 100;

interface InstallationRow {
  id: string | number;
  account: string | null;
  name: string | null;
  status: InstallationStatus;
  updated_at: Date | string;
}

/** The Store over `sql`, a migrated database (migration 005). Times are the database's clock. */
export function sqlStore(sql: SqlClient): Store {
  return { records: sqlShortRecords(sql), installations: sqlInstallations(sql) };
}

function sqlShortRecords(sql: SqlClient): ShortRecords {
  const sweep = () =>
    sql.query(`DELETE FROM short_records WHERE key IN (SELECT key FROM short_records WHERE expires_at <= now() LIMIT ${sweepBatch})`);
  return {
    async putIfAbsent(key, value, ttlMs) {
      await sweep();
      const result = await sql.query(
        `INSERT INTO short_records (key, value, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000))
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
           WHERE short_records.expires_at <= now()
         RETURNING key`,
        [key, value, ttlMs],
      );
      return result.rows.length === 1;
    },
    async put(key, value, ttlMs) {
      await sweep();
      await sql.query(
        `INSERT INTO short_records (key, value, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000))
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
        [key, value, ttlMs],
      );
    },
    async get(key) {
      const result = await sql.query<{ value: string }>('SELECT value FROM short_records WHERE key = $1 AND expires_at > now()', [key]);
      return result.rows[0]?.value ?? null;
    },
    async delete(key) {
      await sql.query('DELETE FROM short_records WHERE key = $1', [key]);
    },
  };
}

function sqlInstallations(sql: SqlClient): Installations {
  const columns = 'id, account, name, status, updated_at';
  const one = async (text: string, params: unknown[]) => {
    const row = (await sql.query<InstallationRow>(text, params)).rows[0];
    return row === undefined ? null : installationOf(row);
  };
  return {
    get: (id) => one(`SELECT ${columns} FROM installations WHERE id = $1`, [id]),
    byName: (name) => one(`SELECT ${columns} FROM installations WHERE lower(name) = lower($1)`, [name]),
    async list() {
      return (await sql.query<InstallationRow>(`SELECT ${columns} FROM installations ORDER BY id`)).rows.map(installationOf);
    },
    async seen(id, account) {
      const record = await one(
        `INSERT INTO installations (id, account) VALUES ($1, $2)
         ON CONFLICT (id) DO UPDATE SET account = COALESCE(EXCLUDED.account, installations.account),
           updated_at = CASE WHEN EXCLUDED.account IS DISTINCT FROM installations.account AND EXCLUDED.account IS NOT NULL
                             THEN now() ELSE installations.updated_at END
         RETURNING ${columns}`,
        [id, account],
      );
      return record!;
    },
    async switchOn(id, name) {
      return sql.transaction(async (tx) => {
        const taken = await tx.query<{ id: string | number }>('SELECT id FROM installations WHERE lower(name) = lower($1) AND id <> $2', [
          name,
          id,
        ]);
        if (taken.rows.length > 0) {
          throw new Error(
            `The name ${JSON.stringify(name)} belongs to installation ${String(taken.rows[0]!.id)} already; choose another name, or switch that one off and rename it first.`,
          );
        }
        const row = (
          await tx.query<InstallationRow>(
            `INSERT INTO installations (id, name, status) VALUES ($1, $2, 'on')
             ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = 'on', updated_at = now()
             RETURNING ${columns}`,
            [id, name],
          )
        ).rows[0]!;
        return installationOf(row);
      });
    },
    switchOff: (id) => one(`UPDATE installations SET status = 'off', updated_at = now() WHERE id = $1 RETURNING ${columns}`, [id]),
  };
}

function installationOf(row: InstallationRow): InstallationRecord {
  return {
    id: Number(row.id),
    account: row.account,
    name: row.name,
    status: row.status,
    updatedAt: row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at),
  };
}
