// The hosted Index adapter: a Postgres server through node-postgres, inside one schema.
import pg from 'pg';
import type { QueryResult, SqlClient } from './sql-client.ts';

/**
 * Connects to the Postgres server at `url` and works inside `schema` (created when missing):
 * every pooled connection starts with `search_path` set to `schema, public`, so the same SQL
 * runs as on PGlite. `pg_trgm` is created once per database in `public` (creating it inside
 * a schema would let dropping that schema take the extension away from every other one).
 * `schema` must be a plain identifier (letters, digits, `_`); anything else is refused.
 * `maxConnections` bounds the pool (default 8).
 */
export async function openPostgres(url: string, schema: string, options: { maxConnections?: number } = {}): Promise<SqlClient> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new Error(`Schema name ${JSON.stringify(schema)} is not a plain identifier.`);
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema},public`, max: options.maxConnections ?? 8 });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', (error) => console.error('postgres pool error:', error));
  // pg_trgm once per database, in `public`; then the schema.
  await createRacing(pool, 'CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  await createRacing(pool, `CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  return {
    engine: 'postgres',
    query: (sql, params) => runQuery(pool, sql, params),
    exec: async (sql) => {
      await pool.query(sql);
    },
    transaction: async (fn) => {
      const connection = await pool.connect();
      // A checked-out connection has no listener of the pool's: without this one, the server
      // closing it between two statements (a restart, `DROP DATABASE ... WITH (FORCE)`) would be
      // an uncaught 'error' event. The statement in flight, or the next one, fails instead.
      const onError = (error: Error) => console.error('postgres connection error in a transaction:', error.message);
      connection.on('error', onError);
      try {
        await connection.query('BEGIN');
        const result = await fn(transactionClient(connection));
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        connection.removeListener('error', onError);
        connection.release();
      }
    },
    close: () => pool.end(),
  };
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

async function runQuery<Row>(db: Queryable, sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>> {
  const result = await db.query(sql, params ? [...params] : undefined);
  return { rows: result.rows as Row[], ...(result.rowCount === null ? {} : { affectedRows: result.rowCount }) };
}

/** The client handed to a transaction's body; a nested `transaction` joins the outer one. */
function transactionClient(connection: pg.PoolClient): SqlClient {
  const client: SqlClient = {
    engine: 'postgres',
    query: (sql, params) => runQuery(connection, sql, params),
    exec: async (sql) => {
      await connection.query(sql);
    },
    transaction: (fn) => fn(client),
    close: async () => {
      throw new Error('A transaction client cannot be closed; close the client that opened it.');
    },
  };
  return client;
}

/**
 * Runs `statement`, an `IF NOT EXISTS` creation, again when another session created the same
 * object meanwhile: Postgres then answers 23505 (unique_violation on its catalog) or the
 * object's "duplicate" code instead of doing nothing. Up to three tries; other errors throw.
 */
async function createRacing(pool: pg.Pool, statement: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await pool.query(statement);
      return;
    } catch (error) {
      // 23505 unique_violation, 42P06 duplicate_schema, 42710 duplicate_object.
      const code = (error as { code?: string }).code;
      if ((code === '23505' || code === '42P06' || code === '42710') && attempt < 3) continue;
      throw error;
    }
  }
}
