import { describe, expect, it } from 'vitest';
import moment from 'moment';
import { baseNotesFromFiles } from './base-notes-from-files.ts';
import { type BaseValue, renderValue } from './base-value.ts';
import { BaseVault } from './base-vault.ts';
import { BaseEvalError, BaseEvaluator } from './expression-evaluator.ts';
import { parseExpression } from './expression-parser.ts';

const NOW = moment('2025-06-15 12:00:00', 'YYYY-MM-DD HH:mm:ss').valueOf();

const files = {
  'Books/Dune.md': [
    '---',
    'author: "[[Frank Herbert]]"',
    'categories:',
    '  - "[[Books]]"',
    'year: 1965',
    'rating: 9.5',
    'price: 12',
    'age: 4',
    'started: 2025-01-31',
    'finished: 2025-03-01 18:30:00',
    'status: reading',
    'tags: [scifi, classic]',
    'done: false',
    'meta:',
    '  pages: 412',
    'empty:',
    'watched-date: 2024-05-01',
    '---',
    'Inline #favourite/2025 tag, a link to [[Books]] and ![[cover.png]].',
    'See [[Nowhere]] too.',
  ].join('\n'),
  'Books.md': '---\ntags: [category]\n---\nThe books.',
  'People/Frank Herbert.md': '---\nborn: 1920-10-08\n---\nWrote [[Dune]].',
  'cover.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'Root note.md': 'No frontmatter.',
};

function evaluator(formulas: Record<string, string> = {}, contextPath = 'Books/Dune.md'): BaseEvaluator {
  const input = baseNotesFromFiles(
    Object.entries(files).map(([path, content]) => ({
      path,
      content,
      ctime: new Date('2024-01-02T03:04:05Z'),
      mtime: new Date('2025-02-03T04:05:06Z'),
    })),
  );
  return new BaseEvaluator({
    vault: new BaseVault(input),
    basePath: 'Bases/Books.base',
    contextPath,
    formulas: new Map(Object.entries(formulas)),
    now: NOW,
  });
}

const shared = evaluator();

function value(source: string, row = 'Books/Dune.md', using = shared): BaseValue {
  return using.evaluate(parseExpression(source), row);
}

/** The cell text of an expression for the Dune row. */
function text(source: string, row = 'Books/Dune.md', using = shared): string {
  return renderValue(value(source, row, using));
}

function failure(source: string, using = shared): BaseEvalError {
  try {
    value(source, 'Books/Dune.md', using);
  } catch (error) {
    if (error instanceof BaseEvalError) return error;
    throw error;
  }
  throw new Error(`expected ${source} to fail`);
}

