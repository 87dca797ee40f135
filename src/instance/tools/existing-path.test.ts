// Paths in and out are exact Unicode: every path a tool returns, passed back exactly, finds
// its file; a path differing only in Unicode normalisation from one existing file finds it;
// names with a tab, a line break or another control character, `<repo>/<path>` from answers
// across repositories, and files other than notes (.base) — through real Git repositories.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callTool, openHistoryFixture, refusalOf, type HistoryFixture } from '../../../test/history/history-fixture.ts';
import { callTool as callWriteTool, refusalOf as writeRefusalOf } from '../../../test/support/call-tool.ts';
import { makeRepo } from '../../../test/support/git-fixture.ts';
import { openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import type { ToolContext } from '../tool.ts';
import { baseView } from './base-view.ts';
import { createNote } from './create-note.ts';
import { editNote } from './edit-note.ts';
import { findReferences } from './find-references.ts';
import { listNotes } from './list-notes.ts';
import { moveNote } from './move-note.ts';
import { noteHistory } from './note-history.ts';
import { readNote } from './read-note.ts';
import { searchHistory } from './search-history.ts';
import { searchNotes } from './search-notes.ts';
import { tree } from './tree.ts';

process.env.TZ = 'Europe/Berlin';

const nfd = 'Tests/cafe\u0301.md';
const nfc = 'Tests/caf\u00e9.md';
const nfdFolder = 'U\u0308ber';
const tabName = 'Tests/tab\tname.md';
const lineBreakName = 'Tests/line\nbreak.md';
const controlName = 'Tests/bell\u0007.md';
const spaced = 'Tests/ spaced .md';
const goneNfd = 'Old/de\u0301ja\u0300.md';
const goneBase = 'Old/Gone.base';

let fixture: HistoryFixture;
let ctx: ToolContext;

beforeAll(async () => {
  fixture = await openHistoryFixture((reposDir) => {
    makeRepo(join(reposDir, 'kepano'), [
      {
        message: 'First notes',
        date: '2026-01-10T10:00:00+01:00',
        files: {
          [nfd]: '# Café\n\nStrong coffee.\n',
          [tabName]: 'tab\n',
          [lineBreakName]: 'line break\n',
          [controlName]: 'bell\n',
          [spaced]: 'spaced\n',
          'Tests/-p.md': 'dash p\n',
          [`${nfdFolder}/inner.md`]: 'inner\n',
          [`${nfdFolder}/Sub/deep.md`]: 'deep inner\n',
          'notes/plan.md': 'See [[cafe\u0301]] and [[Albums.base]].\n',
          'Templates/Bases/Albums.base': 'views:\n  - type: table\n    name: All\n',
          [goneNfd]: 'gone\n',
          [goneBase]: 'views: []\n',
        },
      },
      {
        message: 'Edit the café note',
        date: '2026-01-11T10:00:00+01:00',
        files: {
          [nfd]: '# Café\n\nStrong coffee, no sugar.\n',
          'Templates/Bases/Albums.base': 'views:\n  - type: table\n    name: Every album\n',
        },
      },
      { message: 'Remove old files', date: '2026-01-12T10:00:00+01:00', files: { [goneNfd]: null, [goneBase]: null } },
    ]);
    makeRepo(join(reposDir, 'other'), [{ message: 'Other', date: '2026-01-09T10:00:00+01:00', files: { 'x.md': 'x\n' } }]);
  });
  ctx = await fixture.context();
});

afterAll(async () => {
  await fixture?.close();
});

describe('a path any tool returns, passed back exactly, finds the note', () => {
  it('list_notes lists names as Git holds them, and read_note and note_history take each one back', async () => {
    const listed = (await callTool(listNotes, ctx, { repo: 'kepano' })).notes.map((note) => note.path);
    expect(listed).toEqual(expect.arrayContaining([nfd, tabName, lineBreakName, controlName, spaced, `${nfdFolder}/inner.md`]));
    for (const path of listed) {
      expect((await callTool(readNote, ctx, { repo: 'kepano', path })).path).toBe(path);
      if (path === lineBreakName) continue; // note_history refuses it clearly: see below
      expect((await callTool(noteHistory, ctx, { repo: 'kepano', path })).commits.length, path).toBeGreaterThan(0);
    }
  });

  it('search_history names files as Git holds them, and note_history takes each one back, deleted ones too', async () => {
    const files = (await callTool(searchHistory, ctx, { repo: 'kepano' })).commits.flatMap((commit) =>
      commit.files.map((file) => file.path),
    );
    expect(files).toEqual(expect.arrayContaining([nfd, goneNfd, goneBase, 'Templates/Bases/Albums.base']));
    for (const path of new Set(files)) {
      if (path === lineBreakName) continue;
      const answer = await callTool(noteHistory, ctx, { repo: 'kepano', path });
      expect(answer.path, path).toBe(path);
      expect(answer.commits.length, path).toBeGreaterThan(0);
    }
  });
});

describe('a path differing only in Unicode normalisation finds the one note it names', () => {
  it('read_note answers with the stored (decomposed) spelling, from either form', async () => {
    for (const path of [nfd, nfc, 'Tests/café']) {
      const answer = await callTool(readNote, ctx, { repo: 'kepano', path });
      expect(answer.path).toBe(nfd);
      expect(answer.content).toContain('no sugar');
    }
  });

  it('note_history lists, diffs and blames the note from either form', async () => {
    for (const path of [nfd, nfc, 'Tests/café']) {
      const answer = await callTool(noteHistory, ctx, { repo: 'kepano', path });
      expect(answer.path).toBe(nfd);
      expect(answer.commits.map((commit) => commit.subject)).toEqual(['Edit the café note', 'First notes']);
    }
    const blame = await callTool(noteHistory, ctx, { repo: 'kepano', path: nfc, blame: true });
    expect(blame.blame?.[0]?.path).toBe(nfd);
  });

  it('search_history, list_notes, tree and search_notes take a folder or file in the other form', async () => {
    const byFile = await callTool(searchHistory, ctx, { repo: 'kepano', path: nfc });
    expect(byFile.commits.map((commit) => commit.subject)).toEqual(['Edit the café note', 'First notes']);
    const byFolder = await callTool(searchHistory, ctx, { repo: 'kepano', path: '\u00dcber' });
    const inside = [`${nfdFolder}/Sub/deep.md`, `${nfdFolder}/inner.md`];
    expect(byFolder.commits.map((commit) => commit.files.map((file) => file.path).sort())).toEqual([inside]);
    expect((await callTool(listNotes, ctx, { repo: 'kepano', folder: '\u00dcber' })).notes.map((note) => note.path)).toEqual(inside);
    expect((await callTool(tree, ctx, { repo: 'kepano', folder: '\u00dcber/' })).entries.map((entry) => entry.path)).toEqual([
      `${nfdFolder}/Sub/`,
    ]);
    expect(
      (await callTool(searchNotes, ctx, { repo: 'kepano', query: 'inner', path: '\u00dcber' })).matches.map((match) => match.path),
    ).toEqual(inside);
  });

  it('find_references finds the links to the note from either form', async () => {
    for (const path of [nfd, nfc, 'Tests/café']) {
      const answer = await callTool(findReferences, ctx, { repo: 'kepano', path });
      expect(answer.counts).toEqual([{ value: nfd, lines: 1, capped: false }]);
      expect(answer.references.map((ref) => ref.path)).toEqual(['notes/plan.md']);
    }
  });
});

describe('names with a tab, a line break or another control character', () => {
  it('read_note and note_history take a name with a tab or a bell character', async () => {
    for (const path of [tabName, controlName]) {
      expect((await callTool(readNote, ctx, { repo: 'kepano', path })).path).toBe(path);
      expect((await callTool(noteHistory, ctx, { repo: 'kepano', path })).commits.map((commit) => commit.path)).toEqual([path]);
    }
  });

  it('read_note takes a name with a line break; note_history refuses it, saying what reads it', async () => {
    expect((await callTool(readNote, ctx, { repo: 'kepano', path: lineBreakName })).content).toBe('line break');
    const message = await refusalOf(noteHistory, ctx, { repo: 'kepano', path: lineBreakName }, 'invalid_path');
    expect(message).toContain('line break');
    expect(message).toContain('read_note');
  });

  it('keeps white space at the ends of a name that has it, and still trims a path that has none there', async () => {
    expect((await callTool(readNote, ctx, { repo: 'kepano', path: spaced })).content).toBe('spaced');
    expect((await callTool(readNote, ctx, { repo: 'kepano', path: ' Tests/-p.md\t' })).path).toBe('Tests/-p.md');
  });

  it('still refuses NUL, and a control character in a path for a new note', async () => {
    expect(await refusalOf(readNote, ctx, { repo: 'kepano', path: 'a\u0000b.md' }, 'invalid_path')).toContain('NUL');
  });
});

describe('`<repo>/<path>`, as answers across repositories name files, passed back with repo', () => {
  it('search_history across repositories names kepano/…, and every tool takes that path back with repo', async () => {
    const files = (await callTool(searchHistory, ctx, {})).commits.flatMap((commit) => commit.files.map((file) => file.path));
    expect(files).toContain('kepano/Tests/-p.md');
    expect(files).toContain('other/x.md');
    const history = await callTool(noteHistory, ctx, { repo: 'kepano', path: 'kepano/Tests/-p.md' });
    expect(history).toMatchObject({ path: 'Tests/-p.md', commits: [{ subject: 'First notes' }] });
    expect((await callTool(noteHistory, ctx, { repo: 'kepano', path: `kepano/${goneNfd}` })).path).toBe(goneNfd);
    expect((await callTool(readNote, ctx, { repo: 'kepano', path: 'kepano/Tests/-p.md' })).path).toBe('Tests/-p.md');
    expect((await callTool(readNote, ctx, { repo: 'kepano', path: `kepano/${nfc}` })).path).toBe(nfd);
    expect((await callTool(findReferences, ctx, { repo: 'kepano', path: `kepano/${nfd}` })).counts[0]?.value).toBe(nfd);
    expect((await callTool(listNotes, ctx, { repo: 'kepano', folder: 'kepano/Tests' })).notes.length).toBeGreaterThan(3);
    expect(
      (await callTool(searchHistory, ctx, { repo: 'kepano', path: 'kepano/Tests/-p.md' })).commits.map((commit) => commit.subject),
    ).toEqual(['First notes']);
    expect((await callTool(baseView, ctx, { repo: 'kepano', path: 'kepano/Templates/Bases/Albums.base' })).path).toBe(
      'Templates/Bases/Albums.base',
    );
  });
});

describe('files other than notes in note_history', () => {
  it('takes a .base path as given, now or deleted, and adds .md only when the path as given has no file', async () => {
    const albums = await callTool(noteHistory, ctx, { repo: 'kepano', path: 'Templates/Bases/Albums.base' });
    expect(albums.path).toBe('Templates/Bases/Albums.base');
    expect(albums.commits.map((commit) => commit.subject)).toEqual(['Edit the café note', 'First notes']);
    const first = albums.commits[1]!.commit;
    expect(
      (await callTool(noteHistory, ctx, { repo: 'kepano', path: 'Templates/Bases/Albums.base', at: first })).version?.content,
    ).toContain('name: All');
    expect((await callTool(noteHistory, ctx, { repo: 'kepano', path: goneBase })).commits.map((commit) => commit.subject)).toEqual([
      'Remove old files',
      'First notes',
    ]);
    expect((await callTool(noteHistory, ctx, { repo: 'kepano', path: 'notes/plan' })).path).toBe('notes/plan.md');
    expect(await refusalOf(noteHistory, ctx, { repo: 'kepano', path: 'notes/none' }, 'note_not_found')).toContain('notes/none.md');
    const missingBase = await refusalOf(noteHistory, ctx, { repo: 'kepano', path: 'Templates/Bases/None.base' }, 'note_not_found');
    expect(missingBase).toContain('Templates/Bases/None.base ');
    expect(missingBase).not.toContain('None.base.md');
  });

  it('read_note points a .base file at base_view and note_history', async () => {
    const message = await refusalOf(readNote, ctx, { repo: 'kepano', path: 'Templates/Bases/Albums.base' }, 'not_a_note');
    expect(message).toContain('base_view');
    expect(message).toContain('note_history');
  });
});

describe('times that do not exist', () => {
  it('search_history names the time, not the day, in since 24:00', async () => {
    const error = await refusalOf(searchHistory, ctx, { repo: 'kepano', since: '2026-09-24T24:00' }, 'bad_arguments');
    expect(error).toContain('24:00 is not a time of day');
    expect(error).not.toContain('not a day that exists');
  });
});

describe('the write tools find the note a path names, and name new notes in NFC', () => {
  let writes: WriteFixture | undefined;
  afterEach(async () => {
    await writes?.close();
    writes = undefined;
  });

  it('edit_note changes the decomposed note named in either form, and a note with a tab in its name', async () => {
    writes = await openWriteFixture({ [nfd]: 'one\n', [tabName]: 'tab\n' });
    const context = await writes.context();
    const answer = await callWriteTool(
      editNote,
      { repo: 'notes', path: nfc, old_text: 'one', new_text: 'two', summary: 'Edited' },
      context,
    );
    expect(answer.path).toBe(nfd);
    expect(writes.git(['ls-files', '-z', 'Tests']).split('\0').filter(Boolean).sort()).toEqual([nfd, tabName].sort());
    expect(writes.show(nfd).toString()).toBe('two\n');
    await callWriteTool(editNote, { repo: 'notes', path: tabName, old_text: 'tab', new_text: 'TAB', summary: 'Edited' }, context);
    expect(writes.show(tabName).toString()).toBe('TAB\n');
  });

  it('move_note moves the decomposed note named in NFC; a new name with a tab is refused as a new name', async () => {
    writes = await openWriteFixture({ [nfd]: 'one\n', [tabName]: 'tab\n' });
    const context = await writes.context();
    const moved = await callWriteTool(moveNote, { repo: 'notes', from: nfc, to: 'Archive/café.md', summary: 'Archived' }, context);
    expect(moved).toMatchObject({ from: nfd, to: 'Archive/caf\u00e9.md' });
    expect(writes.git(['ls-files', '-z']).split('\0').filter(Boolean).sort()).toEqual(['Archive/caf\u00e9.md', tabName].sort());
    const refusal = await writeRefusalOf(
      callWriteTool(moveNote, { repo: 'notes', from: tabName, to: 'Tests/tab\tagain.md', summary: 'Renamed' }, context),
    );
    expect(refusal.code).toBe('invalid_path');
    expect(refusal.message).toContain('create or move');
    const created = await writeRefusalOf(callWriteTool(createNote, { repo: 'notes', path: 'Tests/new\tone.md', body: 'New\n' }, context));
    expect(created.message).toContain('create or move');
  });
});
