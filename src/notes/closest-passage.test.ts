import { describe, expect, it } from 'vitest';
import { closestPassage } from './closest-passage.ts';

const note = [
  '# Launch plan', // 1
  '', // 2
  'The trial price is **49 €** per month, said Priya.', // 3
  'Priya’s team ships in “early May”.', // 4
  'Stores: 34 – all in Bavaria.', // 5
  'Risks:', // 6
  '- Supplier delays', // 7
  '- The price may change', // 8
  '', // 9
].join('\n');

describe('closestPassage', () => {
  it('compares as many lines as the passage has', () => {
    expect(closestPassage('a\nfoo bar\nbaz qux\nz\n', 'foo bar\nbaz qix')).toMatchObject({
      line: 2,
      endLine: 3,
      text: 'foo bar\nbaz qux',
      differences: null,
    });
  });

  it('finds a passage missing its emphasis, and says where the note has it', () => {
    const closest = closestPassage(note, 'The trial price is 49 € per month');
    expect(closest).toMatchObject({ line: 3, endLine: 3, text: 'The trial price is **49 €** per month', similarity: 1 });
    expect(closest?.differences).toEqual(['the note writes "**49 €**" where old_text has "49 €" (emphasis or code marks)']);
  });

  it('finds a passage with straight quotes, dashes and changed spaces', () => {
    expect(closestPassage(note, 'Priya\'s team ships in "early May".')?.differences).toEqual([
      'the note writes "Priya’s" where old_text has "Priya\'s" (curly and straight quotes)',
      'the note writes "“early May”." where old_text has "\\"early May\\"." (curly and straight quotes)',
    ]);
    expect(closestPassage(note, 'Stores: 34 - all in  Bavaria.')).toMatchObject({
      line: 5,
      differences: [
        'the note writes "–" where old_text has "-" (dashes)',
        'the note writes "in Bavaria." where old_text has "in  Bavaria." (spacing or line breaks)',
      ],
    });
    expect(closestPassage('Price:\u00A049 €\n', 'Price: 49 €')?.differences).toEqual([
      'the note writes "Price:\\u00a049" where old_text has "Price: 49" (a non-breaking space)',
    ]);
    expect(closestPassage('Caf\u0065\u0301 au lait\n', 'Caf\u00e9 au lait')?.differences).toEqual([
      'the note writes "Cafe\\u0301" where old_text has "Café" (Unicode form (a letter and its accent written apart))',
    ]);
  });

  it('finds a multi-line passage with a line break set differently', () => {
    expect(closestPassage(note, 'Risks: - Supplier delays\n- The price may change')).toMatchObject({
      line: 6,
      endLine: 8,
      text: 'Risks:\n- Supplier delays\n- The price may change',
    });
  });

  it('scores the whole passage, not the first line sharing a word', () => {
    expect(closestPassage(note, 'The price might change')).toMatchObject({ line: 8, text: 'The price may change', differences: null });
    expect(closestPassage(note, '- Supplier delay\n- The price may chang')).toMatchObject({ line: 7, endLine: 8 });
  });

  it('stays within bounds on a long note', () => {
    const long = Array.from({ length: 25_000 }, (_, i) => `Line ${i}: the quick brown fox jumps.`).join('\n');
    expect(closestPassage(long, 'Line 12345: the quick brown fox jumped.')).toMatchObject({ line: 12346 });
  });
});
