// The Store port over SQL (store/store.ts): the same statements on PGlite (the embedded
// default keeps them in the index database) and on the front's Postgres server.
import type {
  CatalogueSourceRepo,
  CatalogueStore,
  InstallationRecord,
  InstallationStatus,
  Installations,
  LastLooks,
  ShortRecords,
  Store,
  StoredCatalogue,
} from '../store/store.ts';
import type { SqlClient } from './sql-client.ts';

/** How many expired records one write clears on its way, so the table never grows unbounded. */
const sweepBatch = 100;

interface InstallationRow {
  id: string | number;
  account: string | null;
  name: string | null;
  status: InstallationStatus;
  updated_at: Date | string;
}

/** The Store over `sql`, a migrated database (migrations 005, 006 and 007). Times are the database's clock. */
export function sqlStore(sql: SqlClient): Store {
  return {
    records: sqlShortRecords(sql),
    installations: sqlInstallations(sql),
    catalogues: sqlCatalogues(sql),
    lastLooks: sqlLastLooks(sql),
  };
}

/** {@link LastLooks} over SQL (migration 007). */
export function sqlLastLooks(sql: SqlClient): LastLooks {
  return {
    async get(installation, person, tool) {
      const row = (
        await sql.query<{ looked_at: Date | string }>(
          'SELECT looked_at FROM last_looks WHERE installation = $1 AND person = $2 AND tool = $3',
          [installation, person, tool],
        )
      ).rows[0];
      return row === undefined ? null : new Date(row.looked_at);
    },
    async put(installation, person, tool, at) {
      await sql.query(
        `INSERT INTO last_looks (installation, person, tool, looked_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (installation, person, tool) DO UPDATE SET looked_at = GREATEST(last_looks.looked_at, EXCLUDED.looked_at)`,
        [installation, person, tool, at],
      );
    },
  };
}

