// RE2's \w, \d, \s and \b know ASCII only: a regex with them that finds nothing says so and
// names the Unicode classes that work, which do find words of any script.
import { afterEach, describe, expect, it } from 'vitest';
import { callTool } from '../../../test/support/call-tool.ts';
import { openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import { searchNotes } from './search-notes.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('search_notes regex classes', () => {
  it('explain an ASCII-only class that finds nothing, and \\p{L} finds the word', async () => {
    fixture = await openWriteFixture({ 'ru.md': '# Заметка\n\nОдно слово здесь.\n' });
    const ctx = await fixture.context();
    const search = (query: string) => callTool(searchNotes, { repo: 'notes', query, regex: true }, ctx);
    for (const query of ['\\bслово\\b', 'Одно\\s\\w+']) {
      const answer = await search(query);
      expect(answer.matches).toEqual([]);
      expect(answer.note).toContain('know ASCII only');
      expect(answer.note).toContain('\\p{L}+');
    }
    expect((await search('Одно\\s\\p{L}+')).matches.map((match) => match.line)).toEqual([3]);
    // An escaped backslash before a w is no class: no such hint.
    expect((await search('слово\\\\w')).note).not.toContain('ASCII only');
  });
});
