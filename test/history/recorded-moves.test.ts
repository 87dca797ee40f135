// note_history follows move_note's moves that Git's rename detection misses: a short note whose
// relative links the move rewrote (the commit records the move in a `Moved:` trailer).
import { afterEach, describe, expect, it } from 'vitest';
import { callTool } from '../support/call-tool.ts';
import { commitOutside, openWriteFixture, type WriteFixture } from '../writes/write-fixture.ts';
import { moveNote } from '../../src/instance/tools/move-note.ts';
import { noteHistory } from '../../src/instance/tools/note-history.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

interface Listed {
  commit: string;
  subject: string;
  path: string;
  added?: number;
  removed?: number;
}
interface Run {
  from_line: number;
  to_line: number;
  commit?: string;
  content: string;
}

async function history(
  f: WriteFixture,
  args: Record<string, unknown>,
): Promise<{ commits: Listed[]; blame?: Run[]; version?: { content: string; path: string }; hasMore: boolean }> {
  const ctx = await f.context();
  return (await callTool(noteHistory, { repo: 'notes', ...args }, ctx)) as never;
}

/** Which commit blame credits each line to, line by line. */
function creditByLine(runs: readonly Run[]): string[] {
  return runs.flatMap((run) => Array.from({ length: run.to_line - run.from_line + 1 }, () => run.commit ?? 'uncommitted'));
}

