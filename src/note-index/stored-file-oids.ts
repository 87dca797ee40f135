// The `files` rows of a repository (path → blob id) as this process last read or wrote them,
// kept with the stored fingerprint they belong to, so a move or an index update after an own
// commit does not read thousands of rows again; with them, for the index update after an own
// commit, the link resolver over their paths (kept up path by path, never built again) and
// the trigram keys of the notes that update last wrote (so editing one note again does not
// read its old text back to take its keys out of the posting lists).
import { LinkResolver } from '../notes/link-resolver.ts';
import type { SqlClient } from './sql-client.ts';

/** What is kept of one repository's stored files, for the stored fingerprint `fingerprint`. */
export interface KeptFiles {
  /** The repository's stored fingerprint (`repos.fingerprint`) these rows belong to. */
  fingerprint: string;
  /** Every stored file: path → blob id. */
  oids: Map<string, string>;
  /** Built on the paths of `oids` the first time an update asks ({@link takeKeptFiles}); null until then. */
  resolver: LinkResolver | null;
  /** The trigram keys of the notes the last update wrote, by blob id (at most {@link KEPT_KEYS} keys in all). */
  keys: Map<string, Int32Array>;
}

/** The most trigram keys kept of the notes last written (4 bytes each: 1 MiB), so a large commit keeps none. */
export const KEPT_KEYS = 256 * 1024;

/** Per client and repository. Every write of the index changes the stored fingerprint, so a kept entry is current exactly while it matches. */
const kept = new WeakMap<SqlClient, Map<string, KeptFiles>>();

function keptOf(sql: SqlClient): Map<string, KeptFiles> {
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
  const read = await readRows(sql, repo);
  return read === null ? new Map() : new Map(read.oids);
}

/**
 * For an index update of `repo` whose stored fingerprint was just read as `fingerprint`: the
 * kept rows with their link resolver (built now if it was not), taken out of what is kept, so
 * the caller may change them as it writes and puts them back with {@link putKeptFiles} once
 * its write committed (a write that fails leaves nothing kept). Read in one statement when
 * nothing is kept for that fingerprint; null when the rows read belong to another one (the
 * stored state moved since `fingerprint` was read). The caller's write must still check, in its
 * transaction, that the stored fingerprint is `fingerprint`.
 */
export async function takeKeptFiles(
  sql: SqlClient,
  repo: string,
  fingerprint: string,
): Promise<(KeptFiles & { resolver: LinkResolver }) | null> {
  const perRepo = keptOf(sql);
  let entry = perRepo.get(repo);
  perRepo.delete(repo);
  if (entry === undefined || entry.fingerprint !== fingerprint) {
    // No rows: no fingerprint to compare either; the write's own check of the stored state covers it.
    entry = (await readRows(sql, repo)) ?? { fingerprint, oids: new Map(), resolver: null, keys: new Map() };
    keptOf(sql).delete(repo);
    if (entry.fingerprint !== fingerprint) return null;
  }
  const resolver = (entry.resolver ??= new LinkResolver(entry.oids.keys()));
  return Object.assign(entry, { resolver });
}

/**
 * For a sync of `repo` whose stored fingerprint was just read as `fingerprint`: the kept rows,
 * taken out of what is kept (as {@link takeKeptFiles} does), when they belong to it; null
 * otherwise, and nothing is read (a sync reads the rows itself, and keeps none of its own).
 */
export function takeKeptFilesIfCurrent(sql: SqlClient, repo: string, fingerprint: string): KeptFiles | null {
  const perRepo = keptOf(sql);
  const entry = perRepo.get(repo);
  perRepo.delete(repo);
  return entry !== undefined && entry.fingerprint === fingerprint ? entry : null;
}

/** Keeps `entry` (taken with {@link takeKeptFiles}, changed to the rows just committed) under its new `fingerprint`. */
export function putKeptFiles(sql: SqlClient, repo: string, entry: KeptFiles): void {
  keptOf(sql).set(repo, entry);
}

/** Drops the kept rows of `repo` (a sync rewrote them, or the repository left the index). */
export function forgetFileOids(sql: SqlClient, repo: string): void {
  keptOf(sql).delete(repo);
}

/** The rows of `repo` with the stored fingerprint, read in one statement and kept; null (nothing kept) when it has no files. */
async function readRows(sql: SqlClient, repo: string): Promise<KeptFiles | null> {
  const rows = (
    await sql.query<{ path: string; oid: string; fingerprint: string | null }>(
      'SELECT path, oid, (SELECT fingerprint FROM repos WHERE name = $1) AS fingerprint FROM files WHERE repo = $1',
      [repo],
    )
  ).rows;
  const fingerprint = rows[0]?.fingerprint ?? null;
  if (fingerprint === null) {
    keptOf(sql).delete(repo);
    return null;
  }
  const entry: KeptFiles = { fingerprint, oids: new Map(rows.map((row) => [row.path, row.oid])), resolver: null, keys: new Map() };
  keptOf(sql).set(repo, entry);
  return entry;
}
