import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, refusalOf } from '../../../test/support/call-tool.ts';
import { commitOutside, commitSymlinks, openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import { moveNote } from './move-note.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

function changedFiles(f: WriteFixture): string[] {
  return f
    .git(['diff-tree', '--no-commit-id', '--name-status', '-r', '-z', '--no-renames', 'HEAD'])
    .split('\0')
    .filter(Boolean)
    .reduce<string[]>((out, part, i, all) => {
      if (i % 2 === 0) out.push(`${part} ${all[i + 1]}`);
      return out;
    }, []);
}

describe('move_note', () => {
  it('moves a note and rewrites every link to it in its own form, in one commit', async () => {
    fixture = await openWriteFixture({
      'projects/plan.md': '# Plan\n\n## Goals\n\nShip. ^g1\n',
      'index.md': [
        'Wiki: [[projects/plan]], [[plan|the plan]], [[plan#Goals]], ![[plan#^g1]], [[projects/plan.md]]',
        '| Doc | Link |',
        '| --- | --- |',
        '| p | [[plan\\|Plan]] |',
        'Markdown: [p](projects/plan.md#Goals "Title"), [q](<projects/plan.md>), [r](./projects/plan.md)',
        'Code: `[[plan]]` and',
        '```',
        '[[plan]] [x](projects/plan.md)',
        '```',
        '',
      ].join('\n'),
      'projects/sibling.md': 'See [[plan]] and [up](plan.md)\r\nCRLF stays\r\n',
      'other.md': 'nothing here\n',
    });
    const ctx = await fixture.context();
    const answer = await callTool(
      moveNote,
      { repo: 'notes', from: 'projects/plan.md', to: 'archive/2026/Road map.md', summary: 'Archived the plan' },
      ctx,
    );
    expect(fixture.show('index.md').toString()).toBe(
      [
        'Wiki: [[archive/2026/Road map]], [[Road map|the plan]], [[Road map#Goals]], ![[Road map#^g1]], [[archive/2026/Road map.md]]',
        '| Doc | Link |',
        '| --- | --- |',
        '| p | [[Road map\\|Plan]] |',
        'Markdown: [p](archive/2026/Road%20map.md#Goals "Title"), [q](<archive/2026/Road map.md>), [r](./archive/2026/Road%20map.md)',
        'Code: `[[plan]]` and',
        '```',
        '[[plan]] [x](projects/plan.md)',
        '```',
        '',
      ].join('\n'),
    );
    expect(fixture.show('projects/sibling.md').toString()).toBe(
      'See [[Road map]] and [up](../archive/2026/Road%20map.md)\r\nCRLF stays\r\n',
    );
    expect(fixture.show('archive/2026/Road map.md').toString()).toBe('# Plan\n\n## Goals\n\nShip. ^g1\n');
    expect(answer).toEqual({
      from: 'projects/plan.md',
      to: 'archive/2026/Road map.md',
      files: 1,
      links: 11,
      updated: [
        { path: 'index.md', links: 9 },
        { path: 'projects/sibling.md', links: 2 },
      ],
      commit: fixture.git(['rev-parse', 'HEAD']),
      outsideReferences: 0,
      repo: 'notes',
    });
    expect(fixture.commitCount()).toBe(2);
    expect(fixture.git(['log', '-1', '--format=%an|%s'])).toBe('Alice Arden|Archived the plan (move_note via Test Client)');
    expect(changedFiles(fixture)).toEqual(['A archive/2026/Road map.md', 'M index.md', 'D projects/plan.md', 'M projects/sibling.md']);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect(await ctx.index.getNote('notes', 'projects/plan.md')).toBeNull();
    expect((await ctx.index.getNote('notes', 'archive/2026/Road map.md'))?.title).toBe('Road map');
  });

  it('keeps links to a note of the same name in another folder, and leaves bare links that still resolve', async () => {
    fixture = await openWriteFixture({
      'a/Meeting.md': 'A\n',
      'b/Meeting.md': 'B\n',
      'b/notes.md': '[[Meeting]] means b/Meeting; [[a/Meeting]] means a.\n',
      'a/notes.md': '[[Meeting]] means a/Meeting.\n',
    });
    const answer = await callTool(
      moveNote,
      { repo: 'notes', from: 'a/Meeting.md', to: 'c/Meeting.md', summary: 'Moved' },
      await fixture.context(),
    );
    expect(fixture.show('b/notes.md').toString()).toBe('[[Meeting]] means b/Meeting; [[c/Meeting]] means a.\n');
    // From a/notes.md the bare name now reaches b/Meeting.md (same length, alphabetical): the path is written.
    expect(fixture.show('a/notes.md').toString()).toBe('[[c/Meeting]] means a/Meeting.\n');
    expect(answer.links).toBe(2);
  });

  it('moves a folder with relative links in, out and within', async () => {
    fixture = await openWriteFixture({
      'proj/apollo/plan.md': 'Budget: [b](budget.md), glossary: [g](../../shared/glossary.md), [[budget]]\n',
      'proj/apollo/budget.md': 'Back to [plan](./plan.md)\n',
      'proj/apollo/img/chart.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
      'proj/apollo/chart-note.md': '![chart](img/chart.png) ![[chart.png]]\n',
      'shared/glossary.md': 'Used by [apollo plan](../proj/apollo/plan.md)\n',
    });
    const answer = await callTool(
      moveNote,
      { repo: 'notes', from: 'proj/apollo', to: 'archive/apollo-2026', summary: 'Archived Apollo' },
      await fixture.context(),
    );
    expect(fixture.show('archive/apollo-2026/plan.md').toString()).toBe(
      'Budget: [b](budget.md), glossary: [g](../../shared/glossary.md), [[budget]]\n',
    );
    expect(fixture.show('archive/apollo-2026/budget.md').toString()).toBe('Back to [plan](./plan.md)\n');
    expect(fixture.show('archive/apollo-2026/chart-note.md').toString()).toBe('![chart](img/chart.png) ![[chart.png]]\n');
    expect(fixture.show('archive/apollo-2026/img/chart.png')).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    expect(fixture.show('shared/glossary.md').toString()).toBe('Used by [apollo plan](../archive/apollo-2026/plan.md)\n');
    expect(answer).toMatchObject({ files: 4, links: 1, updated: [{ path: 'shared/glossary.md', links: 1 }] });
    expect(fixture.git(['ls-tree', '-r', '--name-only', 'HEAD']).split('\n')).toEqual([
      'archive/apollo-2026/budget.md',
      'archive/apollo-2026/chart-note.md',
      'archive/apollo-2026/img/chart.png',
      'archive/apollo-2026/plan.md',
      'shared/glossary.md',
    ]);
    expect(fixture.commitCount()).toBe(2);
  });

  it('renames by case only, and refuses an existing target', async () => {
    fixture = await openWriteFixture({ 'Notes/plan.md': 'p\n', 'Notes/other.md': '[x](plan.md) [[plan]]\n', 'taken.md': 't\n' });
    const ctx = await fixture.context();
    const answer = await callTool(moveNote, { repo: 'notes', from: 'Notes/plan.md', to: 'Notes/Plan.md', summary: 'Capitalised' }, ctx);
    expect(fixture.git(['ls-tree', '-r', '--name-only', 'HEAD']).split('\n')).toEqual(['Notes/Plan.md', 'Notes/other.md', 'taken.md']);
    expect(fixture.show('Notes/other.md').toString()).toBe('[x](Plan.md) [[plan]]\n');
    expect(answer.links).toBe(1);
    const exists = await refusalOf(callTool(moveNote, { repo: 'notes', from: 'Notes/Plan.md', to: 'taken.md', summary: 'S' }, ctx));
    expect(exists.code).toBe('exists');
    expect(exists.message).toContain('"taken.md"');
    expect(fixture.commitCount()).toBe(2);
  });

  for (const bare of [false, true]) {
    it(`refuses a target that clashes by case with a note or folder that stays, or that Windows cannot hold (${bare ? 'bare' : 'work tree'})`, async () => {
      fixture = await openWriteFixture(
        { 'notes/plan.md': 'p\n', 'notes/other.md': '[[plan]]\n', 'drafts/idea.md': 'i\n', 'drafts/more.md': 'm\n' },
        { bare },
      );
      const ctx = await fixture.context();
      const move = (from: string, to: string) => callTool(moveNote, { repo: 'notes', from, to, summary: 'Moved' }, ctx);
      const note = await refusalOf(move('drafts/idea.md', 'notes/Plan.md'));
      expect(note.code).toBe('exists');
      expect(note.message).toBe(
        '"notes/Plan.md" differs only in upper and lower case from "notes/plan.md", which already exists: on macOS and Windows, where case does not count, a checkout holds only one of them. Choose another target, or move or rename "notes/plan.md" first.',
      );
      const folder = await refusalOf(move('drafts/idea.md', 'Notes/idea.md'));
      expect(folder.code).toBe('exists');
      expect(folder.message).toContain('Use "notes/idea.md" instead.');
      const folderMove = await refusalOf(move('drafts', 'NOTES'));
      expect(folderMove.code).toBe('exists');
      expect(folderMove.details).toMatchObject({ existing: 'notes' });
      // One note of a folder renamed by case would split the folder in two.
      expect((await refusalOf(move('notes/plan.md', 'Notes/plan.md'))).details).toMatchObject({ existing: 'notes' });
      for (const to of ['drafts/NUL.md', 'drafts/idea: v2.md', 'lpt1/idea.md', 'drafts/idea?.md']) {
        const bad = await refusalOf(move('drafts/idea.md', to));
        expect(bad.code, to).toBe('invalid_path');
        expect(bad.message).toContain('cannot be checked out on Windows');
      }
      expect((await refusalOf(move('drafts', 'archive.'))).message).toContain('Choose another name, for example "archive"');
      expect(fixture.commitCount()).toBe(1);
      // A rename by case only of the note itself, or of a whole folder, stays allowed (spec: move_note).
      await move('notes/plan.md', 'notes/Plan.md');
      await move('drafts', 'Drafts');
      await move('Drafts/idea.md', "notes/Idea #2 'v2' (Größe).md");
      expect(fixture.git(['-c', 'core.quotepath=false', 'ls-tree', '-r', '--name-only', 'HEAD']).split('\n')).toEqual([
        'Drafts/more.md',
        "notes/Idea #2 'v2' (Größe).md",
        'notes/Plan.md',
        'notes/other.md',
      ]);
    });
  }

  it('never merges a folder into an existing one, nor moves it onto a file', async () => {
    fixture = await openWriteFixture({ 'moved/sub2/a.md': 'a\n', 'notes/b.md': 'b\n', 'taken.md': 't\n' });
    const ctx = await fixture.context();
    const head = fixture.git(['rev-parse', 'HEAD']);
    const merge = await refusalOf(callTool(moveNote, { repo: 'notes', from: 'moved/sub2', to: 'notes', summary: 'Merge' }, ctx));
    expect(merge.code).toBe('exists');
    expect(merge.message).toContain('"notes" is a folder already');
    const ontoFile = await refusalOf(callTool(moveNote, { repo: 'notes', from: 'moved/sub2', to: 'taken.md', summary: 'Onto' }, ctx));
    expect(ontoFile.code).toBe('exists');
    expect(ontoFile.message).toContain('"taken.md" is a file');
    expect(fixture.git(['rev-parse', 'HEAD'])).toBe(head);
    // A new folder name, or one that differs only in case, is fine.
    await callTool(moveNote, { repo: 'notes', from: 'moved/sub2', to: 'moved/Sub2', summary: 'Case' }, ctx);
    await callTool(moveNote, { repo: 'notes', from: 'moved/Sub2', to: 'notes/sub2', summary: 'Into' }, ctx);
    expect(fixture.git(['ls-tree', '-r', '--name-only', 'HEAD']).split('\n')).toEqual(['notes/b.md', 'notes/sub2/a.md', 'taken.md']);
  });

  it('handles Unicode and punctuation in file names', async () => {
    fixture = await openWriteFixture({
      'Größe & Maß (v2).md': 'g\n',
      'Zürich 会議.md': 'z\n',
      'links.md': '[[Größe & Maß (v2)]] [g](Gr%C3%B6%C3%9Fe%20%26%20Ma%C3%9F%20%28v2%29.md) [[Zürich 会議#Top]] [z](<Zürich 会議.md>)\n',
    });
    const ctx = await fixture.context();
    await callTool(moveNote, { repo: 'notes', from: 'Größe & Maß (v2).md', to: 'maße/Größe, Maß (v3).md', summary: 'Renamed' }, ctx);
    await callTool(moveNote, { repo: 'notes', from: 'Zürich 会議.md', to: 'orte/Zürich 会議 2.md', summary: 'Renamed' }, ctx);
    expect(fixture.show('links.md').toString()).toBe(
      '[[Größe, Maß (v3)]] [g](ma%C3%9Fe/Gr%C3%B6%C3%9Fe,%20Ma%C3%9F%20%28v3%29.md) [[Zürich 会議 2#Top]] [z](<orte/Zürich 会議 2.md>)\n',
    );
  });

  it('counts links from outside the open folders without changing or naming them', async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [], "folders": ["vault/"] }\n',
      'vault/plan.md': 'p\n',
      'vault/in.md': '[[plan]]\n',
      'site/out.md': '[[vault/plan]] and [[vault/plan|again]]\n',
    });
    const answer = await callTool(
      moveNote,
      { repo: 'notes', from: 'vault/plan.md', to: 'vault/x/plan2.md', summary: 'Moved' },
      await fixture.context(),
    );
    expect(answer).toMatchObject({ links: 1, outsideReferences: 2, updated: [{ path: 'vault/in.md', links: 1 }] });
    expect(fixture.show('site/out.md').toString()).toBe('[[vault/plan]] and [[vault/plan|again]]\n');
    const outside = await refusalOf(
      callTool(moveNote, { repo: 'notes', from: 'vault/in.md', to: 'site/in.md', summary: 'S' }, await fixture.context()),
    );
    expect(outside.code).toBe('outside_folders');
  });

  it('changes the type with the move, and refuses a target the type does not allow', async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [] }\n',
      '.vault/types/decision.md':
        '---\nplaces:\n  - "decisions/{title:slug}.md"\nfrontmatter:\n  type: object\n  required: [decided_by]\n---\n',
      '.vault/types/idea.md': '---\nplaces:\n  - "ideas/{title:slug}.md"\n---\n',
      'ideas/fly.md': '---\r\ntype: idea # was an idea\r\ndecided_by: Ann\r\n---\r\nFly.\r\n',
      'ideas/swim.md': '---\ntype: idea\n---\nSwim.\n',
    });
    const ctx = await fixture.context();
    const wrongPlace = await refusalOf(
      callTool(moveNote, { repo: 'notes', from: 'ideas/fly.md', to: 'elsewhere/fly.md', summary: 'S' }, ctx),
    );
    expect(wrongPlace.code).toBe('bad_arguments');
    expect(wrongPlace.message).toContain('"ideas/{title:slug}.md"');
    const schema = await refusalOf(
      callTool(moveNote, { repo: 'notes', from: 'ideas/swim.md', to: 'decisions/swim.md', type: 'decision', summary: 'S' }, ctx),
    );
    expect(schema.code).toBe('schema_violation');
    await callTool(
      moveNote,
      { repo: 'notes', from: 'ideas/fly.md', to: 'decisions/fly.md', type: 'decision', summary: 'Decided to fly' },
      ctx,
    );
    expect(fixture.show('decisions/fly.md').toString()).toBe('---\r\ntype: decision # was an idea\r\ndecided_by: Ann\r\n---\r\nFly.\r\n');
    expect(fixture.commitCount()).toBe(2);
  });

  it('answers the same commit when the move was already made', async () => {
    fixture = await openWriteFixture({ 'a.md': 'a\n', 'b.md': '[[a]]\n' });
    const ctx = await fixture.context();
    const first = await callTool(moveNote, { repo: 'notes', from: 'a.md', to: 'x/a2.md', summary: 'Moved' }, ctx);
    const again = await callTool(moveNote, { repo: 'notes', from: 'a.md', to: 'x/a2.md', summary: 'Moved' }, ctx);
    expect(again.commit).toBe(first.commit);
    expect(fixture.commitCount()).toBe(2);
    expect((await refusalOf(callTool(moveNote, { repo: 'notes', from: 'gone.md', to: 'y.md', summary: 'S' }, ctx))).code).toBe(
      'note_not_found',
    );
  });

  for (const bare of [false, true]) {
    it(`never turns a symbolic link into a file: refuses to move one or a folder holding one, and rewrites only its target (${bare ? 'bare' : 'work tree'})`, async () => {
      fixture = await openWriteFixture(
        {
          'notes/plan.md': 'See [t](target.md).\n',
          'notes/target.md': 't\n',
          'other/x.md': 'x\n',
          '.private/s.md': 's\n',
          '.vault/settings.jsonc': '{}',
        },
        { bare },
      );
      const head = commitSymlinks(fixture, {
        'notes/alias.md': 'plan.md',
        'notes/secret.md': '../.private/s.md',
        'notes/settings.md': '../.vault/settings.jsonc',
      });
      const ctx = await fixture.context();
      const move = (from: string, to: string) => callTool(moveNote, { repo: 'notes', from, to, summary: 'Moved' }, ctx);

      const link = await refusalOf(move('notes/alias.md', 'other/alias.md'));
      expect(link.code).toBe('not_a_note');
      expect(link.message).toBe(
        '"notes/alias.md" is a symbolic link to "notes/plan.md", not a note of its own, and move_note would replace it with a copy of what it points to. Move "notes/plan.md" instead. Nothing was written.',
      );
      if (!bare) {
        // In a work tree the link shows its target's text, so it is among the folder's files.
        const folder = await refusalOf(move('notes', 'archive'));
        expect(folder.code).toBe('not_a_note');
        // A link to a hidden file is named, not where it leads: that path reads as absent everywhere.
        expect(folder.message).toContain('"notes/alias.md" → "notes/plan.md"');
        expect(folder.message).not.toContain('.private');
        expect(folder.message).not.toContain('.vault');
      }
      expect(fixture.git(['rev-parse', 'HEAD'])).toBe(head);

      const answer = await move('notes/target.md', 'other/target.md');
      expect(answer.updated).toEqual([{ path: 'notes/plan.md', links: 1 }]);
      expect(fixture.show('notes/plan.md').toString()).toBe('See [t](../other/target.md).\n');
      expect(fixture.git(['ls-tree', 'HEAD', '--', 'notes/alias.md'])).toMatch(/^120000 /);
      expect(changedFiles(fixture)).toEqual(['M notes/plan.md', 'D notes/target.md', 'A other/target.md']);
      if (!bare) expect(fixture.git(['status', '--porcelain'])).toBe('');
    });
  }
});

