// Searches after the index moves: the candidates a search keeps (by repository, query and
// index state) never hide a note that an edit or an outside commit gave the text.
import { afterEach, describe, expect, it } from 'vitest';
import { callTool } from '../../../test/support/call-tool.ts';
import { commitOutside, openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import type { ToolContext } from '../tool.ts';
import { editNote } from './edit-note.ts';
import { findReferences } from './find-references.ts';
import { searchNotes } from './search-notes.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** The paths each kind of search finds, in order: plain, regex, a `\b` word, find_references. */
async function found(ctx: ToolContext): Promise<string[][]> {
  const search = async (query: string, regex: boolean) =>
    (await callTool(searchNotes, { repo: 'notes', query, regex }, ctx)).matches.map((match) => match.path);
  const references = (await callTool(findReferences, { repo: 'notes', values: ['zebra crossing'] }, ctx)).references.map((ref) => ref.path);
  return [
    await search('zebra crossing', false),
    await search('zebra\\s+cross\\w+', true),
    await search('(?i)\\bZEBRA\\b', true),
    references,
  ];
}

const all = (paths: string[]) => [paths, paths, paths, paths];

describe('search candidates', () => {
  it('follow the index: after an edit_note and after an outside commit, every search finds the new lines', async () => {
    fixture = await openWriteFixture({
      'a.md': 'A zebra crossing here.\n',
      'b.md': 'Nothing to see.\n',
      'c.md': 'Zebras and zebrafish, crossings neither.\n',
    });
    const ctx = await fixture.context();
    // Asked twice at one state: the second time from the kept candidates.
    for (let i = 0; i < 2; i++) expect(await found(ctx)).toEqual(all(['a.md']));
    await callTool(
      editNote,
      { repo: 'notes', path: 'b.md', old_text: 'Nothing to see.', new_text: 'The zebra crossing.', summary: 'S' },
      ctx,
    );
    expect(await found(ctx)).toEqual(all(['a.md', 'b.md']));
    commitOutside(fixture, { 'a.md': 'Gone.\n', 'd.md': 'Another zebra crossing.\n' }, 'Outside');
    await fixture.installation.refresh('notes', { force: true });
    expect(await found(await fixture.context())).toEqual(all(['b.md', 'd.md']));
  });
});
