// The embedded Index adapter: PGlite (Postgres compiled to WASM) in a data folder or in memory.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { QueryResult, SqlClient } from './sql-client.ts';

/**
 * Opens PGlite with the `pg_trgm` extension (trigram search) loaded and created.
 * `dataDir`: a folder that keeps the database between runs, or null for one in memory
 * (tests). PGlite is one connection: its own lock serialises queries and transactions.
 */
export async function openPglite(dataDir: string | null): Promise<SqlClient> {
  const db = await PGlite.create({ ...(dataDir === null ? {} : { dataDir }), extensions: { pg_trgm } });
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  return {
    engine: 'pglite',
    query: (sql, params) => runQuery(db, sql, params),
    exec: async (sql) => {
      await db.exec(sql);
    },
    transaction: (fn) => db.transaction((tx) => fn(transactionClient(tx))),
    close: () => db.close(),
  };
}

type Queryable = Pick<PGlite | Transaction, 'query'>;

async function runQuery<Row>(db: Queryable, sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
  const result = await db.query<Row>(sql, params ? [...params] : undefined);
  return { rows: result.rows, ...(result.affectedRows === undefined ? {} : { affectedRows: result.affectedRows }) };
}

/** The client handed to a transaction's body; a nested `transaction` joins the outer one. */
function transactionClient(tx: Transaction): SqlClient {
  const client: SqlClient = {
    engine: 'pglite',
    query: (sql, params) => runQuery(tx, sql, params),
    exec: async (sql) => {
      await tx.exec(sql);
    },
    transaction: (fn) => fn(client),
    close: async () => {
      throw new Error('A transaction client cannot be closed; close the client that opened it.');
    },
  };
  return client;
}
