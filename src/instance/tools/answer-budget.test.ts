// Every tool answers within 40,000 characters whatever its input (issue 9, item 5): each
// string argument of each tool, in turn 100,000 characters long, on Acme's repositories.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAcme } from '../../../test/support/acme-fixture.ts';
import { implementedTools } from '../all-tools.ts';
import { silentLogger } from '../log.ts';
import type { ToolContext } from '../tool.ts';
import { toolError, toolResult } from '../tool-result.ts';
import { ANSWER_LIMIT, boundedMessage, cutEcho } from './answer-budget.ts';

/** A valid call of each tool, each string argument of which is made long in turn. */
const calls: Record<string, Record<string, unknown>> = {
  read_note: { repo: 'projects', path: 'active/launch/plan.md', heading: 'Goals' },
  list_notes: { repo: 'projects', folder: 'active', type: 'decision', status: 'open', fields: ['status'] },
  tree: { repo: 'projects', folder: 'active' },
  search_notes: { repo: 'projects', query: 'Acme', path: 'active' },
  find_references: { repo: 'projects', values: ['Acme'] },
  note_history: { repo: 'projects', path: 'active/launch/plan.md', since: '2026-01-01', at: 'HEAD' },
  search_history: { text: 'Acme', author: 'Maya', since: '2026-01-01', until: '2026-12-31', path: 'active' },
  edit_note: { repo: 'projects', path: 'active/launch/plan.md', old_text: 'no such passage', new_text: 'x', summary: 'Changed' },
  move_note: { repo: 'projects', from: 'active/launch/plan.md', to: 'archive/launch/plan.md', summary: 'Moved', type: 'decision' },
  base_view: { repo: 'projects', path: 'active/launch/Overview.base', view: 'Decisions' },
  create_note: { repo: 'projects', path: 'active/launch/new.md', body: 'Text', type: 'decision' },
};

/** 100,000 characters, words and spaces, so it is no single token. */
const long = 'lorem ipsum '.repeat(8334).slice(0, 100_000);

let acme: Awaited<ReturnType<typeof openAcme>>;
beforeAll(async () => {
  acme = await openAcme();
}, 120_000);
afterAll(async () => acme?.close());

/** The answer's text as the server sends it: the result's JSON, or the refusal's message. */
async function answerText(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
  const tool = implementedTools.find((entry) => entry.name === name)!;
  try {
    const input = tool.input(z.string()).parse(args);
    return JSON.stringify(toolResult(await tool.handler(input, ctx)).structuredContent);
  } catch (error) {
    if (error instanceof z.ZodError) return 'refused by the input schema';
    const result = toolError(error, silentLogger(), { tool: name, durationMs: 0 });
    return (result.content[0] as { text: string }).text;
  }
}

describe('every tool with a 100,000-character string', () => {
  for (const [name, call] of Object.entries(calls)) {
    it(`${name} answers within ${ANSWER_LIMIT} characters`, async () => {
      const tool = implementedTools.find((entry) => entry.name === name)!;
      const schema = z.toJSONSchema(tool.input(z.string()), { io: 'input' }) as {
        properties: Record<string, { type?: string; items?: { type?: string } }>;
      };
      const fields = Object.entries(schema.properties).filter(
        ([key, field]) => key !== 'repo' && (field.type === 'string' || field.items?.type === 'string'),
      );
      expect(fields.length).toBeGreaterThan(0);
      for (const [key, field] of fields) {
        const args: Record<string, unknown> = { ...call, [key]: field.type === 'string' ? long : [long] };
        if (name === 'find_references' && key === 'path') delete args['values'];
        const text = await answerText(name, args, acme.ctx);
        expect({ field: key, length: text.length }).toEqual({ field: key, length: Math.min(text.length, ANSWER_LIMIT) });
      }
    }, 300_000);
  }
});

describe('echoes and refusals', () => {
  it('cuts an echoed text after 1000 characters, saying how long it was', () => {
    expect(cutEcho('short')).toBe('short');
    const cut = cutEcho('é'.repeat(5000));
    expect(cut).toBe(`${'é'.repeat(999)}…(5000 characters)`);
  });

  it('keeps a refusal within the limit, its start and its hint at the end', () => {
    const message = `There is no note "${'x'.repeat(100_000)}". Check the path with tree.`;
    const bounded = boundedMessage(message);
    expect(bounded.length).toBeLessThanOrEqual(ANSWER_LIMIT);
    expect(bounded.startsWith('There is no note "xxx')).toBe(true);
    expect(bounded.endsWith('". Check the path with tree.')).toBe(true);
    expect(bounded).toContain('characters left out');
    expect(boundedMessage('fine')).toBe('fine');
  });
});
