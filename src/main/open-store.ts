// Where the Store (store/store.ts: installations, short records) lives for `serve-github` and
// the operator's `installation` command: on a Postgres server, a schema of its own shared by
// every installation (the front's); on PGlite, the index database of the data folder, which
// one process at a time may open.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { migrate } from '../note-index/migrate.ts';
import { openPglite } from '../note-index/pglite-client.ts';
import { openPostgres } from '../note-index/postgres-client.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { sqlStore } from '../note-index/sql-store.ts';
import type { Store } from '../store/store.ts';
import { lockIndexDir } from './index-lock.ts';

/** The Postgres schema of the Store, whatever the installations' names (their indexes have a schema each). */
export const defaultStoreSchema = 'major_vault_store';

/** Where to find the Store: a Postgres server (and schema), else a data folder's PGlite index. */
export interface StorePlace {
  /** The data folder `serve-github --data` uses (PGlite: `<dataDir>/index`). */
  dataDir?: string;
  /** A Postgres server; wins over `dataDir`. */
  databaseUrl?: string;
  /** The Store's schema on the server; default {@link defaultStoreSchema}. */
  schema?: string;
}

/** An open Store and how to let go of it. */
export interface OpenedStore {
  store: Store;
  /** The database the Store is in (e.g. for a readiness check). */
  sql: SqlClient;
  close(): Promise<void>;
}

/** Opens the Store in its own schema on the Postgres server at `databaseUrl`, migrated. */
export async function openPostgresStore(databaseUrl: string, schema = defaultStoreSchema): Promise<OpenedStore> {
  const sql = await openPostgres(databaseUrl, schema);
  try {
    await migrate(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  return { store: sqlStore(sql), sql, close: () => sql.close() };
}

/**
 * Opens the Store for the operator's command, where a server keeps it (see the module
 * header). Throws an Error with a sentence for the operator: neither place given, a data
 * folder without Major Vault's index, or a PGlite folder held by a running server (stop it, or
 * keep the Store on a Postgres server, which server and command share).
 */
export async function openOperatorStore(place: StorePlace): Promise<OpenedStore> {
  if (place.databaseUrl) return openPostgresStore(place.databaseUrl, place.schema);
  if (place.dataDir === undefined) {
    throw new Error(
      'Say where the installations are kept: --data DIR (the folder serve-github uses) or --database-url URL (or DATABASE_URL).',
    );
  }
  const dataDir = resolve(place.dataDir);
  const indexDir = join(dataDir, 'index');
  if (!existsSync(join(indexDir, 'PG_VERSION'))) {
    throw new Error(
      `${dataDir} holds no Major Vault index: give --data the folder serve-github runs with (it holds index/ and mirrors/), or --database-url when it keeps its data on a Postgres server.`,
    );
  }
  const lock = await lockIndexDir(dataDir, 500);
  if (lock === null) {
    throw new Error(
      `The data folder ${dataDir} is in use by a running major-vault server (PGlite lets one process open it). Stop the server, run this command, then start it again; or keep the data on a Postgres server (--database-url or DATABASE_URL), which the server and this command can share.`,
    );
  }
  let sql: SqlClient | null = null;
  try {
    sql = await openPglite(indexDir);
    await migrate(sql);
  } catch (error) {
    await sql?.close();
    lock.release();
    throw error;
  }
  const opened = sql;
  return {
    store: sqlStore(opened),
    sql: opened,
    async close() {
      await opened.close();
      lock.release();
    },
  };
}
