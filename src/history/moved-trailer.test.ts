import { describe, expect, it } from 'vitest';
import { movedTrailer, parseMovedTrailers, pathBeforeMove } from './moved-trailer.ts';

describe('Moved: trailers', () => {
  it('writes one line per note or folder and reads it back', () => {
    expect(movedTrailer({ from: 'a/b.md', to: 'c/d e.md', folder: false })).toBe('Moved: a/b.md -> c/d e.md');
    expect(movedTrailer({ from: 'kit', to: 'tools/kit-new', folder: true })).toBe('Moved: kit/ -> tools/kit-new/');
    const odd = { from: 'x -> y.md', to: 'q"\\\n.md', folder: false };
    const message = `Moved it (move_note via C)\n\nWhy: tidy.\n\n${movedTrailer(odd)}\n${movedTrailer({ from: 'kit', to: 'tools/kit', folder: true })}\n`;
    expect(parseMovedTrailers(message)).toEqual([odd, { from: 'kit', to: 'tools/kit', folder: true }]);
  });

  it('reads only the last paragraph, and skips lines that do not parse', () => {
    expect(parseMovedTrailers('Subject\n\nMoved: a.md -> b.md\n\nSigned-off-by: x')).toEqual([]);
    expect(parseMovedTrailers('Moved: a.md -> b.md')).toEqual([]);
    expect(parseMovedTrailers('S\n\nMoved: a.md\nMoved: a/ -> b.md\nMoved: "a.md -> b.md')).toEqual([]);
  });

  it('maps a note or a note inside a moved folder back to its old path', () => {
    const moves = [
      { from: 'kit', to: 'tools/kit-new', folder: true },
      { from: 'a.md', to: 'b.md', folder: false },
    ];
    expect(pathBeforeMove(moves, 'tools/kit-new/inner/README.md')).toBe('kit/inner/README.md');
    expect(pathBeforeMove(moves, 'b.md')).toBe('a.md');
    expect(pathBeforeMove(moves, 'tools/kit-newer/x.md')).toBeNull();
  });
});
