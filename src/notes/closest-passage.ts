// The passage of a note an edit most likely meant, when its old_text does not stand there as written.
import { distance } from 'fastest-levenshtein';
import { lineOfOffset, lineStarts, splitLines } from './lines.ts';
import { isLooseMark, looseText, type LooseText } from './loose-text.ts';

/**
 * The passage of a note closest to an `old_text` that does not occur in it.
 * - `line`/`endLine`: its first and last line, counting from 1.
 * - `text`: the passage exactly as the note holds it (whole lines, or part of one line for a
 *   one-line `old_text`), to be sent back as `old_text`.
 * - `differences`: when `old_text` read loosely ({@link looseText}) stands exactly once in
 *   the note, how the note's text differs there, one sentence per place, such as
 *   `the note writes "**bold**" where old_text has "bold" (emphasis marks)`; an empty list
 *   when only spacing before or after it differs. Null when the passage is only the most
 *   similar one.
 * - `similarity`: from 0 (nothing alike) to 1 (the same when read loosely), by edit distance.
 */
export interface ClosestPassage {
  line: number;
  endLine: number;
  text: string;
  differences: string[] | null;
  similarity: number;
}

/** Lines of a note looked at; longer notes are cut to keep a refusal fast. */
const MAX_LINES = 20_000;
/** Characters of a note searched for a loose match of the whole passage. */
const MAX_TEXT = 1_000_000;
/** Loose characters of the passage and of each candidate compared by edit distance. */
const MAX_COMPARED = 2_000;
/** Up to this many windows every one is compared; beyond it, those sharing the most words with the passage. */
const MAX_CANDIDATES = 200;
/** Lines searched for a part like a one-line passage: those sharing the most words with it. */
const MAX_SPLIT_LINES = 40;
/** Places listed in `differences`. */
const MAX_DIFFERENCES = 6;

/**
 * The passage of `text` that `passage` most likely means (for edit_note's refusal when
 * `old_text` does not occur; spec: edit_note `old_text`).
 * 1. Read loosely ({@link looseText}: emphasis marks, curly quotes, dashes, whitespace runs,
 *    NBSP, Unicode form), `passage` may stand exactly once in `text`: that place, its marks
 *    around it included, with the differences named.
 * 2. Otherwise every run of as many lines as `passage` has (for a one-line passage also
 *    every run of about as many words within a line) is scored by its Levenshtein
 *    distance to `passage`, both read loosely, relative to the longer; the best wins, the
 *    earliest among equals. Beyond {@link MAX_CANDIDATES} runs, only those sharing the most
 *    words with `passage` are scored; notes are read up to 20,000 lines.
 * Null for a text without lines or a passage of whitespace only.
 */
export function closestPassage(text: string, passage: string): ClosestPassage | null {
  const wanted = looseText(passage);
  if (text === '' || wanted.text === '') return null;
  return looseMatch(text, passage, wanted) ?? mostSimilar(text, passage, wanted.text);
}

/** The one place where `passage` stands in `text` when both are read loosely, with what differs; null when none or several. */
function looseMatch(text: string, passage: string, wanted: LooseText): ClosestPassage | null {
  const note = looseText(text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text);
  const at = note.text.indexOf(wanted.text);
  if (at === -1 || note.text.indexOf(wanted.text, at + 1) !== -1) return null;
  const length = wanted.text.length;
  const noteSpan = widen(text, note.from[at]!, note.to[at + length - 1]!);
  const passageSpan = widen(passage, wanted.from[0]!, wanted.to[length - 1]!);
  // Loose character i stands for the same text on both sides; what differs is the
  // characters it was read from, or the marks left out before it (the gap).
  const places: Array<{ note: [number, number]; passage: [number, number]; kinds: Set<string> }> = [];
  const differ = (note: [number, number], said: [number, number]) => {
    const noteRange = word(text, note[0], note[1], noteSpan);
    const passageRange = word(passage, said[0], said[1], passageSpan);
    const kinds = slipKinds(text.slice(...note), passage.slice(...said));
    const last = places[places.length - 1];
    // Slips in neighbouring words (`**49 €**`, `“early May”`) are one place.
    if (last && /^\s*$/.test(text.slice(last.note[1], noteRange[0]))) {
      last.note[1] = Math.max(last.note[1], noteRange[1]);
      last.passage[1] = Math.max(last.passage[1], passageRange[1]);
      for (const kind of kinds) last.kinds.add(kind);
    } else {
      places.push({ note: noteRange, passage: passageRange, kinds });
    }
  };
  for (let i = 0; i <= length; i++) {
    const noteGap: [number, number] = [i === 0 ? noteSpan[0] : note.to[at + i - 1]!, i === length ? noteSpan[1] : note.from[at + i]!];
    const passageGap: [number, number] = [i === 0 ? passageSpan[0] : wanted.to[i - 1]!, i === length ? passageSpan[1] : wanted.from[i]!];
    if (text.slice(...noteGap) !== passage.slice(...passageGap)) differ(noteGap, passageGap);
    if (i === length) break;
    const noteChar: [number, number] = [note.from[at + i]!, note.to[at + i]!];
    const passageChar: [number, number] = [wanted.from[i]!, wanted.to[i]!];
    // The three dots read from one `…` share its range: compare it once.
    if (i > 0 && note.from[at + i - 1] === noteChar[0] && wanted.from[i - 1] === passageChar[0]) continue;
    if (text.slice(...noteChar) !== passage.slice(...passageChar)) differ(noteChar, passageChar);
  }
  const differences = places
    .slice(0, MAX_DIFFERENCES)
    .map(
      (place) =>
        `the note writes ${visible(text.slice(...place.note))} where old_text has ${visible(passage.slice(...place.passage))} (${[...place.kinds].join(', ')})`,
    );
  if (places.length > MAX_DIFFERENCES) differences.push(`${places.length - MAX_DIFFERENCES} more places like these`);
  const starts = lineStarts(text);
  return {
    line: lineOfOffset(starts, noteSpan[0]),
    endLine: lineOfOffset(starts, noteSpan[1] - 1),
    text: text.slice(...noteSpan),
    differences,
    similarity: 1,
  };
}

