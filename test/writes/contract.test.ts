// The write tools list exactly as the contract (spec/acme-tools-list.json) says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repoField } from '../../src/tools/tool.ts';
import { createNote } from '../../src/instance/tools/create-note.ts';
import { editNote } from '../../src/instance/tools/edit-note.ts';
import { moveNote } from '../../src/instance/tools/move-note.ts';

const contract = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'acme-tools-list.json'), 'utf8')) as {
  tools: Array<Record<string, unknown>>;
};
const choices = [
  { name: 'handbook', summary: 'How Acme works: onboarding, processes and policies.' },
  { name: 'projects', summary: 'One folder per project: plans, decisions and meeting notes.' },
];

describe.each([editNote, moveNote, createNote])('$name', (tool) => {
  const listed = contract.tools.find((entry) => entry['name'] === tool.name)!;
  it('lists name, title, description, schemas and annotations exactly as the contract', () => {
    expect(tool.title).toBe(listed['title']);
    expect(tool.description).toBe(listed['description']);
    expect(tool.annotations).toEqual(listed['annotations']);
    expect(z.toJSONSchema(tool.input(repoField(choices)), { io: 'input' })).toEqual(listed['inputSchema']);
    expect(z.toJSONSchema(tool.output, { io: 'output' })).toEqual(listed['outputSchema']);
  });
});
