// The operator's `installation on|off|list` against the Store where serve-github keeps it: a
// PGlite data folder (always), and the Postgres server when DATABASE_URL is set.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/git-fixture.ts';
import { migrate } from '../note-index/migrate.ts';
import { openPglite } from '../note-index/pglite-client.ts';
import { sqlStore } from '../note-index/sql-store.ts';
import { PgBossJobs } from '../jobs/pg-boss-jobs.ts';
import { lockIndexDir } from './index-lock.ts';
import { dropInstallationDatabase, openInstallationDatabase } from './installation-database.ts';
import {
  installationTable,
  listInstallations,
  switchInstallationOff,
  switchInstallationOn,
  type OperatorPlace,
} from './installation-operator.ts';
import { openPostgresStore } from './open-store.ts';

const bin = fileURLToPath(new URL('../../bin/major-vault.js', import.meta.url));
const run = promisify(execFile);

/** The same checks on either place, after installations 41 (acme) and 42 (globex) were seen. */
function operatorChecks(place: () => OperatorPlace) {
  it('lists the installations GitHub told of, switches one on by name, and off', async () => {
    expect((await listInstallations(place())).map((record) => [record.id, record.status, record.account])).toEqual([
      [41, 'pending', 'acme'],
      [42, 'pending', 'globex'],
    ]);
    expect(await switchInstallationOn(place(), 41, 'acme')).toMatchObject({ id: 41, name: 'acme', status: 'on' });
    const table = installationTable(await listInstallations(place()));
    expect(table.split('\n')[0]).toMatch(/^ID\s+STATUS\s+NAME\s+ACCOUNT\s+CHANGED$/);
    expect(table).toMatch(/41\s+on\s+acme\s+acme/);
    expect(table).toMatch(/42\s+pending\s+-\s+globex/);
    expect(await switchInstallationOff(place(), 41)).toMatchObject({ id: 41, name: 'acme', status: 'off' });
    expect(await switchInstallationOn(place(), 41, 'acme')).toMatchObject({ status: 'on' });
  });

  it('refuses an unknown id, a name that cannot be an address, and a name another installation has', async () => {
    await expect(switchInstallationOn(place(), 43, 'initech')).rejects.toThrow(/No installation 43 is known here.*installation list/);
    await expect(switchInstallationOff(place(), 99)).rejects.toThrow(/No installation 99 is known here/);
    await expect(switchInstallationOn(place(), 42, 'glob ex')).rejects.toThrow(/cannot be an address; give another with --name/);
    await expect(switchInstallationOn(place(), 42, 'ACME')).rejects.toThrow(/belongs to installation 41 already/);
    expect((await listInstallations(place())).find((record) => record.id === 42)).toMatchObject({ status: 'pending', name: null });
  });
}

describe('the installation table', () => {
  it('escapes control characters in names and accounts, so a webhook cannot drive the terminal', () => {
    const table = installationTable([
      {
        id: 7,
        status: 'pending',
        name: null,
        account: 'evil\u001b]0;owned\u0007\u001b[2J\u202e',
        updatedAt: new Date('2026-01-02T03:04:00Z'),
      },
    ]);
    expect(table).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(table.split('\n')[1]).toBe('7   pending  -     evil\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\u{202e}  2026-01-02 03:04');
  });
});

describe('installation on|off|list on a PGlite data folder', () => {
  const dir = tempDir('mv-operator-');
  const dataDir = join(dir.path, 'data');
  beforeAll(async () => {
    const sql = await openPglite(join(dataDir, 'index'));
    await migrate(sql);
    await sqlStore(sql).installations.seen(41, 'acme');
    await sqlStore(sql).installations.seen(42, 'globex');
    await sql.close();
  });
  afterAll(() => dir.cleanup());

  operatorChecks(() => ({ dataDir, env: {} }));

  it('refuses a folder a running server holds, and one that holds no index', async () => {
    const lock = await lockIndexDir(dataDir, 0);
    try {
      await expect(listInstallations({ dataDir, env: {} })).rejects.toThrow(
        /in use by a running major-vault server.*Stop the server.*DATABASE_URL/,
      );
    } finally {
      lock!.release();
    }
    await expect(listInstallations({ dataDir: dir.path, env: {} })).rejects.toThrow(/holds no Major Vault index: give --data the folder/);
    await expect(listInstallations({ env: {} })).rejects.toThrow(/--data DIR .* or --database-url URL/);
  });

  it('runs as the command an operator types', async () => {
    const env = { ...process.env, DATABASE_URL: '' };
    const on = await run(process.execPath, [bin, 'installation', 'on', '42', '--name', 'globex', '--data', dataDir], { env });
    expect(on.stdout).toBe('Installation 42 (globex) is on, at /globex.\n');
  }, 120_000);
});

describe.skipIf(!process.env['DATABASE_URL'])('installation on|off|list on the Postgres server', () => {
  const databaseUrl = process.env['DATABASE_URL']!;
  const schema = `t_store_${randomBytes(6).toString('hex')}`;
  const queueSchema = `t_queue_${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    const opened = await openPostgresStore(databaseUrl, schema);
    await opened.store.installations.seen(41, 'acme');
    await opened.store.installations.seen(42, 'globex');
    await opened.close();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS "${queueSchema}" CASCADE`);
    await admin.end();
    for (const id of [41, 42]) await dropInstallationDatabase(databaseUrl, id);
  });

  // No data folder: the server is where serve-github keeps the Store, with or without one.
  operatorChecks(() => ({ databaseUrl, schema, queueSchema }));

  it('creates and migrates the installation’s own database, and sends the worker refresh-installation', async () => {
    const switched = await switchInstallationOn({ databaseUrl, schema, queueSchema }, 41, 'acme');
    expect(switched).toMatchObject({ id: 41, status: 'on', database: 'major_vault_installation_41', refreshQueued: true });
    const sql = await openInstallationDatabase(databaseUrl, 41, { maxConnections: 1 });
    try {
      const tables = await sql.query<{ n: string }>("SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'notes'");
      expect(Number(tables.rows[0]!.n)).toBe(1);
    } finally {
      await sql.close();
    }
    // The worker finds the job on the queue.
    const jobs = await PgBossJobs.open({
      database: { databaseUrl },
      schema: queueSchema,
      worker: true,
      timing: { pollingIntervalSeconds: 0.5 },
    });
    try {
      const received = await new Promise<number>((resolve) => {
        void jobs.work('refresh-installation', 1, async (job) => resolve(job.installationId));
      });
      expect(received).toBe(41);
    } finally {
      await jobs.close({ timeoutMs: 1000 });
    }
  });
});
