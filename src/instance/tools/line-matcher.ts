// Finding the lines of a note that match a query: plain text (smart case) or an RE2 regex.
import { RE2JS, RE2JSException } from 're2js';
import { lineStarts } from '../../notes/lines.ts';
import { foldCase } from '../../note-index/trigram-keys.ts';
import { VaultError } from '../../vault-error.ts';
import type { TrigramFilter } from './regex-trigrams.ts';

/** One matching line: its number (from 1), its text (without the line break) and where the match starts in it. */
export interface LineMatch {
  line: number;
  text: string;
  start: number;
  length: number;
}

/**
 * When matching must stop: `deadline` in ms since the epoch (`Date.now()`); the matcher sets
 * `cut` when it stopped before the end of the content because the deadline had passed, and
 * `line` to the first line (from 1) it did not search: every line before it was searched.
 */
export interface MatchStop {
  deadline: number;
  cut: boolean;
  line?: number;
}

/**
 * Yields each matching line of a note's content once, in order. With `stop`, it checks the
 * clock between lines and ends early (setting `stop.cut`) once the deadline has passed; one
 * line is never interrupted, so a single huge line can overrun it (the worker pool's abort
 * covers that, see match-pool.ts).
 */
export type LineMatcher = (content: string, stop?: MatchStop) => Generator<LineMatch>;

/** True (and `stop.cut` set, `stop.line` to `nextLine`, the first line not searched) when the deadline of `stop` has passed. */
function pastDeadline(stop: MatchStop | undefined, nextLine: number): boolean {
  if (stop === undefined || Date.now() <= stop.deadline) return false;
  stop.cut = true;
  stop.line = nextLine;
  return true;
}

/**
 * Smart case (spec: search_notes `query`): a query with a capital letter counts case, an
 * all-lower-case one ignores it. For a regex, escapes such as `\S` or `\W` are not letters.
 */
export function isCaseSensitive(query: string, regex: boolean): boolean {
  const letters = regex ? query.replace(/\\./g, '') : query;
  return /\p{Lu}/u.test(letters);
}

/** Lines containing `needle` literally; `caseSensitive` false compares lower case. */
export function plainMatcher(needle: string, caseSensitive: boolean): LineMatcher {
  const wanted = caseSensitive ? needle : needle.toLowerCase();
  return function* (content, stop) {
    const hay = caseSensitive ? content : content.toLowerCase();
    let starts: number[] | null = null;
    let hayStarts: number[] | null = null;
    let line = 1;
    let lineStart = 0;
    for (let at = hay.indexOf(wanted); at !== -1;) {
      for (let nl = hay.indexOf('\n', lineStart); nl !== -1 && nl < at; nl = hay.indexOf('\n', lineStart)) {
        line++;
        lineStart = nl + 1;
      }
      starts ??= lineStarts(content);
      hayStarts ??= hay.length === content.length ? starts : lineStarts(hay);
      const text = lineText(content, starts, line);
      yield { line, text, start: Math.max(0, at - (hayStarts[line - 1] ?? 0)), length: needle.length };
      if (pastDeadline(stop, line + 1)) return;
      const next = hay.indexOf('\n', at + Math.max(1, wanted.length));
      if (next === -1) break;
      line++;
      lineStart = next + 1;
      at = hay.indexOf(wanted, lineStart);
    }
  };
}

/**
 * Compiles `query` as an RE2 regular expression (linear time: no pattern can make the
 * server backtrack). Throws VaultError `invalid_regex` with the parser's message, quoting the
 * pattern as the caller wrote it.
 */