describe('move_note with paths written <repo>/<path>', () => {
  it('reads from and to alike without the prefix when the repository has no folder of its name', async () => {
    fixture = await openWriteFixture({ 'a/New.md': '# New\n', 'index.md': 'See [[New]]\n' });
    const ctx = await fixture.context();
    const answer = await callTool(moveNote, { repo: 'notes', from: 'notes/a/New.md', to: 'notes/a/Newer.md', summary: 'Moved' }, ctx);
    expect(answer).toMatchObject({ from: 'a/New.md', to: 'a/Newer.md', files: 1 });
    expect(fixture.show('a/Newer.md').toString()).toBe('# New\n');
    expect(fixture.git(['ls-tree', '-r', '--name-only', 'HEAD']).split('\n').sort()).toEqual(['a/Newer.md', 'index.md']);
  });

  it('takes both as written where the repository has a top-level folder of its name', async () => {
    fixture = await openWriteFixture({ 'notes/x.md': '# X\n', 'a/New.md': '# New\n' });
    const ctx = await fixture.context();
    const answer = await callTool(moveNote, { repo: 'notes', from: 'notes/x.md', to: 'notes/y.md', summary: 'Moved' }, ctx);
    expect(answer).toMatchObject({ from: 'notes/x.md', to: 'notes/y.md' });
    expect(fixture.show('notes/y.md').toString()).toBe('# X\n');
    // The same rule for an existing path: "notes/a/New.md" is not "a/New.md" here.
    const refusal = await refusalOf(callTool(moveNote, { repo: 'notes', from: 'notes/a/New.md', to: 'a/Newer.md', summary: 'Moved' }, ctx));
    expect(refusal.code).toBe('note_not_found');
    expect(fixture.show('a/New.md').toString()).toBe('# New\n');
  });
});

