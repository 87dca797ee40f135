// The kept file rows answer as the table does: after own writes, and after another writer's.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';
import { makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { applyCommittedFiles, syncRepo } from './indexer.ts';
import type { SqlClient } from './sql-client.ts';
import { storedFileOids } from './stored-file-oids.ts';

const fields = { typeField: 'type', summaryField: 'summary', folders: ['/'] };

async function tableOids(sql: SqlClient, repo: string): Promise<Map<string, string>> {
  const rows = (await sql.query<{ path: string; oid: string }>('SELECT path, oid FROM files WHERE repo = $1', [repo])).rows;
  return new Map(rows.map((row) => [row.path, row.oid]));
}

describe('storedFileOids', () => {
  it('answers the rows of files after own commits, a sync and another writer', async () => {
    const dir = tempDir('mv-file-oids-');
    makeRepo(join(dir.path, 'notes'), [{ message: 'Start', files: { 'a.md': '# A\n', 'b.md': '# B\n[[a]]\n', 'c.md': '# C\n' } }]);
    const host = new LocalRepoHost({ reposDir: dir.path });
    const sql = await openTestDatabase();
    try {
      expect(await storedFileOids(sql, 'notes')).toEqual(new Map());
      await syncRepo(sql, host, 'notes');
      expect(await storedFileOids(sql, 'notes')).toEqual(await tableOids(sql, 'notes'));
      // A copy: changing it changes nothing kept.
      (await storedFileOids(sql, 'notes')).clear();
      expect((await storedFileOids(sql, 'notes')).size).toBe(3);

      let parent = (await host.snapshot('notes')).head;
      for (const files of [
        [
          { path: 'a.md', content: null },
          { path: 'moved/a.md', content: Buffer.from('# A\n'), from: 'a.md' },
          { path: 'b.md', content: Buffer.from('# B\n[[moved/a]]\n') },
        ],
        [{ path: 'd.md', content: Buffer.from('# D\n') }],
      ]) {
        const done = await host.commit('notes', { parent, files, author: { login: 'a', name: 'A', email: 'a@x' }, message: 'Change' });
        parent = done.ok ? done.commit : null;
        expect(await applyCommittedFiles(sql, 'notes', { head: parent!, fields, files })).toBe(true);
        expect(await storedFileOids(sql, 'notes')).toEqual(await tableOids(sql, 'notes'));
      }
      expect([...(await storedFileOids(sql, 'notes')).keys()].sort()).toEqual(['b.md', 'c.md', 'd.md', 'moved/a.md']);

      // Another writer (another process on the same database) changes rows and the fingerprint.
      await sql.query('DELETE FROM files WHERE repo = $1 AND path = $2', ['notes', 'c.md']);
      await sql.query('UPDATE repos SET fingerprint = $2 WHERE name = $1', ['notes', 'elsewhere']);
      expect(await storedFileOids(sql, 'notes')).toEqual(await tableOids(sql, 'notes'));
      expect((await storedFileOids(sql, 'notes')).has('c.md')).toBe(false);
    } finally {
      await sql.close();
      await host.close();
      dir.cleanup();
    }
  });
});
