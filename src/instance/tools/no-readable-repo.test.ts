// A person who can read no repository: a refusal says so and where to ask, never "(none)".
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, refusalOf } from '../../../test/support/call-tool.ts';
import { openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import { createNote } from './create-note.ts';
import { readNote } from './read-note.ts';

let fixture: WriteFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('a person who can read no repository', () => {
  it('is told so by read and write tools, and to ask for access', async () => {
    fixture = await openWriteFixture({ 'a.md': '# A\n' });
    const ctx = { ...(await fixture.context()), vaults: new Map() };
    const told =
      'There is no repository "notes" among those you can read. You can read no repository here; ask whoever runs Major Vault for access.';
    const read = await refusalOf(callTool(readNote, { repo: 'notes', path: 'a.md' }, ctx));
    expect(read.code).toBe('repo_not_found');
    expect(read.message).toBe(told);
    expect(read.details).toEqual({ repo: 'notes', repos: [] });
    const write = await refusalOf(callTool(createNote, { repo: 'notes', path: 'b.md', body: 'x\n' }, ctx));
    expect(write.message).toBe(told);
    expect(fixture.commitCount()).toBe(1);
  });
});
