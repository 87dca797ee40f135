// Schema migrations: numbered SQL files under migrations/, applied once each, in order.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlClient } from './sql-client.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

/** A migration file: `NNN_name.sql`. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migrations shipped with this code, sorted by version. */
export function listMigrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .map((file) => /^(\d+)_([\w-]+)\.sql$/.exec(file))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ version: Number(match[1]), name: match[2] ?? '', sql: readFileSync(join(MIGRATIONS_DIR, match[0]), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

/**
 * Brings the schema of `sql` (its `search_path`) up to the newest migration. Each migration
 * runs in its own transaction together with its row in `schema_migrations`, under an
 * advisory lock, so two processes starting at once apply it exactly once.
 */
export async function migrate(sql: SqlClient): Promise<void> {
  const migrations = listMigrations();
  // Already current (every start after the first): one statement instead of a locked
  // transaction per migration.
  if (await upToDate(sql, migrations)) return;
  // Under the same lock as the migrations: two `CREATE TABLE IF NOT EXISTS` at once can both
  // miss the table and collide on its row type (pg_type_typname_nsp_index).
  await sql.transaction(async (tx) => {
    await lockSchema(tx);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  for (const migration of migrations) {
    await sql.transaction(async (tx) => {
      await lockSchema(tx);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (done.rows.length > 0) return;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    });
  }
}

/** True when `schema_migrations` holds every one of `migrations` (false when it does not exist yet). */
async function upToDate(sql: SqlClient, migrations: readonly Migration[]): Promise<boolean> {
  const exists = await sql.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) return false;
  const applied = await sql.query<{ version: number }>('SELECT version FROM schema_migrations');
  const versions = new Set(applied.rows.map((row) => Number(row.version)));
  return migrations.every((migration) => versions.has(migration.version));
}

/** Holds the schema's migration lock until the transaction of `tx` ends. */
async function lockSchema(tx: SqlClient): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext(current_schema()))');
}
