// search_notes on real repositories: plain text, smart case, regex, paths, paging, long lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAcme } from '../../../test/support/acme-fixture.ts';
import { refusalOf } from '../../../test/support/call-tool.ts';
import { isVaultError } from '../../vault-error.ts';
import { repoField } from '../../tools/tool.ts';
import { searchNotes } from './search-notes.ts';

let acme: Awaited<ReturnType<typeof openAcme>>;
const search = async (input: Record<string, unknown>) =>
  searchNotes.output.parse(await searchNotes.handler(searchNotes.input(repoField([])).parse(input), acme.ctx));

const refusal = (input: Record<string, unknown>) => refusalOf(search(input));

beforeAll(async () => {
  acme = await openAcme();
});
afterAll(async () => acme?.close());

describe('search_notes', () => {
  it('finds lines in path and line order; lower case ignores case', async () => {
    const answer = await search({ repo: 'projects', query: 'acme procurement' });
    expect(answer.matches).toEqual([
      { path: 'archive/old/notes.md', line: 4, text: 'An old memo about Acme Procurement.', shortened: false },
    ]);
    expect(answer).toMatchObject({ query: 'acme procurement', offset: 0, hasMore: false, repo: 'projects' });
  });

  it('counts case when the query has a capital letter', async () => {
    expect((await search({ repo: 'projects', query: 'Acme procurement' })).matches).toEqual([]);
    expect((await search({ repo: 'handbook', query: 'über' })).matches.map((m) => [m.path, m.line])).toEqual([
      ['onboarding/first-week.md', 3],
      ['onboarding/Über uns.md', 4],
    ]);
    expect((await search({ repo: 'handbook', query: 'Über' })).matches.map((m) => m.path)).toEqual([
      'onboarding/first-week.md',
      'onboarding/Über uns.md',
    ]);
    expect((await search({ repo: 'handbook', query: 'ÜBER' })).matches).toEqual([]);
  });

  it('reads brackets, dots and quotes literally; regex on request, refusing an invalid one', async () => {
    expect((await search({ repo: 'projects', query: 'Price [x]' })).matches.map((m) => m.line)).toEqual([4]);
    expect((await search({ repo: 'projects', query: '[x' })).matches).toHaveLength(1);
    const regex = await search({ repo: 'projects', query: '^- Who .*\\(1 open\\)$', regex: true });
    expect(regex.matches.map((m) => [m.path, m.line])).toEqual([['active/launch/open-questions.md', 3]]);
    try {
      await search({ repo: 'projects', query: '(unclosed', regex: true });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(isVaultError(error, 'invalid_regex')).toBe(true);
      expect((error as Error).message).toContain('missing closing )');
      // The pattern is quoted as the caller wrote it: no `(?i)` of the case-insensitive search.
      expect((error as Error).message).not.toContain('(?i)');
      expect((error as Error).message).toContain('`(unclosed`');
    }
  });

  it('answers a catastrophic regex in linear time', async () => {
    const answer = await search({ repo: 'projects', query: '(a+)+$', regex: true });
    expect(answer.matches.length).toBeGreaterThanOrEqual(0);
  });

  it('shortens long lines around the match', async () => {
    const [match] = (await search({ repo: 'projects', query: '34 stores at acme', path: 'active/launch/plan.md' })).matches;
    expect(match).toMatchObject({ line: 16, shortened: true });
    expect(match!.text).toContain('34 Stores at Acme');
    expect(match!.text.length).toBeLessThanOrEqual(302);
  });

  it('searches a folder or a file, never outside the open folders', async () => {
    expect(
      (await search({ repo: 'projects', query: 'acme', path: 'active/launch' })).matches.every((m) => m.path.startsWith('active/launch/')),
    ).toBe(true);
    expect((await search({ repo: 'projects', query: 'procurement' })).matches.map((m) => m.path)).toEqual(['archive/old/notes.md']);
    try {
      await search({ repo: 'projects', query: 'build', path: 'code' });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(isVaultError(error, 'outside_folders')).toBe(true);
    }
  });

  it('pages with limit and offset, and works across repositories', async () => {
    const all = await search({ query: 'acme', limit: 100 });
    expect(all.repo).toBeUndefined();
    expect(all.matches[0]).toMatchObject({ path: 'handbook/README.md', repo: 'handbook' });
    const first = await search({ query: 'acme', limit: 2 });
    expect(first.hasMore).toBe(true);
    expect(first.note).toContain('offset 2');
    const second = await search({ query: 'acme', limit: 2, offset: 2 });
    expect(second.matches).toEqual(all.matches.slice(2, 4));
    const inRepo = await search({ query: 'プラグイン', path: 'handbook/onboarding' });
    expect(inRepo.matches).toEqual([
      { path: 'handbook/onboarding/日本語.md', line: 3, text: 'プラグインの説明。', shortened: false, repo: 'handbook' },
    ]);
  });

  it('says so when nothing matches', async () => {
    const answer = await search({ repo: 'projects', query: 'Nothing Like This' });
    expect(answer.matches).toEqual([]);
    expect(answer.note).toContain('capital');
  });

  it('refuses a path that is neither a folder nor a file, naming the closest; a note may be named without .md', async () => {
    expect(await refusal({ repo: 'projects', query: 'acme', path: 'active/lunch' })).toMatchObject({
      code: 'note_not_found',
      message: expect.stringContaining('There is no folder or file "active/lunch" in projects. The closest by name: "active/launch/"'),
    });
    expect((await refusal({ repo: 'projects', query: 'acme', path: 'active/launch/plam.md' })).message).toContain(
      '"active/launch/plan.md"',
    );
    expect((await refusal({ query: 'acme', path: 'nowhere' })).code).toBe('note_not_found');
    const note = await search({ repo: 'projects', query: 'budget', path: 'active/launch/plan' });
    expect(note.matches.map((m) => [m.path, m.line])).toEqual([
      ['active/launch/plan.md', 14],
      ['active/launch/plan.md', 16],
    ]);
    const empty = await search({ repo: 'handbook', query: 'anything', path: 'images' });
    expect(empty.matches).toEqual([]);
    expect(empty.note).toContain('Nothing matches');
    expect((await search({ query: 'acme', path: 'onboarding' })).matches.map((m) => m.path)).toEqual([
      'handbook/onboarding/first-week.md',
      'handbook/onboarding/Über uns.md',
    ]);
  });

  it('says so when offset is past the last match', async () => {
    const answer = await search({ repo: 'projects', query: 'acme', offset: 40, limit: 2 });
    expect(answer.matches).toEqual([]);
    expect(answer.note).toMatch(/^offset 40 is past the last of the \d+ matches: call search_notes again with offset 0 for the first page/);
  });
});
