// search_notes and find_references read a note saved with a byte order mark as ripgrep does:
// after the mark, so `^# Title` matches its first line, through the index's candidates (the
// trigram keys) and the line matcher alike, in a short note and in a long one (over 256 KB,
// matched on the pool).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext, type TestToolContext } from '../../../test/support/tool-context.ts';
import { repoField } from '../../tools/tool.ts';
import { findReferences } from './find-references.ts';
import { searchNotes } from './search-notes.ts';

const bom = '\uFEFF';
const longNote = `${bom}# Long log\n${Array.from({ length: 6000 }, (_, i) => `entry ${i}: nothing to see here, move along`).join('\n')}\n`;

const files: Record<string, string> = {
  'Marked.md': `${bom}# Release plan\n\nShip it.\n`,
  'Fenced.md': `${bom}---\nstatus: draft\n---\n# Fenced plan\n`,
  'Plain.md': '# Release notes\n\nNo mark here.\n',
  'logs/Long.md': longNote,
};

describe('a note that starts with a byte order mark', () => {
  const dir = tempDir('mv-search-bom-');
  let ctx: TestToolContext;
  const search = async (input: Record<string, unknown>) =>
    searchNotes.output.parse(await searchNotes.handler(searchNotes.input(repoField([])).parse({ repo: 'notes', ...input }), ctx));

  beforeAll(async () => {
    makeRepo(join(dir.path, 'notes'), [{ message: 'Notes, two with a BOM', files }]);
    ctx = await openToolContext(dir.path, { matchBudgetMs: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await ctx?.close();
    dir.cleanup();
  });

  it('matches ^ at the start of its first line, and shows the line without the mark', async () => {
    const answer = await search({ query: '^# Release', regex: true });
    expect(answer.matches).toEqual([
      { path: 'Marked.md', line: 1, text: '# Release plan', shortened: false },
      { path: 'Plain.md', line: 1, text: '# Release notes', shortened: false },
    ]);
    expect((await search({ query: '^# release plan$', regex: true })).matches.map((m) => m.path)).toEqual(['Marked.md']);
    expect((await search({ query: '^---$', regex: true })).matches.map((m) => [m.path, m.line])).toEqual([
      ['Fenced.md', 1],
      ['Fenced.md', 3],
    ]);
  });

  it('matches in a long note too, and plain text as before', async () => {
    expect((await search({ query: '^# Long log$', regex: true })).matches.map((m) => [m.path, m.line])).toEqual([['logs/Long.md', 1]]);
    expect((await search({ query: '# Release plan' })).matches).toEqual([
      { path: 'Marked.md', line: 1, text: '# Release plan', shortened: false },
    ]);
  });

  it('find_references finds the first line of a marked note', async () => {
    const answer = findReferences.output.parse(
      await findReferences.handler(findReferences.input(repoField([])).parse({ repo: 'notes', values: ['# Release plan'] }), ctx),
    );
    expect(answer.references).toEqual([expect.objectContaining({ path: 'Marked.md', line: 1, text: '# Release plan' })]);
  });

  it('find_references shows the first line of a long marked note without the mark', async () => {
    const answer = findReferences.output.parse(
      await findReferences.handler(findReferences.input(repoField([])).parse({ repo: 'notes', values: ['# Long log'] }), ctx),
    );
    expect(answer.references).toEqual([expect.objectContaining({ path: 'logs/Long.md', line: 1, text: '# Long log' })]);
  });
});
