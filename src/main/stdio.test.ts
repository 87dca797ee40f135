// `major-vault stdio` started by the SDK's own client: initialize and tools/list need only the
// repositories and their `.vault/`, so they are answered even when the index cannot be opened,
// and a tool call then says why it cannot answer.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { serviceInstructions } from '../catalogue/instructions.ts';
import { allTools } from '../tools/all-tools.ts';

const bin = fileURLToPath(new URL('../../bin/major-vault.js', import.meta.url));

describe('major-vault stdio without a usable index', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir('mv-stdio-');
    makeRepo(join(dir.path, 'notes'), [
      {
        message: 'Start',
        files: { '.vault/settings.jsonc': '{ "summary": "Team notes." }\n', '.vault/instructions.md': 'Be brief.\n', 'a.md': '# A\n' },
      },
    ]);
  });
  afterAll(() => dir?.cleanup());

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`a ${era} client is told the instructions and the tools, and a tool call says the index is unavailable`, async () => {
      const client = new Client(
        { name: `stdio-${era}`, version: '1.0.0' },
        era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      // Nothing listens on port 1: the Postgres index cannot be opened.
      const env = { ...getDefaultEnvironment(), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' };
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [bin, 'stdio', '--repos', dir.path], env, stderr: 'pipe' }),
      );
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

describe('major-vault stdio output', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir('mv-stdio-log-');
    makeRepo(join(dir.path, 'notes'), [{ message: 'Start', files: { 'a.md': '# A\n' } }]);
    mkdirSync(join(dir.path, 'drafts'));
  });
  afterAll(() => dir?.cleanup());

  test('standard output carries only JSON-RPC; the logs are JSON lines on standard error', async () => {
    const { DATABASE_URL: _unused, ...env } = process.env;
    const child = spawn(process.execPath, [bin, 'stdio', '--repos', dir.path, '--log-level', 'debug'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const answered = new Set<number>();
    const allAnswered = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        for (const line of stdout.split('\n')) {
          const id = /"id":(\d+)/.exec(line)?.[1];
          if (id !== undefined) answered.add(Number(id));
        }
        if ([1, 2, 3].every((id) => answered.has(id))) resolve();
      });
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_note', arguments: { repo: 'notes', path: 'a.md' } } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_note', arguments: { repo: 'notes', path: 'missing.md' } } });
    await allAnswered;
    child.stdin.end();
    await exited;

    const out = stdout.split('\n').filter((line) => line !== '');
    expect(out.length).toBeGreaterThanOrEqual(3);
    for (const line of out) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    const logged = stderr
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const events = (event: string) => logged.filter((line) => line['event'] === event);
    expect(events('folder_skipped')).toEqual([expect.objectContaining({ folder: 'drafts', reason: 'not_a_repository' })]);
    expect(events('index_progress')).toContainEqual(expect.objectContaining({ repo: 'notes', total: expect.any(Number) }));
    expect(events('call')).toContainEqual(expect.objectContaining({ tool: 'read_note', repo: 'notes', durationMs: expect.any(Number) }));
    expect(events('call_refused')).toContainEqual(expect.objectContaining({ tool: 'read_note', repo: 'notes', code: 'note_not_found' }));
  });
});
