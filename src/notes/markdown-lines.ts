// The block structure a notes scanner needs: which lines are frontmatter, code or text, and
// where inline code spans sit, so headings, links, tags and grades are never found in code.
import { frontmatterBlock, type Frontmatter } from './frontmatter.ts';

/**
 * One line of a note, classified.
 * - `number`: 1-based over the whole file. `start`: UTF-16 offset of `text` in the file
 *   (after a BOM on line 1). `text`: the line without its line break (and without a BOM).
 * - `kind`: `'frontmatter'` (the block and its fences), `'fence'` (a fenced code block, its
 *   fences included), `'code'` (an indented code block), `'blank'`, or `'text'`.
 */
export interface MarkdownLine {
  number: number;
  start: number;
  text: string;
  kind: 'frontmatter' | 'fence' | 'code' | 'blank' | 'text';
}

const FENCE_OPEN = /^(\s*)(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;
const QUOTE_PREFIX = /^(?: {0,3}>[ \t]?)+/;

/**
 * Classifies every line of `text` (CommonMark block rules, as far as notes need them):
 * - fenced code opens at a line of 3+ backticks or tildes (a backtick fence's info string
 *   holds no backtick) and closes at a line of the same character, at least as long, with
 *   nothing after it; an unclosed fence runs to the end. Fences count inside blockquotes and
 *   callouts (`> ```), and inside list items at any indentation.
 * - indented code is a line indented 4+ columns (a tab counts 4) after a blank line or
 *   after more indented code, outside a list (an indented line in a list is list content,
 *   as in Obsidian's nested lists).
 * - the frontmatter block (see {@link frontmatterBlock}; pass it when already split) is never text;
 *   its YAML is not parsed here.
 */
export function scanMarkdownLines(
  text: string,
  frontmatter: Pick<Frontmatter, 'present' | 'endLine' | 'bom'> = frontmatterBlock(text),
): MarkdownLine[] {
  const lines: MarkdownLine[] = [];
  let offset = 0;
  let number = 0;
  let fence: { char: string; length: number } | null = null;
  let previous: MarkdownLine['kind'] = 'blank';
  let inList = false;
  while (offset < text.length) {
    number++;
    const br = text.indexOf('\n', offset);
    const end = br === -1 ? text.length : br;
    let start = offset;
    if (number === 1 && frontmatter.bom) start++;
    let line = text.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    offset = br === -1 ? text.length : br + 1;

    let kind: MarkdownLine['kind'];
    const unquoted = line.replace(QUOTE_PREFIX, '');
    if (frontmatter.present && number <= frontmatter.endLine) {
      kind = 'frontmatter';
    } else if (fence) {
      kind = 'fence';
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(unquoted);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = null;
    } else if (line.trim() === '') {
      kind = 'blank';
    } else if (indentWidth(line) >= 4 && !inList && (previous === 'blank' || previous === 'code')) {
      kind = 'code';
    } else {
      const open = FENCE_OPEN.exec(unquoted);
      const opens = open && (indentWidth(open[1]!) <= 3 || inList) && !(open[2]![0] === '`' && open[3]!.includes('`'));
      if (opens) {
        fence = { char: open[2]![0]!, length: open[2]!.length };
        kind = 'fence';
      } else {
        kind = 'text';
        if (LIST_ITEM.test(line)) inList = true;
        else if (indentWidth(line) === 0 && previous === 'blank') inList = false;
      }
    }
    lines.push({ number, start, text: line, kind });
    previous = kind;
  }
  return lines;
}

/** Columns of leading whitespace: a tab advances to the next multiple of 4. */
export function indentWidth(line: string): number {
  let width = 0;
  for (const char of line) {
    if (char === ' ') width++;
    else if (char === '\t') width += 4 - (width % 4);
    else break;
  }
  return width;
}

/**
 * The inline code spans of one line, as `[start, end)` offsets into it (backticks
 * included). A run of n backticks opens a span that the next run of exactly n backticks
 * closes (CommonMark "Code spans"); a backslash-escaped backtick opens nothing; an
 * unclosed run is plain text. Spans across lines are not followed: a note's links sit on one line.
 */
export function codeSpans(line: string): Array<[number, number]> {
  if (!line.includes('`')) return [];
  const spans: Array<[number, number]> = [];
  let i = 0;
  while (i < line.length) {
    const char = line[i];
    if (char === '\\') {
      i += 2;
      continue;
    }
    if (char !== '`') {
      i++;
      continue;
    }
    let run = i;
    while (line[run] === '`') run++;
    const length = run - i;
    let search = run;
    let closed = -1;
    while (search < line.length) {
      const next = line.indexOf('`', search);
      if (next === -1) break;
      let after = next;
      while (line[after] === '`') after++;
      if (after - next === length) {
        closed = after;
        break;
      }
      search = after;
    }
    if (closed === -1) {
      i = run;
    } else {
      spans.push([i, closed]);
      i = closed;
    }
  }
  return spans;
}

/** True when `index` lies inside one of `spans` (as returned by {@link codeSpans}). */
export function inSpans(spans: ReadonlyArray<readonly [number, number]>, index: number): boolean {
  for (const [start, end] of spans) if (index >= start && index < end) return true;
  return false;
}
