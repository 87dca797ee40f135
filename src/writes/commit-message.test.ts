import { describe, expect, it } from 'vitest';
import { cleanClientName, commitMessage, withTrailers } from './commit-message.ts';

describe('commitMessage', () => {
  it('puts the tool and client after the summary line, further lines in the body', () => {
    expect(commitMessage({ summary: 'Marked trial price as an assumption', tool: 'edit_note', clientName: 'Claude' })).toBe(
      'Marked trial price as an assumption (edit_note via Claude)\n',
    );
    expect(commitMessage({ summary: 'Moved\r\n\r\n\r\nWhy: tidier.  \nSecond.', tool: 'move_note', clientName: null })).toBe(
      'Moved (move_note)\n\nWhy: tidier.\nSecond.\n',
    );
  });
  it('counts characters, not bytes, and refuses more than 60', () => {
    expect(commitMessage({ summary: 'ü'.repeat(60), tool: 't', clientName: null })).toBe(`${'ü'.repeat(60)} (t)\n`);
    expect(() => commitMessage({ summary: 'x'.repeat(61), tool: 't', clientName: null })).toThrow(/61 characters/);
    expect(() => commitMessage({ summary: '  \nbody', tool: 't', clientName: null })).toThrow(/empty/);
  });
  it('keeps parentheses of the client name out of the subject, and cuts a long name at a word', () => {
    expect(commitMessage({ summary: 'S', tool: 't', clientName: 'Claude Code (beta)' })).toBe('S (t via Claude Code beta)\n');
    expect(commitMessage({ summary: 'S', tool: 't', clientName: 'Acme Notes Assistant (internal preview build 7)' })).toBe(
      'S (t via Acme Notes Assistant internal preview…)\n',
    );
    expect(cleanClientName('Acme Notes Assistant (internal preview build 7)')).toBe('Acme Notes Assistant internal preview…');
    expect(cleanClientName('x'.repeat(50))).toBe(`${'x'.repeat(39)}…`);
    expect(cleanClientName('A (b) ' + 'c'.repeat(45))).toBe('A b…');
    expect([...cleanClientName('word '.repeat(20))].length).toBeLessThanOrEqual(40);
  });

  it('keeps control characters and line breaks of the client name out of the subject', () => {
    expect(commitMessage({ summary: 'S', tool: 't', clientName: 'a\nb\u0007c' })).toBe('S (t via a b c)\n');
  });

  it('ends the message with trailers as its last paragraph, the subject unchanged', () => {
    expect(withTrailers('S (t)\n', ['Moved: a.md -> b.md'])).toBe('S (t)\n\nMoved: a.md -> b.md\n');
    expect(withTrailers('S (t)\n\nWhy.\n', ['Moved: a/ -> b/'])).toBe('S (t)\n\nWhy.\n\nMoved: a/ -> b/\n');
    expect(withTrailers('S (t)\n', [])).toBe('S (t)\n');
  });
});
