// Lines of a note: how every tool counts them (from 1, over the whole file, frontmatter included).

/**
 * The lines of `text`, without their `\n` or `\r\n`. A final newline ends the last line and
 * does not start a new one, so `"a\nb\n"` has two lines and `""` has none. A lone `\r` is
 * not a line break (Git and Obsidian agree). Line `n` of a note is `splitLines(text)[n - 1]`.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * Where each line starts, as UTF-16 offsets into `text`: `starts[n - 1]` is the offset of
 * line `n`. Has one entry per line of {@link splitLines} (none for `""`).
 */
export function lineStarts(text: string): number[] {
  if (text === '') return [];
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i + 1 < text.length) starts.push(i + 1);
  }
  return starts;
}

/**
 * The 1-based line that holds UTF-16 offset `offset`, given {@link lineStarts} of the text.
 * Binary search: O(log lines). An offset past the end belongs to the last line.
 */
export function lineOfOffset(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** `"\r\n"` when the text's first line break is CRLF, else `"\n"`: the ending a writer keeps. */
export function lineEnding(text: string): '\n' | '\r\n' {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * Line `line` (from 1) of `text` without its `\n` or `\r\n`, given {@link lineStarts} of
 * the text: `splitLines(text)[line - 1]` without splitting the whole text.
 */
export function lineAt(text: string, starts: readonly number[], line: number): string {
  let end = starts[line] ?? text.length;
  if (text[end - 1] === '\n') end--;
  if (text[end - 1] === '\r') end--;
  return text.slice(starts[line - 1] ?? 0, end);
}

/**
 * {@link lineStarts} as an `Int32Array` (4 bytes a line, copied between threads cheaply):
 * `starts[n - 1]` is the UTF-16 offset of line `n`. Counts first, then fills, so a note of
 * a million lines never grows an array.
 */
export function lineStartArray(text: string): Int32Array {
  if (text === '') return new Int32Array(0);
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) if (i + 1 < text.length) count++;
  const starts = new Int32Array(count);
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && n < count; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}
