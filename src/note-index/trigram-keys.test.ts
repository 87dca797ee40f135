// Trigram keys: a note has every key of any text it contains, exactly or ignoring case.
import { describe, expect, it } from 'vitest';
import { searchFold, trigramKeys } from './trigram-keys.ts';

const hasAll = (text: string, needle: string) => {
  const keys = new Set(trigramKeys(text));
  return [...trigramKeys(needle)].every((key) => keys.has(key));
};

describe('trigramKeys', () => {
  it('gives one key per distinct window of three code points, none for shorter text', () => {
    expect(trigramKeys('ab')).toHaveLength(0);
    expect(trigramKeys('a😀')).toHaveLength(0);
    expect(trigramKeys('abc')).toHaveLength(1);
    expect(trigramKeys('a😀b')).toHaveLength(1);
    expect(trigramKeys('abcabc')).toHaveLength(3);
    expect(new Set(trigramKeys('Hello, World')).size).toBe(trigramKeys('Hello, World').length);
    expect([...trigramKeys('the budget')].sort()).toEqual([...trigramKeys('THE BUDGET')].sort());
  });

  it('gives text stored decomposed (as macOS writes it) the keys of its composed form', () => {
    expect([...trigramKeys('la cre\u0300me bru\u0302le\u0301e')].sort()).toEqual([...trigramKeys('la crème brûlée')].sort());
    expect(hasAll('La CRE\u0300ME', 'crème')).toBe(true);
    expect(hasAll('La crème', 'cre\u0300me')).toBe(true);
    expect(searchFold('CRE\u0300ME')).toBe('crème');
  });

  it('gives a text every key of each of its substrings and of their lower case', () => {
    const texts = [
      '# Über uns\n\nStraße, ÜBER, über — 東京の会議メモ 😀 ΟΔΟΣ ΟΔΟΣ.',
      'İstanbul ve IĞDIR; ǅemal; ﬃ ligature; K (Kelvin) Å (Ångström)',
      'Σίσυφος ΣΊΣΥΦΟΣ σίσυφος\r\nline two\ttab',
    ];
    for (const text of texts) {
      const points = [...text];
      for (let from = 0; from < points.length; from++) {
        for (let to = from + 3; to <= Math.min(points.length, from + 12); to++) {
          const needle = points.slice(from, to).join('');
          expect(hasAll(text, needle), needle).toBe(true);
          expect(hasAll(text, needle.toLowerCase()), needle.toLowerCase()).toBe(true);
        }
      }
    }
  });

  it('matches what the line matcher and ILIKE match: final sigma, dotted capital I', () => {
    // JavaScript lowers a word-final Σ to ς, elsewhere to σ; Postgres lowers İ to i, JavaScript to i + U+0307.
    expect(hasAll('ΟΔΟΣ', 'οδος')).toBe(true);
    expect(hasAll('ΟΔΟΣ ΑΒ', 'οδοσ')).toBe(true);
    expect(hasAll('İstanbul', 'istanbul')).toBe(true);
    expect(hasAll('İstanbul', 'i̇stanbul')).toBe(true);
    expect(searchFold('ΟΔΟΣ İ')).toBe('οδοσ i');
  });

  it('tells different text apart', () => {
    expect(hasAll('the budget for May', 'kanban')).toBe(false);
    expect(hasAll('graph view', 'graph  view')).toBe(false);
  });
});
