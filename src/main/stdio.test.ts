// `major-vault stdio` started by the SDK's own client: initialize and tools/list need only the
// repositories and their `.vault/`, so they are answered even when the index cannot be opened,
// and a tool call then says why it cannot answer.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { serviceInstructions } from '../catalogue/instructions.ts';
import { allTools } from '../instance/all-tools.ts';

const bin = fileURLToPath(new URL('../../bin/major-vault.js', import.meta.url));

describe('major-vault stdio without a usable index', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir('mv-stdio-');
    makeRepo(join(dir.path, 'notes'), [
      { message: 'Start', files: { '.vault/settings.jsonc': '{ "summary": "Team notes." }\n', '.vault/instructions.md': 'Be brief.\n', 'a.md': '# A\n' } },
    ]);
  });
  afterAll(() => dir?.cleanup());

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`a ${era} client is told the instructions and the tools, and a tool call says the index is unavailable`, async () => {
      const client = new Client({ name: `stdio-${era}`, version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
      // Nothing listens on port 1: the Postgres index cannot be opened.
      const env = { ...getDefaultEnvironment(), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' };
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'stdio', '--repos', dir.path], env, stderr: 'pipe' }));
      try {
        expect(client.getInstructions()).toBe(`${serviceInstructions}\n\n## notes\n\nBe brief.`);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(allTools.map((tool) => tool.name));
        const repo = (tools[0]?.inputSchema.properties as Record<string, { anyOf?: unknown[] }>)['repo'];
        expect(repo?.anyOf).toEqual([{ const: 'notes', description: 'Team notes.' }]);
        const result = await client.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'a.md' } });
        expect(result.isError).toBe(true);
        expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(/could not build its index/);
      } finally {
        await client.close();
      }
    });
  }
});