describe('note_history after move_note rewrote the moved note itself', () => {
  it('follows a 2-line note in a moved folder back to its first commit, and blame credits its untouched line there', async () => {
    fixture = await openWriteFixture({ 'Team.md': '# Team\n', 'other.md': 'x\n' });
    const created = commitOutside(fixture, { 'kit/inner/README.md': 'The kit of the team\n[team](../../Team.md)\n' }, 'Add the kit');
    const ctx = await fixture.context();
    const moved = (await callTool(moveNote, { repo: 'notes', from: 'kit', to: 'tools/kit-new', summary: 'Moved the kit' }, ctx)) as {
      commit: string;
    };
    expect(fixture.show('tools/kit-new/inner/README.md').toString()).toBe('The kit of the team\n[team](../../../Team.md)\n');
    // Git itself sees a deletion and an addition: too much of the short note changed.
    expect(fixture.git(['show', '--format=', '--name-status', 'HEAD'])).toContain('A\ttools/kit-new/inner/README.md');
    expect(fixture.git(['log', '-1', '--format=%s'])).toBe('Moved the kit (move_note via Test Client)');
    expect(fixture.git(['log', '-1', '--format=%(trailers:key=Moved,valueonly)'])).toBe('kit/ -> tools/kit-new/');

    const list = await history(fixture, { path: 'tools/kit-new/inner/README.md' });
    expect(list.commits.map((c) => [c.commit, c.path])).toEqual([
      [moved.commit, 'tools/kit-new/inner/README.md'],
      [created, 'kit/inner/README.md'],
    ]);
    expect(list.commits[0]).toMatchObject({ added: 1, removed: 1 });
    expect(list.hasMore).toBe(false);
    const paged = await history(fixture, { path: 'tools/kit-new/inner/README.md', offset: 1, limit: 1 });
    expect(paged.commits.map((c) => c.commit)).toEqual([created]);
    const first = await history(fixture, { path: 'tools/kit-new/inner/README.md', at: created });
    expect(first.version).toMatchObject({ path: 'kit/inner/README.md', content: 'The kit of the team\n[team](../../Team.md)\n' });

    const blamed = await history(fixture, { path: 'tools/kit-new/inner/README.md', blame: true });
    expect(creditByLine(blamed.blame ?? [])).toEqual([created, moved.commit]);
  });

  it('follows a 3-line note that links to itself, moved alone', async () => {
    fixture = await openWriteFixture({ 'other.md': 'x\n' });
    const created = commitOutside(fixture, { 'a/self.md': 'Top\nsee [me](self.md)\nEnd\n' }, 'Add self');
    const edited = commitOutside(fixture, { 'a/self.md': 'Top line\nsee [me](self.md)\nEnd\n' }, 'Edit self');
    const ctx = await fixture.context();
    const moved = (await callTool(moveNote, { repo: 'notes', from: 'a/self.md', to: 'b/c/mine.md', summary: 'Renamed self' }, ctx)) as {
      commit: string;
    };
    expect(fixture.show('b/c/mine.md').toString()).toBe('Top line\nsee [me](mine.md)\nEnd\n');
    const list = await history(fixture, { path: 'b/c/mine.md' });
    expect(list.commits.map((c) => [c.commit, c.path])).toEqual([
      [moved.commit, 'b/c/mine.md'],
      [edited, 'a/self.md'],
      [created, 'a/self.md'],
    ]);
    const blamed = await history(fixture, { path: 'b/c/mine.md', blame: true });
    expect(creditByLine(blamed.blame ?? [])).toEqual([edited, moved.commit, created]);
  });

  it('follows a moved single note whose relative links change', async () => {
    fixture = await openWriteFixture({ 'Team.md': '# Team\n', 'docs/Glossary.md': 'g\n' });
    const created = commitOutside(fixture, { 'docs/guide.md': '[team](../Team.md)\n[terms](Glossary.md)\n' }, 'Add guide');
    const ctx = await fixture.context();
    const moved = (await callTool(
      moveNote,
      { repo: 'notes', from: 'docs/guide.md', to: 'guides/guide.md', summary: 'Moved the guide' },
      ctx,
    )) as { commit: string };
    expect(fixture.show('guides/guide.md').toString()).toBe('[team](../Team.md)\n[terms](../docs/Glossary.md)\n');
    expect(fixture.git(['log', '-1', '--format=%(trailers:key=Moved,valueonly)'])).toBe('docs/guide.md -> guides/guide.md');
    const list = await history(fixture, { path: 'guides/guide.md' });
    expect(list.commits.map((c) => [c.commit, c.path])).toEqual([
      [moved.commit, 'guides/guide.md'],
      [created, 'docs/guide.md'],
    ]);
    const blamed = await history(fixture, { path: 'guides/guide.md', blame: true });
    expect(creditByLine(blamed.blame ?? [])).toEqual([created, moved.commit]);
  });

  it('follows every note of a large folder moved at once, the commit recording it in one line', async () => {
    fixture = await openWriteFixture({ 'Team.md': '# Team\n' });
    const notes: Record<string, string> = {};
    for (let i = 0; i < 200; i += 1) notes[`many/n${i}.md`] = `Note ${i}\n[team](../Team.md)\n`;
    const created = commitOutside(fixture, notes, 'Add many notes');
    const ctx = await fixture.context();
    const moved = (await callTool(moveNote, { repo: 'notes', from: 'many', to: 'archive/many', summary: 'Archived many' }, ctx)) as {
      commit: string;
    };
    expect(fixture.git(['log', '-1', '--format=%B'])).toBe('Archived many (move_note via Test Client)\n\nMoved: many/ -> archive/many/');
    for (const i of [0, 137, 199]) {
      const list = await history(fixture, { path: `archive/many/n${i}.md` });
      expect(list.commits.map((c) => [c.commit, c.path])).toEqual([
        [moved.commit, `archive/many/n${i}.md`],
        [created, `many/n${i}.md`],
      ]);
    }
  });

  it('follows a note whose old name the repository spells in another Unicode form', async () => {
    fixture = await openWriteFixture({ 'Team.md': '# Team\n' });
    const decomposed = 'kit/Mu\u0308ller.md';
    const created = commitOutside(fixture, { [decomposed]: 'Hi\n[team](../Team.md)\n' }, 'Add Müller');
    const ctx = await fixture.context();
    const moved = (await callTool(moveNote, { repo: 'notes', from: 'kit', to: 'people/kit', summary: 'Moved the kit' }, ctx)) as {
      commit: string;
    };
    const list = await history(fixture, { path: 'people/kit/M\u00fcller.md' });
    expect(list.commits.map((c) => [c.commit, c.path])).toEqual([
      [moved.commit, 'people/kit/M\u00fcller.md'],
      [created, decomposed],
    ]);
  });
});
