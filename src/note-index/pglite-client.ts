// The embedded Index adapter: PGlite (Postgres compiled to WASM) in a data folder or in memory.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { listMigrations, migrate } from './migrate.ts';
import type { QueryResult, SqlClient } from './sql-client.ts';

/**
 * Postgres settings for an index of a few repositories. PGlite's WebAssembly memory never
 * shrinks, so what Postgres takes once stays resident for the life of the process:
 * `shared_buffers` of 16 MB instead of the default 128 MB (the operating system caches the
 * data files anyway) saves about 110 MB whatever the index holds, and search is as fast.
 */
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'wal_level=minimal', '-c', 'max_wal_senders=0'];

/**
 * Opens PGlite in `dataDir`, a folder that keeps the database between runs, or in memory
 * when `dataDir` is null (tests). A new database is not made with `initdb` (about 3 s of
 * CPU, and 120 MB that stay resident) but copied from a template: an empty database with
 * every migration applied, made once per PGlite version and migration set and kept in the
 * operating system's temporary folder, as a folder to copy and as a gzipped tar to load in
 * memory ({@link pgliteTemplate}). PGlite is one connection: its own lock serialises
 * queries and transactions.
 */
export async function openPglite(dataDir: string | null): Promise<SqlClient> {
  if (dataDir === null) return pgliteClient(await PGlite.create({ loadDataDir: (await pgliteTemplate()).tarball, startParams }));
  if (existsSync(join(dataDir, 'PG_VERSION'))) return pgliteClient(await PGlite.create({ dataDir, startParams }));
  try {
    await createFromTemplate(dataDir, await pgliteTemplate());
    return pgliteClient(await PGlite.create({ dataDir, startParams }));
  } catch {
    // A template damaged in the temporary folder (a full disk): make it again, once.
    rmSync(dataDir, { recursive: true, force: true });
    await createFromTemplate(dataDir, await pgliteTemplate({ remake: true }));
    return pgliteClient(await PGlite.create({ dataDir, startParams }));
  }
}

/** The template's folder copied to `dataDir` (aside, then renamed: never half a database there), else its tar unpacked by PGlite. */
async function createFromTemplate(dataDir: string, template: PgliteTemplate): Promise<void> {
  if (template.dir === null) {
    await (await PGlite.create({ dataDir, loadDataDir: template.tarball, startParams })).close();
    return;
  }
  const partial = `${dataDir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template.dir, partial, { recursive: true });
  // An empty folder (made by someone beforehand) is replaced; rename will not replace a full one.
  if (existsSync(dataDir) && readdirSync(dataDir).length === 0) rmSync(dataDir, { recursive: true });
  mkdirSync(dirname(dataDir), { recursive: true });
  renameSync(partial, dataDir);
}

/** The template database: a gzipped tar (PGlite's `dumpDataDir`), and a data folder unpacked from it (null when it cannot be written). */
export interface PgliteTemplate {
  tarball: Blob;
  dir: string | null;
}

let template: Promise<PgliteTemplate> | null = null;

/**
 * The template database, read from the temporary folder or made there: the tar in memory
 * with `initdb`, then `pg_trgm` (which the first migration needs) and every migration; the
 * folder by PGlite unpacking the tar into it. Both are written aside and renamed, under a
 * name unique to what they depend on, so another process never reads half of one. Read once
 * per process; `remake` discards both and makes them again.
 */
export function pgliteTemplate(options: { remake?: boolean } = {}): Promise<PgliteTemplate> {
  if (options.remake) template = null;
  template ??= loadOrMakeTemplate(options.remake === true).catch((error: unknown) => {
    template = null;
    throw error;
  });
  return template;
}

async function loadOrMakeTemplate(remake: boolean): Promise<PgliteTemplate> {
  const base = join(tmpdir(), `major-vault-pglite-${templateKey()}`);
  const tarPath = `${base}.tar.gz`;
  if (remake) {
    rmSync(tarPath, { force: true });
    rmSync(base, { recursive: true, force: true });
  }
  const tarball = existsSync(tarPath) ? new Blob([readFileSync(tarPath)]) : await makeTarball(tarPath);
  if (existsSync(join(base, 'PG_VERSION'))) return { tarball, dir: base };
  const partial = `${base}.${process.pid}.partial`;
  try {
    rmSync(partial, { recursive: true, force: true });
    await (await PGlite.create({ dataDir: partial, loadDataDir: tarball, startParams })).close();
    try {
      renameSync(partial, base);
    } catch (error) {
      // Another process put its copy there first; use that one.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(base, 'PG_VERSION'))) throw error;
    }
    return { tarball, dir: base };
  } catch {
    // A read-only temporary folder: unpack the tar for each new database instead.
    rmSync(partial, { recursive: true, force: true });
    return { tarball, dir: null };
  }
}

async function makeTarball(path: string): Promise<Blob> {
  const db = await PGlite.create({ extensions: { pg_trgm }, startParams });
  let blob: Blob;
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await migrate(pgliteClient(db));
    blob = await db.dumpDataDir('gzip');
  } finally {
    await db.close();
  }
  const partial = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
    renameSync(partial, path);
  } catch {
    rmSync(partial, { force: true });
  }
  return blob;
}

/** What the template depends on: PGlite's version and the migrations' text. */
function templateKey(): string {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(dirname(require.resolve('@electric-sql/pglite')));
  const hash = createHash('sha256').update(readFileSync(join(packageDir, 'package.json')));
  for (const migration of listMigrations()) hash.update(`\0${migration.version}\0${migration.sql}`);
  return hash.digest('hex').slice(0, 16);
}

function pgliteClient(db: PGlite): SqlClient {
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
