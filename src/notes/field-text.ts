// A frontmatter value as one line of text, the way list_notes shows a field.

const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}/;

/**
 * `value` as text (spec: list_notes `fields`: "Dates come as YYYY-MM-DD, lists joined with
 * commas"): a string as it is, except an ISO date-time (`2026-01-05T10:00:00Z`) which
 * becomes its date part as written (no time-zone shift); a number or boolean via `String`;
 * a `Date` as its UTC `YYYY-MM-DD`; a list as its items' texts joined with `", "`; any other
 * object as compact JSON; null and undefined as `''`.
 */
export function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    const dateTime = ISO_DATE_TIME.exec(value);
    return dateTime ? dateTime[1]! : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (Array.isArray(value)) return value.map(fieldText).join(', ');
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
