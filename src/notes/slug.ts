// Slugs: the one rule that turns a title into a file or folder name for `{field:slug}` places.

/** Longest slug, in code points: file names stay well under the 255-byte limit of file systems. */
export const SLUG_MAX = 100;

/** Latin letters that do not decompose to a base letter plus marks, or that German spells out. */
const LATIN: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  å: 'a',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŀ: 'l',
  ĸ: 'k',
  ŋ: 'n',
  ſ: 's',
  ǆ: 'dz',
  ǉ: 'lj',
  ǌ: 'nj',
  ĳ: 'ij',
};

/**
 * The slug of `text`. The rule:
 * 1. NFC, then lower case (`ẞ` → `ß`, `İ` → `i`).
 * 2. Latin letters with diacritics become plain Latin: German umlauts and ß are spelled out
 *    (ä → ae, ö → oe, ü → ue, ß → ss), as are æ → ae, œ → oe, þ → th; ø → o, å → a, ł → l,
 *    đ → d; any other Latin letter loses its accents (é → e, ç → c, ñ → n, ş → s).
 * 3. Letters and digits of every other script stay as they are (日本語, Ελληνικά, кириллица),
 *    with their combining marks.
 * 4. Everything else (spaces, punctuation, symbols, `/ # ^ | [ ] .`) becomes `-`; runs of
 *    `-` collapse to one; `-` is trimmed from both ends.
 * 5. Cut at {@link SLUG_MAX} code points (at a `-` when there is one near the end).
 * The result never contains `/ # ^ | [ ]` or `..`; it is `''` when nothing is left, which
 * callers refuse. Examples: "Über die Größe" → "ueber-die-groesse", "Café Noël" →
 * "cafe-noel", "会議 2026" → "会議-2026".
 */
export function slugify(text: string): string {
  let out = '';
  for (const char of text
    .normalize('NFC')
    .toLowerCase()
    .replace(/i\u0307/g, 'i')) {
    const mapped = LATIN[char];
    if (mapped !== undefined) {
      out += mapped;
      continue;
    }
    if (/[\p{L}\p{N}]/u.test(char)) {
      const decomposed = char.normalize('NFD');
      out += /^[a-z]\p{M}+$/u.test(decomposed) ? decomposed[0] : char;
    } else if (/\p{M}/u.test(char)) {
      out += char;
    } else {
      out += '-';
    }
  }
  let slug = out.replace(/-+/g, '-').replace(/^-|-$/g, '');
  const points = [...slug];
  if (points.length > SLUG_MAX) {
    const cut = points.slice(0, SLUG_MAX).join('');
    const dash = cut.lastIndexOf('-');
    slug = (dash > SLUG_MAX * 0.6 ? cut.slice(0, dash) : cut).replace(/-$/, '');
  }
  return slug;
}
