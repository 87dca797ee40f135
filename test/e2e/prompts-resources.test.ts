// The demo's MCP prompts and resources (issue 15), with the SDK's client over HTTP (both protocol
// eras) and stdio: Maya reads both repositories and gets both repositories' prompts and
// resources; Tom reads only the handbook, and projects' prompts and resources do not exist for him.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoTokens } from '../../src/demo/build-demo.ts';
import { makeRepo, tempDir } from '../support/git-fixture.ts';
import { PROMPT_TEXT_MAX } from '../../src/config/prompts-resources.ts';
import { RESOURCES_PAGE } from '../../src/instance/prompts-resources.ts';
import { builtDemo, connectHttp, serveDemo, serveRepos, type ServedDemo, type ServedRepos } from './demo-fixture.ts';

const bin = fileURLToPath(new URL('../../bin/major-vault.js', import.meta.url));
const plan = 'vault://acme/projects/active/launch/plan.md';
const decision = 'vault://acme/projects/active/launch/decisions/pick-a-date.md';
const travel = 'vault://acme/handbook/policies/travel-policy.md';

/** What Maya, who reads both repositories, gets. */
async function readerSees(client: Client, reposDir: string): Promise<void> {
  expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: false }, resources: { listChanged: false } });

  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name)).toEqual(['handbook__policy_question', 'projects__decision_brief']);
  expect(prompts[1]).toMatchObject({
    title: 'Brief the open decisions',
    arguments: [
      { name: 'project', description: "The project's folder under active/, e.g. launch.", required: true },
      { name: 'audience', description: 'Who reads the brief; the project team when not given.', required: false },
    ],
  });
  const brief = await client.getPrompt({ name: 'projects__decision_brief', arguments: { project: 'launch', audience: 'the board' } });
  const text = (brief.messages[0]?.content as { text: string }).text;
  expect(text).toContain('path "active/launch/decisions/"');
  expect(text).toMatch(/none is named\): the board$/);
  const teamless = await client.getPrompt({ name: 'projects__decision_brief', arguments: { project: 'launch' } });
  expect((teamless.messages[0]?.content as { text: string }).text).toMatch(/none is named\): $/);
  await expect(client.getPrompt({ name: 'projects__decision_brief', arguments: {} })).rejects.toThrow(/project/);
  await expect(client.getPrompt({ name: 'projects__decision_brief', arguments: { project: 'x'.repeat(PROMPT_TEXT_MAX) } })).rejects.toThrow(
    /would hold \d+ characters, more than 100000: give a shorter project/,
  );

  const { resources } = await client.listResources();
  const uris = resources.map((resource) => resource.uri);
  expect(uris).toContain(plan);
  expect(uris).toContain(decision);
  expect(uris).toContain(travel);
  expect(uris).not.toContain('vault://acme/projects/active/launch/budget.md');
  // Each URI once (a configured note inside a configured folder too), and each one reads.
  expect(new Set(uris).size).toBe(uris.length);
  for (const uri of uris) expect((await client.readResource({ uri })).contents[0]?.uri).toBe(uri);
  expect(resources.find((resource) => resource.uri === plan)).toMatchObject({ title: 'Launch plan', mimeType: 'text/markdown' });
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
    'vault://acme/handbook/policies/{+path}',
    'vault://acme/projects/active/launch/decisions/{+path}',
  ]);

  const read = await client.readResource({ uri: decision });
  expect(read.contents).toEqual([
    {
      uri: decision,
      mimeType: 'text/markdown',
      text: readFileSync(join(reposDir, 'projects/active/launch/decisions/pick-a-date.md'), 'utf8'),
    },
  ]);
  // A note of the repository that is not offered, and one that does not exist: not found.
  await expect(client.readResource({ uri: 'vault://acme/projects/active/launch/budget.md' })).rejects.toThrow(
    /no note active\/launch\/budget.md/,
  );
  await expect(client.readResource({ uri: 'vault://acme/projects/active/launch/decisions/nope.md' })).rejects.toThrow(/no note/);
  // A NUL, or a "/" hidden in one segment to slip a ".." through: not a note's URI.
  for (const odd of ['active/launch/%00.md', 'active/launch%2F..%2Fplan.md', 'active%5C..%5Cplan.md'])
    await expect(client.readResource({ uri: `vault://acme/projects/${odd}` })).rejects.toThrow(/Resource not found/);
}

