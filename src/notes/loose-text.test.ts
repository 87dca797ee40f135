import { describe, expect, it } from 'vitest';
import { looseText } from './loose-text.ts';

describe('looseText', () => {
  it('reads marks, quotes, dashes, spaces and the Unicode form loosely', () => {
    expect(looseText('  **Bold** _it_ `code`\u00A0“q” ‘a’ – — − …\t\r\n e\u0301\u200B ').text).toBe('Bold it code "q" \'a\' - - - ... é');
  });
  it('says which original range each loose character stands for', () => {
    const loose = looseText('a  **b**…');
    expect(loose.text).toBe('a b...');
    expect([...loose.from]).toEqual([0, 1, 5, 8, 8, 8]);
    expect([...loose.to]).toEqual([1, 3, 6, 9, 9, 9]);
  });
});
