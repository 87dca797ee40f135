// The trigram query of a regex, and regex search narrowed by it: for a wide list of regexes,
// search_notes finds exactly the lines (in the same order) that matching every note finds.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext, type TestToolContext } from '../../../test/support/tool-context.ts';
import type { TrigramQuery } from '../../note-index/trigram-keys.ts';
import { repoField } from '../../tools/tool.ts';
import { isCaseSensitive } from './line-matcher.ts';
import { lineWindow } from './line-window.ts';
import { matchNotes } from './match-notes.ts';
import { regexContentPattern, regexTrigramQuery } from './regex-trigrams.ts';
import { searchNotes } from './search-notes.ts';

/** A query written short: `and(…)`/`or(…)` of quoted trigrams and subqueries, ALL, NONE. */
function show(query: TrigramQuery): string {
  if (query.op === 'all' || query.op === 'none') return query.op.toUpperCase();
  return `${query.op}(${[...query.trigrams.map((trigram) => JSON.stringify(trigram)), ...query.subs.map(show)].join(' ')})`;
}

describe('regexTrigramQuery', () => {
  it('requires the trigrams of literal text, folded when case is ignored', () => {
    expect(show(regexTrigramQuery('Zettelkasten', true))).toBe('and("zet" "ett" "tte" "tel" "elk" "lka" "kas" "ast" "ste" "ten")');
    // ^ and $ stand for the line breaks around a line (trigram-keys.ts puts one before the first and after the last).
    expect(show(regexTrigramQuery('^# Hello', true))).toBe('and("# h" " he" "hel" "ell" "llo" "\\n# ")');
    expect(show(regexTrigramQuery('^^ab$$', false))).toBe('and("\\nab" or("ab\\n" "ab\\r"))');
    expect(show(regexTrigramQuery('\\Aab\\z', false))).toBe('and("\\nab" or("ab\\n" "ab\\r"))');
    expect(show(regexTrigramQuery('(?m)^ab$^', false))).toBe('and("\\nab" or("ab\\n" "ab\\r"))');
    expect(show(regexTrigramQuery('日本語の', false))).toBe('and("日本語" "本語の")');
    expect(show(regexTrigramQuery('a\\.b\\Q*c\\E', false))).toBe('and("a.b" ".b*" "b*c")');
    expect(show(regexTrigramQuery('ПРИВЕТ', true))).toBe('and("при" "рив" "иве" "вет")');
  });

  it('keeps every letter a case-insensitive match can be (ſ for s, ϑ for θ)', () => {
    expect(show(regexTrigramQuery('\\bsql\\b', false))).toBe('or("sql" "ſql")');
    // θ is also ϑ, μ also µ (micro sign), ε also ϵ: eight spellings, any of them will do.
    const theme = show(regexTrigramQuery('(?i)θεμα', true));
    expect(theme).toMatch(/^or\((and\("[θϑ][εϵ][μµ]" "[εϵ][μµ]α"\) ?){8}\)$/u);
    expect(show(regexTrigramQuery('(?-i:Foo)bar', false))).toBe('and("foo" "oob" "oba" "bar")');
  });

  it('turns alternation into or, and keeps what stays required around it', () => {
    expect(show(regexTrigramQuery('zettel|canvas', false))).toBe('or(and("zet" "ett" "tte" "tel") and("can" "anv" "nva" or("vas" "vaſ")))');
    expect(show(regexTrigramQuery('x(?:ab|cd)y', false))).toBe('or(and("xab" "aby") and("xcd" "cdy"))');
    expect(show(regexTrigramQuery('(foo)?bar', false))).toBe('and("bar")');
    expect(show(regexTrigramQuery('abc[de]fg', false))).toBe('and("abc" or("bcd" "bce") or(and("cdf" "dfg") and("cef" "efg")))');
    // A class of a few letters counts: the letter before "ing" is one of 27 (ſ is an s).
    expect(show(regexTrigramQuery('[a-z]+ing\\b', false))).toMatch(/^and\("ing" or\(("[a-zſ]in" ?){27}\)\)$/u);
    expect(show(regexTrigramQuery('Foo.*Bar', true))).toBe('and("foo" "bar")');
  });

  it('expands small classes into sets of trigrams while they stay small', () => {
    // ^\\d{4}-\\d{2}-\\d{2}$: one of the 100 "\\nDD" (a line starting with two digits), of the
    // 100 "DD-", of the 100 "D-D", of the 100 "-DD" and of the 200 "DD\\n", "DD\\r" (a line ending with two).
    const date = regexTrigramQuery('^\\d{4}-\\d{2}-\\d{2}$', false);
    expect(date.op).toBe('and');
    const parts = date.op === 'and' ? date.subs.map((sub) => (sub.op === 'or' ? [...sub.trigrams].sort() : [])) : [];
    const digits = (shape: string) =>
      Array.from({ length: 100 }, (_, n) => shape.replace('D', String(Math.floor(n / 10))).replace('D', String(n % 10))).sort();
    const ends = [...digits('DD\n'), ...digits('DD\r')].sort();
    expect(parts).toEqual(expect.arrayContaining([digits('\nDD'), digits('DD-'), digits('D-D'), digits('-DD'), ends]));
    expect(parts).toHaveLength(5);
    // 78 strings of several trigrams ("\\n## a", "\\n# b", …): one of their first trigrams and one of their last.
    expect(show(regexTrigramQuery('^#{1,3} [A-Z]', true))).toMatch(/^and\(or\("\\n##" "\\n# "\) or\(("# [a-z]" ?){26}\)\)$/);
    expect(show(regexTrigramQuery('Ctrl\\+[A-Z]', true))).toMatch(/^and\("ctr" "trl" "rl\+" or\(("l\+[a-z]" ?){26}\)\)$/);
    expect(show(regexTrigramQuery('заметк[аиу]', true))).toMatch(/^and\("зам" "аме" "мет" "етк" or\("тка" "тки" "тку"\)\)$/u);
    // [A-Z]{3} is too many strings to know, but what follows its last letter still counts.
    expect(show(regexTrigramQuery('[A-Z]{3}-\\d{3}', true))).toMatch(/^and\(or\(("[a-z]-\d" ?){260}\) or\(("-\d\d" ?){100}\)\)$/);
    // Sets that would multiply past a few hundred strings are given up, not enumerated.
    expect(regexTrigramQuery('\\w\\w\\w\\w\\w\\w', false)).toEqual({ op: 'all' });
    expect(regexTrigramQuery('(?i)[a-z]{2}\\d{2}', true)).toEqual({ op: 'all' });
  });

  it('requires nothing of optional, repeated-from-zero or class-only regexes', () => {
    for (const pattern of ['.*', 'a?b?c?', 'x{0,3}', '(abc)*', '\\d+', '[a-z]{3,}', 'ab', '^$', '\\bx', '(?s).'])
      expect(regexTrigramQuery(pattern, false), pattern).toEqual({ op: 'all' });
  });

  it('finds that a regex that can match nothing requires what nothing has', () => {
    expect(regexTrigramQuery('[^\\x00-\\x{10FFFF}]', false)).toEqual({ op: 'none' });
  });
});

