// Deep pages of search_notes: a later page starts from where an earlier one left off
// (search-checkpoints.ts), and every page is still exactly the slice of all the matches in
// order, whatever the order the pages are asked in, the folder searched, or a change of the
// index between them.
import { afterEach, describe, expect, it } from 'vitest';
import { callTool } from '../../../test/support/call-tool.ts';
import { commitOutside, openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import type { NoteIndex, ScanPosition } from '../../note-index/note-index.ts';
import type { ToolContext } from '../tool.ts';
import { editNote } from './edit-note.ts';
import { searchNotes } from './search-notes.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** 40 notes in two folders; note i holds i % 7 matching lines (zebra0, zebra1, …) between lines that do not match. */
function notes(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    const lines = [`# Note ${i}`];
    for (let k = 0; k < i % 7; k++) lines.push(`zebra${k} in note ${i}`, 'a horse');
    files[`${i < 20 ? 'one' : 'two'}/n${String(i).padStart(2, '0')}.md`] = `${lines.join('\n')}\n`;
  }
  return files;
}

/** Every matching line of `files` (as path:line) under `folder`, in path and line order. */
function expected(files: Record<string, string>, folder = ''): string[] {
  return Object.keys(files)
    .filter((path) => path.startsWith(folder))
    .sort()
    .flatMap((path) => files[path]!.split('\n').flatMap((text, i) => (/zebra\d/.test(text) ? [`${path}:${i + 1}`] : [])));
}

/** A context whose index notes where each scan of notes started (the real index answers). */
function watchedScans(ctx: ToolContext): { ctx: ToolContext; starts: Array<ScanPosition | null> } {
  const starts: Array<ScanPosition | null> = [];
  const index: NoteIndex = Object.create(ctx.index, {
    scanNotes: {
      value: (...args: Parameters<NoteIndex['scanNotes']>) => {
        starts.push(args[1].after);
        return ctx.index.scanNotes(...args);
      },
    },
  });
  return { ctx: { ...ctx, index }, starts };
}

async function page(ctx: ToolContext, args: { query: string; regex: boolean; offset: number; limit: number; path?: string }) {
  const answer = await callTool(searchNotes, { repo: 'notes', ...args }, ctx);
  return { lines: answer.matches.map((match) => `${match.path}:${match.line}`), hasMore: answer.hasMore };
}

describe('search_notes deep pages', () => {
  it('page by page, in any order, give the slices of all the matches, and start where an earlier page left off', async () => {
    const files = notes();
    fixture = await openWriteFixture(files);
    const { ctx, starts } = watchedScans(await fixture.context());
    const all = expected(files);
    expect(all.length).toBeGreaterThan(100);
    for (const [query, regex] of [
      ['zebra\\d', true],
      ['zebra', false],
    ] as const) {
      const seen: string[] = [];
      for (let offset = 0; offset < all.length + 4; offset += 4) {
        const { lines, hasMore } = await page(ctx, { query, regex, offset, limit: 4 });
        expect(lines).toEqual(all.slice(offset, offset + 4));
        expect(hasMore).toBe(offset + 4 < all.length);
        seen.push(...lines);
      }
      expect(seen).toEqual(all);
      // Pages asked out of order, and twice, still give their own slices.
      for (const offset of [97, 3, 60, 0, 60, 113, 1]) {
        expect((await page(ctx, { query, regex, offset, limit: 5 })).lines).toEqual(all.slice(offset, offset + 5));
      }
      // A deep page starts after a note past the first: it does not match the notes before it again.
      starts.length = 0;
      await page(ctx, { query, regex, offset: 100, limit: 4 });
      expect(starts[0]).not.toBeNull();
      expect(starts[0]!.path > 'two/').toBe(true);
    }
  });

  it('keeps the pages of a folder apart from those of the whole repository', async () => {
    const files = notes();
    fixture = await openWriteFixture(files);
    const ctx = await fixture.context();
    const all = expected(files);
    const two = expected(files, 'two/');
    for (let offset = 0; offset < all.length; offset += 10)
      expect((await page(ctx, { query: 'zebra\\d', regex: true, offset, limit: 10 })).lines).toEqual(all.slice(offset, offset + 10));
    // Deepest first: no page of the folder has left a place to start from yet.
    for (let offset = two.length - 1; offset >= 0; offset -= 10)
      expect((await page(ctx, { query: 'zebra\\d', regex: true, offset, limit: 10, path: 'two' })).lines).toEqual(
        two.slice(offset, offset + 10),
      );
  });

  it('after an edit or an outside commit, pages follow the new matches', async () => {
    let files = notes();
    fixture = await openWriteFixture(files);
    let ctx = await fixture.context();
    const deep = async (offset: number) => (await page(ctx, { query: 'zebra\\d', regex: true, offset, limit: 6 })).lines;
    for (let offset = 0; offset <= 90; offset += 6) await deep(offset);
    // Three more matches in the first note that has any: every later match moves by three.
    await callTool(
      editNote,
      { repo: 'notes', path: 'one/n01.md', old_text: '# Note 1', new_text: '# Note 1\nzebra7\nzebra8\nzebra9', summary: 'More' },
      ctx,
    );
    files = { ...files, 'one/n01.md': files['one/n01.md']!.replace('# Note 1', '# Note 1\nzebra7\nzebra8\nzebra9') };
    expect(await deep(90)).toEqual(expected(files).slice(90, 96));
    expect(await deep(96)).toEqual(expected(files).slice(96, 102));
    // A note with six matches goes away outside the server.
    commitOutside(fixture, { 'one/n06.md': null }, 'Outside');
    await fixture.installation.refresh('notes', { force: true });
    ctx = await fixture.context();
    delete files['one/n06.md'];
    expect(await deep(90)).toEqual(expected(files).slice(90, 96));
  });
});