describe('names and properties', () => {
  it('reads note properties bare, with note. and with note[...], and null when missing', () => {
    expect(text('year')).toBe('1965');
    expect(text('note.year')).toBe('1965');
    expect(text('note["watched-date"]')).toBe('2024-05-01');
    expect(value('missing')).toEqual({ kind: 'null' });
    expect(value('empty')).toEqual({ kind: 'null' });
    expect(text('meta.pages')).toBe('412');
    expect(text('meta["pages"]')).toBe('412');
  });

  it('turns frontmatter wiki-links into links and date strings into dates', () => {
    expect(value('author')).toMatchObject({ kind: 'link', target: 'Frank Herbert', path: 'People/Frank Herbert.md' });
    expect(text('categories')).toBe('[[Books]]');
    expect(value('started')).toMatchObject({ kind: 'date', time: false });
    expect(text('finished')).toBe('2025-03-01 18:30:00');
    expect(value('status')).toEqual({ kind: 'string', value: 'reading' });
  });

  it('gives the file properties of a row', () => {
    expect(text('file.name')).toBe('Dune.md');
    expect(text('file.basename')).toBe('Dune');
    expect(text('file.path')).toBe('Books/Dune.md');
    expect(text('file.folder')).toBe('Books');
    expect(text('file.folder', 'Root note.md')).toBe('/');
    expect(text('file.ext')).toBe('md');
    expect(value('file.size')).toMatchObject({ kind: 'number' });
    expect(text('file.ctime')).toBe(moment(new Date('2024-01-02T03:04:05Z')).format('YYYY-MM-DD HH:mm:ss'));
    expect(text('file.tags')).toBe('#scifi, #classic, #favourite/2025');
    expect(text('file.links')).toBe('[[Frank Herbert]], [[Books]], [[Books]], [[Nowhere]]');
    expect(text('file.embeds')).toBe('[[cover.png]]');
    expect(text('file.backlinks')).toBe('[[Frank Herbert]]');
    expect(text('file.backlinks', 'Books.md')).toBe('[[Dune]]');
    expect(text('file.properties.year')).toBe('1965');
    expect(text('file.file.name')).toBe('Dune.md');
  });

  it('has the file functions', () => {
    expect(text('file.hasTag("scifi")')).toBe('true');
    expect(text('file.hasTag("#FAVOURITE")')).toBe('true');
    expect(text('file.hasTag("nope", "classic")')).toBe('true');
    expect(text('file.hasTag("fav")')).toBe('false');
    expect(text('file.inFolder("Books")')).toBe('true');
    expect(text('file.inFolder("Book")')).toBe('false');
    expect(text('file.inFolder("/")', 'Root note.md')).toBe('true');
    expect(text('file.hasLink("Books")')).toBe('true');
    expect(text('file.hasLink(link("Frank Herbert"))')).toBe('true');
    expect(text('file.hasLink("cover.png")')).toBe('true');
    expect(text('file.hasLink("Nowhere")')).toBe('true');
    expect(text('file.hasLink("People/Frank Herbert.md")')).toBe('true');
    expect(text('file.hasLink("Root note")')).toBe('false');
    expect(text('file.hasProperty("year")')).toBe('true');
    expect(text('file.hasProperty("empty")')).toBe('true');
    expect(text('file.hasProperty("nope")')).toBe('false');
    expect(text('file.asLink()')).toBe('[[Dune]]');
    expect(text('file.asLink("The book")')).toBe('[[Dune|The book]]');
  });

  it('makes this the context file: its properties, its file, and equal to links that reach it', () => {
    const fromPerson = evaluator({}, 'People/Frank Herbert.md');
    expect(text('this.born', 'Books/Dune.md', fromPerson)).toBe('1920-10-08');
    expect(text('this.file.name', 'Books/Dune.md', fromPerson)).toBe('Frank Herbert.md');
    expect(text('author == this', 'Books/Dune.md', fromPerson)).toBe('true');
    expect(text('list(author).contains(this)', 'Books/Dune.md', fromPerson)).toBe('true');
    expect(text('file.hasLink(this)', 'Books/Dune.md', fromPerson)).toBe('true');
    expect(text('this.file.hasLink(file)', 'Books/Dune.md', fromPerson)).toBe('true');
    expect(text('file.links.contains(this.file)', 'Books/Dune.md', fromPerson)).toBe('true');
    expect(text('this', 'Books/Dune.md', fromPerson)).toBe('[[Frank Herbert]]');
  });
});

describe('operators', () => {
  it('does arithmetic with JavaScript semantics and concatenates text', () => {
    expect(text('price / age')).toBe('3');
    expect(text('7 % 4 + 2 * 3 - 1')).toBe('8');
    expect(text('1 / 0')).toBe('');
    expect(text('price.toFixed(2) + " dollars"')).toBe('12.00 dollars');
    expect(text('file.basename + " - " + year')).toBe('Dune - 1965');
    expect(text('"x" + missing')).toBe('x');
    expect(text('[1] + [2]')).toBe('1, 2');
  });

  it('gives null for arithmetic on a missing value, and an error for impossible kinds', () => {
    expect(value('missing * 2')).toEqual({ kind: 'null' });
    expect(value('-missing')).toEqual({ kind: 'null' });
    expect(failure('true * 2').message).toBe('cannot multiply a boolean and a number');
    expect(failure('year - "x"').message).toBe('cannot subtract a number and a text');
  });

  it('compares numbers, dates and text, and is false for kinds that cannot be compared', () => {
    expect(text('rating > 9')).toBe('true');
    expect(text('year <= 1965 && year >= 1965')).toBe('true');
    expect(text('started < finished')).toBe('true');
    expect(text('started > "2025-01-01"')).toBe('true');
    expect(text('"abc" < "abd"')).toBe('true');
    expect(text('missing > 0')).toBe('false');
    expect(text('missing < 0')).toBe('false');
    expect(text('status > 1')).toBe('false');
  });

  it('has loose equality for links, files and tags, and none between numbers and text', () => {
    expect(text('categories[0] == link("Books")')).toBe('true');
    expect(text('categories.contains(link("Books"))')).toBe('true');
    expect(text('categories.contains("Books")')).toBe('true');
    expect(text('categories.contains(link("Nope"))')).toBe('false');
    expect(text('link("Nope") == link("nope.md")')).toBe('true');
    expect(text('file.tags.contains("scifi")')).toBe('true');
    expect(text('file.tags.contains("#classic")')).toBe('true');
    expect(text('"1" == 1')).toBe('false');
    expect(text('missing == null')).toBe('true');
    expect(text('started == date("2025-01-31")')).toBe('true');
    expect(text('[1, [2]] == [1, [2]]')).toBe('true');
    expect(text('file == file(link("Dune"))')).toBe('true');
  });

  it('short-circuits && and || and returns booleans; ! negates truthiness', () => {
    expect(text('missing && missing.foo()')).toBe('false');
    expect(text('year || failing()')).toBe('true');
    expect(text('!missing')).toBe('true');
    expect(text('!""')).toBe('true');
    expect(text('![]')).toBe('true');
    expect(text('!0')).toBe('true');
    expect(text('!started')).toBe('false');
  });
});

