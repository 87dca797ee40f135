// The pool thread's decoded snapshots of a base's rows: an older state of a repository goes as
// soon as a newer one is decoded, so a session of edits keeps one copy per repository.
import { describe, expect, it } from 'vitest';
import type { BaseNote } from './base-vault.ts';
import { decodedSnapshots, renderBaseTask, snapshotRows } from './render-base-task.ts';

const note = (path: string): BaseNote => ({ path, frontmatter: {}, tags: [], links: [], embeds: [], size: 1, ctime: null, mtime: null });

async function render(key: string): Promise<void> {
  const rows = snapshotRows(key, [note('a.md'), note('b.md')], ['a.md', 'b.md']);
  const result = await renderBaseTask({
    rows,
    folders: ['/'],
    basePath: 'x.base',
    base: 'views:\n  - type: table\n    name: All\n',
    view: null,
    context: note('x.base'),
    limit: 10,
    offset: 0,
    budgetMs: 5_000,
  });
  expect('page' in result).toBe(true);
}

describe('renderBaseTask', () => {
  it('keeps the newest decoded state of each repository only', async () => {
    await render('notes\u0000head1');
    await render('notes\u0000head2');
    expect(decodedSnapshots()).toEqual(['notes\u0000head2']);
    await render('wiki\u0000head1');
    await render('notes\u0000head2');
    expect(decodedSnapshots()).toEqual(['wiki\u0000head1', 'notes\u0000head2']);
  });

  it('keeps the rows of each set of open folders apart, with their own backlinks', async () => {
    const linking = (path: string, to: string): BaseNote => ({ ...note(path), links: [{ target: to, path: to }] });
    const rows = snapshotRows('folders\u0000head1', [linking('a/x.md', 'b/y.md'), note('b/y.md')], ['a/x.md', 'b/y.md']);
    const base = 'formulas:\n  n: file.backlinks.length\nviews:\n  - type: table\n    name: All\n    order: [file.path, formula.n]\n';
    const view = async (folders: string[]) => {
      const result = await renderBaseTask({
        rows,
        folders,
        basePath: 'x.base',
        base,
        view: null,
        context: note('x.base'),
        limit: 10,
        offset: 0,
        budgetMs: 5_000,
      });
      return 'page' in result ? result.page.rows.map((row) => row.cells) : result;
    };
    for (let i = 0; i < 2; i++) {
      expect(await view(['/'])).toEqual([
        ['a/x.md', '0'],
        ['b/y.md', '1'],
      ]);
      // A note in a closed folder is no row, and its links are no backlinks.
      expect(await view(['b/'])).toEqual([['b/y.md', '0']]);
    }
  });
});
