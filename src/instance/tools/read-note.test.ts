// read_note on real repositories: ranges, sections, truncation, problems and refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit } from '../../../test/support/git-fixture.ts';
import { openAcme } from '../../../test/support/acme-fixture.ts';
import { join } from 'node:path';
import type { TestToolContext } from '../../../test/support/tool-context.ts';
import { refusalOf } from '../../../test/support/call-tool.ts';
import { repoField } from '../../tools/tool.ts';
import { readNote } from './read-note.ts';

let acme: Awaited<ReturnType<typeof openAcme>>;
let ctx: TestToolContext;
const read = async (input: Record<string, unknown>) =>
  readNote.output.parse(await readNote.handler(readNote.input(repoField([])).parse(input), ctx));

const refusal = (input: Record<string, unknown>) => refusalOf(read(input));

beforeAll(async () => {
  acme = await openAcme();
  ctx = acme.ctx;
});
afterAll(async () => acme?.close());

describe('read_note', () => {
  it('reads a whole note exactly, frontmatter included, with headings, grades and type', async () => {
    const answer = await read({ repo: 'projects', path: 'active/launch/plan.md' });
    expect(answer.content.startsWith('---\ntype: decision\n')).toBe(true);
    expect(answer.content.endsWith('| Launch in May | 2 vermutet |')).toBe(true);
    expect(answer).toMatchObject({
      path: 'active/launch/plan.md',
      title: 'Launch plan',
      type: 'decision',
      from_line: 1,
      truncated: false,
      repo: 'projects',
    });
    expect(answer.to_line).toBe(answer.total_lines);
    expect(answer.headings?.map((h) => h.text)).toEqual(['Plan', 'Budget', 'Timeline']);
    expect(answer.unconfirmed).toEqual([expect.objectContaining({ grade: '2 vermutet', shorthand: 'assumption' })]);
    expect(answer.note).toBeUndefined();
  });

  it('reads a range and a section', async () => {
    const range = await read({ repo: 'projects', path: 'active/launch/plan.md', from_line: 8, to_line: 9 });
    expect(range.content).toBe('---\n# Plan');
    expect(range.unconfirmed).toBeUndefined();
    const section = await read({ repo: 'projects', path: 'active/launch/plan.md', heading: 'budget' });
    expect(section.content.split('\n')[0]).toBe('## Budget');
    expect(section.content).toContain('~~34 Stores at Acme~~');
    expect(section.content).not.toContain('Timeline');
  });

  it('refuses a wrong heading with the headings there are, and heading with lines', async () => {
    expect(await refusal({ repo: 'projects', path: 'active/launch/plan.md', heading: 'Costs' })).toMatchObject({
      code: 'heading_not_found',
      message: expect.stringContaining('"Plan", "Budget", "Timeline"'),
    });
    expect((await refusal({ repo: 'projects', path: 'active/launch/plan.md', heading: 'Plan', from_line: 2 })).code).toBe('bad_arguments');
    expect((await refusal({ repo: 'projects', path: 'active/launch/plan.md', from_line: 999 })).code).toBe('bad_arguments');
  });

  it('reports problems without blocking: schema violations, untyped, unknown types, broken frontmatter', async () => {
    expect((await read({ repo: 'projects', path: 'active/launch/decisions/pick-a-date.md' })).note).toMatch(/^Hint: .*decided_on/);
    expect((await read({ repo: 'projects', path: 'active/launch/open-questions.md' })).note).toMatch(/^Hint: this note has no type/);
    expect((await read({ repo: 'projects', path: 'archive/old/notes.md' })).note).toMatch(/^Warning: the type "memo"/);
    expect((await read({ repo: 'projects', path: 'archive/broken.md' })).note).toMatch(/^Error: the frontmatter does not parse/);
    expect((await read({ repo: 'projects', path: 'active/templates/meeting.md' })).note).toBeUndefined();
    expect((await read({ repo: 'projects', path: 'active/launch/README.md' })).note).toBeUndefined();
    expect((await read({ repo: 'handbook', path: 'onboarding/first-week.md' })).note).toBeUndefined();
  });

  it('reads Unicode paths, and a note named without .md', async () => {
    const answer = await read({ repo: 'handbook', path: 'onboarding/Über uns' });
    expect(answer).toMatchObject({ path: 'onboarding/Über uns.md', title: 'Über uns' });
    expect(answer.repo).toBe('handbook');
    expect((await read({ repo: 'handbook', path: 'onboarding/日本語.md' })).content).toContain('プラグイン');
  });

  it('refuses what is not a note, missing notes, hidden and closed paths, unknown repositories', async () => {
    expect((await refusal({ repo: 'handbook', path: 'images/scan.md' })).code).toBe('not_a_note');
    expect((await refusal({ repo: 'handbook', path: 'images/logo.png' })).code).toBe('not_a_note');
    expect(await refusal({ repo: 'handbook', path: 'onboarding/first-weak.md' })).toMatchObject({ code: 'note_not_found' });
    expect((await refusal({ repo: 'projects', path: 'active/plan.md' })).message).toContain('"active/launch/plan.md"');
    expect((await refusal({ repo: 'projects', path: '.vault/instructions.md' })).code).toBe('hidden_path');
    expect(await refusal({ repo: 'projects', path: 'code/build.md' })).toMatchObject({
      code: 'outside_folders',
      message: expect.stringContaining('"active/"'),
    });
    expect(await refusal({ repo: 'secret', path: 'a.md' })).toMatchObject({
      code: 'repo_not_found',
      message: expect.stringContaining('"handbook", "projects"'),
    });
    expect((await refusal({ repo: 'projects', path: '../x.md' })).code).toBe('invalid_path');
  });

  it('cuts long notes at 40000 characters and says where to go on', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `Line ${i + 1}: ${'text '.repeat(6)}`);
    commit(join(acme.reposDir, 'handbook'), {
      message: 'Long',
      files: { 'long.md': `${lines.join('\n')}\n`, 'wide.md': `${'x'.repeat(200_000)}\nend\n` },
    });
    const first = await read({ repo: 'handbook', path: 'long.md' });
    expect(first.truncated).toBe(true);
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(40_000);
    expect(first.content.split('\n')).toHaveLength(first.to_line);
    expect(first.next_steps).toContain(`from_line ${first.to_line + 1}`);
    const next = await read({ repo: 'handbook', path: 'long.md', from_line: first.to_line + 1 });
    expect(next.content.startsWith(`Line ${first.to_line + 1}:`)).toBe(true);
    const wide = await read({ repo: 'handbook', path: 'wide.md' });
    expect(wide).toMatchObject({ truncated: true, to_line: 1 });
    expect(JSON.stringify(wide).length).toBeLessThanOrEqual(40_000);
    expect(wide.next_steps).toContain('from_line 2');
  });

  it('says plainly when one asked line is longer than an answer, and only suggests calls that succeed', async () => {
    commit(join(acme.reposDir, 'handbook'), {
      message: 'Longline',
      files: { 'notes/longline.md': `# Long\n${'y'.repeat(200_000)}\nafter\nend\n` },
    });
    const follow = async (answer: Awaited<ReturnType<typeof read>>) => {
      for (const [, from, to] of (answer.next_steps ?? '').matchAll(/from_line (\d+)(?:, to_line (\d+))?/g)) {
        const next = await read({
          repo: 'handbook',
          path: 'notes/longline.md',
          from_line: Number(from),
          ...(to === undefined ? {} : { to_line: Number(to) }),
        });
        expect(next.from_line).toBe(Number(from));
      }
    };
    const one = await read({ repo: 'handbook', path: 'notes/longline.md', from_line: 2, to_line: 2 });
    expect(one).toMatchObject({ from_line: 2, to_line: 2, truncated: true });
    expect(JSON.stringify(one).length).toBeLessThanOrEqual(40_000);
    expect(one.next_steps).toContain('200000 characters long');
    expect(one.next_steps).toContain('search_notes');
    expect(one.next_steps).not.toMatch(/from_line 3/);
    await follow(one);
    const range = await read({ repo: 'handbook', path: 'notes/longline.md', from_line: 2, to_line: 3 });
    expect(range.next_steps).toContain('from_line 3, to_line 3');
    await follow(range);
    const open = await read({ repo: 'handbook', path: 'notes/longline.md', from_line: 2 });
    expect(open.next_steps).toMatch(/from_line 3(?!, to_line)/);
    await follow(open);
  });

  it('reads the first of several headings with the same text and says where the others are', async () => {
    commit(join(acme.reposDir, 'handbook'), {
      message: 'Same headings',
      files: { 'notes/same.md': '# Same\n\nfirst\n\n## Same\n\nsecond\n\n# Other\n\n# same\n\nthird\n' },
    });
    const first = await read({ repo: 'handbook', path: 'notes/same.md', heading: 'Same' });
    expect(first).toMatchObject({ from_line: 1, to_line: 8 });
    expect(first.note).toContain('There are 3 headings "Same" (lines 1, 5, 11); this is the one on line 1.');
    expect(first.note).toContain('from_line 5, to_line 8');
    expect(first.note).toContain('from_line 11, to_line 13');
    const other = await read({ repo: 'handbook', path: 'notes/same.md', from_line: 11, to_line: 13 });
    expect(other.content).toBe('# same\n\nthird');
    const hashes = await read({ repo: 'handbook', path: 'notes/same.md', heading: '## SAME' });
    expect(hashes).toMatchObject({ from_line: 1, to_line: 8 });
    expect((await read({ repo: 'handbook', path: 'notes/same.md', heading: 'Other' })).note).toBeUndefined();
  });
});
