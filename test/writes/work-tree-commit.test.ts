// A write in a work tree commits only its own change (issue 9, item 4): the person's
// uncommitted edits stay uncommitted and in place; what cannot be kept apart is said.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNote } from '../../src/instance/tools/create-note.ts';
import { editNote } from '../../src/instance/tools/edit-note.ts';
import { moveNote } from '../../src/instance/tools/move-note.ts';
import { callTool, refusalOf } from '../support/call-tool.ts';
import { openWriteFixture, type WriteFixture } from './write-fixture.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const onDisk = (f: WriteFixture, path: string) => readFileSync(join(f.repoDir, path), 'utf8');

describe('a write in a work tree with uncommitted edits', () => {
  it('commits the change on the committed text, and leaves the edits uncommitted around it', async () => {
    fixture = await openWriteFixture({ 'n.md': '# N\n\none\ntwo\n', 'other.md': 'o\n' });
    writeFileSync(join(fixture.repoDir, 'n.md'), '# N (draft title)\n\none\ntwo\nthree (unsaved)\n');
    writeFileSync(join(fixture.repoDir, 'other.md'), 'o changed\n');
    const answer = await callTool(
      editNote,
      { repo: 'notes', path: 'n.md', old_text: 'two', new_text: 'TWO', summary: 'S' },
      await fixture.context(),
    );
    expect(answer.note).toBeUndefined();
    expect(fixture.show('n.md').toString()).toBe('# N\n\none\nTWO\n');
    expect(onDisk(fixture, 'n.md')).toBe('# N (draft title)\n\none\nTWO\nthree (unsaved)\n');
    // Only the person's own edits are pending, none of them staged.
    expect(fixture.git(['status', '--porcelain'])).toBe('M n.md\n M other.md');
    expect(fixture.git(['diff', '--cached', '--name-only'])).toBe('');
    expect(
      fixture
        .git(['diff', '-U0', '--', 'n.md'])
        .split('\n')
        .filter((line) => /^[-+][^-+]/.test(line)),
    ).toEqual(['-# N', '+# N (draft title)', '+three (unsaved)']);
    expect(fixture.show('other.md').toString()).toBe('o\n');
    // The index of notes shows what the editor shows.
    const ctx = await fixture.context();
    expect((await ctx.index.getNote('notes', 'n.md'))?.content).toBe('# N (draft title)\n\none\nTWO\nthree (unsaved)\n');
  });

  it('commits the whole file as it stands when the passage is only in uncommitted text, and says so', async () => {
    fixture = await openWriteFixture({ 'n.md': 'one\ntwo\n' });
    writeFileSync(join(fixture.repoDir, 'n.md'), 'one\ntwo\nthree (unsaved)\n');
    const answer = await callTool(
      editNote,
      { repo: 'notes', path: 'n.md', old_text: 'three (unsaved)', new_text: 'three', summary: 'S' },
      await fixture.context(),
    );
    expect(answer.note).toContain('"n.md"');
    expect(answer.note).toContain('uncommitted edits');
    expect(answer.note).toContain('whole file as it stands');
    expect(fixture.show('n.md').toString()).toBe('one\ntwo\nthree\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  });

  it('commits an untracked note whole when it is edited, and says so', async () => {
    fixture = await openWriteFixture({ 'n.md': 'n\n' });
    writeFileSync(join(fixture.repoDir, 'draft.md'), 'draft text\n');
    const answer = await callTool(
      editNote,
      { repo: 'notes', path: 'draft.md', old_text: 'draft', new_text: 'final', summary: 'S' },
      await fixture.context(),
    );
    expect(answer.note).toContain('"draft.md" was not committed before (untracked)');
    expect(fixture.show('draft.md').toString()).toBe('final text\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  });

  it('moves a note with uncommitted edits: the commit moves the committed text, the edits move along uncommitted', async () => {
    fixture = await openWriteFixture({ 'a.md': '# A\n\nsee [B](b.md)\n', 'b.md': '# B\n' });
    writeFileSync(join(fixture.repoDir, 'a.md'), '# A\n\nsee [B](b.md)\n\nmore (unsaved)\n');
    const answer = await callTool(moveNote, { repo: 'notes', from: 'b.md', to: 'sub/b.md', summary: 'Moved b' }, await fixture.context());
    expect(answer.note).toBeUndefined();
    expect(fixture.show('a.md').toString()).toBe('# A\n\nsee [B](sub/b.md)\n');
    expect(onDisk(fixture, 'a.md')).toBe('# A\n\nsee [B](sub/b.md)\n\nmore (unsaved)\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('M a.md');

    writeFileSync(join(fixture.repoDir, 'sub/b.md'), '# B\n\nunsaved\n');
    await callTool(moveNote, { repo: 'notes', from: 'sub/b.md', to: 'c.md', summary: 'Moved b again' }, await fixture.context());
    expect(fixture.show('c.md').toString()).toBe('# B\n');
    expect(onDisk(fixture, 'c.md')).toBe('# B\n\nunsaved\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('M a.md\n M c.md');
  });

  it('refuses to create a note where a committed file is deleted only in the work tree', async () => {
    fixture = await openWriteFixture({ 'gone.md': 'committed\n' });
    unlinkSync(join(fixture.repoDir, 'gone.md'));
    const head = fixture.git(['rev-parse', 'HEAD']);
    const refusal = await refusalOf(callTool(createNote, { repo: 'notes', path: 'gone.md', body: 'new\n' }, await fixture.context()));
    expect(refusal.code).toBe('exists');
    expect(refusal.message).toContain('deletion is not committed');
    expect(fixture.git(['rev-parse', 'HEAD'])).toBe(head);
  });
});

describe('a person committing by hand while the server writes', () => {
  it('finds the new commit in the index the moment the branch moves, so a plain git commit never reverts it', async () => {
    fixture = await openWriteFixture({ 'n.md': 'one\ntwo\n' });
    // Git runs this hook inside update-ref, right after the branch moved: what a person's
    // `git commit` (which reads HEAD, then the index, without the lock) could see then.
    const hook = join(fixture.repoDir, '.git', 'hooks', 'reference-transaction');
    mkdirSync(dirname(hook), { recursive: true });
    writeFileSync(
      hook,
      '#!/bin/sh\n[ "$1" = committed ] || exit 0\nwhile read old new ref; do\n  if git diff --cached --quiet "$new" --; then echo same; else echo differs; fi >> "$GIT_DIR/index-check"\ndone\n',
      { mode: 0o755 },
    );
    await callTool(editNote, { repo: 'notes', path: 'n.md', old_text: 'two', new_text: 'TWO', summary: 'S' }, await fixture.context());
    const seen = readFileSync(join(fixture.repoDir, '.git', 'index-check'), 'utf8')
      .trim()
      .split('\n');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((line) => line === 'same')).toBe(true);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  });
});
