// One repo_not_found refusal (issue 10): the read tools, the write tools and the host said it
// three ways (the writes "Choose one of them", the host without "among those you can read").
// Now every tool answers alike, a repository the person cannot read exactly like one that
// does not exist (spec: "Who sees what"), and the host's own error names no repository.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNote } from '../../src/instance/tools/create-note.ts';
import { editNote } from '../../src/instance/tools/edit-note.ts';
import { readNote } from '../../src/instance/tools/read-note.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { isVaultError } from '../../src/vault-error.ts';
import { callTool, refusalOf } from '../support/call-tool.ts';
import { makeRepo } from '../support/git-fixture.ts';
import { openHistoryFixture, type HistoryFixture } from '../history/history-fixture.ts';

let fixture: HistoryFixture;
let ctx: ToolContext;

beforeAll(async () => {
  fixture = await openHistoryFixture((reposDir) => {
    makeRepo(join(reposDir, 'open'), [{ message: 'Create', files: { 'n.md': 'a\n' } }]);
    makeRepo(join(reposDir, 'secret'), [{ message: 'Create', files: { 'n.md': 'a\n' } }]);
  });
  ctx = await fixture.context(['open']);
});

afterAll(async () => {
  await fixture?.close();
});

const calls = {
  read_note: (repo: string) => callTool(readNote, { repo, path: 'n.md' }, ctx),
  create_note: (repo: string) => callTool(createNote, { repo, path: 'm.md', body: 'b' }, ctx),
  edit_note: (repo: string) => callTool(editNote, { repo, path: 'n.md', old_text: 'a', new_text: 'b', summary: 'S' }, ctx),
};

describe('repo_not_found', () => {
  it.each(Object.keys(calls) as (keyof typeof calls)[])('%s answers an unreadable repository like a missing one', async (tool) => {
    for (const repo of ['secret', 'nope']) {
      const refusal = await refusalOf(calls[tool](repo));
      expect(refusal.code).toBe('repo_not_found');
      expect(refusal.message).toBe(`There is no repository "${repo}" among those you can read. Use one of: "open".`);
      expect(refusal.details).toEqual({ repo, repos: ['open'] });
    }
  });

  it('the host names no repository in its own refusal', async () => {
    const error: unknown = await fixture.host.snapshot('nope').catch((caught: unknown) => caught);
    expect(isVaultError(error, 'repo_not_found')).toBe(true);
    expect((error as Error).message).toBe(
      'There is no repository "nope" among those you can read. Use one of the names the tool list gives for "repo".',
    );
  });
});