/** What Tom, who reads only the handbook, gets: projects' prompts and resources do not exist. */
async function outsiderSees(client: Client): Promise<void> {
  expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: false }, resources: { listChanged: false } });
  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name)).toEqual(['handbook__policy_question']);
  await expect(client.getPrompt({ name: 'projects__decision_brief', arguments: { project: 'launch' } })).rejects.toThrow(
    'Prompt projects__decision_brief not found',
  );
  const { resources } = await client.listResources();
  expect(resources.every((resource) => resource.uri.startsWith('vault://acme/handbook/'))).toBe(true);
  expect(resources.map((resource) => resource.uri)).toContain(travel);
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['vault://acme/handbook/policies/{+path}']);
  // The same words as read_note's for a repository that does not exist.
  const unknown = 'There is no repository "projects" among those you can read. Use one of: "handbook".';
  await expect(client.readResource({ uri: plan })).rejects.toThrow(unknown);
  await expect(client.readResource({ uri: 'vault://acme/nowhere/plan.md' })).rejects.toThrow(
    'There is no repository "nowhere" among those you can read. Use one of: "handbook".',
  );
  const readNote = await client.callTool({ name: 'read_note', arguments: { repo: 'projects', path: 'active/launch/plan.md' } });
  expect((readNote.content as Array<{ text: string }>)[0]?.text).toContain(unknown);
}

describe('prompts and resources over HTTP', () => {
  let demo: ServedDemo;
  beforeAll(async () => {
    demo = await serveDemo({ users: true });
  });
  afterAll(async () => demo?.close());

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`a ${era} client of someone who reads both repositories gets both repositories' prompts and resources`, async () => {
      const client = await connectHttp(demo.url, era, { token: demoTokens.maya });
      try {
        await readerSees(client, demo.layout.reposDir);
      } finally {
        await client.close();
      }
    });

    test(`a ${era} client of someone who cannot read projects sees nothing of its prompts and resources`, async () => {
      const client = await connectHttp(demo.url, era, { token: demoTokens.tom });
      try {
        await outsiderSees(client);
      } finally {
        await client.close();
      }
    });
  }

  test('a configured note that is not there (moved away) is not listed, and reads as not found', async () => {
    const own = await serveDemo({ users: true });
    const client = await connectHttp(own.url, '2026-07-28', { token: demoTokens.maya });
    try {
      const moved = await client.callTool({
        name: 'move_note',
        arguments: { repo: 'projects', from: 'active/launch/plan.md', to: 'active/launch/plan-2026.md', summary: 'Rename the plan' },
      });
      expect(moved.isError).toBeFalsy();
      const uris = (await client.listResources()).resources.map((resource) => resource.uri);
      expect(uris).not.toContain(plan);
      expect(uris).toContain(decision);
      await expect(client.readResource({ uri: plan })).rejects.toThrow(/no note active\/launch\/plan.md/);
    } finally {
      await client.close();
      await own.close();
    }
  });

  test('over stdio, as each person', async () => {
    // A demo of its own: the served one holds its folder's index.
    const own = await builtDemo();
    const connect = async (as: string) => {
      const client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, 'stdio', '--repos', own.layout.reposDir, '--users', own.layout.usersFile, '--as', as],
          env: getDefaultEnvironment(),
          stderr: 'pipe',
        }),
      );
      return client;
    };
    try {
      const maya = await connect('maya');
      try {
        await readerSees(maya, own.layout.reposDir);
      } finally {
        await maya.close();
      }
      const tom = await connect('tom');
      try {
        await outsiderSees(tom);
      } finally {
        await tom.close();
      }
    } finally {
      own.cleanup();
    }
    // Two stdio processes, each opening its own index of the demo.
  }, 240_000);
});

