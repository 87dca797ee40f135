// A search whose time budget runs out while its notes are still being read from the index
// (long notes, a loaded machine) names the note it stopped at, as one stopped while
// matching does: the advice to read it or search it alone is what helps.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext, type TestToolContext } from '../../../test/support/tool-context.ts';
import { repoField } from '../../tools/tool.ts';
import { searchNotes } from './search-notes.ts';

let dir: ReturnType<typeof tempDir>;
let ctx: TestToolContext;

beforeAll(async () => {
  dir = tempDir('mv-budget-scan-');
  makeRepo(join(dir.path, 'notes'), [{ message: 'A long note', files: { 'long.md': `${'word '.repeat(400_000)}\n` } }]);
  // A budget of no time: it has passed by the time the first page of notes is read.
  ctx = await openToolContext(dir.path, { matchBudgetMs: 0 });
});
afterAll(async () => {
  await ctx?.close();
  dir?.cleanup();
});

describe('a search out of budget before it matched anything', () => {
  it('is partial and names the note it was about to search', async () => {
    const input = searchNotes.input(repoField([])).parse({ repo: 'notes', query: 'w(o)rd', regex: true });
    const answer = searchNotes.output.parse(await searchNotes.handler(input, ctx));
    expect(answer.matches).toEqual([]);
    expect(answer.hasMore).toBe(true);
    expect(answer.note).toMatch(/while reading long\.md, .* before it had searched any of long\.md/);
    expect(answer.note).toMatch(/read long\.md with read_note, path "long\.md"/);
  });
});
