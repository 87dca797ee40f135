// find_references on real repositories: values (counts, struck, long lines) and paths (links, embeds, mentions).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAcme } from '../../../test/support/acme-fixture.ts';
import { callTool } from '../../../test/support/call-tool.ts';
import { openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import { isVaultError } from '../../vault-error.ts';
import { repoField } from '../../tools/tool.ts';
import { findReferences } from './find-references.ts';

let acme: Awaited<ReturnType<typeof openAcme>>;
const find = async (input: Record<string, unknown>) =>
  findReferences.output.parse(await findReferences.handler(findReferences.input(repoField([])).parse(input), acme.ctx));

async function refusal(input: Record<string, unknown>): Promise<string> {
  try {
    await find(input);
  } catch (error) {
    if (isVaultError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  acme = await openAcme();
});
afterAll(async () => acme?.close());

describe('find_references', () => {
  it('counts and lists lines mentioning values, case-insensitively, marking struck ones', async () => {
    const answer = await find({ repo: 'projects', values: ['34 stores at ACME', 'Acme Procurement'] });
    expect(answer.counts).toEqual([
      { value: '34 stores at ACME', lines: 2, capped: false },
      { value: 'Acme Procurement', lines: 1, capped: false },
    ]);
    expect(answer.references.map((r) => [r.value, r.path, r.line, r.shortened, r.struck ?? false])).toEqual([
      ['34 stores at ACME', 'active/launch/plan.md', 16, true, false],
      ['34 stores at ACME', 'active/launch/plan.md', 17, false, true],
      ['Acme Procurement', 'archive/old/notes.md', 4, false, false],
    ]);
    expect(answer.references[0]!.text).toContain('34 Stores at Acme');
    expect(answer).toMatchObject({ repo: 'projects', hasMore: false });
  });

  it('finds every link, embed and path mention of a file; a note named without .md', async () => {
    const answer = await find({ repo: 'projects', path: 'active/launch/open-questions' });
    expect(answer.counts).toEqual([{ value: 'active/launch/open-questions.md', lines: 2, capped: false }]);
    expect(answer.references.map((r) => [r.path, r.line])).toEqual([
      ['active/launch/plan.md', 11],
      ['active/launch/plan.md', 12],
    ]);
    const embed = await find({ repo: 'handbook', path: 'images/logo.png' });
    expect(embed.references.map((r) => [r.path, r.line])).toEqual([['onboarding/first-week.md', 3]]);
    const unicode = await find({ repo: 'handbook', path: 'onboarding/Über uns.md' });
    expect(unicode.references).toEqual([
      {
        value: 'onboarding/Über uns.md',
        path: 'onboarding/first-week.md',
        line: 3,
        text: 'Read [[Über uns]] first. ![[logo.png]]',
        shortened: false,
      },
    ]);
  });

  it('pages, and refuses both or neither of values and path, missing files and closed paths', async () => {
    const page = await find({ repo: 'projects', values: ['acme'], limit: 1, offset: 1 });
    expect(page.references).toHaveLength(1);
    expect(page.offset).toBe(1);
    expect(page.hasMore).toBe(page.counts[0]!.lines > 2);
    expect(await refusal({ repo: 'projects' })).toBe('bad_arguments');
    expect(await refusal({ repo: 'projects', values: ['x'], path: 'a.md' })).toBe('bad_arguments');
    expect(await refusal({ repo: 'projects', path: 'active/launch/nothing.md' })).toBe('note_not_found');
    expect(await refusal({ repo: 'projects', path: 'code/build.md' })).toBe('outside_folders');
    expect(await refusal({ repo: 'nope', values: ['x'] })).toBe('repo_not_found');
  });

  it('says so when offset is past the last reference', async () => {
    const answer = await find({ repo: 'projects', values: ['acme procurement'], offset: 5 });
    expect(answer).toMatchObject({ references: [], counts: [{ lines: 1 }], hasMore: false });
    expect(answer.note).toBe('offset 5 is past the last of the 1 references: call find_references again with offset 0 for the first page.');
  });

  it('never shows lines outside the open folders', async () => {
    const answer = await find({ repo: 'projects', values: ['procurement'] });
    expect(answer.references.map((r) => r.path)).toEqual(['archive/old/notes.md']);
  });
});

describe('find_references with values: the lines shown, from the notes as stored', () => {
  let fixture: WriteFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('shows each line as stored: CRLF, decomposed accents, a last line without a break, a long note, any page', async () => {
    const decomposed = 'Cre\u0300me brûlée: the Sync key.';
    const long = `${'filler line\n'.repeat(9000)}the SYNC key at the end`;
    fixture = await openWriteFixture({
      'a.md': 'Intro\r\nThe sync key, first.\r\nNo match.\r\n\r\nsync key again\r\n',
      'b.md': `# B\n${decomposed}\nsync KEY`,
      'c.md': long,
    });
    // A budget no loaded machine runs out of: every line is found.
    const ctx = { ...(await fixture.context()), matchBudgetMs: 120_000 };
    const lines = [
      ['a.md', 2, 'The sync key, first.'],
      ['a.md', 5, 'sync key again'],
      ['b.md', 2, decomposed],
      ['b.md', 3, 'sync KEY'],
      ['c.md', 9001, 'the SYNC key at the end'],
    ];
    const all = await callTool(findReferences, { repo: 'notes', values: ['sync key'] }, ctx);
    expect(all.counts).toEqual([{ value: 'sync key', lines: 5, capped: false }]);
    expect(all.references.map((ref) => [ref.path, ref.line, ref.text])).toEqual(lines);
    for (let offset = 0; offset < 5; offset++) {
      const page = await callTool(findReferences, { repo: 'notes', values: ['sync key'], limit: 2, offset }, ctx);
      expect(page.references.map((ref) => [ref.path, ref.line, ref.text])).toEqual(lines.slice(offset, offset + 2));
    }
  });
});

describe('find_references with a path: links and paths, not words that look like them', () => {
  let fixture: WriteFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  const files = {
    'Plan.md': '# Plan\n\nThe Plan is ready. See [[#Risks]].\n\n## Risks\n\nNone.\n',
    'projects/road map.md': '# Road map\n',
    'projects/brief.md': [
      '---', // 1
      'related: "[[Plan]]"', // 2
      '---', // 3
      '# Brief', // 4
      '', // 5
      'See [[Plan|the plan]] for details.', // 6
      '![[Plan]]', // 7
      'Read [the plan](../Plan.md) first.', // 8
      'Write `[[Plan]]` to link a note, or `[p](Plan.md)`.', // 9
      'A plan is a Plan, not a link.', // 10
      'The file Plan.md holds it.', // 11
      '```', // 12
      '[[Plan]] and [[projects/road map]]', // 13
      '```', // 14
      'The [map](road%20map.md) and `projects/road map.md`.', // 15
      'Not a link: `[[projects/road map]]`.', // 16
      '', // 17
      '    [[Plan]] in indented code', // 18
      '', // 19
      '\\[[Plan]] written out.', // 20
    ].join('\n'),
  };

  async function references(path: string) {
    fixture = await openWriteFixture(files);
    const ctx = await fixture.context();
    const answer = await callTool(findReferences, { repo: 'notes', path }, ctx);
    return answer.references.map((ref) => [ref.path, ref.line]);
  }

  it('lists wiki-links, embeds, Markdown links and frontmatter links, not code, headings or bare words', async () => {
    expect(await references('Plan')).toEqual([
      ['projects/brief.md', 2],
      ['projects/brief.md', 6],
      ['projects/brief.md', 7],
      ['projects/brief.md', 8],
      ['projects/brief.md', 11],
    ]);
  });

  it('lists URL-encoded links and written paths of a note in a folder, not link syntax in code', async () => {
    fixture = await openWriteFixture(files);
    const answer = await callTool(findReferences, { repo: 'notes', path: 'projects/road map.md' }, await fixture.context());
    expect(answer.references.map((ref) => [ref.path, ref.line, ref.text])).toEqual([
      ['projects/brief.md', 15, 'The [map](road%20map.md) and `projects/road map.md`.'],
    ]);
    expect(answer.counts).toEqual([{ value: 'projects/road map.md', lines: 1, capped: false }]);
  });
});
