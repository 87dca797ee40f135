// Matching a batch of notes against one query, within a deadline: the work that the match
// pool runs on a worker thread (match-pool.ts), or inline for small batches.
//
// Matching ignores Unicode normalisation: the query and each note are compared in NFC, so
// `crème` finds `crème` stored decomposed (`e` + U+0300, as macOS writes it). Line numbers
// are the same in both forms (NFC never touches a line break); the line text and the match's
// position are given back in the note as stored.
import { byteCache } from '../../byte-cache.ts';
import { withoutBom, type TrigramQuery } from '../../note-index/trigram-keys.ts';
import { compileRegex, plainMatcher, regexMatcher, type LineMatch, type LineMatcher, type MatchStop } from './line-matcher.ts';
import { trigramFilter } from './regex-trigrams.ts';

/**
 * What to look for: plain text or an RE2 regex (already checked by `compileRegex`), and
 * whether case counts. `trigrams`, for a regex: its trigram query (regex-trigrams.ts), which
 * lines are tested against before the regex runs on them.
 */
export interface MatchQuery {
  regex: boolean;
  query: string;
  caseSensitive: boolean;
  trigrams?: TrigramQuery;
}

/** One matching line of note number `note` (its index in the batch). */
export interface NoteLineMatch extends LineMatch {
  note: number;
}

/**
 * A batch: the notes' contents, how many matches are wanted at most, and the deadline (ms
 * since the epoch). `lineTexts: false` leaves each match's `text` empty (`''`): a caller that
 * shows few of many matches takes the lines it shows from the notes it holds, rather than
 * having every matching line copied back from the thread.
 */
export interface MatchNotesTask {
  query: MatchQuery;
  contents: readonly string[];
  wanted: number;
  deadline: number;
  lineTexts?: boolean;
}

/**
 * The matches, in note and line order; `searched` notes were searched to their end (the
 * matches all lie in the first `searched + 1` notes); `cut` is true when the deadline passed
 * before the batch was done (or the wanted count reached). `line`, when cut inside note
 * `searched`: the first of its lines (from 1) not searched.
 */
export interface MatchNotesResult {
  matches: NoteLineMatch[];
  searched: number;
  cut: boolean;
  line?: number;
}

/** The bound of the compiled matchers kept per thread, in bytes (estimated from the query's length: README "Memory"). */
export const MATCHERS_CACHE_BYTES = 1024 * 1024;
const compiled = byteCache<string, LineMatcher>({ maxBytes: MATCHERS_CACHE_BYTES, sizeOf: (_matcher, key) => matcherBytes(key) });

/** What a compiled matcher is counted for: a compiled RE2 program grows with the pattern, about 100 bytes a character. */
function matcherBytes(key: string): number {
  return 4096 + 128 * key.length;
}

/** The matcher of `query`, compiled once per query and kept for the next batch (up to {@link MATCHERS_CACHE_BYTES}). */
function matcherOf(query: MatchQuery): LineMatcher {
  const key = `${query.regex ? 'r' : 'p'}${query.caseSensitive ? 'C' : 'c'}${query.trigrams ? 't' : ''}${query.query}`;
  let matcher = compiled.get(key);
  if (!matcher) {
    const text = query.query.normalize('NFC');
    matcher = query.regex
      ? regexMatcher(compileRegex(text, query.caseSensitive), query.trigrams ? trigramFilter(query.trigrams) : null)
      : plainMatcher(text, query.caseSensitive);
    compiled.set(key, matcher);
  }
  return matcher;
}

/**
 * Matches `task.contents` one note after another, line by line, until `task.wanted` matches
 * are found, the notes end, or the deadline passes (checked between lines). Throws VaultError
 * `invalid_regex` for a regex that does not parse.
 */
export function matchNotes(task: MatchNotesTask): MatchNotesResult {
  const matcher = matcherOf(task.query);
  const stop: MatchStop = { deadline: task.deadline, cut: false };
  const matches: NoteLineMatch[] = [];
  for (let note = 0; note < task.contents.length; note++) {
    if (note > 0 && Date.now() > task.deadline) return { matches, searched: note, cut: true };
    // A byte order mark is not part of the first line (as ripgrep reads it): `^# Title` matches.
    const stored = withoutBom(task.contents[note]!);
    const normal = stored.normalize('NFC');
    const storedLines = normal === stored ? null : stored.split('\n');
    for (const match of matcher(normal, stop)) {
      const found = storedLines ? inStoredLine(storedLines[match.line - 1] ?? '', match) : match;
      matches.push(
        task.lineTexts === false ? { note, line: found.line, text: '', start: found.start, length: found.length } : { note, ...found },
      );
      if (matches.length >= task.wanted) return { matches, searched: note, cut: false };
    }
    if (stop.cut) return { matches, searched: note, cut: true, ...(stop.line === undefined ? {} : { line: stop.line }) };
  }
  return { matches, searched: task.contents.length, cut: false };
}

/**
 * A match found in a line's NFC form, moved to the line as stored (`withBreak` may still end
 * in `\r`): the stored text, with start and length mapped chunk by chunk (a character and the
 * marks or conjoining jamo that follow it normalise together).
 */
function inStoredLine(withBreak: string, match: LineMatch): LineMatch {
  const text = withBreak.endsWith('\r') ? withBreak.slice(0, -1) : withBreak;
  if (text === match.text) return match;
  const start = storedOffset(text, match.start);
  const end = storedOffset(text, match.start + match.length);
  return { line: match.line, text, start, length: Math.max(0, end - start) };
}

const chunk = /[\s\S][\p{M}\u1160-\u11ff\ud7b0-\ud7ff]*/gu;

/** The offset in `stored` of UTF-16 offset `normalOffset` of `stored.normalize('NFC')`, at a chunk boundary. */
function storedOffset(stored: string, normalOffset: number): number {
  let normal = 0;
  for (const piece of stored.matchAll(chunk)) {
    if (normal >= normalOffset) return piece.index;
    normal += piece[0].normalize('NFC').length;
  }
  return stored.length;
}
