import { describe, expect, it } from 'vitest';
import { decodeNoteText } from './note-text.ts';

describe('decodeNoteText', () => {
  it('decodes UTF-8 and keeps a BOM', () => {
    expect(decodeNoteText(Buffer.from('Grüße\n', 'utf8'))).toBe('Grüße\n');
    expect(decodeNoteText(Buffer.from('\uFEFF# x', 'utf8'))).toBe('\uFEFF# x');
    expect(decodeNoteText(Buffer.alloc(0))).toBe('');
  });
  it('answers null for a NUL byte anywhere, as note_history did and the indexer did not', () => {
    expect(decodeNoteText(Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0]), Buffer.from('b')]))).toBeNull();
    expect(decodeNoteText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toBeNull();
    expect(decodeNoteText(Buffer.concat([Buffer.from('a'.repeat(100)), Buffer.from([0])]))).toBeNull();
  });
  it('answers null for invalid UTF-8, as the indexer did and note_history did not', () => {
    expect(decodeNoteText(Buffer.from([0x47, 0x72, 0xfc, 0x65]))).toBeNull();
  });
});
