// The `files` rows of a repository (path → blob id) as this process last read or wrote them,
// kept with the stored fingerprint they belong to, so a move or an index update after an own
// commit does not read thousands of rows again.
import type { SqlClient } from './sql-client.ts';

interface Kept {
  /** The repository's stored fingerprint (`repos.fingerprint`) these rows belong to. */
  fingerprint: string;
  oids: Map<string, string>;
}

/** Per client and repository. Every write of the index changes the stored fingerprint, so a kept entry is current exactly while it matches. */
const kept = new WeakMap<SqlClient, Map<string, Kept>>();

function keptOf(sql: SqlClient): Map<string, Kept> {
  let perRepo = kept.get(sql);
  if (perRepo === undefined) kept.set(sql, (perRepo = new Map()));
  return perRepo;
}

/**
 * Every stored file of `repo` with its blob id, by path (a copy the caller may change): the
 * rows kept from this process's last read or write when the stored fingerprint is still
 * theirs (one small query), else read, with the fingerprint, in one statement (one snapshot
 * of the database). Empty when the repository has no files.
 */
export async function storedFileOids(sql: SqlClient, repo: string): Promise<Map<string, string>> {
  const entry = keptOf(sql).get(repo);
  if (entry !== undefined) {
    const now = (await sql.query<{ fingerprint: string }>('SELECT fingerprint FROM repos WHERE name = $1', [repo])).rows[0];
    if (now?.fingerprint === entry.fingerprint) return new Map(entry.oids);
  }
  const rows = (
    await sql.query<{ path: string; oid: string; fingerprint: string | null }>(
      'SELECT path, oid, (SELECT fingerprint FROM repos WHERE name = $1) AS fingerprint FROM files WHERE repo = $1',
      [repo],
    )
  ).rows;
  const oids = new Map(rows.map((row) => [row.path, row.oid]));
  const fingerprint = rows[0]?.fingerprint ?? null;
  if (fingerprint !== null) keptOf(sql).set(repo, { fingerprint, oids: new Map(oids) });
  else keptOf(sql).delete(repo);
  return oids;
}

/**
 * After a write of `repo`'s rows that moved the stored fingerprint from `before` to `after`
 * (committed): the kept rows get `written` (path → blob id) and lose `removed`, when they were
 * those of `before`; otherwise they are dropped, and the next read reads the rows.
 */
export function keepWrittenFileOids(
  sql: SqlClient,
  repo: string,
  before: string,
  after: string,
  written: ReadonlyArray<{ path: string; oid: string }>,
  removed: readonly string[],
): void {
  const perRepo = keptOf(sql);
  const entry = perRepo.get(repo);
  if (entry === undefined || entry.fingerprint !== before) {
    perRepo.delete(repo);
    return;
  }
  for (const path of removed) entry.oids.delete(path);
  for (const file of written) entry.oids.set(file.path, file.oid);
  entry.fingerprint = after;
}

/** Drops the kept rows of `repo` (a sync rewrote them, or the repository left the index). */
export function forgetFileOids(sql: SqlClient, repo: string): void {
  keptOf(sql).delete(repo);
}
