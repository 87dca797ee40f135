// list_notes on real repositories: folders, filters, fields, paging, across repositories.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAcme } from '../../../test/support/acme-fixture.ts';
import { makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext } from '../../../test/support/tool-context.ts';
import { refusalOf } from '../../../test/support/call-tool.ts';
import { isVaultError } from '../../vault-error.ts';
import { repoField } from '../../tools/tool.ts';
import { listNotes } from './list-notes.ts';

let acme: Awaited<ReturnType<typeof openAcme>>;
const list = async (input: Record<string, unknown>) =>
  listNotes.output.parse(await listNotes.handler(listNotes.input(repoField([])).parse(input), acme.ctx));

const refusal = (input: Record<string, unknown>) => refusalOf(list(input));

beforeAll(async () => {
  acme = await openAcme();
});
afterAll(async () => acme?.close());

describe('list_notes', () => {
  it('lists the open folders by path, with title, type, summary and the overview fields', async () => {
    const answer = await list({ repo: 'projects' });
    expect(answer.notes.map((n) => n.path)).toEqual([
      'active/launch/README.md',
      'active/launch/decisions/pick-a-date.md',
      'active/launch/open-questions.md',
      'active/launch/plan.md',
      'active/templates/meeting.md',
      'archive/broken.md',
      'archive/old/Readme.md',
      'archive/old/notes.md',
    ]);
    expect(answer).toMatchObject({ total: 8, offset: 0, hasMore: false, repo: 'projects' });
    expect(answer.notes[1]).toEqual({
      path: 'active/launch/decisions/pick-a-date.md',
      title: 'Pick a date',
      type: 'decision',
      fields: { status: 'final' },
    });
    expect(answer.notes[0]).toMatchObject({ summary: 'Decisions for the launch, one note per decision.' });
  });

  it('filters by folder, type and status, and shows asked-for fields', async () => {
    const answer = await list({
      repo: 'projects',
      folder: 'active/launch',
      type: 'decision',
      status: 'draft',
      fields: ['decided_on', 'tags', 'missing'],
    });
    expect(answer.notes).toEqual([
      { path: 'active/launch/plan.md', title: 'Launch plan', type: 'decision', fields: { decided_on: '2026-01-10', tags: 'launch' } },
    ]);
  });

  it('answers a type or status that matches nothing with the ones there are', async () => {
    const answer = await list({ repo: 'projects', type: 'task' });
    expect(answer.total).toBe(0);
    expect(answer.note).toContain('"decision" (2)');
    expect((await list({ repo: 'projects', status: 'done' })).note).toContain('"final" (1)');
  });

  it('pages with limit and offset', async () => {
    const first = await list({ repo: 'projects', limit: 3 });
    expect(first).toMatchObject({ total: 8, hasMore: true });
    expect(first.note).toContain('offset 3');
    const last = await list({ repo: 'projects', limit: 3, offset: 6 });
    expect(last.notes.map((n) => n.path)).toEqual(['archive/old/Readme.md', 'archive/old/notes.md']);
    expect(last.hasMore).toBe(false);
  });

  it('works across repositories, naming notes <repo>/<path>, and understands such a folder', async () => {
    const answer = await list({ limit: 200 });
    expect(answer.repo).toBeUndefined();
    expect(answer.notes[0]).toMatchObject({ path: 'handbook/README.md', repo: 'handbook' });
    expect(answer.notes.some((n) => n.path === 'projects/code/build.md')).toBe(false);
    expect(answer.notes.some((n) => n.path === 'handbook/images/scan.md')).toBe(false);
    const folder = await list({ folder: 'handbook/onboarding' });
    expect(folder.notes.map((n) => n.path)).toEqual([
      'handbook/onboarding/first-week.md',
      'handbook/onboarding/Über uns.md',
      'handbook/onboarding/日本語.md',
    ]);
  });

  it('refuses a folder outside the open folders, naming them', async () => {
    try {
      await list({ repo: 'projects', folder: 'code' });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(isVaultError(error, 'outside_folders')).toBe(true);
      expect((error as Error).message).toContain('"archive/"');
    }
  });

  it('refuses a folder that does not exist, naming the closest folders, and a note given as a folder', async () => {
    expect(await refusal({ repo: 'projects', folder: 'active/lanch' })).toMatchObject({
      code: 'note_not_found',
      message: expect.stringContaining('The closest by name: "active/launch/"'),
    });
    expect((await refusal({ repo: 'handbook', folder: 'nowhere/at/all' })).message).toBe(
      'There is no folder "nowhere/at/all" in handbook. Use tree to see the folders there are.',
    );
    expect(await refusal({ repo: 'projects', folder: 'active/launch/plan.md' })).toMatchObject({
      code: 'bad_arguments',
      message: '"active/launch/plan.md" is a note, not a folder: read it with read_note, or give its folder "active/launch".',
    });
    expect((await refusal({ repo: 'projects', folder: 'active/launch/plan' })).message).toContain(
      'is a note (active/launch/plan.md), not a folder',
    );
    expect((await refusal({ repo: 'handbook', folder: 'images/logo.png' })).message).toContain('is a file, not a folder');
    expect((await refusal({ folder: 'handbook/onboard' })).message).toContain('"handbook/onboarding/"');
    expect((await refusal({ folder: 'nowhere' })).code).toBe('note_not_found');
  });

  it('answers an existing folder without notes with an empty list', async () => {
    const answer = await list({ repo: 'handbook', folder: 'images' });
    expect(answer).toMatchObject({ notes: [], total: 0, note: 'There are no notes in this folder.' });
    expect((await list({ folder: 'onboarding' })).notes.map((n) => n.path)).toContain('handbook/onboarding/first-week.md');
  });

  it('says so when offset is past the last note', async () => {
    const answer = await list({ repo: 'projects', offset: 20, limit: 3 });
    expect(answer).toMatchObject({ notes: [], total: 8, hasMore: false });
    expect(answer.note).toBe(
      'offset 20 is past the last of the 8 notes: call list_notes again with offset 0 for the first page, or offset 6 for the last.',
    );
    expect((await list({ repo: 'projects', offset: 6, limit: 3 })).notes).toHaveLength(2);
  });

  it('reads kepano-like templates and list fields: placeholders as written, lists joined, list statuses found', async () => {
    const dir = tempDir('mv-kepano-');
    makeRepo(join(dir.path, 'kepano'), [
      {
        message: 'Templates and clippings',
        files: {
          'Templates/Book Template.md':
            '---\ncategories:\n  - "[[Books]]"\nauthor: []\ncreated: {{date}}\ntitle: "{{title}}"\ntags:\n  - to-read\n---\n',
          'Templates/Meeting Template.md': '---\ncreated: {{date}} {{time}}\ntitle: {{title}} notes\n---\n# {{title}}\n',
          'Clippings/Buy wisely.md':
            '---\ncategories:\n  - "[[Clippings]]"\n  - "[[Posts]]"\nstatus:\n  - "[[Published]]"\n---\nCost per use.\n',
          'Clippings/Draft.md': '---\nstatus: draft\n---\nNot yet.\n',
        },
      },
    ]);
    const emitted = vi.spyOn(process, 'emitWarning');
    const kepano = await openToolContext(dir.path);
    const listIn = async (input: Record<string, unknown>) =>
      listNotes.output.parse(await listNotes.handler(listNotes.input(repoField([])).parse({ repo: 'kepano', ...input }), kepano));
    try {
      expect(emitted).not.toHaveBeenCalled();
      const all = await listIn({ fields: ['created', 'title', 'categories', 'status'] });
      expect(all.notes.find((n) => n.path === 'Templates/Book Template.md')?.fields).toEqual({
        created: '{{date}}',
        title: '{{title}}',
        categories: '[[Books]]',
      });
      expect(all.notes.find((n) => n.path === 'Templates/Meeting Template.md')?.fields).toEqual({
        created: '{{date}} {{time}}',
        title: '{{title}} notes',
      });
      expect((await kepano.index.getNote('kepano', 'Templates/Meeting Template.md'))?.frontmatter).toEqual({
        created: '{{date}} {{time}}',
        title: '{{title}} notes',
      });
      expect(all.notes.find((n) => n.path === 'Clippings/Buy wisely.md')?.fields).toEqual({
        categories: '[[Clippings]], [[Posts]]',
        status: '[[Published]]',
      });
      const published = await listIn({ status: '[[Published]]' });
      expect(published).toMatchObject({ total: 1, notes: [{ path: 'Clippings/Buy wisely.md' }] });
      const none = await listIn({ status: 'final' });
      expect(none.note).toContain('The statuses there are: ');
      expect(none.note).toContain('"[[Published]]" (1)');
      expect(none.note).not.toContain('[\\"');
    } finally {
      emitted.mockRestore();
      await kepano.close();
      dir.cleanup();
    }
  });
});
