// Graded statements: what a vault marks as open or assumed, for read_note's `unconfirmed`.
import { codeSpans, inSpans, scanMarkdownLines, type MarkdownLine } from './markdown-lines.ts';
import { struckRanges } from './struck.ts';

/**
 * One unconfirmed statement. `line`: 1-based in the whole file. `grade`: exactly as written,
 * e.g. `"2 vermutet"`. `shorthand`: `'open'` for grade 1, `'assumption'` for 2 and 3.
 * `statement`: the table row or the line it stands in, trimmed, on one line, cut at
 * {@link STATEMENT_MAX} characters with an ellipsis.
 */
export interface Graded {
  line: number;
  grade: string;
  shorthand: 'assumption' | 'open';
  statement: string;
}

/** Longest statement returned, in characters, the ellipsis included. */
export const STATEMENT_MAX = 300;

const WORD = String.raw`\p{L}[\p{L}\p{M}'’-]*`;
const CELL_GRADE = new RegExp(String.raw`^([*_]{0,2})([1-4] +${WORD})\1$`, 'u');
const PAREN_GRADE = new RegExp(String.raw`\(([1-4] +${WORD})\)`, 'gu');
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const WIKI_LINK = /\[\[[^[\]\n]*\]\]/g;

/**
 * The unconfirmed statements of `text` (spec: read_note `unconfirmed`). The rule:
 *
 * A grade is a digit from 1 to 4, a space and one word, such as `2 vermutet` or `1 open`,
 * written either as the whole content of a table cell (`| 2 vermutet |`, optionally in
 * `*`/`**`/`_` emphasis) or anywhere in a line in parentheses (`(1 open)`). Grade 1 is
 * `open`, grades 2 and 3 are `assumption`, grade 4 is confirmed and not listed. Grades in
 * the frontmatter, in code (fenced, indented, or a code span), inside a wiki-link, or
 * struck through (`~~(2 vermutet)~~`) do not count. The statement is the table row, or
 * the line the grade stands in, trimmed to one line and cut at 300 characters with "…".
 * A line with several grades gives one entry per grade.
 */
export function findGrades(text: string, lines: MarkdownLine[] = scanMarkdownLines(text)): Graded[] {
  const graded: Graded[] = [];
  const tableRows = findTableRows(lines);
  for (const line of lines) {
    if (line.kind !== 'text') continue;
    const s = line.text;
    if (!/[1-4]/.test(s)) continue;
    const spans = codeSpans(s);
    const struck = struckRanges(s);
    const links = [...s.matchAll(WIKI_LINK)].map((m): [number, number] => [m.index, m.index + m[0].length]);
    const excluded = (index: number) => inSpans(spans, index) || inSpans(struck, index) || inSpans(links, index);
    const found: Array<{ at: number; grade: string }> = [];
    if (tableRows.has(line.number)) {
      for (const cell of tableCells(s)) {
        const match = CELL_GRADE.exec(cell.text.trim());
        if (match && !excluded(cell.start)) found.push({ at: cell.start, grade: match[2]! });
      }
    }
    for (const match of s.matchAll(PAREN_GRADE)) {
      if (!excluded(match.index)) found.push({ at: match.index, grade: match[1]! });
    }
    found.sort((a, b) => a.at - b.at);
    for (const { grade } of found) {
      const digit = grade[0];
      if (digit === '4') continue;
      graded.push({ line: line.number, grade, shorthand: digit === '1' ? 'open' : 'assumption', statement: statementOf(s) });
    }
  }
  return graded;
}

/** A line trimmed, whitespace runs collapsed, cut at {@link STATEMENT_MAX} with "…". */
export function statementOf(line: string): string {
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length <= STATEMENT_MAX ? flat : `${flat.slice(0, STATEMENT_MAX - 1).trimEnd()}…`;
}

/** Line numbers of GFM table rows: a header, its delimiter row, and the rows below it. */
function findTableRows(lines: MarkdownLine[]): Set<number> {
  const rows = new Set<number>();
  for (let i = 1; i < lines.length; i++) {
    const delimiter = lines[i]!;
    const header = lines[i - 1]!;
    if (delimiter.kind !== 'text' || header.kind !== 'text') continue;
    if (!delimiter.text.includes('|') && !header.text.includes('|')) continue;
    if (!DELIMITER_ROW.test(delimiter.text) || !delimiter.text.includes('-')) continue;
    rows.add(header.number);
    let j = i + 1;
    while (j < lines.length && lines[j]!.kind === 'text' && lines[j]!.text.includes('|')) {
      rows.add(lines[j]!.number);
      j++;
    }
    i = j;
  }
  return rows;
}

/** The cells of a table row, split at pipes that are not escaped and not in code spans. */
function tableCells(row: string): Array<{ text: string; start: number }> {
  const spans = codeSpans(row);
  const cells: Array<{ text: string; start: number }> = [];
  let start = 0;
  for (let i = 0; i <= row.length; i++) {
    if (i < row.length && (row[i] !== '|' || row[i - 1] === '\\' || inSpans(spans, i))) continue;
    const text = row.slice(start, i);
    if (text.trim() !== '' || (start > 0 && i < row.length)) {
      const lead = text.length - text.trimStart().length;
      cells.push({ text, start: start + lead });
    }
    start = i + 1;
  }
  return cells;
}
