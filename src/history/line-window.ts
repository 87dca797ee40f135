// A window of lines out of a text, cut to what one answer carries (spec: "Answers", 40,000 characters of JSON).
import { ANSWER_LIMIT } from '../answer-limit.ts';
import { lineStarts } from '../notes/lines.ts';
import { VaultError } from '../vault-error.ts';

/** How many characters `text` takes inside a JSON string: escapes counted (`"` is `\"`), the quotes around it not. */
export function jsonLength(text: string): number {
  return JSON.stringify(text).length - 2;
}

/**
 * The longest start of `text` whose {@link jsonLength} is at most `maxChars`, never ending
 * inside a surrogate pair. Binary search over at most `maxChars` characters (escaping only
 * lengthens), so a line of megabytes costs no more than one of 40,000 characters.
 */
export function jsonPrefix(text: string, maxChars: number): string {
  let low = 0;
  let high = Math.min(text.length, Math.max(maxChars, 0));
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (jsonLength(text.slice(0, mid)) <= maxChars) low = mid;
    else high = mid - 1;
  }
  if (low > 0 && /[\ud800-\udbff]/.test(text[low - 1] ?? '')) low -= 1;
  return text.slice(0, low);
}

/** Lines `from_line`–`to_line` (from 1) of a text, how many it has, and whether the window was cut. */
export interface LineWindow {
  from_line: number;
  to_line: number;
  total_lines: number;
  content: string;
  truncated: boolean;
}

/**
 * Lines `fromLine`–`toLine` of `text` (defaults: 1 and the last line), exactly as they stand,
 * line endings included; cut after the last whole line whose content fits in `maxChars`
 * measured as JSON ({@link jsonLength}: a quote or a backslash counts twice), a single longer
 * line cut inside; then `truncated` is true and `to_line` is the last line given.
 * An empty text gives an empty window (`from_line` 1, `to_line` 0). Throws VaultError
 * `bad_arguments` when `fromLine` is past the end or after `toLine`; a `toLine` past the end
 * is read as the end. `what` names the text in refusals ("the diff", "the note").
 */
export function lineWindow(
  text: string,
  fromLine: number | undefined,
  toLine: number | undefined,
  what: string,
  maxChars = ANSWER_LIMIT,
): LineWindow {
  const starts = lineStarts(text);
  const total = starts.length;
  const from = fromLine ?? 1;
  if (toLine !== undefined && toLine < from) {
    throw new VaultError('bad_arguments', `to_line ${toLine} is before from_line ${from}. Give a to_line at or after from_line.`, {
      from_line: from,
      to_line: toLine,
    });
  }
  if (total === 0) return { from_line: 1, to_line: 0, total_lines: 0, content: '', truncated: false };
  if (from > total) {
    throw new VaultError(
      'bad_arguments',
      `from_line ${from} is past the end: ${what} has ${total} line${total === 1 ? '' : 's'}. Give a from_line from 1 to ${total}.`,
      { from_line: from, total_lines: total },
    );
  }
  const to = Math.min(toLine ?? total, total);
  const start = starts[from - 1] ?? 0;
  const lineEnd = (line: number) => starts[line] ?? text.length; // the end of line `line`, its line break included
  // Measured line by line, so a window of a huge text costs what one answer carries, not the text.
  let last = from - 1;
  let used = 0;
  while (last < to) {
    const size = jsonLength(text.slice(starts[last] ?? 0, lineEnd(last + 1)));
    if (used + size > maxChars) break;
    used += size;
    last += 1;
  }
  if (last === to) return { from_line: from, to_line: to, total_lines: total, content: text.slice(start, lineEnd(to)), truncated: false };
  if (last >= from)
    return { from_line: from, to_line: last, total_lines: total, content: text.slice(start, lineEnd(last)), truncated: true };
  return {
    from_line: from,
    to_line: from,
    total_lines: total,
    content: jsonPrefix(text.slice(start, lineEnd(from)), maxChars),
    truncated: true,
  };
}
