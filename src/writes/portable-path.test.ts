import { describe, expect, it } from 'vitest';
import { isVaultError } from '../vault-error.ts';
import { assertPortablePath, windowsNameProblem, windowsSafeName } from './portable-path.ts';

describe('windowsNameProblem', () => {
  it('refuses device names with any extension and in any case, the characters < > : " | ? *, and a trailing dot or space', () => {
    for (const name of [
      'CON',
      'con.md',
      'Prn.txt',
      'aux',
      'NUL.tar.gz',
      'COM1.md',
      'com9',
      'LPT1.md',
      'lpt9',
      'COM0',
      'LPT¹.md',
      'NUL .md',
    ]) {
      expect(windowsNameProblem(name), name).toMatch(/device name Windows reserves/);
    }
    for (const name of ['a<b.md', 'a>b.md', 'Plan: phase 2.md', 'say "hi".md', 'a|b.md', 'why?.md', 'star*.md']) {
      expect(windowsNameProblem(name), name).toMatch(/which Windows does not allow/);
    }
    expect(windowsNameProblem('notes.')).toMatch(/ends in a dot or a space/);
    expect(windowsNameProblem('notes ')).toMatch(/ends in a dot or a space/);
  });

  it('keeps names Windows can hold: Unicode, spaces, #, quotes, brackets, device names inside longer names', () => {
    for (const name of [
      'Größe & Maß (v2).md',
      'Zürich 会議.md',
      'Issue #12.md',
      "Bob's plan.md",
      '“Quoted” ‘too’.md',
      '[draft] {x}.md',
      'CONTRACT.md',
      'console.md',
      'com10.md',
      'LPT.md',
      'a.b.c.md',
      'auxiliary',
      'con-notes.md',
    ]) {
      expect(windowsNameProblem(name), name).toBeNull();
    }
  });

  it('suggests a name Windows can hold', () => {
    expect(windowsSafeName('Plan: phase 2?.md')).toBe('Plan- phase 2-.md');
    expect(windowsSafeName('CON.md')).toBe('_CON.md');
    expect(windowsSafeName('notes. ')).toBe('notes');
    for (const name of ['Plan: phase 2?.md', 'CON.md', 'notes. ', 'nul', '?']) expect(windowsNameProblem(windowsSafeName(name))).toBeNull();
  });
});

describe('assertPortablePath', () => {
  const tree: Record<string, string[]> = { '': ['notes', 'README.md', 'aux'], notes: ['plan.md', 'Sub'], aux: ['old.md'] };
  const check = (path: string) =>
    assertPortablePath(path, (folder) => tree[folder] ?? [], { what: 'note path', instead: (other) => `Change "${other}".` });
  const refusal = async (path: string) => {
    try {
      await check(path);
    } catch (error) {
      if (isVaultError(error)) return error;
      throw error;
    }
    throw new Error(`${path} was not refused`);
  };

  it('accepts new names beside different ones, and names that are there already (even a bad one)', async () => {
    await check('notes/plan 2.md');
    await check('notes/Sub/new.md');
    await check('new folder/deeper/Über.md');
    await check('aux/new.md');
  });

  it('refuses a name or folder that differs from an existing one only in case, naming it', async () => {
    const note = await refusal('notes/Plan.md');
    expect(note.code).toBe('exists');
    expect(note.message).toBe(
      '"notes/Plan.md" differs only in upper and lower case from "notes/plan.md", which already exists: on macOS and Windows, where case does not count, a checkout holds only one of them. Change "notes/plan.md".',
    );
    const folder = await refusal('Notes/new.md');
    expect(folder.code).toBe('exists');
    expect(folder.message).toBe(
      '"Notes/new.md" goes through the folder "Notes", which differs only in upper and lower case from the existing folder "notes": on macOS and Windows, where case does not count, they would be one folder. Use "notes/new.md" instead.',
    );
    expect((await refusal('notes/sub/x.md')).details).toMatchObject({ existing: 'notes/Sub' });
    expect((await refusal('readme.md')).details).toMatchObject({ existing: 'README.md' });
  });

  it('refuses a new name Windows cannot hold, naming the segment and a name it can', async () => {
    const device = await refusal('notes/con.md');
    expect(device.code).toBe('invalid_path');
    expect(device.message).toBe(
      'The note path "notes/con.md" cannot be checked out on Windows: its name uses "con", a device name Windows reserves (CON, PRN, AUX, NUL, COM0-9 and LPT0-9, with any extension). Choose another name, for example "notes/_con.md".',
    );
    const folder = await refusal('Q1: plans/x.md');
    expect(folder.message).toContain('its folder "Q1: plans" holds ":"');
    expect(folder.message).toContain('"Q1- plans/x.md"');
    expect((await refusal('notes./x.md')).message).toContain('ends in a dot or a space');
  });
});