describe('global functions', () => {
  it('evaluates if lazily, with null as the default else', () => {
    expect(text('if(price, price.toFixed(2) + " dollars")')).toBe('12.00 dollars');
    expect(value('if(missing, 1)')).toEqual({ kind: 'null' });
    expect(text('if(true, "yes", nosuchfunction())')).toBe('yes');
    expect(failure('if(false, 1, nosuchfunction())').message).toBe('there is no function "nosuchfunction"');
  });

  it('reads dates, durations and numbers', () => {
    expect(text('date("2025-05-27")')).toBe('2025-05-27');
    expect(text('date("2025-05-27 10:11:12")')).toBe('2025-05-27 10:11:12');
    expect(text('date(finished)')).toBe('2025-03-01 18:30:00');
    expect(text('now()')).toBe('2025-06-15 12:00:00');
    expect(text('today()')).toBe('2025-06-15');
    expect(text('number("3.4")')).toBe('3.4');
    expect(text('number(true)')).toBe('1');
    expect(text('number(date("2025-01-01")) == date("2025-01-01")')).toBe('false');
    expect(failure('number("abc")').message).toContain('cannot read "abc" as a number');
    expect(failure('date("soon")').message).toContain('date() cannot read "soon"');
  });

  it('builds lists, links and files', () => {
    expect(text('list("value")')).toBe('value');
    expect(text('list(categories).length')).toBe('1');
    expect(text('list(missing).length')).toBe('0');
    expect(text('link("Books")')).toBe('[[Books]]');
    expect(text('link("Books", "All books")')).toBe('[[Books|All books]]');
    expect(text('link("https://obsidian.md")')).toBe('https://obsidian.md');
    expect(text('link("[[Frank Herbert]]").asFile().born', 'Books/Dune.md', evaluator({}, 'Books/Dune.md'))).toBe('');
    expect(text('file("People/Frank Herbert.md").properties.born')).toBe('1920-10-08');
    expect(value('file("Nowhere")')).toEqual({ kind: 'null' });
    expect(text('link(file.ctime.date().toString())')).toBe('[[2024-01-02]]');
  });

  it('has min, max, the render-only values and the early-access not/empty', () => {
    expect(text('max(1, 5, 3)')).toBe('5');
    expect(text('min(4, missing, 2)')).toBe('2');
    expect(text('max(started, finished)')).toBe('2025-03-01 18:30:00');
    expect(text('icon("arrow-right")')).toBe('arrow-right');
    expect(text('image(file("cover.png"))')).toBe('![[cover.png]]');
    expect(text('escapeHTML("<b>&</b>")')).toBe('&lt;b&gt;&amp;&lt;/b&gt;');
    expect(text('html("<i>x</i>")')).toBe('<i>x</i>');
    expect(text('not(empty(note.year))')).toBe('true');
    expect(value('random()')).toMatchObject({ kind: 'number' });
  });
});

