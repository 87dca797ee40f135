// The read engines and undo over HTTP with the SDK's client (issue 15): health, changes and
// undo for a person who can read the repository, and invisibly for one who cannot.
import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { bob, git, makeRepo, tempDir } from '../support/git-fixture.ts';
import { connectHttp, serveRepos, type ServedRepos } from './demo-fixture.ts';

const settings = '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [] }\n';
const tools = {
  '.vault/settings.jsonc': settings,
  '.vault/tools/health.md': '---\nengine: health\nstaleDays: 30\n---\nWhat needs care here.\n',
  '.vault/tools/changes.md': '---\nengine: changes\ndays: 2\n---\nWhat others changed since you last looked.\n',
  '.vault/tools/undo.md': '---\nengine: undo\n---\nTakes back your last change.\n',
  '.vault/tools/broken.md': '---\nengine: health\nstale: 3\n---\nA misspelt setting.\n',
};
const annPerson = { name: 'Ann Arbor', email: 'ann@example.com' };

describe('health, changes and undo over HTTP', () => {
  const dir = tempDir('mv-engines-read-');
  let server: ServedRepos;
  let ann: Client;
  let bobClient: Client;
  let carl: Client;

  beforeAll(async () => {
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    makeRepo(join(dir.path, 'repos', 'notes'), [
      {
        message: 'Notes',
        date: '2026-01-01T10:00:00+01:00',
        files: {
          ...tools,
          'plan.md': '# Plan\n\nPrice: 49 €\n\nSee [[risks]] and [[gone]].\n',
          'risks.md': '# Risks\n\nBack to [[plan]].\n',
        },
      },
      { message: 'Bob adds a risk', author: bob, date: hourAgo, files: { 'risks.md': '# Risks\n\nBack to [[plan]].\n\n- Late stores\n' } },
    ]);
    makeRepo(join(dir.path, 'repos', 'secret'), [
      {
        message: 'Secret',
        files: {
          ...tools,
          'x.md': '# X\n',
          'real-log.md': '# Log\n\n- 2026-01-01 Carl: first\n',
          '.vault/tools/log.md': '---\nengine: append\nnote: logs/log.md\n---\nAdds to the log.\n',
        },
      },
    ]);
    // The note the append tool names is a symbolic link to another note.
    const secret = join(dir.path, 'repos', 'secret');
    mkdirSync(join(secret, 'logs'));
    symlinkSync('../real-log.md', join(secret, 'logs', 'log.md'));
    git(secret, ['add', 'logs/log.md']);
    git(secret, ['commit', '-qm', 'Link the log']);
    const usersFile = join(dir.path, 'users.jsonc');
    writeFileSync(
      usersFile,
      JSON.stringify({
        users: [
          { login: 'ann', ...annPerson, token: 'token-of-ann-0123456789', read: ['notes'], write: ['notes'] },
          { login: 'bob', name: bob.name, email: bob.email, token: 'token-of-bob-0123456789', read: ['notes'], write: [] },
          {
            login: 'carl',
            name: 'Carl',
            email: 'carl@example.com',
            token: 'token-of-carl-0123456789',
            read: ['secret'],
            write: ['secret'],
          },
        ],
      }),
    );
    server = await serveRepos(join(dir.path, 'repos'), { usersFile });
    ann = await connectHttp(server.url, '2026-07-28', { token: 'token-of-ann-0123456789' });
    bobClient = await connectHttp(server.url, '2025-11-25', { token: 'token-of-bob-0123456789' });
    carl = await connectHttp(server.url, '2026-07-28', { token: 'token-of-carl-0123456789' });
  });

  afterAll(async () => {
    await Promise.all([ann?.close(), bobClient?.close(), carl?.close()]);
    await server?.close();
    dir.cleanup();
  });

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  const text = (result: { content?: unknown }) => JSON.stringify(result.content);

  test('are listed for people who can read the repository, and a tool file with a setting its engine lacks is left out', async () => {
    const names = (await ann.listTools()).tools.map((tool) => tool.name).filter((name) => name.includes('__'));
    expect(names).toEqual(['notes__changes', 'notes__health', 'notes__undo']);
    const carls = (await carl.listTools()).tools.map((tool) => tool.name).filter((name) => name.includes('__'));
    expect(carls.every((name) => name.startsWith('secret__'))).toBe(true);
    const tree = await call(ann, 'tree', { repo: 'notes' });
    expect(text(tree)).toContain('broken');
  });

  test('health reports the dangling link and the stale notes', async () => {
    const result = await call(ann, 'notes__health', {});
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      problems: Array<{ kind: string; path: string; link?: string }>;
      counts: Record<string, number>;
    };
    expect(answer.problems).toContainEqual(expect.objectContaining({ kind: 'dangling_link', path: 'plan.md', link: '[[gone]]' }));
    expect(answer.problems).toContainEqual(expect.objectContaining({ kind: 'stale', path: 'plan.md' }));
    expect(answer.problems.some((problem) => problem.path === 'risks.md' && problem.kind === 'stale')).toBe(false);
    const one = await call(ann, 'notes__health', { check: 'dangling', limit: 1 });
    expect((one.structuredContent as { total: number }).total).toBe(1);
    // A report is kept for the next pages of the same state, never past a change (here, in the work tree).
    const extra = join(dir.path, 'repos', 'notes', 'extra.md');
    writeFileSync(extra, 'See [[nowhere]].\n');
    try {
      let total = 0;
      for (let i = 0; i < 40 && total !== 2; i++) {
        total = ((await call(ann, 'notes__health', { check: 'dangling', limit: 1 })).structuredContent as { total: number }).total;
        if (total !== 2) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(total).toBe(2);
    } finally {
      unlinkSync(extra);
    }
  });

  test('changes shows what others changed, then only what came after the last look', async () => {
    const first = (await call(ann, 'notes__changes', {})).structuredContent as {
      notes: Array<{ path: string; changes: Array<{ author: string; subject: string }> }>;
    };
    expect(first.notes).toEqual([
      { path: 'risks.md', changes: [expect.objectContaining({ author: bob.name, subject: 'Bob adds a risk' })] },
    ]);
    const again = (await call(ann, 'notes__changes', {})).structuredContent as { notes: unknown[]; note?: string };
    expect(again.notes).toEqual([]);
    // Bob's first look is his own: his own commit does not count.
    const bobs = (await call(bobClient, 'notes__changes', {})).structuredContent as { notes: unknown[] };
    expect(bobs.notes).toEqual([]);
  });

  test('append refuses a note that is a symbolic link, saying to fix the tool file, and writes nothing', async () => {
    const secret = join(dir.path, 'repos', 'secret');
    const head = git(secret, ['rev-parse', 'HEAD']).trim();
    const refused = await call(carl, 'secret__log', { text: 'Through the link.' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('\\"logs/log.md\\" is a symbolic link to \\"real-log.md\\"');
    expect(text(refused)).toContain('as .vault/tools/log.md says: point its note at the note itself');
    expect(git(secret, ['rev-parse', 'HEAD']).trim()).toBe(head);
  });

  test('undo takes back the caller’s own change, refuses a reader, and is invisible to others', async () => {
    const edit = await call(ann, 'edit_note', {
      repo: 'notes',
      path: 'plan.md',
      old_text: '49 €',
      new_text: '59 €',
      summary: 'Raised the price',
    });
    expect(edit.isError).toBeFalsy();
    const undone = await call(ann, 'notes__undo', {});
    expect(undone.isError, text(undone)).toBeFalsy();
    expect((undone.structuredContent as { files: string[] }).files).toEqual(['plan.md']);
    const read = await call(ann, 'read_note', { repo: 'notes', path: 'plan.md' });
    expect(text(read)).toContain('49 €');
    const refused = await call(bobClient, 'notes__undo', {});
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('write access');
    // To someone who cannot read the repository, its tools answer as a tool that does not exist.
    const outcome = async (name: string) =>
      call(carl, name).then(
        (result) => `answered ${text(result)}`,
        (error: unknown) => `failed ${error instanceof Error ? error.message : String(error)}`,
      );
    const none = await outcome('nowhere__undo');
    for (const name of ['notes__undo', 'notes__health', 'notes__changes']) {
      expect((await outcome(name)).replaceAll(name, 'nowhere__undo')).toBe(none);
    }
  });
});
