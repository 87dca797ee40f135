// The wrapper every tool call goes through, over real HTTP on the demo: the client's name
// reaches the handler in both eras, a VaultError is a tool error with its message, anything
// else is logged and answered generically, and the handler sees only readable repositories.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { connectHttp, serveDemo, type ServedDemo } from '../../test/e2e/demo-fixture.ts';
import { capturedLog } from '../../test/support/captured-log.ts';
import { demoTokens } from '../demo/build-demo.ts';
import { VaultError } from '../vault-error.ts';
import type { Tool } from './tool.ts';
import { internalErrorText } from './tool-result.ts';
import { editNote } from './tools/edit-note.ts';
import { readNote } from './tools/read-note.ts';

const whoAmI = testTool({
  name: 'who_am_i',
  title: 'Who am I',
  description: 'Says who calls, with which client, and which repositories they read.',
  annotations: { readOnlyHint: true },
  input: (repo) => z.object({ repo: repo.optional() }),
  output: z.object({ login: z.string(), client: z.string().nullable(), repos: z.array(z.string()), canWrite: z.array(z.string()) }),
  handler: async (_input, ctx) => ({
    login: ctx.access.person.login,
    client: ctx.clientName,
    repos: [...ctx.vaults.keys()],
    canWrite: [...ctx.vaults.values()].filter((vault) => vault.canWrite).map((vault) => vault.name),
  }),
});

const refuse = testTool({
  name: 'refuse',
  title: 'Refuse',
  description: 'Always refuses, the way a tool does.',
  annotations: {},
  input: (repo) => z.object({ repo }),
  output: z.object({}),
  handler: async () => {
    throw new VaultError('note_not_found', 'No note at "x.md". list_notes shows the notes there are.');
  },
});

const crash = testTool({
  name: 'crash',
  title: 'Crash',
  description: 'Fails unexpectedly.',
  annotations: {},
  input: (repo) => z.object({ repo }),
  output: z.object({}),
  handler: async () => {
    throw new Error('secret detail: /srv/data/db password=hunter2');
  },
});

const slow = testTool({
  name: 'slow',
  title: 'Slow',
  description: 'Answers after more than a second.',
  annotations: { readOnlyHint: true },
  input: (repo) => z.object({ repo }),
  output: z.object({}),
  handler: async () => {
    await sleep(1100);
    return {};
  },
});

/** A tool made for these tests: its definition and handler in one literal, typed as the registry's are. */
function testTool<const N extends string, I extends z.ZodRawShape, O extends z.ZodRawShape>(tool: Tool<I, O, N>): Tool<I, O, N> {
  return tool;
}

const tools = [whoAmI, refuse, crash, slow, editNote, readNote];