describe('methods of each kind', () => {
  it('has the methods of any value, also on literals', () => {
    expect(text('1.isTruthy()')).toBe('true');
    expect(text('0.isTruthy()')).toBe('false');
    expect(text('123.toString()')).toBe('123');
    expect(text('5.isEmpty()')).toBe('false');
    expect(text('"example".isType("string")')).toBe('true');
    expect(text('true.isType("boolean")')).toBe('true');
    expect(text('started.isType("date")')).toBe('true');
    expect(text('missing.isType("null")')).toBe('true');
    expect(text('{}.isEmpty()')).toBe('true');
    expect(text('missing.isEmpty()')).toBe('true');
    expect(value('missing.lower()')).toEqual({ kind: 'null' });
    expect(text('started.toString()')).toBe('2025-01-31');
  });

  it('has the string functions', () => {
    expect(text('"hello".contains("ell")')).toBe('true');
    expect(text('"hello".containsAll("h", "e")')).toBe('true');
    expect(text('"hello".containsAny("x", "y", "e")')).toBe('true');
    expect(text('"hello".startsWith("he") && "hello".endsWith("lo")')).toBe('true');
    expect(text('"Hello".lower()')).toBe('hello');
    expect(text('"hello world".title()')).toBe('Hello World');
    expect(text('"  hi  ".trim()')).toBe('hi');
    expect(text('"a:b:c:d".replace(":", "-")')).toBe('a-b-c-d');
    expect(text('"a:b:c:d".replace(/:/, "-")')).toBe('a-b:c:d');
    expect(text('"a:b:c:d".replace(/:/g, "-")')).toBe('a-b-c-d');
    expect(text('"John Smith".replace(/(\\w+) (\\w+)/, "$2, $1")')).toBe('Smith, John');
    expect(text('"123".repeat(2)')).toBe('123123');
    expect(text('"hello".reverse()')).toBe('olleh');
    expect(text('"hello".slice(1, 4)')).toBe('ell');
    expect(text('"hello".slice(-3)')).toBe('llo');
    expect(text('"a,b,c,d".split(",", 3)')).toBe('a, b, c');
    expect(text('"a,b;c".split(/[,;]/)')).toBe('a, b, c');
    expect(text('"hello".length')).toBe('5');
    expect(text('"".isEmpty()')).toBe('true');
    expect(text('"héllo".upper()')).toBe('HÉLLO');
    expect(text('/abc/.matches("abcde")')).toBe('true');
    expect(text('/^A/i.matches("abc")')).toBe('true');
    expect(failure('"x".nope()').message).toBe('text has no function "nope"');
  });

  it('has the number functions', () => {
    expect(text('(-5).abs()')).toBe('5');
    expect(text('(2.1).ceil()')).toBe('3');
    expect(text('(2.9).floor()')).toBe('2');
    expect(text('(2.5).round()')).toBe('3');
    expect(text('(2.3333).round(2)')).toBe('2.33');
    expect(text('(1.005).round(2)')).toBe('1.01');
    expect(text('(3.14159).toFixed(2)')).toBe('3.14');
    expect(value('(3.14159).toFixed(2)')).toMatchObject({ kind: 'string' });
  });

  it('has the date fields and functions, and calendar arithmetic with durations', () => {
    expect(text('finished.year + "-" + finished.month + "-" + finished.day')).toBe('2025-3-1');
    expect(text('finished.hour * 100 + finished.minute')).toBe('1830');
    expect(text('finished.date()')).toBe('2025-03-01');
    expect(text('finished.format("dddd, MMMM D, YYYY HH:mm")')).toBe('Saturday, March 1, 2025 18:30');
    expect(text('finished.time()')).toBe('18:30:00');
    expect(text('date("2025-06-12 12:00:00").relative()')).toBe('3 days ago');
    expect(text('started + "1M"')).toBe('2025-02-28');
    expect(text('date("2024-12-01") + "1M" + "4h" + "3m"')).toBe('2025-01-01 04:03:00');
    expect(text('started - "1 year"')).toBe('2024-01-31');
    expect(text('started + "2w"')).toBe('2025-02-14');
    expect(text('today() + "7d"')).toBe('2025-06-22');
    expect(text('now() + duration("1d") * 2')).toBe('2025-06-17 12:00:00');
    expect(text('(now() + "1d") - now()')).toBe('86400000');
    expect(text('(date("2025-03-01") - date("2025-01-30")).days')).toBe('30');
    expect(text('(now() - date("2000-06-15")).years.floor()')).toBe('25');
    expect(text('(date("2025-07-01") - date("2025-01-01")).months.round()')).toBe('6');
    expect(text('finished > now() - "1 week"')).toBe('false');
    expect(text('started.isEmpty()')).toBe('false');
    expect(text('started + " later"')).toBe('2025-01-31 later');
    expect(failure('started - "later"').message).toBe('cannot subtract a date and a text');
  });

  it('has the list functions, with value and index in filter, map and reduce', () => {
    expect(text('[1,2,3].contains(2)')).toBe('true');
    expect(text('[1,2,3].containsAll(2,3)')).toBe('true');
    expect(text('[1,2,3].containsAny(3,4)')).toBe('true');
    expect(text('[1,2,3,4].filter(value > 2)')).toBe('3, 4');
    expect(text('[1,2,3,4].map(value + 1)')).toBe('2, 3, 4, 5');
    expect(text('["a","b"].map(value + index)')).toBe('a0, b1');
    expect(text('[1,2,3].reduce(acc + value, 0)')).toBe('6');
    expect(text('[3, "x", 7].filter(value.isType("number")).reduce(if(acc == null || value > acc, value, acc), null)')).toBe('7');
    expect(text('[1,[2,3]].flat()')).toBe('1, 2, 3');
    expect(text('[1,2,3].join(",")')).toBe('1,2,3');
    expect(text('[1,2,3].reverse()')).toBe('3, 2, 1');
    expect(text('[1,2,3,4].slice(1,3)')).toBe('2, 3');
    expect(text('[3, 1, 2].sort()')).toBe('1, 2, 3');
    expect(text('["c", "a", "b"].sort()')).toBe('a, b, c');
    expect(text('[1,2,2,3].unique()')).toBe('1, 2, 3');
    expect(text('[1,2,3].length')).toBe('3');
    expect(text('[1,2,3][-1]')).toBe('3');
    expect(value('[1,2,3][5]')).toEqual({ kind: 'null' });
    expect(text('[1,2,3,4].sum()')).toBe('10');
    expect(text('[1,2,3,4].mean()')).toBe('2.5');
    expect(text('[1,2,3].median()')).toBe('2');
    expect(text('[2,4,4,4,5,5,7,9].stddev()')).toBe('2');
    expect(text('[2,9,4].max() - [2,9,4].min()')).toBe('7');
    expect(text('[started, finished].latest()')).toBe('2025-03-01 18:30:00');
    expect(text('[].isEmpty()')).toBe('true');
    expect(text('list(this.file.links).filter(list(file.links).containsAny(value)).unique()')).toBe(
      '[[Frank Herbert]], [[Books]], [[Nowhere]]',
    );
  });

  it('has the link, object and file functions, and reads a link as text for string functions', () => {
    expect(text('author.asFile().path')).toBe('People/Frank Herbert.md');
    expect(value('link("Nowhere").asFile()')).toEqual({ kind: 'null' });
    expect(text('author.linksTo(file)')).toBe('true');
    expect(text('file.embeds[0].containsAny("jpg", "png")')).toBe('true');
    expect(text('meta.keys()')).toBe('pages');
    expect(text('meta.values()')).toBe('412');
    expect(text('{"a": 1}.isEmpty()')).toBe('false');
  });
});

