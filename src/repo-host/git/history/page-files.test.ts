// search_history's own counting of a text in blobs (occurrenceCounter).
import { describe, expect, it } from 'vitest';
import { occurrenceCounter } from './page-files.ts';

describe('occurrenceCounter', () => {
  it('counts both normalisation forms of text with non-ASCII characters: composed finds decomposed and back', () => {
    const composed = occurrenceCounter('crème');
    const decomposed = occurrenceCounter('cre\u0300me');
    const stored = Buffer.from('La cre\u0300me, la CRÈME, la crème.', 'utf8');
    expect(composed(stored)).toBe(3);
    expect(decomposed(stored)).toBe(3);
    expect(composed(null)).toBe(0);
  });

  it('counts ASCII text byte by byte, ignoring ASCII case, as Git does', () => {
    expect(occurrenceCounter('Budget')(Buffer.from('budget BUDGET bUdGeT', 'utf8'))).toBe(3);
  });
});
