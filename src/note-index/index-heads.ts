// What the index of each repository was last built from, as another process reads it: the
// hosted instance polls its database's heads to learn that the worker indexed a push (issue 13).
import type { SqlClient } from './sql-client.ts';

/** Each indexed repository's head commit (null: an empty repository), by name. */
export async function readIndexHeads(sql: SqlClient): Promise<Map<string, string | null>> {
  const rows = (await sql.query<{ name: string; head: string | null }>('SELECT name, head FROM repos ORDER BY name')).rows;
  return new Map(rows.map((row) => [row.name, row.head]));
}
