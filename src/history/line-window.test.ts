import { describe, expect, it } from 'vitest';
import { jsonLength, jsonPrefix, lineWindow } from './line-window.ts';

describe('lineWindow', () => {
  const text = 'one\ntwo\r\nthree\nfour';

  it('gives lines exactly as they stand, line endings included', () => {
    expect(lineWindow(text, undefined, undefined, 'the note')).toEqual({
      from_line: 1,
      to_line: 4,
      total_lines: 4,
      content: text,
      truncated: false,
    });
    expect(lineWindow(text, 2, 3, 'the note')).toMatchObject({ from_line: 2, to_line: 3, content: 'two\r\nthree\n' });
    expect(lineWindow(text, 3, 99, 'the note')).toMatchObject({ from_line: 3, to_line: 4, content: 'three\nfour' });
  });

  it('gives an empty text as an empty window', () => {
    expect(lineWindow('', undefined, undefined, 'the diff')).toEqual({
      from_line: 1,
      to_line: 0,
      total_lines: 0,
      content: '',
      truncated: false,
    });
  });

  it('cuts after the last whole line that fits as JSON, or inside one longer line', () => {
    const lines = 'aaaa\nbbbb\ncccc\n';
    // Each line takes 6 characters in JSON: aaaa\n.
    expect(lineWindow(lines, 1, undefined, 'x', 12)).toMatchObject({ to_line: 2, content: 'aaaa\nbbbb\n', truncated: true });
    expect(lineWindow(lines, 1, undefined, 'x', 11)).toMatchObject({ to_line: 1, content: 'aaaa\n', truncated: true });
    expect(lineWindow(lines, 1, undefined, 'x', 18)).toMatchObject({ to_line: 3, truncated: false });
    expect(lineWindow('abcdefgh\nz\n', 1, undefined, 'x', 4)).toMatchObject({ to_line: 1, content: 'abcd', truncated: true });
    expect(lineWindow('ab😀cd\n', 1, undefined, 'x', 3).content).toBe('ab');
  });

  it('counts quotes, backslashes and control characters as JSON escapes them', () => {
    const quoted = '"\\"\n';
    expect(jsonLength(quoted)).toBe(8);
    expect(lineWindow(`${quoted}\u0001x\n`, 1, undefined, 'x', 8)).toMatchObject({ to_line: 1, content: quoted, truncated: true });
    expect(lineWindow(`${quoted}\u0001x\n`, 1, undefined, 'x', 17)).toMatchObject({ to_line: 2, truncated: false });
    expect(lineWindow('""""', 1, undefined, 'x', 5)).toMatchObject({ content: '""', truncated: true });
    expect(jsonPrefix('a"b', 2)).toBe('a');
  });

  it('refuses a from_line past the end and a to_line before from_line', () => {
    expect(() => lineWindow(text, 5, undefined, 'the note')).toThrow(/the note has 4 lines/);
    expect(() => lineWindow(text, 3, 2, 'the note')).toThrow(/before from_line/);
  });
});
