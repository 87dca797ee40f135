import { describe, expect, it } from 'vitest';
import { isStruckAt, struckRanges } from './struck.ts';

describe('struckRanges', () => {
  it('finds ~~…~~ with the markers included', () => {
    expect(struckRanges('a ~~old value~~ b ~~x~~')).toEqual([
      [2, 15],
      [18, 23],
    ]);
  });
  it('needs exactly two tildes and no space inside them', () => {
    expect(struckRanges('~~ not ~~ and ~~~no~~~ and ~one~')).toEqual([]);
  });
  it('ignores tildes in code spans', () => {
    expect(struckRanges('`~~code~~` ~~yes~~')).toEqual([[11, 18]]);
  });
  it('answers unclosed as nothing', () => {
    expect(struckRanges('~~open')).toEqual([]);
  });
});

describe('isStruckAt', () => {
  it('tells whether an offset is struck', () => {
    const line = 'Stores: ~~34~~ 36';
    expect(isStruckAt(line, line.indexOf('34'))).toBe(true);
    expect(isStruckAt(line, line.indexOf('36'))).toBe(false);
  });
});
