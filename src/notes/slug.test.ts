import { describe, expect, it } from 'vitest';
import { SLUG_MAX, slugify } from './slug.ts';

describe('slugify', () => {
  it('spells out German umlauts and ß', () => {
    expect(slugify('Über die Größe der Straße')).toBe('ueber-die-groesse-der-strasse');
    expect(slugify('ÄÖÜ ẞ')).toBe('aeoeue-ss');
  });
  it('drops other Latin accents and maps special letters', () => {
    expect(slugify('Café Noël à Paris')).toBe('cafe-noel-a-paris');
    expect(slugify('Ørsted, Æble, Łódź, Þór, İstanbul, Çağrı')).toBe('orsted-aeble-lodz-thor-istanbul-cagri');
  });
  it('normalises decomposed input first', () => {
    expect(slugify('U\u0308bung')).toBe('uebung');
  });
  it('keeps letters and digits of other scripts', () => {
    expect(slugify('会議 2026 / 計画')).toBe('会議-2026-計画');
    expect(slugify('Ελληνικά Κείμενο')).toBe('ελληνικά-κείμενο');
    expect(slugify('Привет мир')).toBe('привет-мир');
    expect(slugify('हिन्दी पाठ')).toBe('हिन्दी-पाठ');
  });
  it('turns everything else into single dashes, trimmed', () => {
    expect(slugify('  Pick a date: Q3/Q4 #launch ^x | [draft]  ')).toBe('pick-a-date-q3-q4-launch-x-draft');
    expect(slugify('a..b...c')).toBe('a-b-c');
    expect(slugify('v1.10 — final!')).toBe('v1-10-final');
  });
  it('is empty when nothing is left', () => {
    expect(slugify('')).toBe('');
    expect(slugify('!!! --- ...')).toBe('');
    expect(slugify('🎉')).toBe('');
  });
  it('never holds path or link syntax', () => {
    for (const input of ['a/b', 'a#b', 'a^b', 'a|b', 'a[b]', 'a..b', '../x', '.hidden']) {
      expect(slugify(input)).not.toMatch(/[/#^|[\]]|\.\.|^\./);
    }
  });
  it('cuts long titles at a dash', () => {
    const slug = slugify('word '.repeat(60));
    expect([...slug].length).toBeLessThanOrEqual(SLUG_MAX);
    expect(slug.endsWith('word')).toBe(true);
  });
});
