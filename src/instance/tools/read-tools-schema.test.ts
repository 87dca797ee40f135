// The five read tools list exactly as the contract (spec/acme-tools-list.json) says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repoField, type ToolDefinition } from '../../tools/tool.ts';
import { findReferences } from './find-references.ts';
import { listNotes } from './list-notes.ts';
import { readNote } from './read-note.ts';
import { searchNotes } from './search-notes.ts';
import { tree } from './tree.ts';

const contract = JSON.parse(readFileSync(join(import.meta.dirname, '../../../test/fixtures/acme-tools-list.json'), 'utf8')) as {
  tools: Array<Record<string, unknown> & { name: string }>;
};
const acme = repoField([
  { name: 'handbook', summary: 'How Acme works: onboarding, processes and policies.' },
  { name: 'projects', summary: 'One folder per project: plans, decisions and meeting notes.' },
]);

describe.each([readNote, listNotes, tree, searchNotes, findReferences] as unknown as ToolDefinition[])('$name', (tool) => {
  const listed = contract.tools.find((entry) => entry.name === tool.name)!;
  it('has the listed name, title, description, annotations and _meta', () => {
    expect({ name: tool.name, title: tool.title, description: tool.description, annotations: tool.annotations, _meta: tool._meta }).toEqual(
      {
        name: listed.name,
        title: listed.title,
        description: listed.description,
        annotations: listed.annotations,
        _meta: listed._meta,
      },
    );
  });
  it('has the listed input schema', () => {
    expect(z.toJSONSchema(tool.input(acme), { io: 'input' })).toEqual(listed.inputSchema);
  });
  it('has the listed output schema', () => {
    expect(z.toJSONSchema(tool.output, { io: 'output' })).toEqual(listed.outputSchema);
  });
});
