// The embedded Index adapter: PGlite (Postgres compiled to WASM) in a data folder or in memory.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Opens PGlite in `dataDir`, a folder that keeps the database between runs, or in memory
 * when `dataDir` is null (tests). A new database is not made with `initdb` (about 3 s of
 * CPU and 120 MB that stay resident) but unpacked from a template: an empty database with
 * every migration applied, made once per PGlite version and migration set and kept in the
 * operating system's temporary folder ({@link pgliteTemplate}). PGlite is one connection:
 * its own lock serialises queries and transactions.
 */
export async function openPglite(dataDir: string | null): Promise<SqlClient> {
  const fresh = dataDir === null || !existsSync(join(dataDir, 'PG_VERSION'));
  if (!fresh) return pgliteClient(await PGlite.create({ dataDir, startParams }));
  try {
    return pgliteClient(await createFromTemplate(dataDir, await pgliteTemplate()));
  } catch {
    // A cached template cut short (a full disk) does not unpack: make it again, once.
    if (dataDir !== null) rmSync(dataDir, { recursive: true, force: true });
    return pgliteClient(await createFromTemplate(dataDir, await pgliteTemplate({ remake: true })));
  }
}

function createFromTemplate(dataDir: string | null, loadDataDir: Blob): Promise<PGlite> {
  return PGlite.create({ ...(dataDir === null ? {} : { dataDir }), loadDataDir, startParams });
}

let template: Promise<Blob> | null = null;

/**
 * The template database as a gzipped tar (PGlite's `dumpDataDir`): read from the temporary
 * folder, or made there (in memory with `initdb`, then `pg_trgm`, which the first migration
 * needs, and every migration) under a name unique to what it depends on. Read once per
 * process; `remake` discards the file and makes it again.
 */
export function pgliteTemplate(options: { remake?: boolean } = {}): Promise<Blob> {
  if (options.remake) template = null;
  template ??= loadOrMakeTemplate(options.remake === true).catch((error: unknown) => {
    template = null;
    throw error;
  });
  return template;
}

async function loadOrMakeTemplate(remake: boolean): Promise<Blob> {
  const path = join(tmpdir(), `major-vault-pglite-${templateKey()}.tar.gz`);
  if (remake) rmSync(path, { force: true });
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const db = await PGlite.create({ extensions: { pg_trgm }, startParams });
  let blob: Blob;
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await migrate(pgliteClient(db));
    blob = await db.dumpDataDir('gzip');
  } finally {
    await db.close();
  }
  // Written aside and renamed, so another process never reads half a file.
  const partial = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
    renameSync(partial, path);
  } catch {
    // A read-only temporary folder: this process still uses the template it made.
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
