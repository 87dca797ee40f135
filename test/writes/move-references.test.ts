// Moves keep every reference working (issue 9, item 5): links to folders, references inside
// .base files, find_references for both, and answers bounded however many files a move touches.
import { silentLogger } from '../../src/instance/log.ts';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Installation } from '../../src/instance/installation.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import { callTool } from '../support/call-tool.ts';
import { cloneCorpus, corpusBundle, git, tempDir } from '../support/git-fixture.ts';
import { openTestDatabase } from '../support/test-database.ts';
import { alicePerson, openWriteFixture, type WriteFixture } from './write-fixture.ts';
import { baseView } from '../../src/instance/tools/base-view.ts';
import { findReferences } from '../../src/instance/tools/find-references.ts';
import { moveNote } from '../../src/instance/tools/move-note.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('move_note and find_references with folders and bases', () => {
  it('rewrites links to a moved folder in their own form, and those of a moved note to folders', async () => {
    fixture = await openWriteFixture({
      'templates/nygard/template.md': '[up](../) [docs](../../docs/) [self](./) [sub](sub/)\n',
      'templates/nygard/sub/x.md': 'x\n',
      'templates/other/o.md': 'o\n',
      'README.md': [
        '[t](templates/nygard/) [u](templates/nygard) [v](/templates/nygard/) [w](./templates/nygard/sub/) [e](templates/nygard/#usage)',
        '[m](docs/My%20Folder/) [n](<docs/My Folder>) [o](templates/other/) `templates/nygard/` as text',
        '',
      ].join('\n'),
      'docs/guide.md': '[t](../templates/nygard/) [r](/templates/nygard) [home](../)\n',
      'docs/My Folder/a.md': 'a\n',
    });
    const ctx = await fixture.context();
    const before = await callTool(findReferences, { repo: 'notes', path: 'templates/nygard' }, ctx);
    expect(before.counts).toEqual([{ value: 'templates/nygard', lines: 3, capped: false }]);
    expect(before.references.map((ref) => `${ref.path}:${ref.line}`)).toEqual(['README.md:1', 'README.md:2', 'docs/guide.md:1']);

    const folder = await callTool(
      moveNote,
      { repo: 'notes', from: 'templates/nygard', to: 'adr/templates/nygard', summary: 'Moved the template' },
      ctx,
    );
    expect(fixture.show('README.md').toString()).toBe(
      [
        '[t](adr/templates/nygard/) [u](adr/templates/nygard) [v](/adr/templates/nygard/) [w](./adr/templates/nygard/sub/) [e](adr/templates/nygard/#usage)',
        '[m](docs/My%20Folder/) [n](<docs/My Folder>) [o](templates/other/) `templates/nygard/` as text',
        '',
      ].join('\n'),
    );
    expect(fixture.show('docs/guide.md').toString()).toBe('[t](../adr/templates/nygard/) [r](/adr/templates/nygard) [home](../)\n');
    expect(fixture.show('adr/templates/nygard/template.md').toString()).toBe(
      '[up](../../../templates/) [docs](../../../docs/) [self](./) [sub](sub/)\n',
    );
    expect(folder).toMatchObject({
      files: 2,
      links: 9,
      updated: [
        { path: 'README.md', links: 5 },
        { path: 'adr/templates/nygard/template.md', links: 2 },
        { path: 'docs/guide.md', links: 2 },
      ],
    });
    expect(fixture.commitCount()).toBe(2);

    const encoded = await callTool(
      moveNote,
      { repo: 'notes', from: 'docs/My Folder', to: 'docs/Our Folder', summary: 'Renamed the folder' },
      ctx,
    );
    expect(encoded.links).toBe(2);
    expect(fixture.show('README.md').toString().split('\n')[1]).toBe(
      '[m](docs/Our%20Folder/) [n](<docs/Our Folder>) [o](templates/other/) `templates/nygard/` as text',
    );

    // A note that moves keeps its relative links to folders working.
    const note = await callTool(moveNote, { repo: 'notes', from: 'docs/guide.md', to: 'guide.md', summary: 'Moved the guide up' }, ctx);
    expect(fixture.show('guide.md').toString()).toBe('[t](adr/templates/nygard/) [r](/adr/templates/nygard) [home](./)\n');
    expect(note.links).toBe(2);

    const after = await callTool(findReferences, { repo: 'notes', path: 'adr/templates/nygard/' }, ctx);
    expect(after.references.map((ref) => `${ref.path}:${ref.line}`)).toEqual(['README.md:1', 'guide.md:1']);
  });

  it("keeps a moved note's own relative links to folders, in every form", async () => {
    fixture = await openWriteFixture({
      'adr-templates/nygard-style/adr.md': 'adr\n',
      '設定 フォルダ/a.md': 'a\n',
      'linker.md': [
        '[f](adr-templates/nygard-style/) [f2](adr-templates/nygard-style) [n](adr-templates/nygard-style/adr.md) [root](/adr-templates/nygard-style/)',
        '[e](%E8%A8%AD%E5%AE%9A%20%E3%83%95%E3%82%A9%E3%83%AB%E3%83%80/) [a](<設定 フォルダ/>)',
        '[q](adr-templates/nygard-style/?x=1) [qn](adr-templates/nygard-style/adr.md?x=1#top)',
        '',
      ].join('\n'),
    });
    const ctx = await fixture.context();
    const answer = await callTool(
      moveNote,
      { repo: 'notes', from: 'linker.md', to: 'sub/linker.md', summary: 'Moved the linker down' },
      ctx,
    );
    expect(fixture.show('sub/linker.md').toString()).toBe(
      [
        '[f](../adr-templates/nygard-style/) [f2](../adr-templates/nygard-style) [n](../adr-templates/nygard-style/adr.md) [root](/adr-templates/nygard-style/)',
        '[e](../%E8%A8%AD%E5%AE%9A%20%E3%83%95%E3%82%A9%E3%83%AB%E3%83%80/) [a](<../設定 フォルダ/>)',
        '[q](../adr-templates/nygard-style/?x=1) [qn](../adr-templates/nygard-style/adr.md?x=1#top)',
        '',
      ].join('\n'),
    );
    expect(answer).toMatchObject({ links: 7, updated: [{ path: 'sub/linker.md', links: 7 }] });
  });

  it('rewrites link reference definitions in their own form, counts them and finds them', async () => {
    fixture = await openWriteFixture({
      'target.md': 'the target\n',
      '設定 フォルダ/a.md': 'a\n',
      'docs/refs.md': [
        'See [the target][t] and [the folder][f].',
        '',
        '[t]: ../target.md',
        '[f]: ./../設定%20フォルダ/ "Settings"',
        "  [g]: <../設定 フォルダ> 'Settings'",
        '[^1]: ../target.md is a footnote',
        '',
      ].join('\n'),
    });
    const ctx = await fixture.context();
    const noteRefs = await callTool(findReferences, { repo: 'notes', path: 'target.md' }, ctx);
    expect(noteRefs.references.map((ref) => `${ref.path}:${ref.line}`)).toEqual(['docs/refs.md:3']);
    const folderRefs = await callTool(findReferences, { repo: 'notes', path: '設定 フォルダ' }, ctx);
    expect(folderRefs.references.map((ref) => `${ref.path}:${ref.line}`)).toEqual(['docs/refs.md:4', 'docs/refs.md:5']);

    const note = await callTool(
      moveNote,
      { repo: 'notes', from: 'target.md', to: 'archive/target.md', summary: 'Archived the target' },
      ctx,
    );
    expect(note.links).toBe(1);
    const folder = await callTool(
      moveNote,
      { repo: 'notes', from: '設定 フォルダ', to: 'docs/設定 フォルダ', summary: 'Moved the settings' },
      ctx,
    );
    expect(folder.links).toBe(2);
    expect(fixture.show('docs/refs.md').toString()).toBe(
      [
        'See [the target][t] and [the folder][f].',
        '',
        '[t]: ../archive/target.md',
        '[f]: ./設定%20フォルダ/ "Settings"',
        "  [g]: <設定 フォルダ> 'Settings'",
        '[^1]: ../target.md is a footnote',
        '',
      ].join('\n'),
    );
  });

  it('writes folder links in the new case after a case-only folder rename', async () => {
    fixture = await openWriteFixture({
      'adr-templates/nygard-style/adr.md': 'adr\n',
      'README.md': '[f](adr-templates/nygard-style/) [r](/adr-templates/) [n](adr-templates/nygard-style/adr.md)\n',
      'docs/guide.md': '[up](../adr-templates) [abs](adr-templates/nygard-style/) [note](adr-templates/nygard-style/adr.md)\n',
    });
    const ctx = await fixture.context();
    const answer = await callTool(
      moveNote,
      { repo: 'notes', from: 'adr-templates', to: 'ADR-templates', summary: 'Upper-cased the templates' },
      ctx,
    );
    expect(fixture.show('README.md').toString()).toBe(
      '[f](ADR-templates/nygard-style/) [r](/ADR-templates/) [n](ADR-templates/nygard-style/adr.md)\n',
    );
    expect(fixture.show('docs/guide.md').toString()).toBe(
      '[up](../ADR-templates) [abs](ADR-templates/nygard-style/) [note](ADR-templates/nygard-style/adr.md)\n',
    );
    expect(answer.links).toBe(6);
  });

  it('finds a one-word folder written out as a path, never as a bare word or heading', async () => {
    fixture = await openWriteFixture({
      'kit/a.md': '# kit\n',
      'team/b.md': '# Draft team\n',
      'notes.md': [
        '# kit',
        'The kit is ready.',
        'Look in `kit/` for it.',
        'Or /kit at the root.',
        'Not other/kit nor kits.',
        '# Draft team',
        'See team/ too.',
        '',
      ].join('\n'),
    });
    const ctx = await fixture.context();
    const kit = await callTool(findReferences, { repo: 'notes', path: 'kit' }, ctx);
    expect(kit.references.map((ref) => `${ref.path}:${ref.line}`)).toEqual(['notes.md:3', 'notes.md:4']);
    const team = await callTool(findReferences, { repo: 'notes', path: 'team' }, ctx);
    expect(team.references.map((ref) => `${ref.path}:${ref.line}`)).toEqual(['notes.md:7']);
  });

  it('rewrites the notes and folders a .base names, so its views show the same rows', async () => {
    const peopleBase = [
      'filters:',
      '  and:',
      '    - file.inFolder("People/")',
      '    - \'file.ext == "md"\'',
      'views:',
      '  - type: table',
      '    name: All',
      '',
    ].join('\n');
    const meetingsBase = [
      '# Meetings with the team',
      'filters:',
      '  or:',
      '    - file.hasLink("Alice")',
      '    - "file.hasLink(\\"[[People/Bob]]\\")"',
      'formulas:',
      '  alice: \'link("Alice", "A")\'',
      '  tagged: |',
      '    if(note.with == "[[Alice]]", "yes", "no")',
      'views:',
      '  - type: table',
      '    name: Meetings',
      '    order:',
      '      - file.name',
      '      - formula.tagged',
      '',
    ].join('\n');
    fixture = await openWriteFixture({
      'People/Alice.md': '---\nrole: lead\n---\nAlice\n',
      'People/Bob.md': 'Bob\n',
      'Meetings/m1.md': '---\nwith: "[[Alice]]"\n---\nWith [[Alice]]\n',
      'Meetings/m2.md': 'With [[Bob]]\n',
      'Meetings/m3.md': 'Nobody\n',
      'Views/People.base': peopleBase,
      'Views/Meetings.base': meetingsBase,
    });
    const ctx = await fixture.context();
    const rows = async (path: string) =>
      (await callTool(baseView, { repo: 'notes', path }, ctx)).rows.map((row) => [row.path, ...row.cells]);
    expect(await rows('Views/People.base')).toEqual([
      ['People/Alice.md', 'Alice'],
      ['People/Bob.md', 'Bob'],
    ]);
    expect(await rows('Views/Meetings.base')).toEqual([
      ['Meetings/m1.md', 'm1', 'yes'],
      ['Meetings/m2.md', 'm2', 'no'],
    ]);

    const references = await callTool(findReferences, { repo: 'notes', path: 'People/Alice.md' }, ctx);
    expect(references.references.map((ref) => `${ref.path}:${ref.line}`)).toEqual([
      'Meetings/m1.md:2',
      'Meetings/m1.md:4',
      'Views/Meetings.base:4',
      'Views/Meetings.base:7',
      'Views/Meetings.base:9',
    ]);
    expect(references.references[2]!.text).toBe('    - file.hasLink("Alice")');
    const folderRefs = await callTool(findReferences, { repo: 'notes', path: 'People' }, ctx);
    expect(folderRefs.references.map((ref) => `${ref.path}:${ref.line}`)).toEqual(['Views/People.base:3']);

    const renamed = await callTool(
      moveNote,
      { repo: 'notes', from: 'People/Alice.md', to: 'People/Alicia.md', summary: 'Alice is Alicia' },
      ctx,
    );
    expect(renamed.updated).toEqual([
      { path: 'Meetings/m1.md', links: 2 },
      { path: 'Views/Meetings.base', links: 3 },
    ]);
    expect(fixture.show('Views/Meetings.base').toString()).toBe(
      meetingsBase.replaceAll('"Alice"', '"Alicia"').replace('"[[Alice]]"', '"[[Alicia]]"'),
    );
    expect(await rows('Views/Meetings.base')).toEqual([
      ['Meetings/m1.md', 'm1', 'yes'],
      ['Meetings/m2.md', 'm2', 'no'],
    ]);

    const moved = await callTool(moveNote, { repo: 'notes', from: 'People', to: 'Team', summary: 'People are the team' }, ctx);
    expect(moved.updated).toEqual([
      { path: 'Views/Meetings.base', links: 1 },
      { path: 'Views/People.base', links: 1 },
    ]);
    expect(fixture.show('Views/People.base').toString()).toBe(peopleBase.replace('inFolder("People/")', 'inFolder("Team/")'));
    expect(fixture.show('Views/Meetings.base').toString()).toContain('    - "file.hasLink(\\"[[Team/Bob]]\\")"\n');
    expect(await rows('Views/People.base')).toEqual([
      ['Team/Alicia.md', 'Alicia'],
      ['Team/Bob.md', 'Bob'],
    ]);
    expect(await rows('Views/Meetings.base')).toEqual([
      ['Meetings/m1.md', 'm1', 'yes'],
      ['Meetings/m2.md', 'm2', 'no'],
    ]);
    expect(fixture.commitCount()).toBe(3);
  });

  it('answers a move that updates 500 files within 40,000 characters, counts whole', async () => {
    const files: Record<string, string> = { 'target.md': 'the note\n' };
    for (let i = 0; i < 500; i++)
      files[`a-folder-with-a-rather-long-name/another-long-sub-folder/linking-note-${String(i).padStart(4, '0')}.md`] = `See [[target]].\n`;
    fixture = await openWriteFixture(files);
    const answer = await callTool(
      moveNote,
      { repo: 'notes', from: 'target.md', to: 'archive/target-2026.md', summary: 'Archived' },
      await fixture.context(),
    );
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(40_000);
    expect(answer.links).toBe(500);
    expect(answer.updated.length).toBeGreaterThan(100);
    expect(answer.updated.length).toBeLessThan(500);
    expect(answer.note).toContain(`updated lists ${answer.updated.length} of the 500 changed files`);
    expect(fixture.show('a-folder-with-a-rather-long-name/another-long-sub-folder/linking-note-0499.md').toString()).toBe(
      'See [[target-2026]].\n',
    );
  }, 600_000);
});