describe('resources/list against the notes that are there', () => {
  const dir = tempDir('mv-resources-');
  let server: ServedRepos;
  let client: Client;
  beforeAll(async () => {
    const settings = {
      format: 3,
      role: 'root',
      name: 'notes',
      prompts: [],
      // The folder before a note inside it, and a note that is not there.
      resources: [
        { folder: 'team/' },
        { note: 'team/plan.md', title: 'The plan', description: 'What we do next.' },
        { note: 'team/gone.md', title: 'Gone' },
        { note: 'other/latin1.md', title: 'Not UTF-8' },
      ],
    };
    makeRepo(join(dir.path, 'repos', 'notes'), [
      {
        message: 'Notes',
        files: {
          '.vault/settings.jsonc': JSON.stringify(settings),
          'team/plan.md': '# Plan\n',
          'team/risks.md': '# Risks\n',
          // Stored decomposed (as a Mac may write it); asked for composed, as a person types it.
          ['team/Cafe\u0301.md']: '# Café\n',
          // Latin-1, not UTF-8: no note, so no resource either.
          'team/latin1.md': Buffer.from('# \xe9t\xe9\n', 'latin1'),
          'other/latin1.md': Buffer.from('# \xe9t\xe9\n', 'latin1'),
        },
      },
    ]);
    server = await serveRepos(join(dir.path, 'repos'));
    client = await connectHttp(server.url, '2026-07-28');
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    dir.cleanup();
  });

  test('lists each note once, with its own title even when a folder listed it first, and never one that is not there', async () => {
    const { resources } = await client.listResources();
    const decomposed = `vault://notes/notes/team/${encodeURIComponent('Cafe\u0301.md')}`;
    expect(resources.map((resource) => [resource.uri, resource.title ?? null])).toEqual([
      [decomposed, null],
      ['vault://notes/notes/team/plan.md', 'The plan'],
      ['vault://notes/notes/team/risks.md', null],
    ]);
    expect(resources[1]?.description).toBe('What we do next.');
    await expect(client.readResource({ uri: 'vault://notes/notes/team/gone.md' })).rejects.toThrow(/no note team\/gone.md/);
  });

  test('refuses a URI of a megabyte as one it does not know', async () => {
    // A 2025-era client: the 2026 era repeats the URI in a header, which Node's HTTP server
    // refuses over 16 KiB (431) before anything reads it.
    const older = await connectHttp(server.url, '2025-11-25');
    try {
      for (const tail of ['%'.repeat(1_000_000), 'a%2F'.repeat(300_000), 'a/'.repeat(400_000)])
        await expect(older.readResource({ uri: `vault://notes/notes/team/${tail}` })).rejects.toThrow(
          /Resource not found: a URI of \d+ characters names no note/,
        );
    } finally {
      await older.close();
    }
  });

  test('reads a note by its composed name as read_note does, and refuses a file that is not UTF-8 text', async () => {
    const decomposed = `vault://notes/notes/team/${encodeURIComponent('Cafe\u0301.md')}`;
    const read = await client.readResource({ uri: `vault://notes/notes/team/${encodeURIComponent('Caf\u00e9.md')}` });
    expect(read.contents).toEqual([{ uri: decomposed, mimeType: 'text/markdown', text: '# Café\n' }]);
    for (const path of ['team/latin1.md', 'other/latin1.md'])
      await expect(client.readResource({ uri: `vault://notes/notes/${path}` })).rejects.toThrow(/not text \(a binary file named \.md\)/);
  });
});

describe('resources/list in pages', () => {
  const dir = tempDir('mv-resource-pages-');
  let server: ServedRepos;
  let client: Client;
  beforeAll(async () => {
    const settings = { format: 3, role: 'root', name: 'notes', prompts: [], resources: [{ folder: 'many/' }] };
    const files: Record<string, string> = { '.vault/settings.jsonc': JSON.stringify(settings) };
    for (let i = 0; i < RESOURCES_PAGE + 5; i++) files[`many/n${String(i).padStart(4, '0')}.md`] = `# ${i}\n`;
    makeRepo(join(dir.path, 'repos', 'notes'), [{ message: 'Many notes', files }]);
    server = await serveRepos(join(dir.path, 'repos'));
    client = await connectHttp(server.url, '2026-07-28');
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    dir.cleanup();
  });

  /** One page as the server answers it (the SDK's client, asked without a cursor, walks every page). */
  const page = async (cursor?: string) => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: cursor === undefined ? {} : { cursor } }),
    });
    const text = await response.text();
    const json = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1]!;
    return (JSON.parse(json) as { result: { resources: Array<{ uri: string }>; nextCursor?: string } }).result;
  };

  test('answers a page at a time, each note once, and refuses a cursor it did not give', async () => {
    const first = await page();
    expect(first.resources).toHaveLength(RESOURCES_PAGE);
    expect(first.nextCursor).toBeDefined();
    const second = await page(first.nextCursor!);
    expect(second.resources).toHaveLength(5);
    expect(second.nextCursor).toBeUndefined();
    const uris = [...first.resources, ...second.resources].map((resource) => resource.uri);
    expect(new Set(uris).size).toBe(RESOURCES_PAGE + 5);
    expect(uris.at(-1)).toBe(`vault://notes/notes/many/n${RESOURCES_PAGE + 4}.md`);
    await expect(client.listResources({ cursor: 'bm9wZQ' })).rejects.toThrow(/is not one resources\/list gave/);
    // The SDK's client walks the pages.
    expect((await client.listResources()).resources).toHaveLength(RESOURCES_PAGE + 5);
  });
});