describe('formulas', () => {
  it('are lazy and memoised, and may refer to formulas defined later', () => {
    const withFormulas = evaluator({
      overlap: 'formula.related.length',
      related: 'file.links.unique()',
      ppu: '(price / age).toFixed(2)',
      bad: 'nosuch()',
    });
    expect(text('formula.overlap', 'Books/Dune.md', withFormulas)).toBe('3');
    expect(text('formula["ppu"]', 'Books/Dune.md', withFormulas)).toBe('3.00');
    expect(text('formula.ppu', 'Books.md', withFormulas)).toBe('');
  });

  it('report a circular reference, an unknown formula and a failing one by name', () => {
    const cyclic = evaluator({ a: 'formula.b + 1', b: 'formula.a', broken: 'year +', fails: 'nosuch()' });
    expect(failure('formula.a', cyclic).message).toBe('formula "a" refers to itself (a circular reference)');
    expect(failure('formula.zzz', cyclic).message).toContain('there is no formula "zzz"; the formulas are "a", "b", "broken", "fails"');
    expect(failure('formula.broken', cyclic).message).toBe(
      'formula "broken" does not parse: the expression ends too early at character 7 of "year +"',
    );
    expect(failure('formula.fails + 1', cyclic).message).toBe(
      'formula "fails" failed: there is no function "nosuch" at character 1 of "nosuch()"',
    );
  });

  it('reports a failure at its place in the expression', () => {
    expect(failure('year + "x".nope()')).toMatchObject({ position: 11 });
    expect(failure('nosuch(1)')).toMatchObject({ position: 0 });
  });
});
