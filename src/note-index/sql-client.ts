// The Index port: a Postgres connection, embedded (PGlite) or a server (node-postgres).
// All SQL of the project lives in note-index/ and runs through this interface unchanged.

/** Rows of a query, typed by the caller. */
export interface QueryResult<Row> {
  rows: Row[];
  /** Rows changed by an INSERT/UPDATE/DELETE, where the driver reports it. */
  affectedRows?: number;
}

/**
 * A Postgres client. `query` takes `$1`-style parameters; `exec` runs several statements
 * without parameters (migrations); `transaction` runs `fn` in one transaction on one
 * connection and rolls back when it throws. Every implementation works inside its own
 * schema (`search_path`), so test runs and installations never see each other.
 */
export interface SqlClient {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  /** Which engine answers: for the benchmark report and for engine-specific tuning. */
  readonly engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}