/** Notes in many scripts, with the folds and forms that trip a trigram filter up. */
const files: Record<string, string> = {
  'README.md': '# Vault\n\nZettelkasten and canvas notes. See [[Linked note]].\n',
  'a/latin.md': 'The ſtraße and the STRASSE.\nKelvin: 273 \u212A.\nfoo bar baz\nFoobar Qux\nfoo-bar\n',
  'a/crlf.md': 'Line one\r\nSecond line has zettel\r\nThird\r\n',
  'a/decomposed.md': 'Cre\u0300me bru\u0302le\u0301e and cafe\u0301.\n',
  'b/greek.md': 'ΟΔΥΣΣΕΥΣ and ὀδυσσεύς\nτο θέμα, το ϑέμα\nΣοφία\n',
  'b/cyrillic.md': 'Привет, мир!\nПРИВЕТ снова.\nёлка и Ёлка\n',
  'b/turkish.md': 'İstanbul and istanbul; DİKKAT\n',
  'c/日本語.md': '# 日本語のノート\n\nプラグインの説明。\n漢字とかな\n',
  'c/korean.md': '한국어 노트\n\u1112\u1161\u11ab 글\n',
  'c/emoji.md': 'Rocket 🚀🚀 launch 🚀 done\n𝔘𝔫𝔦𝔠𝔬𝔡𝔢\n',
  'd/code.md': '```js\nconst x = a.b*c + (y|z);\n```\nprice: $42.00 [x]\n',
  'd/tasks.md': '- [ ] buy milk\n- [x] write notes #todo\n- [ ] call Bob 2026-05-04\n',
  'd/empty.md': '',
  // Digits and punctuation are searched unfolded; U+0307, which folding drops, joins what it parts.
  'd/dates.md': '2026-05-04\n2026-0\u03075-04\n2026-05-04 \n12:30 and 1\u03072:30\nΣ-12-ς\n',
  'd/long.md': `${'lorem ipsum '.repeat(500)}needle in a haystack${' dolor'.repeat(500)}\n`,
  // Anchors at the very start and end of a note: a date alone on the first line, on a last
  // line without a line break, on \r\n lines, before a lone \r; empty lines; case-folded ends.
  'e/first.md': '2025-01-02\nnot 2025-01-03 here\n',
  'e/last.md': 'intro\n2025-02-03',
  'e/only.md': '2025-03-04',
  'e/crlf.md': 'intro\r\n2025-04-05\r\n\r\nend MOC\r\n',
  'e/lone-cr.md': 'intro\n2025-05-06\r',
  'e/cr-inside.md': '2025-06-07\rtail\n',
  'e/blank.md': '\n\nmiddle\n\n',
  'e/moc.md': 'MOC\nthe moc list\n(MOC)\npomocí mocks imoc\nMoC-note: Moc_x\n\u212Aelvin MOC\u0307\nend moc',
  'e/moc-first.md': 'moc',
  // Word boundaries checked in the stored text: a mark after the word composes in NFC (MOCé), or before it; _ is a word character.
  'e/words.md': 'MOCe\u0301 x\ne\u0301MOC y\n_MOC MOC_ xMOC MOC9\n\u212Aask kask KASK\n\u017Fask sask\nthe MOC\r\nöMOCä\nMOC',
};

