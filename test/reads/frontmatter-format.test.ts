// One frontmatter-schema validator for reads and writes (issue 10): a type's `format: date`
// is checked by read_note's report and by the write tools' refusal alike. Before, read_note
// compiled the schema without formats and said nothing where create_note and edit_note refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNote } from '../../src/instance/tools/create-note.ts';
import { editNote } from '../../src/instance/tools/edit-note.ts';
import { readNote } from '../../src/instance/tools/read-note.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { callTool, refusalOf } from '../support/call-tool.ts';
import { openWriteFixture, type WriteFixture } from '../writes/write-fixture.ts';

const settings = '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [] }\n';
const decisionType =
  '---\nplaces:\n  - "decisions/{title:slug}.md"\nfrontmatter:\n  type: object\n  properties:\n    title:\n      type: string\n    decided_on:\n      type: string\n      format: date\n  required: [title, decided_on]\n---\n# {title}\n\n{body}\n';
const note = (date: string) => `---\ntype: decision\ntitle: Pick\ndecided_on: ${date}\n---\n# Pick\n`;

let fixture: WriteFixture;
let ctx: ToolContext;

beforeAll(async () => {
  fixture = await openWriteFixture({
    '.vault/settings.jsonc': settings,
    '.vault/types/decision.md': decisionType,
    'README.md': '# Notes\n',
    'decisions/good.md': note('2026-01-05'),
    'decisions/bad.md': note('next week'),
  });
  ctx = await fixture.context();
});

afterAll(async () => {
  await fixture?.close();
});

describe('a type field with format: date', () => {
  it('read_note reports a value that is no date, and nothing for a date', async () => {
    const bad = await callTool(readNote, { repo: 'notes', path: 'decisions/bad.md' }, ctx);
    expect(bad.note).toBe('Hint: the frontmatter does not meet the type "decision": decided_on must match format "date".');
    const good = await callTool(readNote, { repo: 'notes', path: 'decisions/good.md' }, ctx);
    expect(good.note).toBeUndefined();
  });

  it('create_note refuses a value that is no date', async () => {
    const refusal = await refusalOf(
      callTool(createNote, { repo: 'notes', type: 'decision', frontmatter: { title: 'Later', decided_on: 'next week' }, body: '' }, ctx),
    );
    expect(refusal.code).toBe('schema_violation');
    expect(refusal.message).toContain('decided_on: must match format "date"');
  });

  it('edit_note refuses a change to a value that is no date', async () => {
    const refusal = await refusalOf(
      callTool(
        editNote,
        { repo: 'notes', path: 'decisions/good.md', old_text: 'decided_on: 2026-01-05', new_text: 'decided_on: soon', summary: 'Moved' },
        ctx,
      ),
    );
    expect(refusal.code).toBe('schema_violation');
    expect(refusal.message).toContain('decided_on: must match format "date"');
  });
});
