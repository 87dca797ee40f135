// tree on real repositories: folders with counts and READMEs, the root's rules, the repositories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openAcme } from '../../../test/support/acme-fixture.ts';
import { makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext } from '../../../test/support/tool-context.ts';
import { refusalOf } from '../../../test/support/call-tool.ts';
import { repoField } from '../../tools/tool.ts';
import { tree } from './tree.ts';

let acme: Awaited<ReturnType<typeof openAcme>>;
const map = async (input: Record<string, unknown>) =>
  tree.output.parse(await tree.handler(tree.input(repoField([])).parse(input), acme.ctx));

const refusal = (input: Record<string, unknown>) => refusalOf(map(input));

beforeAll(async () => {
  acme = await openAcme();
});
afterAll(async () => acme?.close());

describe('tree', () => {
  it('maps the open folders at the root, with counts, READMEs, instructions and README spellings', async () => {
    const answer = await map({ repo: 'projects' });
    expect(answer.entries).toEqual([
      { path: 'active/', notes: 5 },
      { path: 'active/launch/', notes: 4, summary: 'Decisions for the launch, one note per decision.', readme: 'active/launch/README.md' },
      { path: 'active/templates/', notes: 1 },
      { path: 'archive/', notes: 3 },
      { path: 'archive/old/', notes: 2, summary: expect.stringContaining('Readme.md here is not read') },
    ]);
    expect(answer).toMatchObject({
      total: 5,
      offset: 0,
      hasMore: false,
      repo: 'projects',
      instructions: 'Every decision names who made it and when.',
    });
  });

  it('goes deeper below a folder, and pages', async () => {
    const answer = await map({ repo: 'projects', folder: 'active', depth: 3 });
    expect(answer.entries.map((e) => e.path)).toEqual(['active/launch/', 'active/launch/decisions/', 'active/templates/']);
    expect(answer.instructions).toBeUndefined();
    const page = await map({ repo: 'projects', limit: 2, offset: 2 });
    expect(page.entries.map((e) => e.path)).toEqual(['active/templates/', 'archive/']);
    expect(page).toMatchObject({ hasMore: true, total: 5 });
    expect(page.instructions).toBeUndefined();
  });

  it('lists the readable repositories when repo is left out', async () => {
    const answer = await map({ depth: 1 });
    expect(answer.repos).toEqual([
      { repo: 'handbook' },
      { repo: 'projects', summary: 'One folder per project: plans, decisions and meeting notes.' },
    ]);
    expect(answer.entries).toEqual([
      { path: 'handbook/', notes: 4, readme: 'handbook/README.md', repo: 'handbook' },
      { path: 'projects/', notes: 8, summary: 'One folder per project: plans, decisions and meeting notes.', repo: 'projects' },
    ]);
    const below = await map({ folder: 'handbook' });
    expect(below.entries).toEqual([{ path: 'handbook/onboarding/', notes: 3, repo: 'handbook' }]);
  });

  it('carries the configuration problems with the root rules', async () => {
    const dir = tempDir('mv-broken-');
    makeRepo(join(dir.path, 'broken'), [
      { message: 'Broken', files: { '.vault/settings.jsonc': '{ "format": 3, "folders": 7 }\n', 'notes/a.md': '# A\n' } },
    ]);
    const broken = await openToolContext(dir.path);
    try {
      const answer = tree.output.parse(await tree.handler(tree.input(repoField([])).parse({ repo: 'broken' }), broken));
      // folders is not a list: nothing is open until it is fixed, and the root says why.
      expect(answer.entries).toEqual([]);
      expect(answer.instructions).toContain(
        'settings.jsonc: folders must be a non-empty list of strings; no folder is open until it is fixed',
      );
    } finally {
      await broken.close();
      dir.cleanup();
    }
  });

  it('says so at the root of a repository whose notes all lie at its root', async () => {
    const dir = tempDir('mv-flat-');
    makeRepo(join(dir.path, 'flat'), [{ message: 'Flat', files: { 'a.md': '# A\n', 'b.md': '# B\n', 'assets/logo.png': 'png' } }]);
    const flat = await openToolContext(dir.path);
    try {
      const at = async (input: Record<string, unknown>) =>
        tree.output.parse(await tree.handler(tree.input(repoField([])).parse(input), flat));
      const root = await at({ repo: 'flat' });
      expect(root.entries).toEqual([]);
      expect(root.instructions).toBe(
        '(Major Vault: this repository has no folders with notes; all its 2 notes lie at its root. list_notes lists them.)',
      );
      expect((await at({ repo: 'flat', folder: 'assets' })).instructions).toBeUndefined();
    } finally {
      await flat.close();
      dir.cleanup();
    }
  });

  it('shows only what the person can read', async () => {
    const only = await openToolContext(acme.reposDir, { readable: ['handbook'] });
    try {
      const answer = await tree.handler(tree.input(repoField([])).parse({}), only);
      expect(answer.repos).toEqual([{ repo: 'handbook' }]);
      expect(JSON.stringify(answer)).not.toContain('projects');
    } finally {
      await only.close();
    }
  });

  it('refuses a folder that does not exist or is a note, and maps an existing folder without notes', async () => {
    expect(await refusal({ repo: 'projects', folder: 'active/lanch' })).toMatchObject({
      code: 'note_not_found',
      message: expect.stringContaining('"active/launch/"'),
    });
    expect((await refusal({ repo: 'handbook', folder: 'Onboard' })).message).toContain('The closest by name: "onboarding/"');
    expect(await refusal({ repo: 'projects', folder: 'active/launch/plan.md' })).toMatchObject({
      code: 'bad_arguments',
      message: expect.stringContaining('is a note, not a folder: read it with read_note, or give its folder "active/launch"'),
    });
    expect((await refusal({ repo: 'handbook', folder: 'README.md' })).message).toContain(
      'or leave the folder out for the whole repository',
    );
    expect(await map({ repo: 'handbook', folder: 'images' })).toMatchObject({ entries: [], total: 0 });
    expect(await map({ repo: 'projects', folder: 'active/launch' })).toMatchObject({
      entries: [{ path: 'active/launch/decisions/', notes: 1 }],
    });
  });

  it('maps a folder in every repository that has it when repo is left out, and refuses one that none has', async () => {
    const answer = await map({ folder: 'active', depth: 1 });
    expect(answer.entries).toEqual([
      {
        path: 'projects/active/launch/',
        notes: 4,
        summary: 'Decisions for the launch, one note per decision.',
        readme: 'projects/active/launch/README.md',
        repo: 'projects',
      },
      { path: 'projects/active/templates/', notes: 1, repo: 'projects' },
    ]);
    expect(await refusal({ folder: 'nowhere' })).toMatchObject({
      code: 'note_not_found',
      message: expect.stringContaining('any repository you can read'),
    });
  });
});
