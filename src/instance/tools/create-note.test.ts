import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callTool, refusalOf } from '../../../test/support/call-tool.ts';
import { commitSymlinks, openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import { createNote, fillTemplate } from './create-note.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const settings = (extra = '') => `{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": []${extra} }\n`;
const decisionType =
  '---\nplaces:\n  - "active/{project:slug}/decisions/{title:slug}.md"\nfrontmatter:\n  type: object\n  properties:\n    title:\n      type: string\n    decided_by:\n      type: string\n    decided_on:\n      type: string\n  required: [title, decided_by, decided_on]\n---\n# {title}\n\n{body}\n';

describe('create_note', () => {
  it('writes a plain note at its path as one commit, and answers the same when called again', async () => {
    fixture = await openWriteFixture({ 'README.md': '# Notes\n' });
    const ctx = await fixture.context();
    const args = {
      repo: 'notes',
      path: 'new/folder/Plan ü.md',
      frontmatter: { answer: 'no', version: '1.10', on: '2026-01-05', n: 2 },
      body: '# Plan\n',
    };
    const first = await callTool(createNote, args, ctx);
    const head = fixture.git(['rev-parse', 'HEAD']);
    expect(first).toEqual({ path: 'new/folder/Plan ü.md', commit: head, repo: 'notes' });
    expect(fixture.show('new/folder/Plan ü.md').toString()).toBe('---\nanswer: "no"\nversion: "1.10"\non: 2026-01-05\nn: 2\n---\n# Plan\n');
    expect(fixture.git(['log', '-1', '--format=%an|%s'])).toBe('Alice Arden|Created Plan ü.md (create_note via Test Client)');
    expect(fixture.git(['diff-tree', '--no-commit-id', '--name-only', '-r', 'HEAD'])).toBe('new/folder/Plan ü.md');
    expect((await ctx.index.getNote('notes', 'new/folder/Plan ü.md'))?.frontmatter).toEqual({
      answer: 'no',
      version: '1.10',
      on: '2026-01-05',
      n: 2,
    });
    const second = await callTool(createNote, args, ctx);
    expect(second).toEqual(first);
    expect(fixture.commitCount()).toBe(2);
  });

  it('refuses a path without .md with a path that would do', async () => {
    fixture = await openWriteFixture({ 'README.md': '# Notes\n' });
    const ctx = await fixture.context();
    const suggested = async (path: string) => {
      const refusal = await refusalOf(callTool(createNote, { repo: 'notes', path, body: 'x\n' }, ctx));
      expect(refusal.code).toBe('bad_arguments');
      return refusal.message.slice(refusal.message.indexOf('for example'));
    };
    expect(await suggested('docs/todo.txt')).toBe('for example "docs/todo.md".');
    expect(await suggested('ideas/new idea')).toBe(
      'for example "ideas/new idea.md", or "ideas/new idea/plan.md" for a note in that folder.',
    );
    expect(await suggested('ideas/')).toBe('for example "ideas/plan.md".');
    expect(await suggested('.hidden')).toBe('for example ".hidden.md", or ".hidden/plan.md" for a note in that folder.');
    expect(fixture.commitCount()).toBe(1);
  });

  it('refuses a body with a NUL character, and writes nothing', async () => {
    fixture = await openWriteFixture({ 'README.md': '# Notes\n' });
    const ctx = await fixture.context();
    const refusal = await refusalOf(callTool(createNote, { repo: 'notes', path: 'a.md', body: 'one\u0000two\n' }, ctx));
    expect(refusal.code).toBe('bad_arguments');
    expect(refusal.message).toContain('NUL character (U+0000)');
    // In frontmatter YAML writes it escaped ("\0"): the note stays text.
    await callTool(createNote, { repo: 'notes', path: 'b.md', frontmatter: { title: 'x\u0000y' }, body: 'Body\n' }, ctx);
    expect(fixture.show('b.md').toString()).toBe('---\ntitle: "x\\0y"\n---\nBody\n');
    expect(fixture.commitCount()).toBe(2);
  });

  it('never overwrites a different note, also under another Unicode normalisation', async () => {
    fixture = await openWriteFixture({ 'Über.md': 'old\n'.normalize('NFC') });
    const ctx = await fixture.context();
    const same = await refusalOf(callTool(createNote, { repo: 'notes', path: 'Über.md', body: 'new\n' }, ctx));
    expect(same.code).toBe('exists');
    expect(same.message).toContain('"Über.md"');
    const nfd = await refusalOf(callTool(createNote, { repo: 'notes', path: 'Über.md'.normalize('NFD'), body: 'new\n' }, ctx));
    expect(nfd.code).toBe('exists');
    expect(fixture.commitCount()).toBe(1);
  });

  it('builds a typed note from its place, checks the schema and fills the template', async () => {
    fixture = await openWriteFixture({ '.vault/settings.jsonc': settings(), '.vault/types/decision.md': decisionType, 'README.md': 'x\n' });
    const ctx = await fixture.context();
    const frontmatter = { title: 'Pick a date: Größe & Maß', project: 'Apollo Launch', decided_by: 'Ann', decided_on: '2026-01-05' };
    const answer = await callTool(createNote, { repo: 'notes', type: 'decision', frontmatter, body: 'We pick May.' }, ctx);
    expect(answer.path).toBe('active/apollo-launch/decisions/pick-a-date-groesse-mass.md');
    expect(fixture.show(answer.path).toString()).toBe(
      '---\ntype: decision\ntitle: "Pick a date: Größe & Maß"\nproject: Apollo Launch\ndecided_by: Ann\ndecided_on: 2026-01-05\n---\n# Pick a date: Größe & Maß\n\nWe pick May.\n',
    );
    const below = await callTool(
      createNote,
      { repo: 'notes', type: 'decision', path: '2026', frontmatter: { ...frontmatter, title: 'Second' }, body: '' },
      ctx,
    );
    expect(below.path).toBe('active/apollo-launch/decisions/2026/second.md');
    const schema = await refusalOf(
      callTool(createNote, { repo: 'notes', type: 'decision', frontmatter: { title: 'T', project: 'P', decided_by: 3 }, body: '' }, ctx),
    );
    expect(schema.code).toBe('schema_violation');
    expect(schema.message).toContain('decided_on');
    const noSlug = await refusalOf(
      callTool(createNote, { repo: 'notes', type: 'decision', frontmatter: { ...frontmatter, title: '!!!' }, body: '' }, ctx),
    );
    expect(noSlug.code).toBe('bad_arguments');
    const unknown = await refusalOf(callTool(createNote, { repo: 'notes', type: 'memo', path: 'm.md', body: '' }, ctx));
    expect(unknown.code).toBe('unknown_type');
    expect(unknown.message).toContain('"decision"');
    expect(fixture.commitCount()).toBe(3);
  });

  it('creates a typed note from a type file with Obsidian placeholders on one line, which is no YAML error', async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': settings(),
      '.vault/types/meeting.md':
        '---\nplaces:\n  - "meetings/{title:slug}.md"\ncreated: {{date}} {{time}}\n---\n# {title}\n\nHeld {{date}} {{time}}.\n\n{body}\n',
    });
    const ctx = await fixture.context();
    expect(ctx.vaults.get('notes')!.config.problems.map((problem) => problem.message)).toEqual([
      'types/meeting.md: "created" is not a key of a type file (it has places and frontmatter); ignored',
    ]);
    const answer = await callTool(
      createNote,
      { repo: 'notes', type: 'meeting', frontmatter: { title: 'Kick-off', created: '2026-11-30 18:20' }, body: 'Agenda.' },
      ctx,
    );
    expect(answer.path).toBe('meetings/kick-off.md');
    expect(fixture.show(answer.path).toString()).toBe(
      '---\ntype: meeting\ntitle: Kick-off\ncreated: 2026-11-30 18:20\n---\n# Kick-off\n\nHeld {{date}} {{time}}.\n\nAgenda.\n',
    );
    expect((await ctx.index.getNote('notes', answer.path))?.frontmatter).toEqual({
      type: 'meeting',
      title: 'Kick-off',
      created: '2026-11-30 18:20',
    });
  });

  it('ends the note with one line break, with and without a template', async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': settings(),
      '.vault/types/bare.md': '---\nplaces:\n  - "bare/{title:slug}.md"\n---\n# {title}\n\n{body}',
      '.vault/types/lined.md': '---\nplaces:\n  - "lined/{title:slug}.md"\n---\n# {title}\n\n{body}\n',
      '.vault/types/bodiless.md': '---\nplaces:\n  - "bodiless/{title:slug}.md"\n---\n# {title}',
    });
    const ctx = await fixture.context();
    await callTool(createNote, { repo: 'notes', path: 'plain.md', body: 'No break at the end' }, ctx);
    expect(fixture.show('plain.md').toString()).toBe('No break at the end\n');
    await callTool(createNote, { repo: 'notes', path: 'front.md', frontmatter: { a: 1 }, body: 'Text' }, ctx);
    expect(fixture.show('front.md').toString()).toBe('---\na: 1\n---\nText\n');
    for (const type of ['bare', 'lined', 'bodiless']) {
      for (const body of ['Text', 'Text\n']) {
        const { path } = await callTool(createNote, { repo: 'notes', type, frontmatter: { title: `T ${body.length}` }, body }, ctx);
        expect(fixture.show(path).toString()).toBe(`---\ntype: ${type}\ntitle: T ${body.length}\n---\n# T ${body.length}\n\nText\n`);
      }
    }
  });

  it('uses the default type, except for a README and exempt paths', async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': settings(', "defaultType": "idea", "exempt": ["templates/"]'),
      '.vault/types/idea.md': '---\nplaces:\n  - "ideas/{title:slug}.md"\n---\n',
    });
    const ctx = await fixture.context();
    expect((await callTool(createNote, { repo: 'notes', frontmatter: { title: 'Fly' }, body: 'b\n' }, ctx)).path).toBe('ideas/fly.md');
    expect(fixture.show('ideas/fly.md').toString()).toBe('---\ntype: idea\ntitle: Fly\n---\nb\n');
    expect((await callTool(createNote, { repo: 'notes', path: 'ideas/README.md', body: '# Ideas\n' }, ctx)).path).toBe('ideas/README.md');
    expect(fixture.show('ideas/README.md').toString()).toBe('# Ideas\n');
    expect((await callTool(createNote, { repo: 'notes', path: 'templates/t.md', body: 't\n' }, ctx)).path).toBe('templates/t.md');
  });

  it('refuses paths that are not notes, outside folders or hidden', async () => {
    fixture = await openWriteFixture({ '.vault/settings.jsonc': settings(', "folders": ["open/"]') });
    const ctx = await fixture.context();
    expect((await refusalOf(callTool(createNote, { repo: 'notes', path: 'open/x.txt', body: '' }, ctx))).code).toBe('bad_arguments');
    expect((await refusalOf(callTool(createNote, { repo: 'notes', body: '' }, ctx))).code).toBe('bad_arguments');
    expect((await refusalOf(callTool(createNote, { repo: 'notes', path: 'closed/x.md', body: '' }, ctx))).code).toBe('outside_folders');
    expect((await refusalOf(callTool(createNote, { repo: 'notes', path: 'open/.secret/x.md', body: '' }, ctx))).code).toBe('hidden_path');
    expect((await refusalOf(callTool(createNote, { repo: 'notes', path: 'open/../x.md', body: '' }, ctx))).code).toBe('invalid_path');
    expect(
      (await refusalOf(callTool(createNote, { repo: 'notes', path: 'open/x.md', body: '' }, await fixture.context({ write: false })))).code,
    ).toBe('forbidden');
  });

  it('creates a note with a long but legal name (228 bytes), in the commit and in the work tree', async () => {
    fixture = await openWriteFixture({ 'notes/a.md': 'a\n' });
    const ctx = await fixture.context();
    const name = `${'議事録の要点と次の行動計画メモ'.repeat(5)}.md`;
    expect(Buffer.byteLength(name)).toBe(228);
    const answer = await callTool(createNote, { repo: 'notes', path: `notes/${name}`, body: '# 要点\n' }, ctx);
    expect(answer).toEqual({ path: `notes/${name}`, commit: fixture.git(['rev-parse', 'HEAD']), repo: 'notes' });
    expect(fixture.show(`notes/${name}`).toString()).toBe('# 要点\n');
    expect(readFileSync(join(fixture.repoDir, 'notes', name), 'utf8')).toBe('# 要点\n');
    expect(fixture.git(['status', '--porcelain'])).toBe('');
    expect((await ctx.index.getNote('notes', `notes/${name}`))?.content).toBe('# 要点\n');
    // One more character is over the file system's 255 bytes: refused before anything is written.
    const tooLong = await refusalOf(
      callTool(
        createNote,
        { repo: 'notes', path: `notes/${'議事録の要点と次の行動計画メモ'.repeat(5)}追加の要点と行動計画.md`, body: 'x\n' },
        ctx,
      ),
    );
    expect(tooLong.code).toBe('invalid_path');
    expect(tooLong.message).toContain('255 bytes');
    expect(fixture.commitCount()).toBe(2);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  });

  it('refuses any entry already at the path: a symbolic link, a folder, a file where a folder should be', async () => {
    fixture = await openWriteFixture({ 'notes/a.md': 'a\n', 'notes/file': 'not a folder\n', 'notes/sub/b.md': 'b\n' });
    symlinkSync('../../outside.md', join(fixture.repoDir, 'notes', 'link-out.md'));
    fixture.git(['add', 'notes/link-out.md']);
    fixture.git(['commit', '-q', '-m', 'Link out']);
    const head = fixture.git(['rev-parse', 'HEAD']);
    const ctx = await fixture.context();
    const link = await refusalOf(callTool(createNote, { repo: 'notes', path: 'notes/link-out.md', body: 'x\n' }, ctx));
    expect(link.code).toBe('exists');
    expect(link.message).toContain('"notes/link-out.md" already exists as a symbolic link');
    mkdirSync(join(fixture.repoDir, 'notes', 'folder.md'));
    writeFileSync(join(fixture.repoDir, 'notes', 'folder.md', 'inside.txt'), 'x\n');
    const folder = await refusalOf(callTool(createNote, { repo: 'notes', path: 'notes/folder.md', body: 'x\n' }, ctx));
    expect(folder.code).toBe('exists');
    expect(folder.message).toContain('as a folder');
    const onTheWay = await refusalOf(callTool(createNote, { repo: 'notes', path: 'notes/file/new.md', body: 'x\n' }, ctx));
    expect(onTheWay.code).toBe('exists');
    expect(onTheWay.message).toContain('"notes/file" is a file, not a folder');
    expect(fixture.git(['rev-parse', 'HEAD'])).toBe(head);
    expect(fixture.git(['ls-files', '-s', 'notes/link-out.md'])).toMatch(/^120000 /);
    expect(fixture.git(['status', '--porcelain'])).toBe('?? notes/folder.md/');
  });

  it('refuses a path through a folder that is a symbolic link, naming where the note belongs', async () => {
    fixture = await openWriteFixture({ 'notes/a.md': 'a\n' });
    const head = commitSymlinks(fixture, { shortcut: 'notes' });
    const refused = await refusalOf(callTool(createNote, { repo: 'notes', path: 'shortcut/new.md', body: 'x\n' }, await fixture.context()));
    expect(refused.code).toBe('not_a_note');
    expect(refused.message).toBe(
      '"shortcut/new.md" lies in "shortcut", which is a symbolic link to "notes", not a folder of its own, and create_note never writes through a link. Create the note at "notes/new.md" instead. Nothing was written.',
    );
    expect(fixture.git(['rev-parse', 'HEAD'])).toBe(head);
    expect(fixture.git(['status', '--porcelain'])).toBe('');
  });

  for (const bare of [false, true]) {
    it(`refuses a name that clashes by case with a note or folder there, or that Windows cannot hold (${bare ? 'bare' : 'work tree'})`, async () => {
      fixture = await openWriteFixture({ 'notes/plan.md': 'p\n', 'notes/Sub/a.md': 'a\n' }, { bare });
      const ctx = await fixture.context();
      const create = (path: string) => callTool(createNote, { repo: 'notes', path, body: 'x\n' }, ctx);
      const note = await refusalOf(create('Notes/Plan.md'));
      expect(note.code).toBe('exists');
      expect(note.message).toContain(
        '"Notes/Plan.md" goes through the folder "Notes", which differs only in upper and lower case from the existing folder "notes"',
      );
      expect(note.message).toContain('Use "notes/Plan.md" instead.');
      const same = await refusalOf(create('notes/Plan.md'));
      expect(same.code).toBe('exists');
      expect(same.message).toBe(
        '"notes/Plan.md" differs only in upper and lower case from "notes/plan.md", which already exists: on macOS and Windows, where case does not count, a checkout holds only one of them. Change "notes/plan.md" with edit_note, or create the note under another title or path.',
      );
      expect((await refusalOf(create('notes/sub/b.md'))).details).toMatchObject({ existing: 'notes/Sub' });
      for (const [path, segment] of [
        ['notes/CON.md', 'CON.md'],
        ['notes/aux/x.md', 'aux'],
        ['notes/Plan: phase 2.md', 'Plan: phase 2.md'],
        ['notes/why?.md', 'why?.md'],
        ['notes/draft./x.md', 'draft.'],
      ] as const) {
        const bad = await refusalOf(create(path));
        expect(bad.code, path).toBe('invalid_path');
        expect(bad.details).toMatchObject({ segment });
        expect(bad.message).toContain('cannot be checked out on Windows');
      }
      expect((await refusalOf(create('notes/com1.txt.md'))).message).toContain('Choose another name, for example "notes/_com1.txt.md".');
      expect(fixture.commitCount()).toBe(1);
      // Names every checkout holds still work: Unicode, spaces, #, quotes, brackets, device names inside a longer name.
      for (const path of ['notes/Sub/c.md', "notes/Größe & Maß #2 'final' “v3” [draft].md", 'notes/CONTRACT.md', 'Notes 2/plan.md']) {
        expect((await create(path)).path).toBe(path);
      }
      expect(fixture.commitCount()).toBe(5);
    });
  }

  it('refuses to overwrite an uncommitted file in the work tree', async () => {
    fixture = await openWriteFixture({ 'a.md': 'a\n' });
    writeFileSync(join(fixture.repoDir, 'draft.md'), 'my draft\n');
    const refused = await refusalOf(callTool(createNote, { repo: 'notes', path: 'draft.md', body: 'other\n' }, await fixture.context()));
    expect(refused.code).toBe('exists');
    expect(fixture.commitCount()).toBe(1);
  });

  it("refuses an untracked file with exactly the new note's text: never commits a file it did not write", async () => {
    fixture = await openWriteFixture({ 'a.md': 'a\n' });
    writeFileSync(join(fixture.repoDir, 'draft.md'), '# Draft\n');
    const refused = await refusalOf(callTool(createNote, { repo: 'notes', path: 'draft.md', body: '# Draft\n' }, await fixture.context()));
    expect(refused.code).toBe('exists');
    expect(refused.message).toMatch(/^"draft\.md" already exists in the work tree with exactly this text, but it is not committed/);
    expect(fixture.commitCount()).toBe(1);
    expect(fixture.git(['status', '--porcelain'])).toBe('?? draft.md');
  });
});

