// The trigrams a regex match must contain, as a query on the trigram index: the analysis of
// Google Code Search (Russ Cox, "Regular Expression Matching with a Trigram Index",
// https://swtch.com/~rsc/regexp/regexp4.html; zoekt does the same), run on the parse tree of
// re2js itself (the tree its RE2Set keeps), so the regex read is exactly the regex matched.
//
// Every node gets what is known of the strings it matches, in folded text (trigram-keys.ts
// `foldCase`, how the index sees a note): the exact set of them when small, else sets of
// their possible prefixes and suffixes, plus a query any text containing a match satisfies.
// Each rule only ever forgets, so the query is a necessary condition: every note that has a
// matching line satisfies it, and narrowing by it finds exactly what a full scan finds.
import { RE2JS, RE2Set } from 're2js';
import { foldCase, type TrigramQuery } from '../../note-index/trigram-keys.ts';

/**
 * An exact set that would grow past this many strings becomes prefixes, suffixes and
 * trigrams: large enough that `\d\d` (100 strings) stays exact, so `\d\d-` gives the 100
 * trigrams `00-` … `99-`, as Code Search and zoekt expand small classes.
 */
const MAX_EXACT = 256;
/** A prefix or suffix set larger than this is cut to one character, and then forgotten (any prefix): `[a-z]-\d` (260) still counts. */
const MAX_SET = 512;
/** One alternation of more than this many strings requires nothing (reading its posting lists would cost more than it saves). */
const MAX_OR = 512;
/** A character class whose members fold to more than this many characters is any character (`\w`, 37, still counts). */
const MAX_CLASS = 40;
/** A class of more code points than this is not expanded at all. */
const MAX_CLASS_RUNES = 256;
/** An alternation of more strings of several trigrams than this is taken as one of their first trigrams and one of their last. */
const MAX_OR_ANDS = 16;
/** A query of more distinct trigrams than this drops its largest alternations (each dropped part only widens it). */
const MAX_QUERY_TRIGRAMS = 1024;

const ALL: TrigramQuery = { op: 'all' };
const NONE: TrigramQuery = { op: 'none' };

/** re2js's parse tree node (RE2Set keeps the simplified trees of its patterns; the fields read here). */
interface ParsedRegexp {
  op: number;
  flags: number;
  subs: ParsedRegexp[];
  runes: Int32Array;
  min: number;
  max: number;
  constructor: { Op: Record<number, string> };
}

/** re2js's FOLD_CASE parse flag: the literal's runes match their whole case-folding orbit. */
const FOLD_CASE = 1;

/** What is known of the strings a node matches (all in folded text). */
interface Info {
  /** The node may match the empty string. */
  canEmpty: boolean;
  /** Every string it matches is one of these; null when unknown (then `prefix` and `suffix` hold). */
  exact: Set<string> | null;
  /** Every match starts with one of these (only when `exact` is null). */
  prefix: Set<string>;
  /** Every match ends with one of these (only when `exact` is null). */
  suffix: Set<string>;
  /** A query every text containing a match satisfies. */
  match: TrigramQuery;
}

/**
 * The trigram query of an RE2 regex as search_notes matches it: `pattern` in NFC (as the line
 * matcher compiles it), `caseSensitive` false for smart case's ignore-case (inline flags such
 * as `(?i)` or `(?-i:…)` are honoured as the matcher honours them). `all` when the regex
 * requires no text (such as `.*`, `x?`, `\d+`), `none` when it can match nothing. The pattern
 * must parse (`compileRegex` checks it first); throws re2js's exception otherwise.
 */
