import { describe, expect, it } from 'vitest';
import { isVaultError } from '../vault-error.ts';
import { findPassage, passageOccurrences, replacePassage } from './passage.ts';

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isVaultError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('passageOccurrences', () => {
  it('counts overlapping occurrences', () => {
    expect(passageOccurrences('aaa', 'aa').map((r) => r.start)).toEqual([0, 1]);
  });
  it('matches an LF passage in a CRLF text and maps offsets back', () => {
    const text = 'one\r\ntwo\r\nthree\r\n';
    const [range] = passageOccurrences(text, 'two\nthree\n');
    expect(range).toEqual({ start: 5, end: 17, line: 2 });
    expect(text.slice(range!.start, range!.end)).toBe('two\r\nthree\r\n');
  });
  it('gives the line of each occurrence', () => {
    expect(passageOccurrences('x\ny\nx\n\nx', 'x').map((r) => r.line)).toEqual([1, 3, 5]);
  });
});

describe('findPassage', () => {
  it('names the lines of an ambiguous passage', () => {
    const error = refusal(() => findPassage('- [ ] a\n- [ ] b\n- [ ] a\n', '- [ ] a', 'n.md'));
    expect(error.code).toBe('ambiguous_passage');
    expect(error.message).toContain('2 times');
    expect(error.message).toContain('lines 1 and 3');
  });
  it('names the closest passage and its line when nothing matches', () => {
    const error = refusal(() => findPassage('# Plan\n\nThe trial price is 20 EUR.\nShip in May.\n', 'The trial prise is 20 EUR.', 'n.md'));
    expect(error.code).toBe('passage_not_found');
    expect(error.details).toMatchObject({ closestLine: 3, closestText: 'The trial price is 20 EUR.' });
    expect(error.message).toContain('line 3');
  });
  it('refuses an empty passage in a non-empty note', () => {
    expect(refusal(() => findPassage('x', '', 'n.md')).code).toBe('bad_arguments');
  });
});

describe('replacePassage', () => {
  it('inserts new_text literally', () => {
    expect(replacePassage('price: 10\n', '10', '$& $1 \\n $$', 'n.md').text).toBe('price: $& $1 \\n $$\n');
  });
  it('keeps CRLF line endings and writes new lines with CRLF', () => {
    const result = replacePassage('a\r\nb\r\nc', 'b\n', 'B\nB2\n', 'n.md');
    expect(result.text).toBe('a\r\nB\r\nB2\r\nc');
    expect(result.line).toBe(2);
  });
  it('keeps an LF note LF even when new_text has CRLF', () => {
    expect(replacePassage('a\nb\n', 'b', 'x\r\ny', 'n.md').text).toBe('a\nx\ny\n');
  });
  it('keeps a missing final newline and a BOM', () => {
    expect(replacePassage('\uFEFFa\nlast', 'last', 'end', 'n.md').text).toBe('\uFEFFa\nend');
  });
  it('deletes with an empty new_text and reports where the new text stands', () => {
    const result = replacePassage('keep\ndrop\nkeep2\n', 'drop\n', '', 'n.md');
    expect(result).toEqual({ text: 'keep\nkeep2\n', line: 2, start: 5, end: 5 });
  });
  it('fills an empty note', () => {
    expect(replacePassage('', '', 'hello\n', 'n.md').text).toBe('hello\n');
  });
});
