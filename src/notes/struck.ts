// Struck-through text (`~~…~~`): what a vault has withdrawn, for find_references' `struck`.
import { codeSpans, inSpans } from './markdown-lines.ts';

const STRIKE = /(?<!~)~~(?!~)(?=\S)(.+?)(?<=\S)(?<!~)~~(?!~)/g;

/**
 * The struck-through stretches of one line, as `[start, end)` UTF-16 offsets that include
 * the `~~` markers (GFM "Strikethrough": exactly two tildes on each side, no space just
 * inside them). Tildes inside inline code spans strike nothing. Sorted by start.
 */
export function struckRanges(line: string): Array<[start: number, end: number]> {
  if (!line.includes('~~')) return [];
  const spans = codeSpans(line);
  const ranges: Array<[number, number]> = [];
  STRIKE.lastIndex = 0;
  for (const match of line.matchAll(STRIKE)) {
    const start = match.index;
    const end = start + match[0].length;
    if (inSpans(spans, start) || inSpans(spans, end - 1)) continue;
    ranges.push([start, end]);
  }
  return ranges;
}

/** True when UTF-16 offset `index` of `line` lies inside struck-through text. */
export function isStruckAt(line: string, index: number): boolean {
  return struckRanges(line).some(([start, end]) => index >= start && index < end);
}
