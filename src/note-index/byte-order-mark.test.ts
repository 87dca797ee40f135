// The index hands a note's text back as stored, byte order mark included, on both engines:
// PGlite's decoding drops a leading U+FEFF where node-postgres keeps it (note-index.ts
// `wholeText`), and the project keeps a BOM so a text round-trips (notes/note-text.ts).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';
import { syncRepo } from './indexer.ts';
import { createNoteIndex, type NoteIndex } from './note-index.ts';
import type { SqlClient } from './sql-client.ts';

const bom = '\uFEFF';
const short = `${bom}# Marked\n\nA marked note.\n`;
const long = `${bom}# Long\n${'a line of a long marked note\n'.repeat(12_000)}`;

describe('a note saved with a byte order mark, read back from the index', () => {
  const dir = tempDir('mv-index-bom-');
  let sql: SqlClient;
  let host: LocalRepoHost;
  let index: NoteIndex;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'notes'), [
      { message: 'Marked notes', files: { 'Marked.md': short, 'Long.md': long, 'Plain.md': '# Plain\n' } },
    ]);
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

  it('keeps the mark in getNote, contents and scans, short and long, and adds none elsewhere', async () => {
    expect(long.length).toBeGreaterThan(256 * 1024);
    expect((await index.getNote('notes', 'Marked.md'))?.content).toBe(short);
    expect((await index.getNote('notes', 'Long.md'))?.content).toBe(long);
    expect((await index.getNote('notes', 'Plain.md'))?.content).toBe('# Plain\n');
    expect(await index.contents('notes', ['Marked.md', 'Plain.md'])).toEqual(
      new Map([
        ['Marked.md', short],
        ['Plain.md', '# Plain\n'],
      ]),
    );
    const scanned = await index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
      needle: null,
      caseSensitive: false,
      after: null,
      limit: 10,
    });
    expect(scanned.map((note) => [note.path, note.content])).toEqual([
      ['Long.md', long],
      ['Marked.md', short],
      ['Plain.md', '# Plain\n'],
    ]);
  });
});
