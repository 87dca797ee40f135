import { describe, expect, it } from 'vitest';
import { isVaultError } from '../vault-error.ts';
import { normalizePropertyId, parseBaseFile } from './base-file.ts';

describe('normalizePropertyId', () => {
  it('normalises note., bare, property., file. and formula. ids, splitting at the first dot', () => {
    expect(normalizePropertyId('note.author')).toEqual({ id: 'note.author', kind: 'note', name: 'author' });
    expect(normalizePropertyId('author')).toEqual({ id: 'note.author', kind: 'note', name: 'author' });
    expect(normalizePropertyId('property.url')).toEqual({ id: 'note.url', kind: 'note', name: 'url' });
    expect(normalizePropertyId('file.name')).toEqual({ id: 'file.name', kind: 'file', name: 'name' });
    expect(normalizePropertyId('formula.Type icon')).toEqual({ id: 'formula.Type icon', kind: 'formula', name: 'Type icon' });
    expect(normalizePropertyId('formula.v1.2')).toEqual({ id: 'formula.v1.2', kind: 'formula', name: 'v1.2' });
  });
});

describe('parseBaseFile', () => {
  it('reads the official example: filters, formulas, display names, summaries and a view', () => {
    const base = parseBaseFile(
      [
        'filters:',
        '  or:',
        '    - file.hasTag("tag")',
        '    - and:',
        '        - file.hasTag("book")',
        '    - not:',
        '        - file.inFolder("Required Reading")',
        'formulas:',
        `  formatted_price: 'if(price, price.toFixed(2) + " dollars")'`,
        '  ppu: "(price / age).toFixed(2)"',
        '  "2021": note.finished == 2021',
        '  five: 5',
        'properties:',
        '  status:',
        '    displayName: Status',
        '  formula.formatted_price:',
        '    displayName: "Price"',
        'summaries:',
        `  customAverage: 'values.mean().round(3)'`,
        'views:',
        '  - type: table',
        '    name: "My table"',
        '    limit: 10',
        '    groupBy:',
        '      property: note.age',
        '      direction: DESC',
        '    order:',
        '      - file.name',
        '      - note.age',
        '      - formula.ppu',
        '    sort:',
        '      - property: age',
        '        direction: DESC',
        '      - column: note.created',
        '    columnSize:',
        '      file.name: 200',
      ].join('\n'),
      'My.base',
    );
    expect(base.problems).toEqual([]);
    expect(base.filters).toMatchObject({
      kind: 'or',
      line: 2,
      children: [{ kind: 'expression', source: 'file.hasTag("tag")', line: 3 }, { kind: 'and' }, { kind: 'not' }],
    });
    expect([...base.formulas]).toEqual([
      ['formatted_price', 'if(price, price.toFixed(2) + " dollars")'],
      ['ppu', '(price / age).toFixed(2)'],
      ['2021', 'note.finished == 2021'],
      ['five', '5'],
    ]);
    expect([...base.displayNames]).toEqual([
      ['note.status', 'Status'],
      ['formula.formatted_price', 'Price'],
    ]);
    expect(base.views).toHaveLength(1);
    expect(base.views[0]).toMatchObject({
      type: 'table',
      name: 'My table',
      limit: 10,
      groupBy: { property: { id: 'note.age' }, direction: 'DESC' },
      order: [{ id: 'file.name' }, { id: 'note.age' }, { id: 'formula.ppu' }],
      sort: [
        { property: { id: 'note.age' }, direction: 'DESC' },
        { property: { id: 'note.created' }, direction: 'ASC' },
      ],
    });
  });

  it('reports a filter YAML did not read as text, with its line, and keeps the rest', () => {
    const base = parseBaseFile(
      [
        'filters:',
        '  and:',
        '    - [a, b]',
        '    - 5',
        '    - file.hasTag("x")',
        'formulas:',
        '  list: [1, 2]',
        '  tagged: !x y',
        'views:',
        '  - name: One',
      ].join('\n'),
      'Odd.base',
    );
    expect(base.filters).toMatchObject({
      kind: 'and',
      children: [
        { kind: 'invalid', line: 3, message: expect.stringContaining('is a YAML list') },
        { kind: 'invalid', line: 4, message: expect.stringContaining('is 5, not an expression') },
        { kind: 'expression', line: 5 },
      ],
    });
    expect(base.problems.map((p) => p.line)).toEqual([7, 8]);
    expect(base.problems[0]!.message).toContain('formula "list" at line 7 is a YAML list');
    expect(base.problems[1]!.message).toContain('starts with "!" but is not in quotes');
    expect(base.views.map((v) => v.name)).toEqual(['One']);
  });

  it('keeps a statement that does not parse with its error, for the view to report', () => {
    const base = parseBaseFile('filters: "year >"\n', 'E.base');
    expect(base.filters).toMatchObject({ kind: 'expression', expression: null, syntaxError: { position: 6 } });
  });

  it('refuses text that is not YAML, naming the line and how to quote an expression', () => {
    try {
      parseBaseFile('filters:\n  and:\n    - !file.name.contains("x")\n', 'Bad.base');
      expect.fail('should refuse');
    } catch (error) {
      expect(isVaultError(error, 'invalid_base')).toBe(true);
      expect((error as Error).message).toContain('line 3');
      expect((error as Error).message).toContain('must be put in quotes');
    }
    expect(() => parseBaseFile('- a\n- b\n', 'List.base')).toThrow(/must be a YAML mapping/);
  });

  it('gives the quoting hint for a value YAML took for a tag or an anchor, read from the line, not the error text', () => {
    const messageOf = (text: string): string => {
      try {
        parseBaseFile(text, 'Bad.base');
      } catch (error) {
        return (error as Error).message;
      }
      return expect.fail('should refuse');
    };
    expect(messageOf('filters: !file.name.contains("x")\n')).toContain('must be put in quotes');
    expect(messageOf('filters: &a &b x\n')).toContain('must be put in quotes');
    expect(messageOf('filters: "file.name\n')).not.toContain('must be put in quotes');
  });

  it('gives an empty file, or one without views, a table of file names', () => {
    expect(parseBaseFile('', 'Empty.base').views).toMatchObject([{ name: 'Table', type: 'table', order: null }]);
    expect(parseBaseFile('filters: file.ext == "md"\nviews: []\n', 'F.base').views).toMatchObject([{ name: 'Table' }]);
  });

  it('reads the early-access display: map as labels when properties gives none', () => {
    const base = parseBaseFile(
      'display:\n  file.name: Games\n  note.year: Year\nproperties:\n  note.year:\n    displayName: Released\n',
      'G.base',
    );
    expect(base.displayNames.get('file.name')).toBe('Games');
    expect(base.displayNames.get('note.year')).toBe('Released');
  });
});