export function regexTrigramQuery(pattern: string, caseSensitive: boolean): TrigramQuery {
  const set = new RE2Set(RE2Set.UNANCHORED, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  set.add(pattern);
  const info = analyze(set.regexps[0] as ParsedRegexp);
  simplify(info, true);
  return withinBudget(info.exact === null ? info.match : and(info.match, trigramsOf(info.exact)));
}

/**
 * A Postgres regex (ARE) that a note's text as stored matches whenever a line of it matches
 * the RE2 regex `pattern` (as {@link regexTrigramQuery} takes it), for a word the trigrams
 * cannot tell apart from longer ones: ASCII letters with `\b` before or after them, as in
 * `(?i)\bMOC\b` (the trigram "moc" is also in "pomocí"). Null when the regex has no such
 * part. The part is a run of the top-level concatenation (so every match holds it) of
 * literal ASCII letters (at least three) with a word boundary on both sides. RE2's `\b` is
 * ASCII: a match's neighbour in the line (in NFC) is no ASCII letter, digit or `_`. In the
 * stored text (NFC not applied) the letters are themselves (NFC changes an ASCII letter only
 * by composing it with a mark after it, or U+212A into K; case-folded, RE2 adds ſ for s and
 * U+212A for k); the character before is no ASCII word character (NFC never composes one
 * with what follows), or the text starts; the character after is none either, or is one
 * followed by a non-ASCII character (`e` + U+0301 is `é` in NFC), or the text ends.
 */
export function regexContentPattern(pattern: string, caseSensitive: boolean): string | null {
  const set = new RE2Set(RE2Set.UNANCHORED, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  set.add(pattern);
  let root = set.regexps[0] as ParsedRegexp;
  while (root.constructor.Op[root.op] === 'CAPTURE') root = root.subs[0]!;
  const parts = root.constructor.Op[root.op] === 'CONCAT' ? root.subs : [root];
  const opOf = (part: ParsedRegexp | undefined) => (part === undefined ? '' : part.constructor.Op[part.op]);
  // Only a word with a boundary on both sides: one side alone (`\bsync(ed|ing)\b`) tells
  // little more than the trigrams, and Postgres's regex over many notes cost more than it saved.
  const literal = parts.find(
    (part, i) =>
      opOf(part) === 'LITERAL' &&
      part.runes.length >= 3 &&
      Array.from(part.runes).every((rune) => /^[A-Za-z]$/.test(String.fromCodePoint(rune))) &&
      opOf(parts[i - 1]) === 'WORD_BOUNDARY' &&
      opOf(parts[i + 1]) === 'WORD_BOUNDARY',
  );
  if (literal === undefined) return null;
  const folds = (literal.flags & FOLD_CASE) !== 0;
  const letters = Array.from(literal.runes, (rune) => {
    const letter = String.fromCodePoint(rune);
    const spellings = new Set(folds ? [letter.toLowerCase(), letter.toUpperCase()] : [letter]);
    if (spellings.has('K')) spellings.add('\u212A');
    if (folds && spellings.has('s')) spellings.add('\u017F');
    return `[${[...spellings].join('')}]`;
  }).join('');
  const word = '0-9A-Za-z_';
  return `(^|[^${word}])${letters}($|[^${word}]|[${word}][^\x01-\x7F])`;
}

/**
 * The lines of folded text (trigram-keys.ts `foldCase` of NFC text) that can hold a match,
 * as the line matcher looks for them: `find` gives where the next place that may lie (the
 * next occurrence of one of a few trigrams every such line has: one of an `and`'s parts, all
 * of an `or`'s), so lines without it are never looked at; `test` whether one line has the
 * trigrams of the query. A match lies within one line, so only lines that pass can match.
 */
export interface TrigramFilter {
  /** The offset of the first occurrence at or after `from` in `folded` of a trigram every passing line has; -1 when none is left. */
  find(folded: string, from: number): number;
  /** True when `folded` (one line, without its \n) can hold a match: it satisfies the query where it stands in the note, between line breaks. */
  test(folded: string): boolean;
  /**
   * True when every trigram of the query is of ASCII characters other than letters: no other
   * character folds to one of them, so in NFC text without U+0307 (the one character folding
   * drops) they stand where they stand in the folded text, and `find` and `test` may be given
   * the text unfolded.
   */
  caseless: boolean;
}

/** The {@link TrigramFilter} of `query`; null for `all` (every line may match). */
export function trigramFilter(query: TrigramQuery): TrigramFilter | null {
  if (query.op === 'all') return null;
  if (query.op === 'none') return { find: () => -1, test: () => false, caseless: true };
  // Trigrams with a line break (of `^` and `$`) lie across a line's ends: a line is tested
  // between the line breaks around it in the note, and found by trigrams without one.
  const breaks = hasBreaks(query);
  const anchor = anchorOf(breaks ? withoutBreaks(query) : query);
  const finder = anchor === null || anchor.size === 1 ? null : new RegExp(alternationOf(anchor), 'gu');
  const only = anchor?.size === 1 ? [...anchor][0]! : null;
  return {
    find: (folded, from) => {
      if (only !== null) return folded.indexOf(only, from);
      if (finder === null) return from < folded.length ? from : -1;
      finder.lastIndex = from;
      return finder.exec(folded)?.index ?? -1;
    },
    test: breaks ? framedTest(lineTest(query)) : lineTest(query),
    caseless: isCaseless(query),
  };
}

/** `test` of a line as it stands in the note's text between line breaks (trigram-keys.ts `trigramKeys`). */
function framedTest(test: (folded: string) => boolean): (folded: string) => boolean {
  return (line) => test(`\n${line}\n`);
}

/** True when a trigram of `query` holds a line break. */
function hasBreaks(query: TrigramQuery): boolean {
  if (query.op === 'all' || query.op === 'none') return false;
  return query.trigrams.some((trigram) => trigram.includes('\n')) || query.subs.some(hasBreaks);
}

/** `query` with each trigram that holds a line break taken as satisfied (so a query every text satisfying `query` satisfies). */
function withoutBreaks(query: TrigramQuery): TrigramQuery {
  if (query.op === 'all' || query.op === 'none') return query;
  const parts: TrigramQuery[] = [
    ...query.trigrams.map((trigram): TrigramQuery => (trigram.includes('\n') ? ALL : { op: 'and', trigrams: [trigram], subs: [] })),
    ...query.subs.map(withoutBreaks),
  ];
  return query.op === 'and' ? parts.reduce(and, ALL) : parts.reduce(or, NONE);
}

/** True when every trigram of `query` is of ASCII characters other than letters (see {@link TrigramFilter} `caseless`). */
function isCaseless(query: TrigramQuery): boolean {
  if (query.op === 'all' || query.op === 'none') return true;
  return query.trigrams.every((trigram) => /^[\x00-\x40\x5b-\x60\x7b-\x7f]*$/.test(trigram)) && query.subs.every(isCaseless);
}

/**
 * Trigrams one of which every text satisfying `query` contains, as few as found (one of an
 * `and`'s parts, the union of an `or`'s); null when there are none to name (`all`).
 */
function anchorOf(query: TrigramQuery): Set<string> | null {
  if (query.op === 'all') return null;
  if (query.op === 'none') return new Set();
  if (query.op === 'and') {
    if (query.trigrams.length > 0) return new Set([query.trigrams[0]!]);
    let best: Set<string> | null = null;
    for (const sub of query.subs) {
      const part = anchorOf(sub);
      if (part !== null && (best === null || part.size < best.size)) best = part;
    }
    return best;
  }
  const all = new Set(query.trigrams);
  for (const sub of query.subs) {
    const part = anchorOf(sub);
    if (part === null) return null;
    for (const trigram of part) all.add(trigram);
  }
  return all;
}

/** A test of one folded line against `query`; an `or` of several trigrams is one native regex. */
function lineTest(query: TrigramQuery): (folded: string) => boolean {
  if (query.op === 'all' || query.op === 'none') return () => query.op === 'all';
  const subs = query.subs.map(lineTest);
  if (query.op === 'and') {
    const trigrams = query.trigrams;
    return (text) => trigrams.every((trigram) => text.includes(trigram)) && subs.every((sub) => sub(text));
  }
  const any = query.trigrams.length === 0 ? null : new RegExp(alternationOf(query.trigrams), 'u');
  return (text) => (any !== null && any.test(text)) || subs.some((sub) => sub(text));
}

/**
 * A regex source matching exactly the strings of `trigrams` (each three code points): their
 * trie, with branches that continue alike merged into a class, so the 100 trigrams
 * `00-` … `99-` become `[0123456789][0123456789]-` (compiled with the `u` flag).
 */
function alternationOf(trigrams: Iterable<string>): string {
  interface Node {
    children: Map<string, Node>;
  }
  const root: Node = { children: new Map() };
  for (const trigram of trigrams) {
    let node = root;
    for (const point of codePoints(trigram)) {
      let child = node.children.get(point);
      if (child === undefined) node.children.set(point, (child = { children: new Map() }));
      node = child;
    }
  }
  const emit = (node: Node): string => {
    const byRest = new Map<string, string[]>();
    for (const [point, child] of node.children) {
      const rest = emit(child);
      const points = byRest.get(rest);
      if (points === undefined) byRest.set(rest, [point]);
      else points.push(point);
    }
    const branches = [...byRest].map(
      ([rest, points]) => (points.length === 1 ? escapeOutside(points[0]!) : `[${points.map(escapeInside).join('')}]`) + rest,
    );
    return branches.length <= 1 ? (branches[0] ?? '') : `(?:${branches.join('|')})`;
  };
  return emit(root);
}

/** A code point as a `u`-flag regex literal outside a class. */
function escapeOutside(point: string): string {
  return /^[\\^$.*+?()[\]{}|/]$/.test(point) ? `\\${point}` : point;
}

/** A code point as a `u`-flag regex literal inside a class. */
function escapeInside(point: string): string {
  return /^[\\^$.*+?()[\]{}|/-]$/.test(point) ? `\\${point}` : point;
}

function analyze(re: ParsedRegexp): Info {
  switch (re.constructor.Op[re.op]) {
    case 'NO_MATCH':
      return { canEmpty: false, exact: new Set(), prefix: new Set(), suffix: new Set(), match: NONE };
    // A regex is matched against one line at a time (without its line break, or the \r of a
    // \r\n), so `^` and `\A` (`(?m)^` too) hold at the line's start, which the index's text
    // has a line break before (trigram-keys.ts `trigramKeys` puts one before the first line),
    // and `$`, `\z` at its end, which a \n or a \r follows (one after the last line too). Each
    // is taken as that character: lines hold no \n, so no other string has one (see `cross`).
    case 'BEGIN_LINE':
    case 'BEGIN_TEXT':
      return exactOf(['\n']);
    case 'END_LINE':
    case 'END_TEXT':
      return exactOf(['\n', '\r']);
    // Word boundaries, lookbehinds and the empty regex match no text of their own.
    case 'EMPTY_MATCH':
    case 'WORD_BOUNDARY':
    case 'NO_WORD_BOUNDARY':
    case 'PLB':
    case 'NLB':
      return emptyString();
    case 'LITERAL': {
      let info = emptyString();
      for (const rune of re.runes) {
        const folds = runeFolds(rune, (re.flags & FOLD_CASE) !== 0);
        info = concat(info, folds === null ? anyChar() : exactOf(folds));
      }
      return info;
    }
    case 'CHAR_CLASS': {
      const folds = classFolds(re.runes);
      return folds === null ? anyChar() : exactOf(folds);
    }
    case 'CAPTURE':
      return analyze(re.subs[0]!);
    case 'QUEST':
      return alternate(analyze(re.subs[0]!), emptyString());
    case 'PLUS':
      return atLeastOnce(analyze(re.subs[0]!));
    case 'REPEAT':
      return re.min === 0 ? anyMatch() : atLeastOnce(analyze(re.subs[0]!));
    case 'CONCAT':
      return re.subs.reduce((info, sub) => concat(info, analyze(sub)), emptyString());
    case 'ALTERNATE':
      return re.subs.map(analyze).reduce((x, y) => alternate(x, y));
    // STAR, ANY_CHAR, ANY_CHAR_NOT_NL, and anything this analysis does not know: any text.
    default:
      return re.constructor.Op[re.op]?.startsWith('ANY_CHAR') ? anyChar() : anyMatch();
  }
}

function emptyString(): Info {
  return { canEmpty: true, exact: new Set(['']), prefix: new Set(), suffix: new Set(), match: ALL };
}

function anyChar(): Info {
  return { canEmpty: false, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL };
}

function anyMatch(): Info {
  return { canEmpty: true, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL };
}

function exactOf(strings: Iterable<string>): Info {
  const exact = new Set(strings);
  return { canEmpty: exact.has(''), exact, prefix: new Set(), suffix: new Set(), match: ALL };
}

/** `x+` (or `x{n,}`, `x{n,m}` with n ≥ 1): a match starts as x starts and ends as x ends, and contains x. */
function atLeastOnce(x: Info): Info {
  if (x.exact === null) return x;
  const info: Info = {
    canEmpty: x.canEmpty,
    exact: null,
    prefix: x.exact,
    suffix: new Set(x.exact),
    match: and(x.match, trigramsOf(x.exact)),
  };
  simplify(info, false);
  return info;
}

function concat(x: Info, y: Info): Info {
  if (x.exact !== null && y.exact !== null && x.exact.size * y.exact.size <= MAX_EXACT) {
    const info: Info = {
      canEmpty: x.canEmpty && y.canEmpty,
      exact: cross(x.exact, y.exact),
      prefix: new Set(),
      suffix: new Set(),
      match: and(x.match, y.match),
    };
    simplify(info, false);
    return info;
  }
  // An exact side whose strings would multiply past the bounds is taken as its prefixes and
  // suffixes (and trigrams) first: what is known across the boundary is then bounded too.
  // A suffix (prefix) set cut to one character first multiplies less: "X-" × \d is 260, "-" × \d 10.
  if (x.exact === null && y.exact !== null && x.suffix.size * y.exact.size > MAX_SET) x = { ...x, suffix: ends(x.suffix, 1, true) };
  if (y.exact === null && x.exact !== null && x.exact.size * y.prefix.size > MAX_SET) y = { ...y, prefix: ends(y.prefix, 1, false) };
  if (x.exact !== null && (y.exact !== null || x.exact.size * y.prefix.size > MAX_SET)) x = inexact(x);
  if (y.exact !== null && (x.exact !== null || x.suffix.size * y.exact.size > MAX_SET)) y = inexact(y);
  const info: Info = {
    canEmpty: x.canEmpty && y.canEmpty,
    exact: null,
    prefix: x.exact !== null ? cross(x.exact, y.prefix) : x.canEmpty ? union(x.prefix, y.exact ?? y.prefix) : x.prefix,
    suffix: y.exact !== null ? cross(x.suffix, y.exact) : y.canEmpty ? union(y.suffix, x.exact ?? x.suffix) : y.suffix,
    match: and(x.match, y.match),
  };
  // Where neither side is exact, the text across their boundary holds trigrams too.
  if (x.exact === null && y.exact === null) {
    let before = x.suffix;
    let after = y.prefix;
    if (before.size * after.size > MAX_OR) {
      if (before.size >= after.size) before = ends(before, 1, true);
      else after = ends(after, 1, false);
    }
    if (before.size * after.size <= MAX_OR && minLength(before) + minLength(after) >= 3)
      info.match = and(info.match, trigramsOf(cross(before, after)));
  }
  simplify(info, false);
  return info;
}

/** `x` with its exact set (when it has one) given up for prefixes, suffixes and trigrams. */
function inexact(x: Info): Info {
  if (x.exact === null) return x;
  const info: Info = {
    canEmpty: x.canEmpty,
    exact: null,
    prefix: x.exact,
    suffix: new Set(x.exact),
    match: and(x.match, trigramsOf(x.exact)),
  };
  simplify(info, false);
  return info;
}

function alternate(x: Info, y: Info): Info {
  const info: Info = { canEmpty: x.canEmpty || y.canEmpty, exact: null, prefix: new Set(), suffix: new Set(), match: ALL };
  if (x.exact !== null && y.exact !== null) {
    info.exact = union(x.exact, y.exact);
    info.match = or(x.match, y.match);
  } else {
    info.prefix = union(x.exact ?? x.prefix, y.exact ?? y.prefix);
    info.suffix = union(x.exact ?? x.suffix, y.exact ?? y.suffix);
    const matchOf = (side: Info) => (side.exact === null ? side.match : and(side.match, trigramsOf(side.exact)));
    info.match = or(matchOf(x), matchOf(y));
  }
  simplify(info, false);
  return info;
}

/**
 * Keeps the sets small: an exact set too large (or, with `force` or once its strings are
 * long, any) becomes its trigrams and its strings' ends as prefixes and suffixes; prefixes
 * and suffixes give their trigrams and are cut to their first (last) two characters.
 */
function simplify(info: Info, force: boolean): void {
  if (info.exact !== null) {
    const shortest = minLength(info.exact);
    if (info.exact.size > MAX_EXACT || shortest >= 4 || (force && shortest >= 3)) {
      info.match = and(info.match, trigramsOf(info.exact));
      info.prefix = info.exact;
      info.suffix = new Set(info.exact);
      info.exact = null;
    }
  }
  if (info.exact !== null) return;
  info.prefix = trimSet(info, info.prefix, false);
  info.suffix = trimSet(info, info.suffix, true);
}

/** The last (`suffix`) or first `length` code points of each string of `set`. */
function ends(set: Set<string>, length: number, suffix: boolean): Set<string> {
  const out = new Set<string>();
  for (const text of set) {
    const points = codePoints(text);
    out.add((suffix ? points.slice(-length) : points.slice(0, length)).join(''));
  }
  return out;
}

function trimSet(info: Info, set: Set<string>, suffix: boolean): Set<string> {
  if ([...set].some((text) => codePoints(text).length >= 3)) info.match = and(info.match, trigramsOf(set));
  // Two characters, or one when two make too many ([A-Z]{2}: 676 pairs, 26 letters).
  let trimmed = ends(set, 2, suffix);
  if (trimmed.size > MAX_SET) trimmed = ends(set, 1, suffix);
  // "" is a prefix (suffix) of every string: the set says nothing more than that.
  if (trimmed.has('') || trimmed.size > MAX_SET) return new Set(['']);
  // "a" known, "ab" adds nothing (kept strings have at most two code points).
  const kept = new Set<string>();
  for (const text of trimmed) {
    const points = codePoints(text);
    if (points.length < 2 || !trimmed.has(suffix ? points[1]! : points[0]!)) kept.add(text);
  }
  return kept;
}

/**
 * The text contains one of `strings`: the trigrams they all have, and one of the rest of each
 * (`all` when one is shorter than three characters, or when they are more than {@link MAX_OR}).
 */
function trigramsOf(strings: Set<string>): TrigramQuery {
  if (strings.size > MAX_OR) return ALL;
  const each: Array<Set<string>> = [];
  for (const text of strings) {
    const points = codePoints(text);
    if (points.length < 3) return ALL;
    const trigrams = new Set<string>();
    for (let i = 0; i + 3 <= points.length; i++) trigrams.add(points.slice(i, i + 3).join(''));
    each.push(trigrams);
  }
  if (each.length === 0) return NONE;
  // Factored: or(abc∧bcd, abc∧bce) is abc ∧ or(bcd, bce), read and tested once.
  const common = [...each[0]!].filter((trigram) => each.every((trigrams) => trigrams.has(trigram)));
  const shared = new Set(common);
  const single = new Set<string>();
  const several: TrigramQuery[] = [];
  for (const trigrams of each) {
    const own = [...trigrams].filter((trigram) => !shared.has(trigram));
    if (own.length === 0) return { op: 'and', trigrams: common, subs: [] };
    if (own.length === 1) single.add(own[0]!);
    else several.push({ op: 'and', trigrams: own, subs: [] });
  }
  // Built at once, not one or() at a time: that would copy the growing list for each string.
  const kept = distinct(several.filter((sub) => !hasAny(sub, single)));
  if (kept.length > MAX_OR_ANDS && kept.every((sub) => sub.op === 'and')) {
    // Many strings of several trigrams each (`^#{1,3} [A-Z]`: 78, as `\n## ` and `## a`): the
    // text has the first trigram of one of them, and the last of one. Weaker than one `and`
    // per string, but two tests of a line instead of dozens, and what the line's ends tell stays.
    const ends = (last: boolean): TrigramQuery => ({
      op: 'or',
      trigrams: [...new Set([...single, ...kept.flatMap((sub) => (sub.op === 'and' ? [sub.trigrams.at(last ? -1 : 0)!] : []))])],
      subs: [],
    });
    return and({ op: 'and', trigrams: common, subs: [] }, and(ends(false), ends(true)));
  }
  const rest: TrigramQuery = single.size === 0 && kept.length === 1 ? kept[0]! : { op: 'or', trigrams: [...single], subs: kept };
  return and({ op: 'and', trigrams: common, subs: [] }, rest);
}

/**
 * `query` with at most {@link MAX_QUERY_TRIGRAMS} distinct trigrams: the largest parts of an
 * `and` are dropped until it fits (an `and` of fewer parts is weaker, so still necessary),
 * and a query still too large requires nothing.
 */
function withinBudget(query: TrigramQuery): TrigramQuery {
  if (query.op === 'all' || query.op === 'none' || trigramCount(query) <= MAX_QUERY_TRIGRAMS) return query;
  if (query.op === 'or') return ALL;
  let budget = MAX_QUERY_TRIGRAMS - query.trigrams.length;
  if (budget < 0) return ALL;
  const kept: TrigramQuery[] = [];
  for (const sub of [...query.subs].sort((a, b) => trigramCount(a) - trigramCount(b))) {
    const size = trigramCount(sub);
    if (size > budget) continue;
    kept.push(sub);
    budget -= size;
  }
  return kept.reduce(and, { op: 'and', trigrams: query.trigrams, subs: [] } as TrigramQuery);
}

/** The number of trigrams `query` lists (repeats counted: the cost of reading and testing it). */
function trigramCount(query: TrigramQuery): number {
  if (query.op === 'all' || query.op === 'none') return 0;
  return query.subs.reduce((count, sub) => count + trigramCount(sub), query.trigrams.length);
}

function and(x: TrigramQuery, y: TrigramQuery): TrigramQuery {
  if (x.op === 'none' || y.op === 'none') return NONE;
  if (x.op === 'all') return y;
  if (y.op === 'all') return x;
  const trigrams = new Set<string>();
  const subs: TrigramQuery[] = [];
  for (const side of [x, y]) {
    if (side.op === 'and') {
      side.trigrams.forEach((trigram) => trigrams.add(trigram));
      subs.push(...side.subs);
    } else if (side.trigrams.length === 1 && side.subs.length === 0) trigrams.add(side.trigrams[0]!);
    else subs.push(side);
  }
  // and(t, or(t, u)) is t.
  const kept = distinct(subs.filter((sub) => !hasAny(sub, trigrams)));
  return trigrams.size === 0 && kept.length === 1 ? kept[0]! : { op: 'and', trigrams: [...trigrams], subs: kept };
}

function or(x: TrigramQuery, y: TrigramQuery): TrigramQuery {
  if (x.op === 'all' || y.op === 'all') return ALL;
  if (x.op === 'none') return y;
  if (y.op === 'none') return x;
  const trigrams = new Set<string>();
  const subs: TrigramQuery[] = [];
  for (const side of [x, y]) {
    if (side.op === 'or') {
      side.trigrams.forEach((trigram) => trigrams.add(trigram));
      subs.push(...side.subs);
    } else if (side.trigrams.length === 1 && side.subs.length === 0) trigrams.add(side.trigrams[0]!);
    else subs.push(side);
  }
  // or(t, and(t, u)) is t.
  const kept = distinct(subs.filter((sub) => !hasAny(sub, trigrams)));
  return trigrams.size === 0 && kept.length === 1 ? kept[0]! : { op: 'or', trigrams: [...trigrams], subs: kept };
}

/** True when `query` lists one of `trigrams` at its top. */
function hasAny(query: TrigramQuery, trigrams: ReadonlySet<string>): boolean {
  return query.op !== 'all' && query.op !== 'none' && query.trigrams.some((trigram) => trigrams.has(trigram));
}

/** `queries` without repeats. */
function distinct(queries: readonly TrigramQuery[]): TrigramQuery[] {
  const seen = new Map<string, TrigramQuery>();
  for (const query of queries) seen.set(queryKey(query), query);
  return [...seen.values()];
}

function queryKey(query: TrigramQuery): string {
  if (query.op === 'all' || query.op === 'none') return query.op;
  let key = queryKeys.get(query);
  if (key === undefined) {
    key = `${query.op}(${[...query.trigrams].sort().join('\u0000')}|${query.subs.map(queryKey).sort().join(',')})`;
    queryKeys.set(query, key);
  }
  return key;
}

/** Each query's key, computed once: queries are never changed once made. */
const queryKeys = new WeakMap<TrigramQuery, string>();

/**
 * Every string of `x` followed by one of `y`. Two anchors in a row (`^^`, `$$`, `$^` of an
 * empty line) stand for one line break, not two: where a string's last \n meets the next's
 * first, one is kept (a \r before it stays: `$$` as `\r\n` is what follows a \r\n line).
 */
function cross(x: Set<string>, y: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const a of x) for (const b of y) out.add(a.endsWith('\n') && b.startsWith('\n') ? a + b.slice(1) : a + b);
  return out;
}

function union(x: Set<string>, y: Set<string>): Set<string> {
  return new Set([...x, ...y]);
}

function minLength(strings: Set<string>): number {
  let shortest = Infinity;
  for (const text of strings) shortest = Math.min(shortest, codePoints(text).length);
  return shortest === Infinity ? 0 : shortest;
}

function codePoints(text: string): string[] {
  return Array.from(text);
}

/**
 * The folded forms of what `rune` matches: itself, or with `foldsCase` every rune of its
 * case-folding orbit (RE2's simple folding); null when there are too many to list.
 */
function runeFolds(rune: number, foldsCase: boolean): Set<string> | null {
  if (!foldsCase) return new Set([foldCase(String.fromCodePoint(rune))]);
  let folds = orbitFolds.get(rune);
  if (folds === undefined) {
    // re2js's parser expands a case-folded class to the whole orbit; U+10FFFF (which folds
    // to nothing) keeps a two-member class from being read back as a folded literal.
    const set = new RE2Set(RE2Set.UNANCHORED, RE2JS.CASE_INSENSITIVE);
    set.add(`[\\x{${rune.toString(16)}}\\x{10FFFF}]`);
    const runes = (set.regexps[0] as ParsedRegexp).runes;
    folds = classFolds(runes.filter((member) => member !== 0x10ffff));
    orbitFolds.set(rune, folds);
  }
  return folds;
}

const orbitFolds = new Map<number, Set<string> | null>();

/** The folded forms of a class's members (`runes`: lo, hi pairs); null when there are too many. */
function classFolds(runes: ArrayLike<number>): Set<string> | null {
  let count = 0;
  for (let i = 0; i + 1 < runes.length; i += 2) count += runes[i + 1]! - runes[i]! + 1;
  if (count > MAX_CLASS_RUNES) return null;
  const folds = new Set<string>();
  for (let i = 0; i + 1 < runes.length; i += 2) {
    for (let rune = runes[i]!; rune <= runes[i + 1]!; rune++) {
      folds.add(foldCase(String.fromCodePoint(rune)));
      if (folds.size > MAX_CLASS) return null;
    }
  }
  return folds;
}
