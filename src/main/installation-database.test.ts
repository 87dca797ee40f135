// One database per installation on the Postgres server (needs DATABASE_URL; skipped on PGlite alone).
import { describe, expect, it } from 'vitest';
import {
  createInstallationDatabase,
  dropInstallationDatabase,
  installationDatabaseName,
  installationDatabaseUrl,
  openInstallationDatabase,
} from './installation-database.ts';

const serverUrl = process.env.DATABASE_URL;

describe('installation databases', () => {
  it('names a database by installation id, on the same server with the same options', () => {
    expect(installationDatabaseName(42)).toBe('major_vault_installation_42');
    expect(installationDatabaseUrl('postgres://mv:secret@db:5432/major_vault?sslmode=require', 42)).toBe(
      'postgres://mv:secret@db:5432/major_vault_installation_42?sslmode=require',
    );
    expect(() => installationDatabaseName(0)).toThrow(/positive integer/);
    expect(() => installationDatabaseName(Number.NaN)).toThrow(/positive integer/);
  });

  it.skipIf(!serverUrl)('creates and migrates one at once from four callers, opens it, and drops it with open connections', async () => {
    const id = 900_000_000 + Math.floor(Math.random() * 90_000_000);
    try {
      await Promise.all([1, 2, 3, 4].map(() => createInstallationDatabase(serverUrl!, id)));
      const sql = await openInstallationDatabase(serverUrl!, id);
      const tables = await sql.query<{ n: string }>("SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'notes'");
      expect(Number(tables.rows[0]!.n)).toBe(1);
      await dropInstallationDatabase(serverUrl!, id);
      await sql.close().catch(() => undefined);
      await expect(openInstallationDatabase(serverUrl!, id)).rejects.toThrow(/installation on/);
    } finally {
      await dropInstallationDatabase(serverUrl!, id);
    }
  });
});
