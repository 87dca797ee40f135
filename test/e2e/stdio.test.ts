// The demo over stdio: `node bin/major-vault.js stdio …` started by the SDK's own client
// transport, with a 2026-07-28 client and a 2025-11-25 one, as the local person and, with the
// users file, as someone who reads only one repository.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serviceInstructions } from '../../src/catalogue/instructions.ts';
import type { DemoLayout } from '../../src/demo/build-demo.ts';
import { allTools } from '../../src/tools/all-tools.ts';
import { builtDemo } from './demo-fixture.ts';
import { demoSpecialTools, readCalls, runCalls } from './demo-calls.ts';

const bin = fileURLToPath(new URL('../../bin/major-vault.js', import.meta.url));
const registered = new Set(allTools.map((tool) => tool.name));

async function connectStdio(args: string[], era: '2026-07-28' | '2025-11-25'): Promise<Client> {
  const client = new Client(
    { name: `e2e-stdio-${era}`, version: '1.0.0' },
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  // The default environment leaves DATABASE_URL out: the process keeps its index with PGlite.
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'stdio', ...args], env: getDefaultEnvironment(), stderr: 'pipe' }),
  );
  return client;
}

describe('the demo over stdio', () => {
  let layout: DemoLayout;
  let cleanup: () => void;
  beforeAll(async () => {
    ({ layout, cleanup } = await builtDemo());
  });
  afterAll(() => cleanup?.());

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`a ${era} client is told the instructions, lists the tools and calls each read tool`, async () => {
      const client = await connectStdio(['--repos', layout.reposDir], era);
      try {
        expect(client.getProtocolEra()).toBe(era === '2026-07-28' ? 'modern' : 'legacy');
        expect(client.getInstructions()).toContain(`${serviceInstructions}\n\n## handbook\n\n`);
        expect(client.getInstructions()).toContain('\n\n## projects\n\nEvery decision names who made it and when.');
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual([...allTools.map((tool) => tool.name), ...demoSpecialTools]);
        await runCalls(client, readCalls, registered);
      } finally {
        await client.close();
      }
    });
  }

  test('--as picks a person from the users file, who sees only what they can read', async () => {
    const client = await connectStdio(['--repos', layout.reposDir, '--users', layout.usersFile, '--as', 'tom'], '2025-11-25');
    try {
      expect(client.getInstructions()).not.toContain('## projects');
      const { tools } = await client.listTools();
      const repo = (tools[0]?.inputSchema.properties as Record<string, { anyOf?: Array<{ const: string }> }> | undefined)?.['repo'];
      expect(repo?.anyOf?.map((choice) => choice.const)).toEqual(['handbook']);
    } finally {
      await client.close();
    }
  });
});
