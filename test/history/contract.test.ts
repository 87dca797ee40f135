// The history tools list exactly what spec/acme-tools-list.json says (names, texts, schemas, annotations).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repoField } from '../../src/tools/tool.ts';
import { noteHistory } from '../../src/instance/tools/note-history.ts';
import { searchHistory } from '../../src/instance/tools/search-history.ts';

const contract = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'acme-tools-list.json'), 'utf8')) as {
  tools: Record<string, unknown>[];
};
const repo = repoField([
  { name: 'handbook', summary: 'How Acme works: onboarding, processes and policies.' },
  { name: 'projects', summary: 'One folder per project: plans, decisions and meeting notes.' },
]);

describe.each([noteHistory, searchHistory])('$name as listed', (tool) => {
  const listed = contract.tools.find((entry) => entry.name === tool.name);

  it('matches the contract', () => {
    expect({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.input(repo), { io: 'input' }),
      annotations: tool.annotations,
      outputSchema: z.toJSONSchema(tool.output, { io: 'output' }),
    }).toEqual(listed);
  });
});