/** The passage of `text` with the smallest edit distance to `wanted` (loose), as {@link closestPassage} step 2 says. */
function mostSimilar(text: string, passage: string, wanted: string): ClosestPassage {
  const lines = splitLines(text).slice(0, MAX_LINES);
  const want = wanted.slice(0, MAX_COMPARED);
  const passageLines = splitLines(passage.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd());
  const span = Math.max(1, Math.min(passageLines.length, lines.length));
  const wantWords = new Set(words(want));
  const shared = lines.map((line) => {
    let count = 0;
    for (const w of new Set(words(looseText(line).text))) if (wantWords.has(w)) count++;
    return count;
  });
  const windows = lines.length - span + 1;
  let starts = Array.from({ length: windows }, (_, i) => i);
  if (windows > MAX_CANDIDATES) {
    const score = (start: number) => shared.slice(start, start + span).reduce((sum, count) => sum + count, 0);
    const scored = starts.map((start) => ({ start, score: score(start) }));
    scored.sort((a, b) => b.score - a.score || a.start - b.start);
    starts = scored
      .slice(0, MAX_CANDIDATES)
      .map((s) => s.start)
      .sort((a, b) => a - b);
  }
  const similarity = (candidate: string) => {
    const loose = looseText(candidate).text.slice(0, MAX_COMPARED);
    const longer = Math.max(loose.length, want.length);
    return longer === 0 ? 1 : 1 - distance(want, loose) / longer;
  };
  let best = { start: starts[0]!, text: '', similarity: -1 };
  for (const start of starts) {
    const whole = lines.slice(start, start + span).join('\n');
    const score = similarity(whole);
    if (score > best.similarity) best = { start, text: whole, similarity: score };
  }
  if (span === 1) {
    // A one-line passage is often part of a line: runs of about as many words within the
    // lines sharing the most words with it.
    const wantCount = want.split(' ').length;
    const ranked = [...starts].sort((a, b) => shared[b]! - shared[a]! || a - b);
    for (const start of ranked.slice(0, MAX_SPLIT_LINES).sort((a, b) => a - b)) {
      const line = lines[start]!;
      const spans = [...line.matchAll(/\S+/g)].map((m) => [m.index, m.index + m[0].length] as const);
      for (const count of [wantCount - 1, wantCount, wantCount + 1]) {
        if (count < 1 || count >= spans.length) continue;
        for (let i = 0; i + count <= spans.length; i++) {
          const part = line.slice(spans[i]![0], spans[i + count - 1]![1]);
          const score = similarity(part);
          if (score > best.similarity) best = { start, text: part, similarity: score };
        }
      }
    }
  }
  return { line: best.start + 1, endLine: best.start + span, text: best.text, differences: null, similarity: Math.max(0, best.similarity) };
}

/** `[start, end)` widened over the marks (`*`, `_`, backtick) right before and after it. */
function widen(text: string, start: number, end: number): [number, number] {
  while (start > 0 && isLooseMark(text[start - 1])) start--;
  while (end < text.length && isLooseMark(text[end])) end++;
  return [start, end];
}

/** `[start, end)` widened to whole words (whitespace-separated), within `bounds`, so a slip is shown with its word. */
function word(text: string, start: number, end: number, bounds: [number, number]): [number, number] {
  while (start > bounds[0] && !/\s/.test(text[start - 1]!)) start--;
  while (end < bounds[1] && !/\s/.test(text[end]!)) end++;
  return [start, end];
}

/** The lower-case words of a loose text, for the prefilter. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** What kind of slip separates the note's `a` from old_text's `b`, in words the assistant can act on. */
function slipKinds(a: string, b: string): Set<string> {
  const kinds = new Set<string>();
  const both = a + b;
  if (/[*_`]/.test(both)) kinds.add('emphasis or code marks');
  if (/[\u2018-\u201F\u2032\u2033]/.test(both)) kinds.add('curly and straight quotes');
  if (/[\u2010-\u2015\u2212]/.test(both)) kinds.add('dashes');
  if (both.includes('\u2026')) kinds.add('an ellipsis');
  if (/[\u00A0\u202F\u2007]/.test(both)) kinds.add('a non-breaking space');
  else if (/\s/.test(both)) kinds.add('spacing or line breaks');
  if (/[\u00AD\u200B-\u200D\u2060\uFEFF]/.test(both)) kinds.add('an invisible character');
  if (a.normalize('NFC') !== a || b.normalize('NFC') !== b) kinds.add('Unicode form (a letter and its accent written apart)');
  if (kinds.size === 0) kinds.add('characters that read alike');
  return kinds;
}

/** `text` as a JSON string, with characters one cannot see escaped (`\u00a0`), so the difference shows. */
function visible(text: string): string {
  const cut = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return JSON.stringify(cut).replace(
    /[\u00A0\u00AD\u1680\u2000-\u200F\u2028\u2029\u202F\u205F\u2060\u3000\uFEFF]|\p{M}/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
