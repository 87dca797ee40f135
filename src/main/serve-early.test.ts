// Start-up (issue 14): the HTTP server answers initialize and tools/list before its index is
// open, and a tool call sent meanwhile waits for it and then answers from it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectHttp } from '../../test/e2e/demo-fixture.ts';
import { makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { implementedTools } from '../instance/all-tools.ts';
import type { Installation } from '../instance/installation.ts';
import { silentLogger } from '../instance/log.ts';
import { readVaults } from '../instance/read-vaults.ts';
import { allTools } from '../tools/all-tools.ts';
import { openLocalInstallation, prepareLocal, serveLocal, type LocalInstallation } from './local.ts';
import { serveInstallation, type ServedInstallation } from './serve-installation.ts';

describe('serving before the index is open', () => {
  const dir = tempDir('mv-early-');
  const reposDir = join(dir.path, 'repos');
  const databaseUrl = process.env['DATABASE_URL'];
  let served: ServedInstallation;
  let local: LocalInstallation | null = null;
  /** Lets the installation out: until then the server has none (as while PGlite opens). */
  let release!: (installation: Installation) => void;
  let prepared: Awaited<ReturnType<typeof prepareLocal>>;

  beforeAll(async () => {
    // About the embedded index: PGlite in the data folder.
    delete process.env['DATABASE_URL'];
    makeRepo(join(reposDir, 'notes'), [
      {
        message: 'Notes',
        files: {
          '.vault/settings.jsonc': '{ "summary": "The team notes" }\n',
          '.vault/instructions.md': 'Cite the note you read.\n',
          'plan.md': '# Plan\n\nThe budget is fixed.\n',
        },
      },
    ]);
    prepared = await prepareLocal({ reposDir }, silentLogger());
    const held = new Promise<Installation>((resolve) => (release = resolve));
    served = await serveInstallation({
      name: 'notes',
      installation: held,
      earlyVaults: (access) => readVaults(prepared.host, access),
      signIn: prepared.host,
      hostname: '127.0.0.1',
      port: 0,
      tools: implementedTools,
      log: silentLogger(),
    });
  });

  afterAll(async () => {
    await served?.close();
    if (local) await local.close();
    else await prepared?.host.close();
    if (databaseUrl !== undefined) process.env['DATABASE_URL'] = databaseUrl;
    dir.cleanup();
  });

  test('answers initialize and tools/list at once, and a tool call once the index is open', async () => {
    const client = await connectHttp(new URL(served.url), '2026-07-28');
    try {
      // The catalogue, from the repositories' .vault/ read from Git: the same as once open.
      expect(client.getInstructions()).toContain('## notes\n\nCite the note you read.');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(allTools.map((tool) => tool.name));
      const repo = (tools[0]?.inputSchema.properties as Record<string, { anyOf?: Array<{ const: string; description?: string }> }>)['repo'];
      expect(repo?.anyOf?.map((choice) => [choice.const, choice.description])).toEqual([['notes', 'The team notes']]);

      // A call sent now waits for the installation.
      let settled = false;
      const answer = client.callTool({ name: 'search_notes', arguments: { query: 'budget' } }).finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(settled).toBe(false);

      local = await openLocalInstallation(
        { reposDir, dataDir: join(dir.path, 'data') },
        { prepared, log: silentLogger(), waitForIndex: false },
      );
      release(local.installation);
      const result = await answer;
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toContain('plan.md');

      // Once open, the installation answers the catalogue itself: the same tools.
      expect((await client.listTools()).tools).toEqual(tools);
    } finally {
      await client.close();
    }
  });
});

describe('serveLocal opening its installation on the first tool call', () => {
  const dir = tempDir('mv-deferred-');
  const reposDir = join(dir.path, 'repos');
  const databaseUrl = process.env['DATABASE_URL'];

  beforeAll(() => {
    delete process.env['DATABASE_URL'];
    makeRepo(join(reposDir, 'notes'), [{ message: 'Notes', files: { 'plan.md': '# Plan\n\nThe budget is fixed.\n' } }]);
  });

  afterAll(() => {
    if (databaseUrl !== undefined) process.env['DATABASE_URL'] = databaseUrl;
    dir.cleanup();
  });

  // With a pause longer than the test, only the call can have started the opening.
  const settings = { reposDir, name: 'notes', port: 0, hostname: '127.0.0.1' };

  test('a tool call opens it at once, before the pause after listening is over', async () => {
    const server = await serveLocal(settings, { log: silentLogger(), openingDelayMs: 600_000 });
    const client = await connectHttp(new URL(server.url), '2026-07-28');
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      const result = await client.callTool({ name: 'search_notes', arguments: { query: 'budget' } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toContain('plan.md');
    } finally {
      await client.close();
      await server.close();
    }
  });

  test('closing before anything opened it closes the index and lets go of the folder', async () => {
    const first = await serveLocal(settings, { log: silentLogger(), openingDelayMs: 600_000 });
    await first.close();
    // The folder's lock was released: a second server gets the persistent index, not one in memory.
    const second = await serveLocal(settings, { log: silentLogger(), openingDelayMs: 0 });
    try {
      expect((await second.opened).indexNote).toBeNull();
    } finally {
      await second.close();
    }
  });
});
