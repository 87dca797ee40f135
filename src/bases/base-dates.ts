// Dates and durations of the Bases language: parsing, calendar arithmetic and Moment.js formats.
import moment from 'moment';

/** A date as the language sees it: epoch milliseconds (local time) and whether it has a time of day. */
export interface DateParts {
  ms: number;
  time: boolean;
}

/** A duration: calendar months (years count 12) plus exact milliseconds, so "1M" adds a calendar month. */
export interface DurationParts {
  months: number;
  ms: number;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Reads a date written as `YYYY-MM-DD` (a date without time, local midnight) or
 * `YYYY-MM-DD HH:mm[:ss[.SSS]]` / ISO 8601 with `T` and an optional offset (a date with
 * time). Returns null for anything else, and for impossible dates such as 2023-02-30.
 */
export function parseDateText(text: string): DateParts | null {
  const trimmed = text.trim();
  if (DATE_ONLY.test(trimmed)) {
    const parsed = moment(trimmed, 'YYYY-MM-DD', true);
    return parsed.isValid() ? { ms: parsed.valueOf(), time: false } : null;
  }
  if (DATE_TIME.test(trimmed)) {
    const parsed = moment(trimmed.replace(' ', 'T'), moment.ISO_8601, true);
    return parsed.isValid() ? { ms: parsed.valueOf(), time: true } : null;
  }
  return null;
}

/**
 * A JavaScript Date from a YAML 1.1 parser or a caller: at UTC midnight it is taken as a
 * date without time (what was written was `2020-08-21`), otherwise as an instant.
 */
export function dateFromJs(date: Date): DateParts {
  const utcMidnight =
    date.getUTCHours() === 0 && date.getUTCMinutes() === 0 && date.getUTCSeconds() === 0 && date.getUTCMilliseconds() === 0;
  if (utcMidnight) return { ms: new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()).getTime(), time: false };
  return { ms: date.getTime(), time: true };
}

/** Renders a date as a cell: `YYYY-MM-DD`, or `YYYY-MM-DD HH:mm:ss` in local time when it has a time. */
export function renderDate(date: DateParts): string {
  return moment(date.ms).format(date.time ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD');
}

/** Formats with Moment.js tokens (`YYYY`, `MMMM`, `dddd`, `HH:mm`, …), as `date.format()` does. */
export function formatDate(date: DateParts, format: string): string {
  return moment(date.ms).format(format);
}

/** `date.relative()`: a readable distance to now, such as "3 days ago" (Moment's `from`). */
export function relativeDate(date: DateParts, now: number): string {
  return moment(date.ms).from(now);
}

/** Midnight (local time) of the day of `ms`. */
export function startOfDay(ms: number): number {
  return moment(ms).startOf('day').valueOf();
}

/** A date's field as the language names it: year, month (1–12), day, hour, minute, second, millisecond. */
export function dateField(date: DateParts, field: string): number | null {
  const m = moment(date.ms);
  switch (field) {
    case 'year':
      return m.year();
    case 'month':
      return m.month() + 1;
    case 'day':
      return m.date();
    case 'hour':
      return m.hour();
    case 'minute':
      return m.minute();
    case 'second':
      return m.second();
    case 'millisecond':
      return m.millisecond();
    default:
      return null;
  }
}

const UNIT_MS: Record<string, number> = {
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};

/** The unit a duration word names; `M` is a month and `m` a minute, so only those two are case-sensitive. */
function durationUnit(word: string): string | null {
  if (word === 'M') return 'M';
  if (word === 'm') return 'm';
  const lower = word.toLowerCase();
  if (['y', 'yr', 'yrs', 'year', 'years'].includes(lower)) return 'y';
  if (['month', 'months', 'mo'].includes(lower)) return 'M';
  if (['w', 'week', 'weeks'].includes(lower)) return 'w';
  if (['d', 'day', 'days'].includes(lower)) return 'd';
  if (['h', 'hr', 'hrs', 'hour', 'hours'].includes(lower)) return 'h';
  if (['min', 'mins', 'minute', 'minutes'].includes(lower)) return 'm';
  if (['s', 'sec', 'secs', 'second', 'seconds'].includes(lower)) return 's';
  if (['ms', 'millisecond', 'milliseconds'].includes(lower)) return 'ms';
  return null;
}

const DURATION_TERM = /([+-]?\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*,?\s*/y;

/**
 * Reads a duration string: one or more `<number> <unit>` terms, the space optional
 * (`"1M"`, `"7d"`, `"1 day"`, `"1 year 2 months"`), units as in Obsidian's date arithmetic
 * (y, M, w, d, h, m, s and their long forms). Returns null when the text is not a duration.
 */
export function parseDuration(text: string): DurationParts | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  let months = 0;
  let ms = 0;
  DURATION_TERM.lastIndex = 0;
  let position = 0;
  while (position < trimmed.length) {
    DURATION_TERM.lastIndex = position;
    const match = DURATION_TERM.exec(trimmed);
    if (match === null) return null;
    const amount = Number(match[1]);
    const unit = durationUnit(match[2]!);
    if (unit === null) return null;
    if (unit === 'y') months += amount * 12;
    else if (unit === 'M') months += amount;
    else ms += amount * UNIT_MS[unit]!;
    position = DURATION_TERM.lastIndex;
  }
  return { months, ms };
}

/** Adds (`sign` 1) or subtracts (`sign` -1) a duration; months are calendar months. */
export function addDuration(date: DateParts, duration: DurationParts, sign: 1 | -1): DateParts {
  const m = moment(date.ms);
  if (duration.months !== 0) {
    const whole = Math.trunc(duration.months);
    m.add(sign * whole, 'months');
    const rest = duration.months - whole;
    if (rest !== 0) m.add(sign * rest * 30.436875 * 86_400_000, 'milliseconds');
  }
  if (duration.ms !== 0) m.add(sign * duration.ms, 'milliseconds');
  const time = date.time || duration.ms % 86_400_000 !== 0;
  return { ms: m.valueOf(), time };
}

/** A duration's total in milliseconds (a month counts as Moment's average month). */
export function durationMs(duration: DurationParts): number {
  return moment.duration({ months: duration.months, milliseconds: duration.ms }).asMilliseconds();
}

const DURATION_FIELDS: Record<string, moment.unitOfTime.Base> = {
  years: 'years',
  months: 'months',
  weeks: 'weeks',
  days: 'days',
  hours: 'hours',
  minutes: 'minutes',
  seconds: 'seconds',
  milliseconds: 'milliseconds',
};

/**
 * A duration's field: the whole duration expressed in that unit, possibly fractional
 * (`(now() - birthday).years.floor()`), as in kepano's Bases skill. Null for an unknown field.
 */
export function durationField(duration: DurationParts, field: string): number | null {
  const unit = DURATION_FIELDS[field];
  if (unit === undefined) return null;
  return moment.duration({ months: duration.months, milliseconds: duration.ms }).as(unit);
}
