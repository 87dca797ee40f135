// A window of lines out of a text, cut to what one answer carries (spec: "Answers", 40,000 characters).
import { lineStarts } from '../notes/lines.ts';
import { VaultError } from '../vault-error.ts';

/** How many characters of text one answer carries before it is cut. */
export const MAX_ANSWER_CHARS = 40_000;

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
 * line endings included; cut after the last whole line that fits in `maxChars` (a single
 * longer line is cut inside), then `truncated` is true and `to_line` is the last line given.
 * An empty text gives an empty window (`from_line` 1, `to_line` 0). Throws VaultError
 * `bad_arguments` when `fromLine` is past the end or after `toLine`; a `toLine` past the end
 * is read as the end. `what` names the text in refusals ("the diff", "the note").
 */
export function lineWindow(text: string, fromLine: number | undefined, toLine: number | undefined, what: string, maxChars = MAX_ANSWER_CHARS): LineWindow {
  const starts = lineStarts(text);
  const total = starts.length;
  const from = fromLine ?? 1;
  if (toLine !== undefined && toLine < from) {
    throw new VaultError('bad_arguments', `to_line ${toLine} is before from_line ${from}. Give a to_line at or after from_line.`, { from_line: from, to_line: toLine });
  }
  if (total === 0) return { from_line: 1, to_line: 0, total_lines: 0, content: '', truncated: false };
  if (from > total) {
    throw new VaultError('bad_arguments', `from_line ${from} is past the end: ${what} has ${total} line${total === 1 ? '' : 's'}. Give a from_line from 1 to ${total}.`, { from_line: from, total_lines: total });
  }
  const to = Math.min(toLine ?? total, total);
  const start = starts[from - 1] ?? 0;
  const end = to === total ? text.length : (starts[to] ?? text.length);
  if (end - start <= maxChars) return { from_line: from, to_line: to, total_lines: total, content: text.slice(start, end), truncated: false };
  let last = from;
  while (last < to && (starts[last + 1] ?? text.length) - start <= maxChars) last += 1;
  let cutEnd = Math.min(starts[last] ?? text.length, start + maxChars);
  if (/[\ud800-\udbff]/.test(text[cutEnd - 1] ?? '')) cutEnd -= 1; // never split a surrogate pair
  return { from_line: from, to_line: last, total_lines: total, content: text.slice(start, cutEnd), truncated: true };
}
