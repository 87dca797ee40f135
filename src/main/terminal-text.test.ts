// Printing untrusted text on a terminal: controls and direction changes shown as escapes.
import { describe, expect, it } from 'vitest';
import { terminalText } from './terminal-text.ts';

describe('terminal text', () => {
  it('writes C0, DEL, C1 and bidirectional controls as \\u{…}, and a backslash as \\\\', () => {
    expect(terminalText('acme\u001b[2J\u001b]0;owned\u0007')).toBe('acme\\u{1b}[2J\\u{1b}]0;owned\\u{7}');
    expect(terminalText('a\u007fb\u009bc\u202egnp\u2066d\u200fe\u2028f')).toBe(
      'a\\u{7f}b\\u{9b}c\\u{202e}gnp\\u{2066}d\\u{200f}e\\u{2028}f',
    );
    expect(terminalText('a\\u{1b}')).toBe('a\\\\u{1b}');
    expect(terminalText('tab\there\nnl')).toBe('tab\\u{9}here\\u{a}nl');
  });

  it('keeps everything else', () => {
    expect(terminalText('Acme GmbH — Größe 名前 ✔')).toBe('Acme GmbH — Größe 名前 ✔');
  });
});
