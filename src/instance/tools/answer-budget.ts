// Every answer fits in 40,000 characters of JSON (DESIGN.md "Answers"); longer ones are cut
// and say how to continue.
import { ANSWER_LIMIT } from '../../answer-limit.ts';

export { ANSWER_LIMIT };

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

/** How many characters of a caller's own text an answer repeats (a query, a value). */
export const ECHO_LIMIT = 1000;

/**
 * `text` as an answer repeats it: whole up to {@link ECHO_LIMIT} characters, else its start
 * and `…(N characters)`, so an overlong query cannot fill the answer (never cut inside a
 * surrogate pair).
 */
export function cutEcho(text: string): string {
  if (text.length <= ECHO_LIMIT) return text;
  const head = [...text.slice(0, ECHO_LIMIT)].slice(0, -1).join('');
  return `${head}…(${text.length} characters)`;
}

/**
 * A refusal's message within {@link ANSWER_LIMIT}: as it is when it fits, else its start and
 * its end (where the message says how to succeed) around a mark saying how much was left out,
 * which happens when it repeats an overlong argument.
 */
export function boundedMessage(message: string): string {
  if (message.length <= ANSWER_LIMIT) return message;
  const head = [...message.slice(0, 2000)].slice(0, -1).join('');
  const tail = [...message.slice(-2000)].slice(1).join('');
  return `${head} …[${message.length - head.length - tail.length} characters left out: the message repeated a very long argument]… ${tail}`;
}
