// Text read loosely, blurring the slips an assistant makes when it copies a passage back:
// emphasis marks, curly quotes, dashes, spacing and the Unicode form.

/**
 * A text read loosely, with where each of its characters came from: loose character `i`
 * stands for the original UTF-16 range `[from[i], to[i])`.
 */
export interface LooseText {
  text: string;
  from: Uint32Array;
  to: Uint32Array;
}

/** Characters dropped as marks: Markdown emphasis and code (`*`, `_`, backtick). */
const MARKS = new Set(['*', '_', '`']);
/** Characters no reader sees: soft hyphen, zero-width space and joiners, word joiner, BOM. */
const INVISIBLE = new Set(['\u00AD', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF']);
/** Curly and typographic quotes and apostrophes, read as the straight ones. */
const QUOTES = new Map<string, string>([
  ...[...'\u2018\u2019\u201A\u201B\u2032'].map((c): [string, string] => [c, "'"]),
  ...[...'\u201C\u201D\u201E\u201F\u2033'].map((c): [string, string] => [c, '"']),
]);
/** Hyphens, dashes and the minus sign, read as `-`. */
const DASHES = new Set([...'\u2010\u2011\u2012\u2013\u2014\u2015\u2212']);
const SPACE = /\s/;
const MARK = /\p{M}/u;

/**
 * `text` read loosely, for finding a passage as an assistant wrote it:
 * - the marks `*`, `_` and backtick are left out (a passage copied from rendered Markdown
 *   loses `**bold**`, `_italic_` and `` `code` ``), and so are invisible characters (soft hyphen,
 *   zero-width space, joiners, BOM);
 * - curly quotes and apostrophes (‘ ’ ‚ ‛ “ ” „ ‟, primes) read as `'` and `"`; hyphens, en and
 *   em dashes and the minus sign as `-`; `…` as `...`;
 * - every run of whitespace (spaces, tabs, line breaks, non-breaking and other Unicode
 *   spaces) reads as one space, and none is kept at the start or the end;
 * - each letter with its combining marks is read in NFC (`e` + U+0301 as `é`).
 * Case is kept. Linear in the length of `text`.
 */
export function looseText(text: string): LooseText {
  // Plain runs are copied as slices, positions kept in typed arrays: a note of megabytes
  // costs milliseconds. A character expands to at most three (`…`), hence the growth check.
  const parts: string[] = [];
  let from: Uint32Array = new Uint32Array(text.length + 8);
  let to: Uint32Array = new Uint32Array(text.length + 8);
  let length = 0;
  let last = -1; // the last character put out, as a code unit
  const put = (chars: string, start: number, end: number) => {
    if (length + chars.length > from.length) {
      from = grow(from);
      to = grow(to);
    }
    parts.push(chars);
    for (let k = 0; k < chars.length; k++) {
      from[length] = start;
      to[length++] = end;
    }
    last = chars.charCodeAt(chars.length - 1);
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const start = i;
    // Plain ASCII, the bulk of any note, in one slice.
    // A letter followed by a combining mark is read with it, below.
    while (i < n && isPlain(text.charCodeAt(i)) && !(i + 1 < n && text.charCodeAt(i + 1) >= 0x300)) i++;
    if (i > start) {
      if (length + (i - start) > from.length) {
        from = grow(from);
        to = grow(to);
      }
      parts.push(text.slice(start, i));
      for (let k = start; k < i; k++) {
        from[length] = k;
        to[length++] = k + 1;
      }
      last = text.charCodeAt(i - 1);
      continue;
    }
    const code = text.charCodeAt(i);
    const char = code >= 0xd800 && code <= 0xdbff ? String.fromCodePoint(text.codePointAt(i)!) : text[i]!;
    i += char.length;
    if (code <= 0x20 || SPACE.test(char)) {
      while (i < n && SPACE.test(text[i]!)) i++;
      if (last === 0x20) to[length - 1] = i;
      else if (length > 0) put(' ', start, i);
      continue;
    }
    if (MARKS.has(char) || INVISIBLE.has(char)) continue;
    while (i < n && text.charCodeAt(i) >= 0x300 && MARK.test(String.fromCodePoint(text.codePointAt(i)!)))
      i += text.codePointAt(i)! > 0xffff ? 2 : 1;
    const cluster = text.slice(start, i);
    put(cluster === '\u2026' ? '...' : (QUOTES.get(cluster) ?? (DASHES.has(cluster) ? '-' : cluster.normalize('NFC'))), start, i);
  }
  let joined = parts.join('');
  if (last === 0x20) {
    joined = joined.slice(0, -1);
    length--;
  }
  return { text: joined, from: from.subarray(0, length), to: to.subarray(0, length) };
}

/** ASCII that reads as itself: not a control character, space or mark. */
function isPlain(code: number): boolean {
  return code > 0x20 && code < 0x7f && code !== 0x2a && code !== 0x5f && code !== 0x60;
}

function grow(array: Uint32Array): Uint32Array {
  const bigger = new Uint32Array(array.length * 2 + 8);
  bigger.set(array);
  return bigger;
}

/** True for a character {@link looseText} leaves out as a mark (`*`, `_`, backtick). */
export function isLooseMark(char: string | undefined): boolean {
  return char !== undefined && MARKS.has(char);
}
