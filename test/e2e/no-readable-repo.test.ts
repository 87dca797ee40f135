// A person who can read no repository (README "The tools": "every call is refused saying they
// can read no repository here"), over HTTP with a users file: calls without `repo` are refused
// too, never answered with an empty page as if there were nothing to find.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { makeRepo, tempDir } from '../support/git-fixture.ts';
import { connectHttp, serveRepos, type ServedRepos } from './demo-fixture.ts';

describe('a person who can read no repository, over HTTP', () => {
  const dir = tempDir('mv-no-repo-');
  let server: ServedRepos;
  let client: Client;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'repos', 'notes'), [{ message: 'A note', files: { 'a.md': '# A\n\nParking is free.\n' } }]);
    const usersFile = join(dir.path, 'users.jsonc');
    writeFileSync(
      usersFile,
      JSON.stringify({
        users: [{ login: 'nell', name: 'Nell Noone', email: 'nell@example.com', token: 'token-of-nell-0123456789', read: [], write: [] }],
      }),
    );
    server = await serveRepos(join(dir.path, 'repos'), { usersFile });
    client = await connectHttp(server.url, '2026-07-28', { token: 'token-of-nell-0123456789' });
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    dir.cleanup();
  });

  test('every call without repo is refused, saying so and where to ask', async () => {
    for (const [name, args] of [
      ['tree', {}],
      ['list_notes', {}],
      ['search_notes', { query: 'Parking' }],
      ['search_history', { text: 'Parking' }],
      ['find_references', { values: ['Parking'] }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBe(true);
      expect(JSON.stringify(result.content)).toContain('You can read no repository here; ask whoever runs Major Vault for access.');
    }
    const named = await client.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'a.md' } });
    expect(named.isError).toBe(true);
    expect(JSON.stringify(named.content)).toContain('You can read no repository here');
  });
});
