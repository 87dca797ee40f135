// The repositories an index holds and the head commit each was indexed at: what the worker
// compares with an installation's repository list (a repository that left is removed).
import type { SqlClient } from './sql-client.ts';

/** Every repository with rows in the index behind `sql`, by name (sorted), with the head commit it was indexed at (null: empty repository). */
export async function indexedHeads(sql: SqlClient): Promise<Map<string, string | null>> {
  const rows = (await sql.query<{ name: string; head: string | null }>('SELECT name, head FROM repos ORDER BY name')).rows;
  return new Map(rows.map((row) => [row.name, row.head]));
}
