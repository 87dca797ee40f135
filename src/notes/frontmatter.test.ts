import { afterEach, describe, expect, it, vi } from 'vitest';
import { frontmatterBlock, parseFrontmatterYaml, splitFrontmatter } from './frontmatter.ts';

describe('splitFrontmatter', () => {
  it('reads a block and reports its fences', () => {
    const fm = splitFrontmatter('---\ntitle: Plan\ntags: [a, b]\n---\n# Body\n');
    expect(fm).toMatchObject({
      present: true,
      raw: 'title: Plan\ntags: [a, b]\n',
      data: { title: 'Plan', tags: ['a', 'b'] },
      error: null,
      startLine: 1,
      endLine: 4,
      bodyStartLine: 5,
      bom: false,
      eol: '\n',
    });
    expect('---\ntitle: Plan\ntags: [a, b]\n---\n# Body\n'.slice(fm.bodyOffset)).toBe('# Body\n');
  });

  it('keeps values as written: dates and no/yes stay strings, 1.10 is what YAML says', () => {
    const fm = splitFrontmatter(
      '---\ndecided_on: 2026-01-05\nat: 2026-01-05T10:00:00Z\nok: no\nsure: yes\nversion: 1.10\ncount: 7\nflag: true\nnone: ~\n---\n',
    );
    expect(fm.data).toEqual({
      decided_on: '2026-01-05',
      at: '2026-01-05T10:00:00Z',
      ok: 'no',
      sure: 'yes',
      version: 1.1,
      count: 7,
      flag: true,
      none: null,
    });
  });

  it('handles a BOM and CRLF line endings and keeps raw exact', () => {
    const text = '\uFEFF---\r\ntitle: Ä\r\ndate: 2026-01-05\r\n---\r\nBody\r\n';
    const fm = splitFrontmatter(text);
    expect(fm.present).toBe(true);
    expect(fm.bom).toBe(true);
    expect(fm.eol).toBe('\r\n');
    expect(fm.raw).toBe('title: Ä\r\ndate: 2026-01-05\r\n');
    expect(fm.data).toEqual({ title: 'Ä', date: '2026-01-05' });
    expect(fm.endLine).toBe(4);
    expect(fm.bodyStartLine).toBe(5);
    expect(text.slice(fm.bodyOffset)).toBe('Body\r\n');
  });

  it('reads an empty block as no fields', () => {
    expect(splitFrontmatter('---\n---\nBody')).toMatchObject({
      present: true,
      raw: '',
      data: {},
      error: null,
      endLine: 2,
      bodyStartLine: 3,
    });
    expect(splitFrontmatter('---\n---')).toMatchObject({ present: true, raw: '', data: {}, bodyOffset: 7 });
    expect(splitFrontmatter('---\n# only a comment\n\n---\n')).toMatchObject({ present: true, data: {}, error: null });
  });

  it('closes at a "..." line too', () => {
    expect(splitFrontmatter('---\na: 1\n...\nbody')).toMatchObject({ present: true, data: { a: 1 }, endLine: 3 });
  });

  it('reports broken YAML with the file line, never throws', () => {
    const fm = splitFrontmatter('---\ntitle: ok\ntags: [a, b\nnext: 1\n---\nBody');
    expect(fm.present).toBe(true);
    expect(fm.data).toBeNull();
    expect(fm.error).toMatch(/does not parse at line \d+/);
    expect(fm.bodyStartLine).toBe(6);
  });

  it('reports the line of a duplicate key', () => {
    const fm = splitFrontmatter('---\na: 1\na: 2\n---\n');
    expect(fm.data).toBeNull();
    expect(fm.error).toContain('line 3');
  });

  it('reports a block that is not a mapping', () => {
    expect(splitFrontmatter('---\n- a\n- b\n---\n')).toMatchObject({ present: true, data: null, error: expect.stringContaining('a list') });
    expect(splitFrontmatter('---\njust text\n---\n')).toMatchObject({
      present: true,
      data: null,
      error: expect.stringContaining('single value'),
    });
  });

  it('reports an unclosed block and reads the whole note as body', () => {
    const fm = splitFrontmatter('---\ntitle: x\nno end here\n');
    expect(fm).toMatchObject({ present: false, data: null, startLine: 0, endLine: 0, bodyStartLine: 1, bodyOffset: 0 });
    expect(fm.error).toContain('never closed');
  });

  it('finds no frontmatter unless --- is the very first line', () => {
    expect(splitFrontmatter('\n---\na: 1\n---\n')).toMatchObject({ present: false, error: null });
    expect(splitFrontmatter('# Title\n---\na: 1\n---\n').present).toBe(false);
    expect(splitFrontmatter('----\na: 1\n---\n').present).toBe(false);
    expect(splitFrontmatter('').present).toBe(false);
    expect(splitFrontmatter('\uFEFFplain')).toMatchObject({ present: false, bom: true, bodyOffset: 1 });
  });

  it('does not let aliases explode', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)}]`,
      );
    const fm = splitFrontmatter(`---\n${bomb.join('\n')}\n---\n`);
    expect(fm.data).toBeNull();
    expect(fm.error).toBeTruthy();
  });
});

describe("template placeholders (kepano's Obsidian templates)", () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads {{date}} as the text written, quoted or not, and prints nothing', () => {
    const emitted = vi.spyOn(process, 'emitWarning');
    const warned = vi.spyOn(console, 'warn');
    const fm = splitFrontmatter(
      '---\ncategories:\n  - "[[Books]]"\nauthor: []\ncreated: {{date}}\nlast: {{date:YYYY-MM-DD}}\ntitle: "{{title}}"\nseen:\n  - {{date}}\ntags:\n  - to-read\n---\n# Book\n',
    );
    expect(fm.error).toBeNull();
    expect(fm.data).toEqual({
      categories: ['[[Books]]'],
      author: [],
      created: '{{date}}',
      last: '{{date:YYYY-MM-DD}}',
      title: '{{title}}',
      seen: ['{{date}}'],
      tags: ['to-read'],
    });
    expect(emitted).not.toHaveBeenCalled();
    expect(warned).not.toHaveBeenCalled();
  });

  it('reads several placeholders on one line as the text written: created: {{date}} {{time}}', () => {
    const fm = splitFrontmatter(
      '---\ncreated: {{date}} {{time}}\nlast: {{date:YYYY-MM-DD}} at {{time:HH:mm}}  # when\n"due on": {{date}}-x\nseen:\n  - {{date}} {{time}}\ntitle: {{title}}\n---\n# {{title}}\n',
    );
    expect(fm.error).toBeNull();
    expect(fm.data).toEqual({
      created: '{{date}} {{time}}',
      last: '{{date:YYYY-MM-DD}} at {{time:HH:mm}}',
      'due on': '{{date}}-x',
      seen: ['{{date}} {{time}}'],
      title: '{{title}}',
    });
    expect(splitFrontmatter('---\r\ncreated: {{date}} {{time}}\r\n---\r\n').data).toEqual({ created: '{{date}} {{time}}' });
    expect(parseFrontmatterYaml('created: {{date}} {{time}}\n').data).toEqual({ created: '{{date}} {{time}}' });
  });

  it('still reports a real error beside such a placeholder line, on its own line', () => {
    const fm = splitFrontmatter('---\ncreated: {{date}} {{time}}\ncreated: {{date}}\n---\n');
    expect(fm.data).toBeNull();
    expect(fm.error).toMatch(/^The frontmatter YAML does not parse at line 3, .*unique/);
    expect(splitFrontmatter('---\nplace: {city: Berlin} and more\n---\n').error).toMatch(/line 2/);
  });

  it('keeps real flow mappings, and prints nothing for a collection key either', () => {
    const emitted = vi.spyOn(process, 'emitWarning');
    expect(splitFrontmatter('---\nplace: {city: Berlin, zip: }\n---\n').data).toEqual({ place: { city: 'Berlin', zip: null } });
    expect(splitFrontmatter('---\n? [a, b]\n: c\n---\n').data).toEqual({ '[ a, b ]': 'c' });
    expect(emitted).not.toHaveBeenCalled();
  });
});

describe('parseFrontmatterYaml', () => {
  it('numbers lines from the given fence line', () => {
    expect(parseFrontmatterYaml('a: [\n', 10).error).toMatch(/line 1[12]/);
  });
});

describe('frontmatterBlock', () => {
  const texts = [
    '---\ntitle: A\ntags: [x]\n---\n# Body\n',
    '\uFEFF---\r\ntitle: A\r\n...\r\nBody\r\n',
    '---\nkey: [unclosed\n---\nBody [[link]]\n',
    '---\ntitle: never closed\n# Body\n',
    '---\n---\n',
    'No frontmatter\n---\nrule above\n',
    '',
  ];

  it('finds the block where splitFrontmatter does, without parsing its YAML', () => {
    for (const text of texts) {
      const split = splitFrontmatter(text);
      const block = frontmatterBlock(text);
      const { data: _data, error, ...extent } = split;
      expect(block, JSON.stringify(text)).toMatchObject(extent);
      // Only the fence's own error is the block's: a YAML error is found by parsing.
      expect(block.error, JSON.stringify(text)).toBe(split.present ? null : error);
      expect('data' in block).toBe(false);
    }
  });
});