/** Regexes of every kind: literals, classes, alternation, optional and repeated groups, anchors, escapes, flags, scripts. */
const regexes = [
  'zettel',
  'Zettel',
  'zettelkasten|canvas',
  '\\bcanvas\\b',
  '\\bfoo\\b',
  'foo.bar',
  'foo[ -]?bar',
  '(?i)FOOBAR',
  'Foo(bar)?',
  '(foo)?bar',
  'ba[rz]',
  'ba[^r]',
  'x{0,3}yz',
  '(?:ab)*c',
  'straße',
  'strasse',
  'STRASSE',
  '(?i)strasse',
  'ſtr',
  '273 k',
  '\\x{212A}',
  'odysseus|οδυσσευς',
  'οδυσσεύσ',
  'ΟΔΥΣΣΕΥΣ',
  'θέμα',
  '(?i)ΘΈΜΑ',
  'σοφία',
  'привет',
  'Привет',
  'ёлка',
  'istanbul',
  'İstanbul',
  'dikkat',
  'crème',
  'cr[eè]me',
  'brûlée',
  'café\\.',
  '日本語',
  'ノート$',
  '^漢字',
  '[かな]+',
  '한국어',
  '한 글',
  '🚀+ launch',
  '𝔘𝔫𝔦',
  '\\$\\d+\\.\\d{2}',
  'a\\.b\\*c',
  '\\(y\\|z\\)',
  '\\Q[x]\\E',
  '^- \\[ \\] ',
  '^- \\[x\\].*#todo$',
  '\\d{4}-\\d{2}-\\d{2}',
  '#\\w+',
  '^#+ ',
  'line$',
  '^Second',
  'has zettel\\r',
  'one\\nSecond',
  'needle in a haystack',
  'ipsum needle',
  '.*',
  '^$',
  '\\bx',
  '(?s)d.l',
  '[^\\x00-\\x{10FFFF}]',
  'nothing-here-at-all',
  '(qqq|zzz)xyz',
  '(?m)^third$',
  '(?U)b.+?z',
  'o{2,}',
  'foo{1,3}',
  '^- \\[ \\] call Bob \\d{4}-\\d{2}-\\d{2}$',
  '\\d{4}-\\d{2}-\\d{2}$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '\\d\\d\\d',
  '[0-9]{2}\\.[0-9]{2}',
  '[A-Z]{3,}',
  '[A-Z]{2}\\w+',
  '(?i)[bcd][aeiou]{2}',
  '(?i)[a-f]ar\\b',
  '(?i)\\x{212A}elvin',
  '[ſs]tra(ß|ss)e',
  '(?i)stra(ß|ss)e',
  '[α-ω]{3}',
  '[а-яё]{4}\\b',
  '[\\x{1F680}-\\x{1F681}]+ [a-z]+',
  '[かな]と',
  '\\d\\d:\\d\\d',
  '0[\\x{307}]?5-04',
  '1\\x{307}2:',
  '\\d{2}-\\d{2}$',
  '(?i)σ-12-σ',
  '-12-',
  '^\\d{4}-\\d{2}-\\d{2}',
  '\\d{2}-\\d{2}$',
  '^\\d{4}-\\d{2}-\\d{2}\\r?$',
  '^\\d{4}-\\d{2}-\\d{2}\\r',
  '^2025-0[1-6]-0\\d',
  '\\A\\d+-\\d+-\\d+\\z',
  '(?m)^\\d{4}.*$',
  '^^2025',
  '2025-03-04$$',
  '^$',
  '^\\s*$',
  '(?m)^$^',
  '^middle$',
  '^end MOC$',
  '^intro$',
  '^intro\\r$',
  '^(?i)moc$',
  '(?i)^moc',
  'moc$',
  '(?i)\\bMOC\\b',
  '\\bMOC\\b',
  '(?i)\\bmoc\\b|^intro',
  '^(2025|intro)',
  '(^|x)2025',
  '2025(-06-07|$)',
  '^\\x{212A}elvin',
  '(?i)^kelvin',
  '^.{10}$',
  '^[^\\n]{3}$',
  '\\bkask\\b',
  '(?i)\\bkask\\b',
  '\\bKask',
  '(?i)\\bsask\\b',
  '\\bſask',
  'MOC\\b',
  '\\bMOC',
  '(\\bMOC\\b)',
  '\\bmoc\\b.*',
  '^#{1,3} [A-Z]',
  '^#{1,3} \\w+$',
];

