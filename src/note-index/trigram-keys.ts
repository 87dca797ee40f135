// Trigram keys of note text for the search index: case-folded three-character windows, hashed to 32 bits.
//
// A note is a candidate for a search when it has every key of the searched text. That must
// hold for every note that search_notes and find_references can match, so the folding is
// a per-character map: text containing the needle, exactly or ignoring case, then contains
// it after folding too, and so has all of its keys.

/**
 * The text as the trigram keys see it: in Unicode's composed form (NFC, as the line matcher
 * compares: `crème` stored decomposed, as macOS writes it, has the keys of `crème`), then
 * lower case (JavaScript's full Unicode mapping, what the line matcher compares), with final
 * sigma `ς` taken as `σ` and U+0307 (combining dot above) left out. `toLowerCase` is per
 * character except for those two: `Σ` becomes `ς` only at the end of a word, and `İ` becomes
 * `i` + U+0307; erasing both differences makes folding a map of each character to at most
 * one, so a substring of a text's NFC form stays a substring after folding.
 * That also holds for Postgres's ILIKE, which lowers each character alone (`İ` → `i`).
 */
export function searchFold(text: string): string {
  return foldCase(text.normalize('NFC'));
}

/**
 * {@link searchFold} without the NFC step: lower case, `ς` taken as `σ`, U+0307 left out. It
 * maps each character alone, so for text already in NFC (as a regex's literal runes, which
 * match code points of a note's NFC form) the folded pieces are substrings of the folded note.
 */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('ς') || lower.includes('\u0307') ? lower.replaceAll('ς', 'σ').replaceAll('\u0307', '') : lower;
}

/**
 * What a note's text must contain for a search to find it: `all` (any note), `none` (no
 * note), or every (`and`) or any (`or`) of `trigrams` (each three code points of folded text,
 * see {@link foldCase}) and of `subs`. Built for regexes (instance/tools/regex-trigrams.ts),
 * checked against the posting lists (trigram-postings.ts `queryNoteIds`).
 */
export type TrigramQuery =
  { op: 'all' } | { op: 'none' } | { op: 'and' | 'or'; trigrams: readonly string[]; subs: readonly TrigramQuery[] };

/**
 * Open-addressing set of the keys seen in the current text, reused from text to text: a
 * slot is in use when it holds the current text's number. Tables for texts longer than
 * {@link keptTableSize} allows are made for that text and then dropped, so one huge note
 * does not keep a huge table in memory.
 */
const keptTableSize = 1 << 18;
let slotKeys = new Int32Array(1 << 15);
let slotText = new Int32Array(1 << 15);
let textNumber = 0;
let distinctKeys = new Int32Array(1 << 13);

/**
 * The distinct trigram keys of a note's `text`, as the index stores them, in order of first
 * appearance: one 32-bit hash of every window of three consecutive code points of
 * `"\n" + searchFold(text) + "\n"` (so of its NFC form; a leading BOM left out, {@link withoutBom}) — spaces, line breaks and punctuation
 * included, so a phrase's keys span its words. The line breaks put before and after the text
 * put one before and after every line, the first and the last too: a regex's `^` and `$`
 * then give trigrams (`\n20` for `^20`, see instance/tools/regex-trigrams.ts). Empty text has
 * none. Equal text always gives equal keys (they are stored). Keys of a needle to look for are
 * {@link needleKeys}, which add no line breaks.
 */
export function trigramKeys(text: string): Int32Array {
  return foldedTrigramKeys(searchFold(withoutBom(text)), true);
}

/**
 * `text` without the byte order mark (U+FEFF) it may start with. Search reads a note as
 * ripgrep does, after its BOM, so `^# Title` matches the first line of a note saved with one
 * (instance/tools/match-notes.ts); the keys are those of the same text.
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The distinct trigram keys of a needle (text a note must contain, as search_notes and
 * find_references look for it): those of {@link searchFold}`(needle)` alone, so a subset of the
 * keys ({@link trigramKeys}) of every note whose text contains it. Fewer than three code points
 * have none.
 */
export function needleKeys(needle: string): Int32Array {
  return foldedTrigramKeys(searchFold(needle));
}

/**
 * The distinct trigram keys of text already folded by {@link searchFold} or {@link foldCase}:
 * with `framed`, of the text between two line breaks (a note's keys, {@link trigramKeys}), else of
 * the text alone ({@link needleKeys}).
 */
export function foldedTrigramKeys(folded: string, framed = false): Int32Array {
  // At most one key per character: a table twice that size stays at most half full. A
  // short text uses the start of the table only, which stays in the processor's cache.
  const size = 1 << Math.max(6, Math.ceil(Math.log2(folded.length * 2 + 4)));
  const kept = size <= keptTableSize;
  if (kept && slotKeys.length < size) {
    slotKeys = new Int32Array(size);
    slotText = new Int32Array(size);
    textNumber = 0;
  }
  if (++textNumber === 0x7fffffff) {
    slotText.fill(0);
    textNumber = 1;
  }
  const tableKeys = kept ? slotKeys : new Int32Array(size);
  const tableText = kept ? slotText : new Int32Array(size);
  const number = textNumber;
  let found = kept ? distinctKeys : new Int32Array(1 << 16);
  const mask = size - 1;
  let count = 0;
  let a = -1;
  let b = framed ? 0x0a : -1;
  // With `framed`, one step past the end: the line break after the text.
  const end = framed ? folded.length + 1 : folded.length;
  for (let i = 0; i < end; i++) {
    let c = i === folded.length ? 0x0a : folded.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < folded.length) {
      const low = folded.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        c = ((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (a >= 0) {
      const key = trigramHash(a, b, c);
      let slot = key & mask;
      while (tableText[slot] === number && tableKeys[slot] !== key) slot = (slot + 1) & mask;
      if (tableText[slot] !== number) {
        tableText[slot] = number;
        tableKeys[slot] = key;
        if (count === found.length) {
          const bigger = new Int32Array(count * 2);
          bigger.set(found);
          found = bigger;
          if (kept) distinctKeys = bigger;
        }
        found[count++] = key;
      }
    }
    a = b;
    b = c;
  }
  return found.slice(0, count);
}

/** Three code points → a well-mixed 32-bit key (MurmurHash3's finaliser over a multiplicative combination). */
function trigramHash(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1);
  h = Math.imul(h ^ b, 0x85ebca77);
  h = Math.imul(h ^ c, 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
