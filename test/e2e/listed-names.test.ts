// Special tools and prompts carry their repository's name (`<repo>__<name>`): a repository whose
// name clients refuse in a tool name (a space, an accent, too long) offers them to no one, and
// tree at its root says why, while its notes stay open to the basic tools (issue 15).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { makeRepo, tempDir } from '../support/git-fixture.ts';
import { connectHttp, serveRepos, type ServedRepos } from './demo-fixture.ts';

const files = (name: string) => ({
  '.vault/settings.jsonc': JSON.stringify({
    format: 3,
    role: 'root',
    name,
    prompts: [{ name: 'brief', file: '.vault/prompts/brief.md', arguments: [] }],
    resources: [],
  }),
  '.vault/prompts/brief.md': 'Brief the plan.\n',
  '.vault/tools/check.md': '---\nengine: health\n---\nWhat needs care.\n',
  'plan.md': '# Plan\n',
});

describe('repository names in listed names', () => {
  const dir = tempDir('mv-listed-names-');
  let server: ServedRepos;
  let client: Client;
  beforeAll(async () => {
    for (const name of ['my vault', 'café', 'notes']) makeRepo(join(dir.path, 'repos', name), [{ message: 'Notes', files: files(name) }]);
    server = await serveRepos(join(dir.path, 'repos'));
    client = await connectHttp(server.url, '2026-07-28');
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    dir.cleanup();
  });

  test('lists only names clients take, says why at the root, and keeps the notes open', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).filter((name) => name.includes('__'))).toEqual(['notes__check']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['notes__brief']);
    const tree = await client.callTool({ name: 'tree', arguments: { repo: 'my vault' } });
    expect(JSON.stringify(tree.structuredContent)).toContain('\\"my vault__check\\", \\"my vault__brief\\" are names clients refuse');
    const read = await client.callTool({ name: 'read_note', arguments: { repo: 'café', path: 'plan.md' } });
    expect(read.isError).toBeFalsy();
  });
});