let dir: ReturnType<typeof tempDir>;
let ctx: TestToolContext;

beforeAll(async () => {
  dir = tempDir('mv-regex-');
  makeRepo(join(dir.path, 'notes'), [{ message: 'Notes', files }]);
  ctx = await openToolContext(dir.path, { matchBudgetMs: 60_000 });
});
afterAll(async () => {
  await ctx?.close();
  dir?.cleanup();
});

/** Every line the regex matches (as answers show it), by matching every note of the repository in (path) order. */
async function fullScan(pattern: string): Promise<string[]> {
  const notes = await ctx.index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
    needle: null,
    caseSensitive: false,
    after: null,
    limit: 1000,
  });
  const query = { regex: true, query: pattern, caseSensitive: isCaseSensitive(pattern, true) };
  const { matches } = matchNotes({ query, contents: notes.map((note) => note.content), wanted: Infinity, deadline: Date.now() + 60_000 });
  return matches.map((match) => `${notes[match.note]!.path}:${match.line}:${lineWindow(match.text, match.start, match.length).text}`);
}

/** Every line search_notes finds, page after page. */
async function searched(pattern: string): Promise<string[]> {
  const lines: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const input = searchNotes.input(repoField([])).parse({ repo: 'notes', query: pattern, regex: true, limit: 100, offset });
    const answer = searchNotes.output.parse(await searchNotes.handler(input, ctx));
    lines.push(...answer.matches.map((match) => `${match.path}:${match.line}:${match.text}`));
    if (!answer.hasMore) return lines;
  }
}

describe('search_notes with a regex, narrowed by its trigrams', () => {
  it('finds exactly the lines a full scan finds, in the same order', async () => {
    let found = 0;
    for (const pattern of regexes) {
      const expected = await fullScan(pattern);
      expect(await searched(pattern), pattern).toEqual(expected);
      found += expected.length;
    }
    // The list is not vacuous: most regexes find something.
    expect(found).toBeGreaterThan(60);
  });

  it('reads only the notes that have the required trigrams', async () => {
    const candidates = async (pattern: string) =>
      (
        await ctx.index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
          needle: null,
          trigrams: regexTrigramQuery(pattern, isCaseSensitive(pattern, true)),
          caseSensitive: false,
          after: null,
          limit: 1000,
        })
      ).map((note) => note.path);
    expect(await candidates('\\bzettel\\w*')).toEqual(['README.md', 'a/crlf.md']);
    expect(await candidates('привет|日本語')).toEqual(['b/cyrillic.md', 'c/日本語.md']);
    expect(await candidates('nothing-here-at-all')).toEqual([]);
    // ^ and $ count: a line that starts with two digits and one that ends with two (or a \r after them).
    expect(await candidates('^\\d{4}-\\d{2}-\\d{2}$')).toEqual([
      'd/dates.md',
      'e/cr-inside.md',
      'e/crlf.md',
      'e/first.md',
      'e/last.md',
      'e/lone-cr.md',
      'e/only.md',
    ]);
    expect(await candidates('(?i)^moc')).toEqual(['e/moc-first.md', 'e/moc.md', 'e/words.md']);
    // A word's boundaries are checked in the database: "pomocí" and "mocks" are not "moc".
    const worded = async (pattern: string) =>
      (
        await ctx.index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
          needle: null,
          trigrams: regexTrigramQuery(pattern, isCaseSensitive(pattern, true)),
          contentPattern: regexContentPattern(pattern, isCaseSensitive(pattern, true))!,
          caseSensitive: false,
          after: null,
          limit: 1000,
        })
      ).map((note) => note.path);
    expect(await worded('(?i)\\bMOC\\b')).toEqual(['e/crlf.md', 'e/moc-first.md', 'e/moc.md', 'e/words.md']);
    expect(await worded('\\bmocks\\b')).toEqual(['e/moc.md']);
    expect(await worded('\\bimo\\b')).toEqual([]);
    // RE2's \\b is ASCII: í ends the word "pomoc" in "pomocí".
    expect(await worded('\\bpomoc\\b')).toEqual(['e/moc.md']);
    expect(await candidates('\\d+')).toHaveLength(Object.keys(files).length);
  });
});
