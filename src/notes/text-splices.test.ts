import { describe, expect, it } from 'vitest';
import { applySplices, rebaseSplices, SplicedText, splicesBetween, textChanges } from './text-splices.ts';

/** The splice that replaces the one occurrence of `passage` in `text`. */
function spliceOf(text: string, passage: string, replacement: string) {
  const start = text.indexOf(passage);
  return { start, end: start + passage.length, text: replacement };
}

describe('SplicedText', () => {
  it('keeps replacements made one after the other as splices of the original', () => {
    const base = 'a b c d e\n';
    const spliced = new SplicedText(base);
    spliced.replace(2, 3, 'BB'); // b → BB
    spliced.replace(7, 8, 'D'); // d → D, in the text the first left
    expect(spliced.text).toBe('a BB c D e\n');
    expect(spliced.splices).toEqual([
      { start: 2, end: 3, text: 'BB' },
      { start: 6, end: 7, text: 'D' },
    ]);
    // One that reaches into an earlier insertion merges with it.
    spliced.replace(3, 6, 'X'); // "B c" → X
    expect(spliced.text).toBe('a BX D e\n');
    expect(spliced.splices).toEqual([
      { start: 2, end: 5, text: 'BX' },
      { start: 6, end: 7, text: 'D' },
    ]);
    expect(applySplices(base, spliced.splices)).toBe(spliced.text);
  });
});

describe('rebaseSplices', () => {
  it('refuses a passage another change grew from inside (the new text holds the old)', () => {
    const base = '- [ ] Call the supplier\n';
    const theirs = '- [ ] Call the supplier about the price\n';
    const result = rebaseSplices(base, [spliceOf(base, 'Call the supplier', 'Email the supplier')], theirs);
    expect('touching' in result).toBe(true);
  });

  it('refuses when the other change could as well stand at the passage\u2019s edge', () => {
    const base = 'open door\n';
    expect('touching' in rebaseSplices(base, [spliceOf(base, 'open', 'closed')], 'open o door\n')).toBe(true);
  });

  it('carries a passage past changes elsewhere, on its own line too', () => {
    const base = '# Plan\n\n| Price | 20 | open |\nlast\n';
    const theirs = '# The plan\n\n| Price | 20 | closed |\nlast line\n';
    expect(rebaseSplices(base, [spliceOf(base, '20', '25')], theirs)).toEqual({
      text: '# The plan\n\n| Price | 25 | closed |\nlast line\n',
    });
  });

  it('lets whole lines come and go right beside the passage’s line', () => {
    const base = 'one\ntwo\nthree (unsaved)\n';
    expect(rebaseSplices(base, [spliceOf(base, 'two', 'TWO')], 'one\ntwo\n')).toEqual({ text: 'one\nTWO\n' });
    expect(rebaseSplices(base, [spliceOf(base, 'two', 'TWO')], 'one\ntwo\nthree (unsaved)\nfour\n')).toEqual({
      text: 'one\nTWO\nthree (unsaved)\nfour\n',
    });
  });

  it('treats versions too far apart as touching everything', () => {
    const base = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const other = Array.from({ length: 3000 }, (_, i) => `other ${i}`).join('\n');
    expect(textChanges(base, other)).toBeNull();
    expect('touching' in rebaseSplices(base, [{ start: 0, end: 1, text: 'x' }], other)).toBe(true);
  });
});

describe('splicesBetween', () => {
  it('gives splices that remake the changed text', () => {
    const base = 'one\ntwo [[a]] two\nthree\nfour [[a]]\n';
    const changed = 'one\ntwo [[b/a]] two\nthree\nfour [[b/a]]\n';
    const splices = splicesBetween(base, changed)!;
    expect(splices).toHaveLength(2);
    expect(applySplices(base, splices)).toBe(changed);
  });
});
