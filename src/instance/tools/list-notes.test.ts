// list_notes on real repositories: folders, filters, fields, paging, across repositories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAcme } from '../../../test/support/acme-fixture.ts';
import { isVaultError } from '../../vault-error.ts';
import { repoField } from '../tool.ts';
import { listNotes } from './list-notes.ts';

let acme: Awaited<ReturnType<typeof openAcme>>;
const list = async (input: Record<string, unknown>) => listNotes.output.parse(await listNotes.handler(listNotes.input(repoField([])).parse(input), acme.ctx));

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
    expect(answer.notes[1]).toEqual({ path: 'active/launch/decisions/pick-a-date.md', title: 'Pick a date', type: 'decision', fields: { status: 'final' } });
    expect(answer.notes[0]).toMatchObject({ summary: 'Decisions for the launch, one note per decision.' });
  });

  it('filters by folder, type and status, and shows asked-for fields', async () => {
    const answer = await list({ repo: 'projects', folder: 'active/launch', type: 'decision', status: 'draft', fields: ['decided_on', 'tags', 'missing'] });
    expect(answer.notes).toEqual([{ path: 'active/launch/plan.md', title: 'Launch plan', type: 'decision', fields: { decided_on: '2026-01-10', tags: 'launch' } }]);
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
    expect(folder.notes.map((n) => n.path)).toEqual(['handbook/onboarding/first-week.md', 'handbook/onboarding/Über uns.md', 'handbook/onboarding/日本語.md']);
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
});