describe('the tool wrapper', () => {
  let demo: ServedDemo;
  const logged = capturedLog();
  beforeAll(async () => {
    demo = await serveDemo({ users: true, tools, log: logged.log });
  });
  afterAll(async () => {
    await demo?.close();
  });

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`the handler learns the person and the client's name (${era})`, async () => {
      const client = await connectHttp(demo.url, era, { token: demoTokens.tom, name: `Claude ${era}` });
      try {
        const first = await client.callTool({ name: 'who_am_i', arguments: {} });
        const second = await client.callTool({ name: 'who_am_i', arguments: { repo: 'handbook' } });
        for (const result of [first, second]) {
          expect(result.structuredContent).toEqual({ login: 'tom', client: `Claude ${era}`, repos: ['handbook'], canWrite: [] });
        }
      } finally {
        await client.close();
      }
    });
  }

  test('a VaultError is a tool error whose text is its message', async () => {
    const client = await connectHttp(demo.url, '2026-07-28', { token: demoTokens.maya });
    try {
      const result = await client.callTool({ name: 'refuse', arguments: { repo: 'projects' } });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: 'No note at "x.md". list_notes shows the notes there are.' }]);
    } finally {
      await client.close();
    }
  });

  test('an unexpected error is answered generically, without its details, and logged with them', async () => {
    const client = await connectHttp(demo.url, '2025-11-25', { token: demoTokens.maya });
    try {
      const result = await client.callTool({ name: 'crash', arguments: { repo: 'projects' } });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: internalErrorText }]);
      const [failed] = logged.events('call_failed');
      expect(failed).toMatchObject({
        level: 50,
        tool: 'crash',
        repo: 'projects',
        person: 'maya',
        code: 'internal',
        err: { message: expect.stringContaining('secret detail') },
      });
      expect(failed!['durationMs']).toEqual(expect.any(Number));
    } finally {
      await client.close();
    }
  });

  test('a refusal is logged with its code, the tool, the repository and the person', async () => {
    const client = await connectHttp(demo.url, '2026-07-28', { token: demoTokens.tom });
    try {
      await client.callTool({ name: 'refuse', arguments: { repo: 'handbook' } });
      expect(logged.events('call_refused')).toContainEqual(
        expect.objectContaining({
          level: 30,
          tool: 'refuse',
          repo: 'handbook',
          person: 'tom',
          code: 'note_not_found',
          durationMs: expect.any(Number),
        }),
      );
    } finally {
      await client.close();
    }
  });

  test('a call slower than a second is logged as slow; every call at debug', async () => {
    const client = await connectHttp(demo.url, '2026-07-28', { token: demoTokens.tom });
    try {
      await client.callTool({ name: 'slow', arguments: { repo: 'handbook' } });
      await client.callTool({ name: 'who_am_i', arguments: {} });
      expect(logged.events('call_slow')).toEqual([
        expect.objectContaining({ level: 40, tool: 'slow', repo: 'handbook', person: 'tom', durationMs: expect.any(Number) }),
      ]);
      expect(logged.events('call')).toContainEqual(expect.objectContaining({ level: 20, tool: 'who_am_i', person: 'tom' }));
    } finally {
      await client.close();
    }
  });

  test('a write is logged with the repository, the tool, the commit and the person', async () => {
    const client = await connectHttp(demo.url, '2026-07-28', { token: demoTokens.maya });
    try {
      const result = await client.callTool({
        name: 'edit_note',
        arguments: {
          repo: 'projects',
          path: 'active/launch/plan.md',
          old_text: '| 49 € | 2 vermutet |',
          new_text: '| 49 € | 4 bestätigt |',
          summary: 'Confirmed the trial price',
        },
      });
      expect(result.isError).toBeFalsy();
      const commit = (result.structuredContent as { commit: string }).commit;
      expect(logged.events('write')).toEqual([
        expect.objectContaining({ level: 30, repo: 'projects', tool: 'edit_note', commit, person: 'maya', files: 1 }),
      ]);
    } finally {
      await client.close();
    }
  });

  test('read_note without repo is refused with the repositories the person can read, and logged', async () => {
    for (const [person, names] of [
      ['maya', '"handbook", "projects"'],
      ['tom', '"handbook"'],
    ] as const) {
      const client = await connectHttp(demo.url, '2026-07-28', { token: demoTokens[person] });
      try {
        const result = await client.callTool({ name: 'read_note', arguments: { path: 'README.md' } });
        expect(result.isError).toBe(true);
        const text = (result.content as Array<{ text: string }>)[0]!.text;
        expect(text).toContain(`Give "repo": the repository this call works in, one of ${names}.`);
        if (person === 'tom') expect(text).not.toContain('projects');
      } finally {
        await client.close();
      }
    }
    expect(logged.events('call_refused')).toContainEqual(expect.objectContaining({ tool: 'read_note', code: 'bad_arguments' }));
  });

  test('arguments that break the schema are refused before the handler runs', async () => {
    const client = await connectHttp(demo.url, '2026-07-28', { token: demoTokens.maya });
    try {
      const result = await client.callTool({ name: 'refuse', arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('repo');
    } finally {
      await client.close();
    }
  });
});