describe('move_note finds links through the links index, which may lag', () => {
  it('rewrites links in notes changed since indexing, committed or not', async () => {
    fixture = await openWriteFixture({
      'plan.md': '# Plan\n',
      'linked.md': 'See [[plan]].\n',
      'was-linked.md': 'See [[plan]].\n',
      'folder/other.md': 'Nothing here.\n',
    });
    const ctx = await fixture.context();
    // After the index was built (no poll runs here): a commit from outside adds a link and
    // drops one, and an uncommitted edit in the work tree adds another.
    commitOutside(fixture, { 'folder/other.md': 'Now see [[plan|the plan]].\n', 'was-linked.md': 'No link now.\n' });
    writeFileSync(join(fixture.repoDir, 'linked.md'), 'See [[plan]], and [p](plan.md).\n');
    const answer = await callTool(moveNote, { repo: 'notes', from: 'plan.md', to: 'done/Plan 2.md', summary: 'Moved' }, ctx);
    expect(answer).toMatchObject({
      links: 3,
      updated: [
        { path: 'folder/other.md', links: 1 },
        { path: 'linked.md', links: 2 },
      ],
    });
    expect(fixture.show('folder/other.md').toString()).toBe('Now see [[Plan 2|the plan]].\n');
    expect(fixture.show('was-linked.md').toString()).toBe('No link now.\n');
    expect(readFileSync(join(fixture.repoDir, 'linked.md'), 'utf8')).toBe('See [[Plan 2]], and [p](done/Plan%202.md).\n');
  });

  it('finds links again after earlier moves went into the index (moved notes, aliases, embeds, a note nobody links to)', async () => {
    fixture = await openWriteFixture({
      'a.md': '# A\n\nalphaword\n',
      'b.md': 'See [[a|the a]] and ![[a#A]].\n',
      'lonely.md': '# Lonely\n',
    });
    const ctx = await fixture.context();
    const move = (from: string, to: string) => callTool(moveNote, { repo: 'notes', from, to, summary: 'Moved' }, ctx);
    expect(await move('lonely.md', 'x/lonely.md')).toMatchObject({ links: 0, updated: [] });
    expect(await move('a.md', 'm/a1.md')).toMatchObject({ links: 2, updated: [{ path: 'b.md', links: 2 }] });
    expect(fixture.show('b.md').toString()).toBe('See [[a1|the a]] and ![[a1#A]].\n');
    expect(await move('b.md', 'm/b.md')).toMatchObject({ links: 0 });
    // m/b.md is a moved note whose rows came from the index update of the moves before.
    expect(await move('m/a1.md', 'a2.md')).toMatchObject({ links: 2, updated: [{ path: 'm/b.md', links: 2 }] });
    expect(fixture.show('m/b.md').toString()).toBe('See [[a2|the a]] and ![[a2#A]].\n');
    const found = await ctx.index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
      needle: 'alphaword',
      caseSensitive: false,
      after: null,
      limit: 10,
    });
    expect(found.map((note) => note.path)).toEqual(['a2.md']);
    expect((await ctx.index.linksTo('notes', 'a2.md')).map((link) => link.source)).toEqual(['m/b.md', 'm/b.md']);
  });

  it('resolves links against the paths as they are, not as the last move left them', async () => {
    fixture = await openWriteFixture({
      'deep/er/Target.md': '# Deep target\n',
      'other.md': '# Other\n',
      'index.md': 'See [[Target]].\n',
    });
    const ctx = await fixture.context();
    const move = (from: string, to: string) => callTool(moveNote, { repo: 'notes', from, to, summary: 'Moved' }, ctx);
    expect(await move('other.md', 'o/other.md')).toMatchObject({ links: 0 });
    expect(await move('o/other.md', 'other.md')).toMatchObject({ links: 0 });
    // A note on a shorter path, committed from outside: [[Target]] now reaches it, not deep/er/Target.md.
    commitOutside(fixture, { 'Target.md': '# Root target\n' });
    expect(await move('Target.md', 'z/Target2.md')).toMatchObject({ links: 1, updated: [{ path: 'index.md', links: 1 }] });
    expect(fixture.show('index.md').toString()).toBe('See [[Target2]].\n');
    // And back, right after: the paths are those the move left.
    expect(await move('z/Target2.md', 'Target.md')).toMatchObject({ links: 1 });
    expect(fixture.show('index.md').toString()).toBe('See [[Target]].\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  });

  it('reads every note when the index has not taken the repository in, whatever else it answers', async () => {
    fixture = await openWriteFixture({ 'plan.md': '# Plan\n', 'linked.md': 'See [p](plan.md).\n' });
    const ctx = await fixture.context();
    // An index without the repository's state, whose other answers would name no linking note.
    const index = Object.assign(Object.create(ctx.index) as typeof ctx.index, {
      repoState: () => Promise.resolve(null),
      linkSourcesByKey: () => Promise.resolve(new Map<string, string[]>()),
    });
    const answer = await callTool(moveNote, { repo: 'notes', from: 'plan.md', to: 'done/plan.md', summary: 'Moved' }, { ...ctx, index });
    expect(answer).toMatchObject({ links: 1, updated: [{ path: 'linked.md', links: 1 }] });
    expect(fixture.show('linked.md').toString()).toBe('See [p](done/plan.md).\n');
  });

  it('rewrites a link the move captures and a folder link ending in a slash, both found by the index', async () => {
    fixture = await openWriteFixture({
      'a/Plan.md': '# Plan\n',
      'b/sub/Road map.md': '# Road map in b\n',
      'kit/tool.md': '# Tool\n',
      'index.md': 'See [[a/Plan]], [kit](kit/) and [[Road map]].\n',
    });
    const ctx = await fixture.context();
    const note = await callTool(moveNote, { repo: 'notes', from: 'a/Plan.md', to: 'Road map.md', summary: 'Moved' }, ctx);
    // [[Road map]] reached b/sub/Road map.md and must keep doing so, though the moved note, on a shorter path, now bears the name.
    expect(fixture.show('index.md').toString()).toBe('See [[Road map]], [kit](kit/) and [[b/sub/Road map]].\n');
    expect(note).toMatchObject({ links: 2 });
    const folder = await callTool(moveNote, { repo: 'notes', from: 'kit', to: 'tools/kit', summary: 'Moved' }, ctx);
    expect(folder).toMatchObject({ links: 1, updated: [{ path: 'index.md', links: 1 }] });
    expect(fixture.show('index.md').toString()).toBe('See [[Road map]], [kit](tools/kit/) and [[b/sub/Road map]].\n');
  });
});
