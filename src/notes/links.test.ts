import { describe, expect, it } from 'vitest';
import { findLinks, linkSyntaxSpans, type Link } from './links.ts';

function only(text: string): Link {
  const links = findLinks(text);
  expect(links).toHaveLength(1);
  return links[0]!;
}

describe('findLinks: wiki-links and embeds', () => {
  it('reads target, alias, heading and block parts', () => {
    expect(only('see [[Plan]] now')).toMatchObject({
      kind: 'wiki',
      raw: '[[Plan]]',
      target: 'Plan',
      subpath: null,
      alias: null,
      line: 1,
      start: 4,
      end: 12,
    });
    expect(only('[[folder/Plan|the plan]]')).toMatchObject({ target: 'folder/Plan', alias: 'the plan' });
    expect(only('[[Plan#Open Questions]]')).toMatchObject({ target: 'Plan', subpath: '#Open Questions' });
    expect(only('[[Plan#^abc123]]')).toMatchObject({ target: 'Plan', subpath: '#^abc123' });
    expect(only('[[#Heading]]')).toMatchObject({ target: '', subpath: '#Heading' });
    expect(only('[[Plan.md]]')).toMatchObject({ target: 'Plan.md' });
  });
  it('reads embeds', () => {
    expect(only('![[diagram.png]]')).toMatchObject({ kind: 'embed', target: 'diagram.png', start: 0, end: 16 });
    expect(only('x ![[note#section|alias]]')).toMatchObject({
      kind: 'embed',
      target: 'note',
      subpath: '#section',
      alias: 'alias',
      start: 2,
    });
  });
  it('reads an escaped pipe in a table row', () => {
    expect(only('| [[a\\|b]] | c |')).toMatchObject({ target: 'a', alias: 'b', escapedPipe: true, raw: '[[a\\|b]]' });
  });
  it('ignores empty and escaped ones', () => {
    expect(findLinks('[[]] \\[[x]] [[|y]]')).toEqual([]);
  });
});

describe('findLinks: Markdown links', () => {
  it('reads relative and URL-encoded targets with fragment and title', () => {
    expect(only('[t](sub/note.md)')).toMatchObject({ kind: 'markdown', target: 'sub/note.md', alias: 't', subpath: null });
    expect(only('[t](path%20x.md#frag%20y "title")')).toMatchObject({
      target: 'path x.md',
      subpath: '#frag y',
      raw: '[t](path%20x.md#frag%20y "title")',
    });
    expect(only('[t](<path with spaces.md>)')).toMatchObject({ target: 'path with spaces.md' });
    expect(only('[t](../up/Ünï%C3%BC.md)')).toMatchObject({ target: '../up/Ünïü.md' });
    expect(only('[t](#Local)')).toMatchObject({ target: '', subpath: '#Local' });
    expect(only('[t](bad%zz.md)')).toMatchObject({ target: 'bad%zz.md' });
  });
  it('reads an image as an embed with its alt text', () => {
    expect(only('![alt text](img/a.png)')).toMatchObject({ kind: 'embed', target: 'img/a.png', alias: 'alt text', start: 0 });
  });
  it('reads a link around an image as two links', () => {
    const links = findLinks('[![logo](logo.png)](home.md)');
    expect(links.map((l) => [l.kind, l.target])).toEqual([
      ['markdown', 'home.md'],
      ['embed', 'logo.png'],
    ]);
  });
  it('allows balanced parentheses and brackets', () => {
    expect(only('[a [b] c](file(1).md)')).toMatchObject({ target: 'file(1).md', alias: 'a [b] c' });
  });
  it('skips external URLs, empty destinations and text that is no link', () => {
    expect(findLinks('[x](https://a.example) [m](mailto:a@b) [o](obsidian://open) [p](//cdn/x) [e]() [s](a b.md) \\[n](x.md)')).toEqual([]);
  });
});

describe('findLinks: code is text', () => {
  it('finds none in code spans, fenced or indented code', () => {
    const text = 'a `[[no]]` b ``[x](no.md)``\n```\n[[no]]\n```\n\n    [[no]]\n\n[[yes]] `code` [y](yes.md)\n';
    expect(findLinks(text).map((l) => l.target)).toEqual(['yes', 'yes.md']);
  });
  it('keeps a link whose text holds a code span', () => {
    expect(only('[`cmd`](cmd.md)')).toMatchObject({ target: 'cmd.md', alias: '`cmd`' });
  });
});

describe('findLinks: offsets and lines', () => {
  it('gives exact offsets over the whole text, CRLF and BOM included', () => {
    const text = '\uFEFF---\r\nrelated: "[[Other]]"\r\n---\r\nline [[A|b]] and [c](d%20e.md)\r\n![[img.png]]\r\n';
    const links = findLinks(text);
    expect(links.map((l) => [l.line, l.raw, text.slice(l.start, l.end)])).toEqual([
      [2, '[[Other]]', '[[Other]]'],
      [4, '[[A|b]]', '[[A|b]]'],
      [4, '[c](d%20e.md)', '[c](d%20e.md)'],
      [5, '![[img.png]]', '![[img.png]]'],
    ]);
    expect(links[0]!.inFrontmatter).toBe(true);
    expect(links[1]!.inFrontmatter).toBeUndefined();
  });
});

describe('linkSyntaxSpans', () => {
  it('marks link syntax in code, escaped and external too', () => {
    const line = '`[[a]]` \\[[b]] ![i](x.png) [t](https://e.x/p) [no] (x)';
    expect(linkSyntaxSpans(line).map(([from, to]) => line.slice(from, to))).toEqual([
      '[[a]]',
      '[[b]]',
      '![i](x.png)',
      '[t](https://e.x/p)',
    ]);
  });
});

describe('findLinks: link reference definitions', () => {
  it('reads a definition as a link, in each of its forms', () => {
    expect(only('[t]: target.md')).toMatchObject({
      kind: 'markdown',
      raw: '[t]: target.md',
      target: 'target.md',
      alias: 't',
      definition: true,
      start: 0,
      end: 14,
    });
    expect(only('   [f]: ./%E8%A8%AD%20x/#top "Title"')).toMatchObject({
      raw: '[f]: ./%E8%A8%AD%20x/#top "Title"',
      target: './設 x/',
      subpath: '#top',
      start: 3,
    });
    expect(only("[g]: <a b.md> 'T'")).toMatchObject({ raw: "[g]: <a b.md> 'T'", target: 'a b.md' });
  });
  it('takes no footnote, external URL, paragraph line or code as one', () => {
    expect(findLinks('[^1]: target.md')).toEqual([]);
    expect(findLinks('[w]: https://example.com')).toEqual([]);
    expect(findLinks('A paragraph\n[t]: target.md')).toEqual([]);
    expect(findLinks('[t]: target.md trailing words')).toEqual([]);
    expect(findLinks('    [t]: target.md')).toEqual([]);
    expect(findLinks('```\n[t]: target.md\n```')).toEqual([]);
    expect(findLinks('# Links\n[t]: a.md\n[u]: b.md').map((link) => link.target)).toEqual(['a.md', 'b.md']);
  });
  it('splits a query off the path, in links and definitions', () => {
    expect(only('[q](kit/inner/?x=1#top)')).toMatchObject({ target: 'kit/inner/', subpath: '#top', raw: '[q](kit/inner/?x=1#top)' });
    expect(only('[q]: a%3Fb.md?x=1')).toMatchObject({ target: 'a?b.md', subpath: null });
  });
  it('marks a definition as link syntax', () => {
    expect(linkSyntaxSpans('[t]: target.md "x"')).toEqual([[0, 18]]);
  });
});
