// The headings of a note (ATX and setext), and the section under one of them.
import { scanMarkdownLines, type MarkdownLine } from './markdown-lines.ts';

/** A heading: its 1-based line in the whole file, its level 1–6, and its text without the #s. */
export interface Heading {
  line: number;
  level: number;
  text: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const ATX_CLOSING = /(?:^|[ \t]+)#+$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const NOT_PARAGRAPH = /^(?: {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)| {0,3}>| {0,3}(?:[-*_][ \t]*){3,}$| {0,3}\|)/;

/**
 * Finds the headings of `text` (CommonMark "ATX headings" and "Setext headings"):
 * - ATX: 1–6 `#` at the start (up to 3 spaces before), then a space or tab or the end;
 *   a closing run of `#` after a space is stripped, and so is surrounding whitespace.
 *   A heading with no text is left out (it names nothing to read).
 * - setext: a paragraph line underlined by `===` (level 1) or `---` (level 2); the
 *   frontmatter's closing fence is never an underline. A paragraph of several lines
 *   becomes one heading, its lines joined by a space, on the paragraph's first line.
 * - none inside fenced or indented code, the frontmatter, a blockquote or a list item.
 * `lines` may be passed when the caller already scanned the text.
 */
export function findHeadings(text: string, lines: MarkdownLine[] = scanMarkdownLines(text)): Heading[] {
  const headings: Heading[] = [];
  let paragraph: MarkdownLine[] = [];
  for (const line of lines) {
    if (line.kind !== 'text') {
      paragraph = [];
      continue;
    }
    const atx = ATX.exec(line.text);
    if (atx) {
      paragraph = [];
      const content = (atx[2] ?? '').replace(ATX_CLOSING, '').trim();
      if (content !== '') headings.push({ line: line.number, level: atx[1]!.length, text: content });
      continue;
    }
    const setext = SETEXT.exec(line.text);
    if (setext && paragraph.length > 0) {
      headings.push({
        line: paragraph[0]!.number,
        level: setext[1]![0] === '=' ? 1 : 2,
        text: paragraph.map((l) => l.text.trim()).join(' '),
      });
      paragraph = [];
      continue;
    }
    if (paragraph.length === 0 && NOT_PARAGRAPH.test(line.text)) continue;
    paragraph.push(line);
  }
  return headings;
}

/**
 * The section under `heading` (spec: read_note `heading`: "down to the next heading of the
 * same or a higher level"): from the heading's line to the line before the next heading of
 * level ≤ its own, or to the last line of `text`. `heading` is the text without the #s
 * (leading #s are ignored); an exact match wins, else the first case-insensitive match with
 * whitespace collapsed. Returns null when no heading matches (callers answer `heading_not_found`
 * with the headings there are).
 */
export function sectionRange(
  text: string,
  headings: readonly Heading[],
  heading: string,
): { heading: Heading; fromLine: number; toLine: number } | null {
  const wanted = heading.replace(/^\s*#+\s*/, '').trim();
  const loose = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  let index = headings.findIndex((h) => h.text === wanted);
  if (index === -1) index = headings.findIndex((h) => loose(h.text) === loose(wanted));
  if (index === -1) return null;
  const found = headings[index]!;
  const next = headings.slice(index + 1).find((h) => h.level <= found.level);
  const totalLines = countLines(text);
  return { heading: found, fromLine: found.line, toLine: next ? next.line - 1 : totalLines };
}

function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) if (i + 1 < text.length) count++;
  return count;
}
