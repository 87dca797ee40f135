import { describe, expect, it } from 'vitest';
import { lineEnding, lineOfOffset, lineStarts, splitLines } from './lines.ts';

describe('splitLines', () => {
  it('drops line breaks, LF and CRLF alike', () => {
    expect(splitLines('a\nb\r\nc')).toEqual(['a', 'b', 'c']);
  });
  it('does not start a line after the final newline', () => {
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\n')).toEqual(['a']);
  });
  it('keeps empty lines in the middle and at the end before the final newline', () => {
    expect(splitLines('a\n\nb\n\n')).toEqual(['a', '', 'b', '']);
  });
  it('has no lines for empty text and one for a lone newline', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('\n')).toEqual(['']);
  });
  it('keeps a lone carriage return inside a line', () => {
    expect(splitLines('a\rb')).toEqual(['a\rb']);
  });
});

describe('lineStarts and lineOfOffset', () => {
  const text = 'ab\r\ncd\n\nef\n';
  const starts = lineStarts(text);
  it('has one start per line', () => {
    expect(starts).toEqual([0, 4, 7, 8]);
    expect(starts.length).toBe(splitLines(text).length);
  });
  it('maps offsets to 1-based lines', () => {
    expect(lineOfOffset(starts, 0)).toBe(1);
    expect(lineOfOffset(starts, 3)).toBe(1);
    expect(lineOfOffset(starts, 4)).toBe(2);
    expect(lineOfOffset(starts, 7)).toBe(3);
    expect(lineOfOffset(starts, 9)).toBe(4);
    expect(lineOfOffset(starts, 99)).toBe(4);
  });
});

describe('lineEnding', () => {
  it('reports the first line break', () => {
    expect(lineEnding('a\r\nb\n')).toBe('\r\n');
    expect(lineEnding('a\nb\r\n')).toBe('\n');
    expect(lineEnding('no break')).toBe('\n');
  });
});
