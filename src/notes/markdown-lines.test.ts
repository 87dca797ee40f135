import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from './frontmatter.ts';
import { codeSpans, indentWidth, inSpans, scanMarkdownLines } from './markdown-lines.ts';

const kinds = (text: string) => scanMarkdownLines(text).map((l) => l.kind);

describe('scanMarkdownLines', () => {
  it('marks frontmatter, fences and text', () => {
    expect(kinds('---\na: 1\n---\ntext\n```js\ncode\n```\nafter\n')).toEqual([
      'frontmatter',
      'frontmatter',
      'frontmatter',
      'text',
      'fence',
      'fence',
      'fence',
      'text',
    ]);
  });
  it('closes a fence only with the same character, at least as long', () => {
    expect(kinds('````\n```\n~~~~\n````\nx')).toEqual(['fence', 'fence', 'fence', 'fence', 'text']);
    expect(kinds('~~~\n```\n~~~~ \nx')).toEqual(['fence', 'fence', 'fence', 'text']);
  });
  it('runs an unclosed fence to the end', () => {
    expect(kinds('```\na\nb')).toEqual(['fence', 'fence', 'fence']);
  });
  it('does not open a backtick fence whose info string holds a backtick', () => {
    expect(kinds('``` a ` b\nx')).toEqual(['text', 'text']);
  });
  it('sees fences in callouts and list items', () => {
    expect(kinds('> [!note]\n> ```\n> [[x]]\n> ```\n> after')).toEqual(['text', 'fence', 'fence', 'fence', 'text']);
    expect(kinds('- item\n\t```\n\tcode\n\t```\n')).toEqual(['text', 'fence', 'fence', 'fence']);
  });
  it('sees indented code only after a blank line and outside lists', () => {
    expect(kinds('para\n    not code\n\n    code\n\tcode too\nback')).toEqual(['text', 'text', 'blank', 'code', 'code', 'text']);
    expect(kinds('- item\n\n    continued item\n')).toEqual(['text', 'blank', 'text']);
    expect(kinds('- item\n\npara\n\n    code')).toEqual(['text', 'blank', 'text', 'blank', 'code']);
  });
  it('gives offsets into the whole text, after a BOM, with CRLF', () => {
    const text = '\uFEFFab\r\ncd\r\n';
    const lines = scanMarkdownLines(text);
    expect(lines.map((l) => [l.number, l.start, l.text])).toEqual([
      [1, 1, 'ab'],
      [2, 5, 'cd'],
    ]);
  });
});

describe('codeSpans', () => {
  it('pairs runs of equal length', () => {
    expect(codeSpans('a `b` c ``d`e`` f')).toEqual([
      [2, 5],
      [8, 15],
    ]);
  });
  it('leaves an unclosed run and escaped backticks as text', () => {
    expect(codeSpans('a `b')).toEqual([]);
    expect(codeSpans('\\`a` `b`')).toEqual([[3, 6]]);
  });
  it('answers inSpans', () => {
    const spans = codeSpans('x `y` z');
    expect(inSpans(spans, 3)).toBe(true);
    expect(inSpans(spans, 6)).toBe(false);
  });
});

describe('indentWidth', () => {
  it('counts tabs to the next multiple of 4', () => {
    expect(indentWidth('  \tx')).toBe(4);
    expect(indentWidth('    x')).toBe(4);
    expect(indentWidth('x')).toBe(0);
  });
});

describe('scanMarkdownLines and the frontmatter', () => {
  it('classifies the same lines whether or not the YAML parses, without being given the block', () => {
    for (const text of ['---\nkey: [unclosed\nb: "[[x]]"\n---\n# H\n', '\uFEFF---\r\na: 1\r\n---\r\ntext\r\n', '---\nnever closed\n']) {
      expect(scanMarkdownLines(text), JSON.stringify(text)).toEqual(scanMarkdownLines(text, splitFrontmatter(text)));
    }
  });
});
