// Which folders of the repositories folder are served, and as what: `x.git` as `x` (by every
// method, and through the tools), `x.git` beside a repository `x` skipped, and each skipped
// folder logged once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callTool, refusalOf } from '../../../test/support/call-tool.ts';
import { capturedLog } from '../../../test/support/captured-log.ts';
import { cloneBare, git, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext, type TestToolContext } from '../../../test/support/tool-context.ts';
import { editNote } from '../../instance/tools/edit-note.ts';
import { readNote } from '../../instance/tools/read-note.ts';
import { LocalRepoHost } from './local-repo-host.ts';

describe('repository folders', () => {
  let dir: ReturnType<typeof tempDir>;
  let reposDir: string;
  beforeAll(() => {
    dir = tempDir('mv-repo-folders-');
    reposDir = join(dir.path, 'repos');
    mkdirSync(reposDir);
    makeRepo(join(dir.path, 'src', 'handbook'), [{ message: 'Start', files: { 'guide.md': '# Guide\n\nWelcome.\n' } }]);
    cloneBare(join(dir.path, 'src', 'handbook'), join(reposDir, 'handbook.git'));
    makeRepo(join(reposDir, 'notes'), [{ message: 'Start', files: { 'work-tree.md': '# Work tree\n' } }]);
    makeRepo(join(dir.path, 'src', 'notes'), [{ message: 'Start', files: { 'bare.md': '# Bare\n' } }]);
    cloneBare(join(dir.path, 'src', 'notes'), join(reposDir, 'notes.git'));
    mkdirSync(join(reposDir, 'drafts'));
  });
  afterAll(() => dir?.cleanup());

  test('x.git is served as x; beside a repository x it is skipped; each skipped folder is logged once', async () => {
    const logged = capturedLog();
    const host = new LocalRepoHost({ reposDir, log: logged.log });
    try {
      expect((await host.listRepos()).map((repo) => repo.name)).toEqual(['handbook', 'notes']);
      expect((await host.snapshot('handbook')).files.map((file) => file.path)).toEqual(['guide.md']);
      // The folder named exactly `notes` wins over `notes.git`.
      expect((await host.snapshot('notes')).files.map((file) => file.path)).toEqual(['work-tree.md']);
      for (const name of ['handbook.git', 'notes.git', 'drafts']) {
        await expect(host.snapshot(name)).rejects.toMatchObject({ code: 'repo_not_found' });
      }
      expect([...(await host.authenticate(undefined))!.read]).toEqual(['handbook', 'notes']);
      expect(logged.events('folder_skipped')).toEqual([
        expect.objectContaining({ level: 30, folder: 'drafts', reason: 'not_a_repository' }),
        expect.objectContaining({ level: 30, folder: 'notes.git', reason: 'name_taken' }),
      ]);
    } finally {
      await host.close();
    }
  });

  describe('through the tools', () => {
    let ctx: TestToolContext;
    beforeAll(async () => {
      ctx = await openToolContext(reposDir);
    });
    afterAll(async () => ctx?.close());

    test('a bare handbook.git is read and written as handbook', async () => {
      expect(await callTool(readNote, { repo: 'handbook', path: 'guide.md' }, ctx)).toMatchObject({
        path: 'guide.md',
        content: '# Guide\n\nWelcome.',
      });
      const edited = await callTool(
        editNote,
        { repo: 'handbook', path: 'guide.md', old_text: 'Welcome.', new_text: 'Welcome aboard.', summary: 'Warmer welcome' },
        ctx,
      );
      expect(git(join(reposDir, 'handbook.git'), ['rev-parse', 'HEAD'])).toBe(edited.commit);
      expect((await refusalOf(callTool(readNote, { repo: 'handbook.git', path: 'guide.md' }, ctx))).code).toBe('repo_not_found');
    });
  });
});
