import { describe, expect, it, test } from 'vitest';
import { filledPromptLength, fillPrompt, loadPrompts, parsePromptSettings, parseResourceSettings } from './prompts-resources.ts';
import type { Prompt } from './vault-config.ts';

describe('prompt placeholders', () => {
  const settings = (args: string[]) =>
    parsePromptSettings([{ name: 'brief', file: '.vault/prompts/brief.md', arguments: args.map((name) => ({ name })) }], () => undefined);

  test('{{date}} and other double braces are text, not arguments; single braces of an argument are filled', async () => {
    const problems: string[] = [];
    const [prompt] = await loadPrompts(
      settings(['project']),
      async () => 'Brief of {project} for {{date}}, as {{title}} says; {{project}} stays too.\n',
      (problem) => problems.push(problem),
    );
    expect(problems).toEqual([]);
    expect(fillPrompt(prompt!, { project: 'launch' })).toBe('Brief of launch for {{date}}, as {{title}} says; {{project}} stays too.');
  });

  test('a single-brace name that is no argument still leaves the prompt out, saying so', async () => {
    const problems: string[] = [];
    const prompts = await loadPrompts(
      settings(['project']),
      async () => 'Brief of {project} on {day}.\n',
      (problem) => problems.push(problem),
    );
    expect(prompts).toEqual([]);
    expect(problems.join(' ')).toContain('uses {day}, which is not among its arguments');
  });

  test('a prompt whose title or description would bloat every prompts/list is left out, saying the bound', () => {
    const problems: string[] = [];
    const prompts = parsePromptSettings([{ name: 'long', file: '.vault/prompts/long.md', description: 'Long. '.repeat(200) }], (problem) =>
      problems.push(problem),
    );
    expect(prompts).toEqual([]);
    expect(problems.join(' ')).toContain('at most 1,000 characters');
  });
});

describe('filledPromptLength', () => {
  it('counts the filled text without building it, and names the argument that adds the most', () => {
    const prompt = { text: 'Brief {a} for {b}; again {a}. {c} {{a}}', arguments: [{ name: 'a' }, { name: 'b' }] } as Pick<
      Prompt,
      'text' | 'arguments'
    >;
    const values = { a: 'xxxx', b: 'y' };
    expect(filledPromptLength(prompt, values)).toEqual({ length: fillPrompt(prompt, values).length, largest: 'a' });
    expect(filledPromptLength(prompt, {}).length).toBe(fillPrompt(prompt, {}).length);
  });
});

describe('parseResourceSettings', () => {
  it('says a description is too long, not that the entry names nothing', () => {
    const problems: string[] = [];
    const kept = parseResourceSettings(
      [{ note: 'a.md', description: 'x'.repeat(1001) }, { nothing: true }, { note: 'b.md' }],
      ['/'],
      (message) => problems.push(message),
    );
    expect(kept.map((resource) => resource.path)).toEqual(['b.md']);
    expect(problems).toEqual([
      'resources[0] is left out: description: a title or description holds at most 1,000 characters',
      'resources[1] is left out: it must name one note or one folder, e.g. { "note": "active/plan.md" } or { "folder": "active/" }',
    ]);
  });
});
