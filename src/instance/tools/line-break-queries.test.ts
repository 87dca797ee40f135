// search_notes and find_references match one line at a time: a plain query or a value that
// holds a line break could never match, and is refused saying so (it once matched every
// line, as if it were empty).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext, type TestToolContext } from '../../../test/support/tool-context.ts';
import { repoField } from '../../tools/tool.ts';
import { findReferences } from './find-references.ts';
import { searchNotes } from './search-notes.ts';

describe('a query with a line break', () => {
  const dir = tempDir('mv-line-break-');
  let ctx: TestToolContext;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'notes'), [{ message: 'Notes', files: { 'a.md': '---\ntitle: A\n---\n# A \nfoo\nbar\n' } }]);
    ctx = await openToolContext(dir.path);
  });
  afterAll(async () => {
    await ctx?.close();
    dir.cleanup();
  });

  it('is refused by search_notes, unless it is a regex', async () => {
    for (const query of ['\n', ' \n', 'foo\nbar', 'foo\r\nbar']) {
      await expect(searchNotes.handler(searchNotes.input(repoField([])).parse({ repo: 'notes', query }), ctx)).rejects.toMatchObject({
        code: 'bad_arguments',
        message: expect.stringMatching(/one line at a time/),
      });
    }
    const regex = await searchNotes.handler(searchNotes.input(repoField([])).parse({ repo: 'notes', query: 'fo+', regex: true }), ctx);
    expect(JSON.stringify(regex)).toContain('a.md');
  });

  it('is refused by find_references', async () => {
    await expect(
      findReferences.handler(findReferences.input(repoField([])).parse({ repo: 'notes', values: ['foo', 'foo\nbar'] }), ctx),
    ).rejects.toMatchObject({ code: 'bad_arguments', message: expect.stringMatching(/cannot hold a line break \("foo\\nbar"\)/) });
  });
});