export function compileRegex(query: string, caseSensitive: boolean): RE2JS {
  try {
    return RE2JS.compile(query, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    // re2js quotes the pattern it parsed, which for a case-insensitive search starts with an
    // `(?i)` the caller never typed; the same pattern parsed without the flag fails the same
    // way and quotes it as written.
    const message = parseFailure(query) ?? (error instanceof RE2JSException ? error.message : String(error));
    throw new VaultError(
      'invalid_regex',
      `The regular expression ${JSON.stringify(query)} does not parse: ${message}. Fix it (RE2 syntax, no backreferences or lookarounds), or leave regex out to search for the text as written.`,
      { query },
    );
  }
}

/** The parser's message for `query` compiled without flags, or null when it compiles. */
function parseFailure(query: string): string | null {
  try {
    RE2JS.compile(query, 0);
    return null;
  } catch (error) {
    return error instanceof RE2JSException ? error.message : String(error);
  }
}

/**
 * Lines where `regex` finds a match. With `required` (regex-trigrams.ts `trigramFilter`: where
 * in folded text the lines that can hold a match may be, and a test of one line), only the
 * lines at the places it finds are tested, and the regex runs only on those that pass;
 * without it, a whole-note regex test first skips notes without a match.
 */
export function regexMatcher(regex: RE2JS, required?: TrigramFilter | null): LineMatcher {
  const multiline = RE2JS.compile(regex.pattern(), regex.flags() | RE2JS.MULTILINE);
  // The whole-note test is a superset of the line tests, except where \r ends lines or the
  // pattern anchors at the text's start or end (\A, \z).
  const prefilter = !/\\[Az]/.test(regex.pattern());
  return function* (content, stop) {
    if (required) {
      yield* filteredLines(regex, required, content, stop);
      return;
    }
    if (prefilter && !content.includes('\r') && !multiline.test(content)) return;
    const starts = lineStarts(content);
    let sinceCheck = 0;
    for (let line = 1; line <= starts.length; line++) {
      const text = lineText(content, starts, line);
      // The clock is read every 64 lines, or before a long one.
      sinceCheck += 1 + (text.length >> 10);
      if (sinceCheck >= 64) {
        sinceCheck = 0;
        if (pastDeadline(stop, line)) return;
      }
      const found = matchIn(regex, line, text);
      if (found) yield found;
    }
  };
}

/**
 * The matching lines of `content` among those `required` finds: folding keeps every line
 * break, so line n of the folded text is line n of the note; both are walked forward
 * together, from one place `required.find` gives to the next, never line by line.
 */
function* filteredLines(regex: RE2JS, required: TrigramFilter, content: string, stop: MatchStop | undefined): Generator<LineMatch> {
  // Trigrams of digits and punctuation only (`\d{4}-\d{2}`) are found in the note unfolded:
  // folding megabytes costs more than the rest of the search.
  const folded = required.caseless && !content.includes('\u0307') ? content : foldCase(content);
  let line = 1;
  let foldedStart = 0;
  let start = 0;
  let sinceCheck = 0;
  for (let at = required.find(folded, 0); at !== -1;) {
    for (let nl = folded.indexOf('\n', foldedStart); nl !== -1 && nl < at; nl = folded.indexOf('\n', foldedStart)) {
      line++;
      foldedStart = nl + 1;
      start = content.indexOf('\n', start) + 1;
    }
    const foldedEnd = folded.indexOf('\n', at);
    const end = content.indexOf('\n', start);
    if (required.test(folded.slice(foldedStart, foldedEnd === -1 ? folded.length : foldedEnd))) {
      // Without its \r, as lineText gives it: a last line without a \n too.
      const lineEnd = end === -1 ? content.length : end;
      const text = content.slice(start, content[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd);
      // The clock is read every 64 lines tested, or before a long one.
      sinceCheck += 1 + (text.length >> 10);
      if (sinceCheck >= 64) {
        sinceCheck = 0;
        if (pastDeadline(stop, line)) return;
      }
      const found = matchIn(regex, line, text);
      if (found) yield found;
    }
    if (foldedEnd === -1) return;
    line++;
    foldedStart = foldedEnd + 1;
    start = end + 1;
    at = required.find(folded, foldedStart);
  }
}

/** The match of `regex` in line `line` (`text`), or null. */
function matchIn(regex: RE2JS, line: number, text: string): LineMatch | null {
  if (!regex.test(text)) return null;
  const matcher = regex.matcher(text);
  const found = matcher.find();
  return { line, text, start: found ? matcher.start() : 0, length: found ? matcher.end() - matcher.start() : 0 };
}

function lineText(content: string, starts: readonly number[], line: number): string {
  let end = starts[line] ?? content.length;
  if (content[end - 1] === '\n') end--;
  if (content[end - 1] === '\r') end--;
  return content.slice(starts[line - 1] ?? 0, end);
}
