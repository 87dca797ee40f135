// The notes' texts kept by blob id (NoteTexts): scans and contents answer with the text of
// the note as indexed now, and the kept texts stay within their bound in bytes.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';
import { commit, makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { syncRepo } from './indexer.ts';
import { createNoteIndex, NoteTexts, type NoteIndex } from './note-index.ts';
import type { SqlClient } from './sql-client.ts';
import { searchFold } from './trigram-keys.ts';

describe('notes’ texts kept by blob id', () => {
  const dir = tempDir('mv-texts-');
  const repoDir = join(dir.path, 'notes');
  let sql: SqlClient;
  let host: LocalRepoHost;
  let index: NoteIndex;
  const all = [{ repo: 'notes', prefixes: [''] }];
  const bodies = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`n${i}.md`, `Note ${i} ${'Ünïcode words '.repeat(70)}\n`]));

  beforeAll(async () => {
    makeRepo(repoDir, [{ message: 'Notes', files: { 'a.md': 'Alpha OLD text\n', 'b.md': 'Beta text\n', ...bodies } }]);
    host = new LocalRepoHost({ reposDir: dir.path });
    sql = await openTestDatabase();
    index = createNoteIndex(sql);
    await syncRepo(sql, host, 'notes');
  });

  afterAll(async () => {
    await sql?.close();
    await host?.close();
    dir.cleanup();
  });

  const scan = async (needle: string | null, caseSensitive: boolean) =>
    (await index.scanNotes(all, { needle, caseSensitive, after: null, limit: 20 })).filter((note) => !note.path.startsWith('n'));

  it('answers with the new text once a note changes (a new blob id), in scans and in contents', async () => {
    // Read twice: the second answers from the kept texts and folded forms.
    for (let i = 0; i < 2; i++) {
      expect(await scan('old', false)).toEqual([{ repo: 'notes', path: 'a.md', content: 'Alpha OLD text\n' }]);
      expect(await scan('OLD', true)).toEqual([{ repo: 'notes', path: 'a.md', content: 'Alpha OLD text\n' }]);
      expect(await index.contents('notes', ['a.md', 'b.md', 'gone.md'])).toEqual(
        new Map([
          ['a.md', 'Alpha OLD text\n'],
          ['b.md', 'Beta text\n'],
        ]),
      );
    }
    commit(repoDir, { message: 'Edit', files: { 'a.md': 'Alpha NEW text\n' } });
    await syncRepo(sql, host, 'notes');
    expect(await scan('old', false)).toEqual([]);
    expect(await scan('new', false)).toEqual([{ repo: 'notes', path: 'a.md', content: 'Alpha NEW text\n' }]);
    expect(await scan('alpha', false)).toEqual([{ repo: 'notes', path: 'a.md', content: 'Alpha NEW text\n' }]);
    expect(await scan(null, false)).toEqual([
      { repo: 'notes', path: 'a.md', content: 'Alpha NEW text\n' },
      { repo: 'notes', path: 'b.md', content: 'Beta text\n' },
    ]);
    expect((await index.contents('notes', ['a.md'])).get('a.md')).toBe('Alpha NEW text\n');
  });

  it('answers every note when the bound keeps only a few texts (reading some pushes others out)', async () => {
    const small = createNoteIndex(sql, { noteTextsBytes: 8 * 1024 });
    const paths = ['a.md', 'b.md', ...Object.keys(bodies)].sort();
    const words = Object.keys(bodies).sort();
    for (let i = 0; i < 3; i++) {
      expect((await small.scanNotes(all, { needle: null, caseSensitive: false, after: null, limit: 20 })).map((n) => n.path)).toEqual(
        paths,
      );
      expect((await small.scanNotes(all, { needle: 'ünïcode', caseSensitive: false, after: null, limit: 20 })).map((n) => n.path)).toEqual(
        words,
      );
      expect([...(await small.contents('notes', paths)).keys()].sort()).toEqual(paths);
    }
  });

  it('keeps texts and folded forms within its bound in bytes, the least recently used going first', async () => {
    const rows = (
      await sql.query<{ id: number; oid: string; content: string }>(
        `SELECT id, oid, content FROM notes WHERE repo = $1 AND path LIKE 'n%'`,
        ['notes'],
      )
    ).rows;
    expect(rows).toHaveLength(12);
    const bound = 8 * 1024;
    const texts = new NoteTexts(bound);
    const fetched = await texts.fetch(
      sql,
      rows.map((row) => ({ repo: 'notes', id: row.id })),
    );
    // Every text is given, though not every one is kept.
    for (const row of rows)
      expect(fetched.get(`notes\0${row.id}`)).toEqual({ path: expect.any(String), oid: row.oid, content: row.content });
    for (const row of rows) expect(texts.fold(row.oid, row.content)).toBe(searchFold(row.content));
    expect(texts.calculatedSize).toBeGreaterThan(0);
    expect(texts.calculatedSize).toBeLessThanOrEqual(bound);
    const kept = rows.filter((row) => texts.has(row.oid));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(rows.length);
    for (const row of kept) expect(texts.get(row.oid)).toBe(row.content);
  });
});
