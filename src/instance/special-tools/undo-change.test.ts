import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, refusalOf } from '../../../test/support/call-tool.ts';
import { bob, commit } from '../../../test/support/git-fixture.ts';
import { openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import { createNote } from '../tools/create-note.ts';
import { editNote } from '../tools/edit-note.ts';
import { moveNote } from '../tools/move-note.ts';
import type { ToolContext } from '../tool.ts';
import { undoLatestChange, withoutAddedLines } from './undo-change.ts';

const bobPerson = { login: 'bob', name: bob.name, email: bob.email };

describe('the undo engine', () => {
  let fixture: WriteFixture;
  let alice: ToolContext;
  const undo = (ctx: ToolContext) => undoLatestChange(ctx, 'notes', 'notes__undo', ['undo']);
  const subject = () => fixture.git(['log', '-1', '--format=%an|%s']);
  beforeAll(async () => {
    fixture = await openWriteFixture({
      'plan.md': '# Plan\n\nPrice: 49 €\n\nLaunch: May\n\nSee [risks](risks.md).\n',
      'risks.md': '# Risks\n',
    });
    alice = await fixture.context();
  });
  afterAll(() => fixture.close());

  it('reverts the latest change, then the one before, then says there is nothing left', async () => {
    await callTool(createNote, { repo: 'notes', path: 'ideas.md', body: 'An idea\n', summary: 'Created ideas' }, alice);
    await callTool(editNote, { repo: 'notes', path: 'plan.md', old_text: '49 €', new_text: '59 €', summary: 'Raised the price' }, alice);
    const edit = fixture.git(['rev-parse', 'HEAD']);
    const first = await undo(alice);
    expect(first.undone).toMatchObject({ commit: edit, subject: 'Raised the price (edit_note via Test Client)' });
    expect(first.files).toEqual(['plan.md']);
    expect(fixture.show('plan.md').toString()).toContain('Price: 49 €');
    expect(subject()).toBe(`Alice Arden|Undid ${edit.slice(0, 7)}: Raised the price (notes__undo via Test Client)`);
    expect(fixture.git(['log', '-1', '--format=%(trailers:key=Reverts,valueonly)'])).toBe(edit);

    const second = await undo(alice);
    expect(second.undone.subject).toMatch(/^Created ideas.md \(create_note/);
    expect(second.files).toEqual(['ideas.md']);
    expect(fixture.git(['ls-files', 'ideas.md'])).toBe('');

    const none = await refusalOf(undo(alice));
    expect(none.code).toBe('nothing_to_undo');
    expect(none.message).toContain('edit_note');
  });

  it('carries the revert over a later change to other passages, and refuses one at the same passage', async () => {
    await callTool(editNote, { repo: 'notes', path: 'plan.md', old_text: 'May', new_text: 'June', summary: 'Moved the launch' }, alice);
    commit(fixture.repoDir, {
      files: { 'plan.md': '# Plan\n\nPrice: 49 €\n\nLaunch: June, 2nd\n\nSee [risks](risks.md).\n' },
      message: 'Bob pins the day',
      author: bob,
      date: '2026-12-01T10:00:00+01:00',
    });
    await fixture.installation.refresh('notes', { force: true });
    const ctx = await fixture.context();
    const before = fixture.commitCount();
    const refusal = await refusalOf(undo(ctx));
    expect(refusal.code).toBe('conflict');
    expect(refusal.message).toContain('Bob Brandt: Bob pins the day');
    expect(refusal.message).toContain('edit_note');
    expect(fixture.commitCount()).toBe(before);

    await callTool(editNote, { repo: 'notes', path: 'plan.md', old_text: '# Plan', new_text: '# The plan', summary: 'Retitled' }, ctx);
    commit(fixture.repoDir, {
      files: { 'plan.md': '# The plan\n\nPrice: 49 €\n\nLaunch: June, 2nd\n\nSee [risks](risks.md) and costs.\n' },
      message: 'Bob adds costs',
      author: bob,
      date: '2026-12-01T11:00:00+01:00',
    });
    await fixture.installation.refresh('notes', { force: true });
    const done = await undo(await fixture.context());
    expect(done.undone.subject).toMatch(/^Retitled/);
    expect(fixture.show('plan.md').toString()).toBe('# Plan\n\nPrice: 49 €\n\nLaunch: June, 2nd\n\nSee [risks](risks.md) and costs.\n');
  });

  it('moves a moved note back with its links, undoes only the caller’s own change, and needs write access', async () => {
    const ctx = await fixture.context();
    await callTool(moveNote, { repo: 'notes', from: 'risks.md', to: 'archive/risks.md', summary: 'Archived risks' }, ctx);
    expect(fixture.show('plan.md').toString()).toContain('[risks](archive/risks.md)');
    const bobCtx = await fixture.context({ person: bobPerson });
    await callTool(editNote, { repo: 'notes', path: 'plan.md', old_text: 'costs', new_text: 'all costs', summary: 'Bob via MV' }, bobCtx);
    const reader = await fixture.context({ write: false });
    expect((await refusalOf(undo(reader))).code).toBe('forbidden');

    const moved = await undo(await fixture.context());
    expect(moved.undone.subject).toMatch(/^Archived risks/);
    expect(moved.files).toEqual(['archive/risks.md', 'plan.md', 'risks.md']);
    expect(fixture.show('risks.md').toString()).toBe('# Risks\n');
    expect(fixture.git(['ls-files', 'archive'])).toBe('');
    expect(fixture.show('plan.md').toString()).toContain('See [risks](risks.md) and all costs.');
  });
});

describe('the undo of added lines', () => {
  it('takes out only the caller’s lines when another person added theirs right below', async () => {
    const fixture = await openWriteFixture({ 'log.md': '# Log\n\n- a\n' });
    try {
      const alice = await fixture.context();
      await callTool(editNote, { repo: 'notes', path: 'log.md', old_text: '- a\n', new_text: '- a\n- mine\n', summary: 'Mine' }, alice);
      commit(fixture.repoDir, { files: { 'log.md': '# Log\n\n- a\n- mine\n- theirs\n' }, message: 'Theirs', author: bob });
      await fixture.installation.refresh('notes', { force: true });
      const done = await undoLatestChange(await fixture.context(), 'notes', 'notes__undo', ['undo']);
      expect(done.undone.subject).toMatch(/^Mine/);
      expect(fixture.show('log.md').toString()).toBe('# Log\n\n- a\n- theirs\n');
    } finally {
      await fixture.close();
    }
  });
});

describe('the undo of a created note that others wrote in since', () => {
  it('is refused, saying that no tool deletes a note', async () => {
    const fixture = await openWriteFixture({ 'a.md': 'a\n' });
    try {
      await callTool(createNote, { repo: 'notes', path: 'new.md', body: 'Mine.\n', summary: 'Created new' }, await fixture.context());
      commit(fixture.repoDir, { files: { 'new.md': 'Mine.\n\nTheirs.\n' }, message: 'Theirs', author: bob });
      await fixture.installation.refresh('notes', { force: true });
      const refusal = await refusalOf(undoLatestChange(await fixture.context(), 'notes', 'notes__undo', ['undo']));
      expect(refusal.code).toBe('conflict');
      expect(refusal.message).toContain('Undoing would delete "new.md", which your change created');
      expect(refusal.message).not.toContain('by hand with edit_note');
      expect(fixture.show('new.md').toString()).toBe('Mine.\n\nTheirs.\n');
    } finally {
      await fixture.close();
    }
  });
});

describe('the undo of a change whose notes are already as before it', () => {
  it('passes it over for the change before, never sticking on it', async () => {
    const fixture = await openWriteFixture({ 'a.md': 'a\n' });
    try {
      const alice = await fixture.context();
      await callTool(editNote, { repo: 'notes', path: 'a.md', old_text: 'a', new_text: 'b', summary: 'Edited a' }, alice);
      await callTool(createNote, { repo: 'notes', path: 'new.md', body: 'Mine.\n', summary: 'Created new' }, alice);
      commit(fixture.repoDir, { renames: { 'new.md': 'moved.md' }, message: 'Bob moves it', author: bob });
      await fixture.installation.refresh('notes', { force: true });
      const done = await undoLatestChange(await fixture.context(), 'notes', 'notes__undo', ['undo']);
      expect(done.undone.subject).toMatch(/^Edited a/);
      expect(done.notes.join(' ')).toMatch(
        /were already as before it \(changed back, moved or deleted since\), so this undid the one before/,
      );
      expect(fixture.show('a.md').toString()).toBe('a\n');
      expect(fixture.show('moved.md').toString()).toBe('Mine.\n');
      expect((await refusalOf(undoLatestChange(await fixture.context(), 'notes', 'notes__undo', ['undo']))).code).toBe('nothing_to_undo');
    } finally {
      await fixture.close();
    }
  });
});

describe('the undo while no folder is open', () => {
  it('says no folder is open, not that there is nothing to undo', async () => {
    const fixture = await openWriteFixture({ '.vault/settings.jsonc': '{ "format": 3, "folders": "notes/" }\n', 'notes/a.md': 'a\n' });
    try {
      const refusal = await refusalOf(undoLatestChange(await fixture.context(), 'notes', 'notes__undo', ['undo']));
      expect(refusal.code).toBe('outside_folders');
      expect(refusal.message).toContain('No folder of this repository is open to the tools');
    } finally {
      await fixture.close();
    }
  });
});

describe('withoutAddedLines', () => {
  const after = '# Log\n\n- a\n- mine\n';
  const before = '# Log\n\n- a\n';

  it('takes out the lines a change added, whatever was added right around them since', () => {
    expect(withoutAddedLines(after, before, '# Log\n\n- a\n- mine\n- theirs\n')).toBe('# Log\n\n- a\n- theirs\n');
    expect(withoutAddedLines(after, before, '# Log\n\n- a\n- zero\n- mine\n')).toBe('# Log\n\n- a\n- zero\n');
    expect(withoutAddedLines('a\nx\ny\nb\n', 'a\nb\n', 'a\nx\ny\nc\nb\n')).toBe('a\nc\nb\n');
  });

  it('gives nothing when a line it added was changed, split, or the change did more than add lines', () => {
    expect(withoutAddedLines(after, before, '# Log\n\n- a\n- mine, edited\n')).toBeNull();
    expect(withoutAddedLines('a\nx\ny\nb\n', 'a\nb\n', 'a\nx\nnew\ny\nb\n')).toBeNull();
    expect(withoutAddedLines('a\nB\n', 'a\nb\n', 'a\nB\nc\n')).toBeNull();
  });
});
