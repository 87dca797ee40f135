import { describe, expect, it } from 'vitest';
import { findGrades, STATEMENT_MAX } from './grades.ts';

describe('findGrades', () => {
  it('reads a grade that is a whole table cell', () => {
    const text =
      '# Facts\n\n| Fact | Grade |\n|---|---|\n| 34 stores | 2 vermutet |\n| Founded 1990 | 4 belegt |\n| CEO is Ann | **1 offen** |\n';
    expect(findGrades(text)).toEqual([
      { line: 5, grade: '2 vermutet', shorthand: 'assumption', statement: '| 34 stores | 2 vermutet |' },
      { line: 7, grade: '1 offen', shorthand: 'open', statement: '| CEO is Ann | **1 offen** |' },
    ]);
  });
  it('reads a parenthesised grade anywhere in a line', () => {
    expect(findGrades('- Launch in May (3 likely)\n- Budget (1 open), team (2 guess)\n- Done (4 confirmed)\n')).toEqual([
      { line: 1, grade: '3 likely', shorthand: 'assumption', statement: '- Launch in May (3 likely)' },
      { line: 2, grade: '1 open', shorthand: 'open', statement: '- Budget (1 open), team (2 guess)' },
      { line: 2, grade: '2 guess', shorthand: 'assumption', statement: '- Budget (1 open), team (2 guess)' },
    ]);
  });
  it('ignores what only looks like a grade', () => {
    const text = [
      '| a | 2 vermutet here |',
      '|---|---|',
      '| 5 vermutet | 2 two words |',
      '',
      'a cell outside a table | 2 vermutet |',
      'text 2 vermutet without parentheses',
      '(0 open) (5 open) (2 ) (2 two words)',
    ].join('\n');
    expect(findGrades(text)).toEqual([]);
  });
  it('ignores grades in code, frontmatter, wiki-links and struck text', () => {
    const text = '---\nnote: (1 open)\n---\n`(1 open)`\n```\n(1 open)\n```\n[[Plan (2 draft)]]\n~~(2 vermutet)~~\n';
    expect(findGrades(text)).toEqual([]);
  });
  it('reads tables without outer pipes and keeps Unicode words', () => {
    const text = 'Fakt | Grad\n--- | ---\nUmsatz | 2 geschätzt\n';
    expect(findGrades(text)).toMatchObject([{ line: 3, grade: '2 geschätzt' }]);
  });
  it('cuts a long statement with an ellipsis', () => {
    const long = `${'word '.repeat(100)}(1 open)`;
    const [graded] = findGrades(long);
    expect(graded!.statement.length).toBe(STATEMENT_MAX);
    expect(graded!.statement.endsWith('…')).toBe(true);
  });
});
