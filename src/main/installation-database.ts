// One Postgres database per installation (issue 13, "Databases"; DESIGN.md "The parts":
// "Index: one Postgres database per installation"), on the server of the front's own
// database: created and migrated when the operator switches the installation on, dropped
// when the App is uninstalled. Two installations never share a database.
import pg from 'pg';
import { migrate } from '../note-index/migrate.ts';
import { openPostgres } from '../note-index/postgres-client.ts';
import type { SqlClient } from '../note-index/sql-client.ts';

/** The schema the index lives in inside an installation's database. */
export const installationSchema = 'major_vault';

/** The database of GitHub installation `installationId`: `major_vault_installation_<id>` (by id, so a rename keeps it). */
export function installationDatabaseName(installationId: number): string {
  if (!Number.isSafeInteger(installationId) || installationId <= 0) {
    throw new Error(`An installation id is a positive integer, not ${JSON.stringify(installationId)}.`);
  }
  return `major_vault_installation_${installationId}`;
}

/**
 * The URL of installation `installationId`'s database: `serverUrl` (the front's database,
 * e.g. `postgres://mv@db:5432/major_vault`) with the database name replaced; user, password,
 * host, port and query parameters (e.g. `sslmode`) are kept.
 */
export function installationDatabaseUrl(serverUrl: string, installationId: number): string {
  const url = new URL(serverUrl);
  url.pathname = `/${installationDatabaseName(installationId)}`;
  return url.href;
}

/**
 * Creates installation `installationId`'s database on the server of `serverUrl` when it does
 * not exist, and migrates it. Safe to call again and from two processes at once (a lost
 * `CREATE DATABASE` race is taken as done). Throws the server's error when the role may not
 * create databases (`CREATEDB`), with a sentence saying so.
 */
export async function createInstallationDatabase(serverUrl: string, installationId: number): Promise<void> {
  const name = installationDatabaseName(installationId);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rows.length === 0) {
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } catch (error) {
        const code = (error as { code?: string }).code;
        // 42P04 duplicate_database; 23505 unique_violation on pg_database when two creates race.
        if (code !== '42P04' && code !== '23505') {
          throw new Error(
            `Could not create the installation's database ${name}: ${(error as Error).message}. The role of DATABASE_URL needs CREATEDB, or create the database yourself and run the command again.`,
            { cause: error },
          );
        }
      }
    }
  } finally {
    await admin.end();
  }
  const sql = await openInstallationDatabase(serverUrl, installationId, { maxConnections: 1 });
  try {
    await migrate(sql);
  } finally {
    await sql.close();
  }
}

/**
 * Opens installation `installationId`'s index (its database, schema {@link installationSchema}),
 * with at most `maxConnections` pooled connections (default 4: a server holds one database per
 * installation and a bounded number of connections in all). Throws a sentence saying how to
 * create it when the database does not exist.
 */
export async function openInstallationDatabase(
  serverUrl: string,
  installationId: number,
  options: { maxConnections?: number } = {},
): Promise<SqlClient> {
  try {
    return await openPostgres(installationDatabaseUrl(serverUrl, installationId), installationSchema, {
      maxConnections: options.maxConnections ?? 4,
    });
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') {
      throw new Error(
        `Installation ${installationId} has no database (${installationDatabaseName(installationId)}): switch it on with \`major-vault installation on ${installationId} --name NAME\` (with the same DATABASE_URL), which creates it.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Drops installation `installationId`'s database, closing the connections other processes hold to it (Postgres 13+ `WITH (FORCE)`); nothing when there is none. */
export async function dropInstallationDatabase(serverUrl: string, installationId: number): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${installationDatabaseName(installationId)}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