function sqlShortRecords(sql: SqlClient): ShortRecords {
  const sweep = () =>
    sql.query(`DELETE FROM short_records WHERE key IN (SELECT key FROM short_records WHERE expires_at <= now() LIMIT ${sweepBatch})`);
  return {
    async putIfAbsent(key, value, ttlMs) {
      await sweep();
      const result = await sql.query(
        `INSERT INTO short_records (key, value, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000))
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
           WHERE short_records.expires_at <= now()
         RETURNING key`,
        [key, value, ttlMs],
      );
      return result.rows.length === 1;
    },
    async put(key, value, ttlMs) {
      await sweep();
      await sql.query(
        `INSERT INTO short_records (key, value, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000))
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
        [key, value, ttlMs],
      );
    },
    async get(key) {
      const result = await sql.query<{ value: string }>('SELECT value FROM short_records WHERE key = $1 AND expires_at > now()', [key]);
      return result.rows[0]?.value ?? null;
    },
    async delete(key) {
      await sql.query('DELETE FROM short_records WHERE key = $1', [key]);
    },
  };
}

function sqlInstallations(sql: SqlClient): Installations {
  const columns = 'id, account, name, status, updated_at';
  const one = async (text: string, params: unknown[]) => {
    const row = (await sql.query<InstallationRow>(text, params)).rows[0];
    return row === undefined ? null : installationOf(row);
  };
  return {
    get: (id) => one(`SELECT ${columns} FROM installations WHERE id = $1`, [id]),
    byName: (name) => one(`SELECT ${columns} FROM installations WHERE lower(name) = lower($1)`, [name]),
    async list() {
      return (await sql.query<InstallationRow>(`SELECT ${columns} FROM installations ORDER BY id`)).rows.map(installationOf);
    },
    async seen(id, account) {
      const record = await one(
        `INSERT INTO installations (id, account) VALUES ($1, $2)
         ON CONFLICT (id) DO UPDATE SET account = COALESCE(EXCLUDED.account, installations.account),
           updated_at = CASE WHEN EXCLUDED.account IS DISTINCT FROM installations.account AND EXCLUDED.account IS NOT NULL
                             THEN now() ELSE installations.updated_at END
         RETURNING ${columns}`,
        [id, account],
      );
      return record!;
    },
    async switchOn(id, name) {
      return sql.transaction(async (tx) => {
        const taken = await tx.query<{ id: string | number }>('SELECT id FROM installations WHERE lower(name) = lower($1) AND id <> $2', [
          name,
          id,
        ]);
        if (taken.rows.length > 0) {
          throw new Error(
            `The name ${JSON.stringify(name)} belongs to installation ${String(taken.rows[0]!.id)} already; choose another name, or switch that one off and rename it first.`,
          );
        }
        const row = (
          await tx.query<InstallationRow>(
            `INSERT INTO installations (id, name, status) VALUES ($1, $2, 'on')
             ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = 'on', updated_at = now()
             RETURNING ${columns}`,
            [id, name],
          )
        ).rows[0]!;
        return installationOf(row);
      });
    },
    switchOff: (id) => one(`UPDATE installations SET status = 'off', updated_at = now() WHERE id = $1 RETURNING ${columns}`, [id]),
  };
}

function installationOf(row: InstallationRow): InstallationRecord {
  return {
    id: Number(row.id),
    account: row.account,
    name: row.name,
    status: row.status,
    updatedAt: row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at),
  };
}

/** A set of repository names as its key: sorted, joined by `/` (a repository name never holds one). */
function setKey(repos: readonly string[]): string {
  return [...new Set(repos)].sort().join('/');
}

function sqlCatalogues(sql: SqlClient): CatalogueStore {
  return {
    async source(installationId) {
      const row = (
        await sql.query<{ version: string; repos: CatalogueSourceRepo[] | string; updated_at: Date | string }>(
          'SELECT version, repos, updated_at FROM catalogue_sources WHERE installation_id = $1',
          [installationId],
        )
      ).rows[0];
      if (row === undefined) return null;
      return {
        version: row.version,
        repos: typeof row.repos === 'string' ? (JSON.parse(row.repos) as CatalogueSourceRepo[]) : row.repos,
        updatedAt: row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at),
      };
    },
    async sourceVersions(since) {
      const rows = (
        await sql.query<{ installation_id: string | number; version: string; updated_at: Date | string }>(
          since === null
            ? 'SELECT installation_id, version, updated_at FROM catalogue_sources'
            : 'SELECT installation_id, version, updated_at FROM catalogue_sources WHERE updated_at >= $1',
          since === null ? [] : [since],
        )
      ).rows;
      return rows.map((row) => ({
        installationId: Number(row.installation_id),
        version: row.version,
        updatedAt: row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at),
      }));
    },
    async putSource(installationId, version, repos) {
      const sorted = [...repos].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const before = (
        await sql.query<{ version: string }>('SELECT version FROM catalogue_sources WHERE installation_id = $1', [installationId])
      ).rows[0];
      await sql.query(
        `INSERT INTO catalogue_sources (installation_id, version, repos) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (installation_id) DO UPDATE SET version = EXCLUDED.version, repos = EXCLUDED.repos, updated_at = now()`,
        [installationId, version, JSON.stringify(sorted)],
      );
      return before?.version !== version;
    },
    async answer(installationId, version, repos) {
      const row = (
        await sql.query<{ answer: StoredCatalogue | string }>(
          `UPDATE catalogue_answers SET used_at = now()
           WHERE installation_id = $1 AND version = $2 AND repo_set = $3
           RETURNING answer`,
          [installationId, version, setKey(repos)],
        )
      ).rows[0];
      if (row === undefined) return null;
      return typeof row.answer === 'string' ? (JSON.parse(row.answer) as StoredCatalogue) : row.answer;
    },
    async putAnswer(installationId, version, repos, answer, options = {}) {
      // A rebuilt answer keeps the set's last use (of any version); a new one is used now.
      const usedAt = options.rebuilt
        ? `COALESCE((SELECT max(used_at) FROM catalogue_answers WHERE installation_id = $1 AND repo_set = $3), now())`
        : 'now()';
      await sql.query(
        `INSERT INTO catalogue_answers (installation_id, version, repo_set, answer, used_at) VALUES ($1, $2, $3, $4::jsonb, ${usedAt})
         ON CONFLICT (installation_id, version, repo_set) DO UPDATE SET answer = EXCLUDED.answer, used_at = EXCLUDED.used_at`,
        [installationId, version, setKey(repos), JSON.stringify(answer)],
      );
    },
    async setsUsedSince(installationId, since) {
      const rows = (
        await sql.query<{ repo_set: string }>(
          'SELECT DISTINCT repo_set FROM catalogue_answers WHERE installation_id = $1 AND used_at >= $2 ORDER BY repo_set',
          [installationId, since],
        )
      ).rows;
      return rows.map((row) => (row.repo_set === '' ? [] : row.repo_set.split('/')));
    },
    async prune(installationId, keepVersion, unusedSince) {
      const result = await sql.query<{ repo_set: string }>(
        `DELETE FROM catalogue_answers WHERE installation_id = $1 AND (version <> $2 OR used_at < $3) RETURNING repo_set`,
        [installationId, keepVersion, unusedSince],
      );
      return result.rows.length;
    },
    async drop(installationId) {
      await sql.query('DELETE FROM catalogue_answers WHERE installation_id = $1', [installationId]);
      await sql.query('DELETE FROM catalogue_sources WHERE installation_id = $1', [installationId]);
    },
  };
}
