// Trigram keys: a note has every key of any text it contains, exactly or ignoring case.
import { describe, expect, it } from 'vitest';
import { needleKeys, searchFold, trigramKeys } from './trigram-keys.ts';

const hasAll = (text: string, needle: string) => {
  const keys = new Set(trigramKeys(text));
  return [...needleKeys(needle)].every((key) => keys.has(key));
};

describe('trigramKeys', () => {
  it('gives one key per distinct window of three code points, none for shorter text', () => {
    expect(needleKeys('ab')).toHaveLength(0);
    expect(needleKeys('a😀')).toHaveLength(0);
    expect(needleKeys('abc')).toHaveLength(1);
    expect(needleKeys('a😀b')).toHaveLength(1);
    expect(needleKeys('abcabc')).toHaveLength(3);
    expect(new Set(trigramKeys('Hello, World')).size).toBe(trigramKeys('Hello, World').length);
    expect([...trigramKeys('the budget')].sort()).toEqual([...trigramKeys('THE BUDGET')].sort());
  });

  it('gives a note the keys of its text between two line breaks, so its first and last lines have them too', () => {
    expect(trigramKeys('')).toHaveLength(0);
    expect(trigramKeys('a')).toHaveLength(1);
    expect(trigramKeys('a😀')).toHaveLength(2);
    const texts = ['2026-05-04', '# Title\nbody', 'line one\r\nline two\r\n', '\n\nx\n', 'İ😀ΣΟΣ'];
    for (const text of texts) expect([...trigramKeys(text)].sort(), text).toEqual([...needleKeys(`\n${text}\n`)].sort());
    expect(hasAll('2026-05-04\nnext', '\n20')).toBe(true);
    expect(hasAll('first\n2026-05-04', '04\n')).toBe(true);
    expect(hasAll('first\r\n2026-05-04\r\n', '04\r')).toBe(true);
    expect(hasAll('x 2026-05-04', '\n20')).toBe(false);
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
