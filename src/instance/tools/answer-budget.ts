// Every answer fits in 40,000 characters of JSON (DESIGN.md "Answers"); longer ones are cut
// and say how to continue.

/** The most characters one answer's JSON may take. */
export const ANSWER_LIMIT = 40_000;

/**
 * Keeps as many of `items` (from the front) as fit: `build(kept, cut)` makes the answer for
 * the first `kept` items, `cut` telling whether some were left out; the largest count whose
 * JSON stays within {@link ANSWER_LIMIT} wins (at least none). Binary search, so a page of
 * hundreds of items is measured a handful of times.
 */
export function fitAnswer<T, A>(items: readonly T[], build: (kept: readonly T[], cut: boolean) => A): { answer: A; kept: number } {
  const fits = (count: number) => {
    const answer = build(items.slice(0, count), count < items.length);
    return JSON.stringify(answer).length <= ANSWER_LIMIT ? answer : null;
  };
  const whole = fits(items.length);
  if (whole !== null) return { answer: whole, kept: items.length };
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (fits(mid) !== null) low = mid;
    else high = mid - 1;
  }
  return { answer: build(items.slice(0, low), true), kept: low };
}

/**
 * The `note` of a page asked for with an `offset` at or past the last of `total` items
 * (`noun`: "notes", "matches"…): says so and names offsets that give a page, the first and
 * the last (`limit` items each), in a call to `tool`.
 */
export function pastTheEnd(offset: number, total: number, noun: string, tool: string, limit: number): string {
  const last = Math.floor((total - 1) / limit) * limit;
  return `offset ${offset} is past the last of the ${total} ${noun}: call ${tool} again with offset 0 for the first page${last > 0 ? `, or offset ${last} for the last` : ''}.`;
}