describe('fillTemplate', () => {
  it('fills fields and the body once, never scanning the body', () => {
    expect(fillTemplate('# {title}\n\n{body}\n', { title: 'T' }, 'has {title}')).toBe('# T\n\nhas {title}\n');
    expect(fillTemplate('# {title}\n{missing}\n', { title: 'T' }, 'b')).toBe('# T\n{missing}\n\nb');
    expect(fillTemplate('', {}, 'b')).toBe('b');
    // Obsidian's own placeholders in double braces are not ours: kept whole, never half filled.
    expect(fillTemplate('# {{title}} ({title})\nAt {{date}} {{time}}\n{body}\n', { title: 'T', date: 'D' }, 'b')).toBe(
      '# {{title}} (T)\nAt {{date}} {{time}}\nb\n',
    );
  });

  it('keeps a field beside other text on its line: a title cannot add a heading below the first', () => {
    expect(fillTemplate('# {title}\n\n{body}\n', { title: 'T\n## Forged' }, 'b')).toBe('# T ## Forged\n\nb\n');
    expect(fillTemplate('{summary}\n', { summary: 'One\nTwo' }, '')).toBe('One\nTwo\n');
  });
});

describe('create_note with a path written <repo>/<path>', () => {
  it('creates the note without the prefix when the repository has no folder of its name', async () => {
    fixture = await openWriteFixture({ 'README.md': '# Notes\n' });
    const ctx = await fixture.context();
    const answer = await callTool(createNote, { repo: 'notes', path: 'notes/en/Prefixed.md', body: 'x\n' }, ctx);
    expect(answer).toMatchObject({ path: 'en/Prefixed.md', repo: 'notes' });
    expect(fixture.git(['diff-tree', '--no-commit-id', '--name-only', '-r', 'HEAD'])).toBe('en/Prefixed.md');
  });

  it('takes the path as written where the repository has a top-level folder of its name', async () => {
    fixture = await openWriteFixture({ 'README.md': '# Notes\n', 'notes/old.md': '# Old\n' });
    const ctx = await fixture.context();
    const answer = await callTool(createNote, { repo: 'notes', path: 'notes/en/Prefixed.md', body: 'x\n' }, ctx);
    expect(answer).toMatchObject({ path: 'notes/en/Prefixed.md' });
    expect(fixture.git(['diff-tree', '--no-commit-id', '--name-only', '-r', 'HEAD'])).toBe('notes/en/Prefixed.md');
  });
});