const kepano = corpusBundle('kepano-obsidian');

describe.skipIf(kepano === null)('move_note on kepano-obsidian, whose bases filter on categories', () => {
  it('renames a category note, and its base shows the same rows', async () => {
    const temp = tempDir('mv-kepano-');
    const reposDir = join(temp.path, 'repos');
    cloneCorpus('kepano-obsidian', join(reposDir, 'notes'));
    const host = new LocalRepoHost({ reposDir, as: alicePerson });
    const sql = await openTestDatabase();
    const installation = Installation.open({ name: 'test', host, sql, log: silentLogger() });
    try {
      await installation.start({ poll: false });
      const ctx = await installation.contextFor(
        { person: alicePerson, read: new Set(['notes']), write: new Set(['notes']) },
        'Test Client',
      );
      const rows = async () =>
        (await callTool(baseView, { repo: 'notes', path: 'Templates/Bases/People.base', limit: 200 }, ctx)).rows.map((row) => row.path);
      const before = await rows();
      expect(before.length).toBeGreaterThan(0);
      const references = await callTool(findReferences, { repo: 'notes', path: 'Categories/People.md', limit: 70 }, ctx);
      expect(references.references.map((ref) => ref.path)).toContain('Templates/Bases/People.base');

      const answer = await callTool(
        moveNote,
        { repo: 'notes', from: 'Categories/People.md', to: 'Categories/Persons.md', summary: 'People are persons' },
        ctx,
      );
      expect(answer.updated).toContainEqual({ path: 'Templates/Bases/People.base', links: 1 });
      expect(git(join(reposDir, 'notes'), ['show', 'HEAD:Templates/Bases/People.base'])).toContain(
        '    - categories.contains(link("Persons"))\n',
      );
      expect(await rows()).toEqual(before);
    } finally {
      await installation.close();
      await host.close();
      await sql.close();
      temp.cleanup();
    }
  }, 600_000);
});
