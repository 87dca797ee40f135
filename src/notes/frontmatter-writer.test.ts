import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from './frontmatter.ts';
import { buildNoteText, serializeFrontmatter, setFrontmatterField, yamlScalar } from './frontmatter-writer.ts';

describe('serializeFrontmatter', () => {
  it('writes values that parse back to exactly themselves', () => {
    const values = {
      title: 'Pick a date',
      answer: 'no',
      version: '1.10',
      n: 1.1,
      decided_on: '2026-01-05',
      colon: 'a: b',
      tags: ['x', 'y'],
      nested: { k: null },
      yes: true,
      multi: 'l1\nl2',
    };
    const yaml = serializeFrontmatter(values);
    expect(yaml).toContain('answer: "no"\n');
    expect(yaml).toContain('version: "1.10"\n');
    expect(yaml).toContain('decided_on: 2026-01-05\n');
    expect(splitFrontmatter(`---\n${yaml}---\n`).data).toEqual(values);
  });
  it('writes CRLF when asked and nothing for no values', () => {
    expect(serializeFrontmatter({ a: 1, b: 'c' }, '\r\n')).toBe('a: 1\r\nb: c\r\n');
    expect(serializeFrontmatter({})).toBe('');
  });
  it('refuses a value that cannot round-trip', () => {
    expect(() => serializeFrontmatter({ a: undefined })).toThrow(/cannot write back/);
  });
});

describe('buildNoteText', () => {
  it('puts the block above the body', () => {
    expect(buildNoteText({ type: 'decision', title: 'X' }, '# X\n')).toBe('---\ntype: decision\ntitle: X\n---\n# X\n');
    expect(buildNoteText({}, 'body')).toBe('body');
  });
});

describe('yamlScalar', () => {
  it('quotes what would read as something else', () => {
    expect(yamlScalar('plain')).toBe('plain');
    expect(yamlScalar('no')).toBe('"no"');
    expect(yamlScalar('12')).toBe('"12"');
    expect(yamlScalar('a: b')).toBe('"a: b"');
    expect(yamlScalar('x\ny')).toBe('"x\\ny"');
    expect(yamlScalar(3)).toBe('3');
    expect(yamlScalar(null)).toBe('null');
  });
});

describe('setFrontmatterField', () => {
  it('changes only the value, keeping comments, quoting, order and CRLF', () => {
    const text = "\uFEFF---\r\ntitle: 'Quoted' # keep\r\ntype:   note   # the type\r\ntags: [a,  b]\r\n---\r\nbody";
    expect(setFrontmatterField(text, 'type', 'decision')).toBe(
      "\uFEFF---\r\ntitle: 'Quoted' # keep\r\ntype:   decision   # the type\r\ntags: [a,  b]\r\n---\r\nbody",
    );
  });
  it('fills an empty value and appends a missing key', () => {
    expect(setFrontmatterField('---\ntype:\nx: 1\n---\n', 'type', 'a')).toBe('---\ntype: a\nx: 1\n---\n');
    expect(setFrontmatterField('---\nx: 1\n---\nb', 'type', 'a')).toBe('---\nx: 1\ntype: a\n---\nb');
    expect(setFrontmatterField('---\n---\nb', 'type', 'a')).toBe('---\ntype: a\n---\nb');
  });
  it('adds a block to a note without one', () => {
    expect(setFrontmatterField('# T\r\n', 'type', 'a')).toBe('---\r\ntype: a\r\n---\r\n# T\r\n');
    expect(setFrontmatterField('\uFEFFtext', 'type', 'a')).toBe('\uFEFF---\ntype: a\n---\ntext');
  });
  it('refuses a broken block', () => {
    expect(() => setFrontmatterField('---\na: b: c\n---\n', 'type', 'x')).toThrow(/does not parse/);
  });
});
