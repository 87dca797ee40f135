import { describe, expect, it } from 'vitest';
import { findBaseReferences, rewriteBaseReferences } from './base-references.ts';

const base = [
  'filters:',
  '  and:',
  '    - file.inFolder("People")',
  '    - \'file.hasLink("Alice") || note.who == "[[Alice|A]]"\'',
  '    - "file.hasLink(\\"Alice\\")"',
  'formulas:',
  '  boss: link("Alice")',
  '  plain: \'"Alice"\'',
  '  block: |-',
  '    if(file.hasLink(\'Alice\'), "x", "y")',
  'views:',
  '  - type: table',
  '    name: "link(\\"Alice\\")"',
  '    filters: \'!file.inFolder("People/Old/")\'',
  '',
].join('\n');

describe('the references of a .base file', () => {
  it('finds the link and folder arguments and wiki-link literals, in every YAML style', () => {
    const refs = findBaseReferences(base);
    expect(refs.map((ref) => [ref.kind, ref.value, ref.line, base.slice(ref.start, ref.end)])).toEqual([
      ['folder', 'People', 3, '"People"'],
      ['link', 'Alice', 4, '"Alice"'],
      ['link', '[[Alice|A]]', 4, '"[[Alice|A]]"'],
      ['link', 'Alice', 5, '\\"Alice\\"'],
      ['link', 'Alice', 7, '"Alice"'],
      ['link', 'Alice', 10, "'Alice'"],
      ['folder', 'People/Old/', 14, '"People/Old/"'],
    ]);
  });

  it('rewrites exactly those spans, and leaves every other byte', () => {
    const out = rewriteBaseReferences(base, (ref) =>
      ref.kind === 'folder' ? ref.value.replace('People', 'Team') : ref.value.replace('Alice', 'Al\'i"ce'),
    );
    expect(out?.rewritten).toBe(7);
    expect(out?.text).toBe(
      base
        .replace('inFolder("People")', 'inFolder("Team")')
        .replace(
          'file.hasLink("Alice") || note.who == "[[Alice|A]]"\'',
          'file.hasLink("Al\'\'i\\"ce") || note.who == "[[Al\'\'i\\"ce|A]]"\'',
        )
        .replace('"file.hasLink(\\"Alice\\")"', '"file.hasLink(\\"Al\'i\\\\\\"ce\\")"')
        .replace('boss: link("Alice")', 'boss: link("Al\'i\\"ce")')
        .replace("hasLink('Alice')", "hasLink('Al\\'i\"ce')")
        .replace('inFolder("People/Old/")', 'inFolder("Team/Old/")'),
    );
    expect(findBaseReferences(out!.text).map((ref) => ref.value)).toEqual([
      'Team',
      'Al\'i"ce',
      '[[Al\'i"ce|A]]',
      'Al\'i"ce',
      'Al\'i"ce',
      'Al\'i"ce',
      'Team/Old/',
    ]);
  });

  it('changes nothing when a new value cannot be written back as intended', () => {
    expect(rewriteBaseReferences('filters: file.hasLink("A")\n', () => 'B: #x')).toBeNull();
    expect(rewriteBaseReferences('filters: file.hasLink("A")\n', () => null)).toEqual({
      text: 'filters: file.hasLink("A")\n',
      rewritten: 0,
    });
  });
});
