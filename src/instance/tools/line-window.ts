// A long line shown as the part around a match, so one line cannot fill an answer.

/** Longest line shown whole, in characters; longer lines are cut around the match. */
export const LINE_WINDOW = 300;

/**
 * `line` as an answer shows it: whole when at most {@link LINE_WINDOW} characters, else the
 * {@link LINE_WINDOW} characters around the match at `start` (UTF-16 offset, `length` long),
 * with "…" where it was cut; `shortened` says which. Never splits a surrogate pair.
 */
export function lineWindow(line: string, start: number, length: number): { text: string; shortened: boolean } {
  if (line.length <= LINE_WINDOW) return { text: line, shortened: false };
  const span = Math.min(length, LINE_WINDOW);
  let from = Math.max(0, Math.min(start - Math.floor((LINE_WINDOW - span) / 2), line.length - LINE_WINDOW));
  let to = Math.min(line.length, from + LINE_WINDOW);
  if (isLowSurrogate(line.charCodeAt(from))) from++;
  if (isLowSurrogate(line.charCodeAt(to))) to--;
  return { text: `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`, shortened: true };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
