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
});
