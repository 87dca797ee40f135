// Days and times given by a caller, read in the server's local time, as dates Git reads exactly.
import { VaultError } from '../vault-error.ts';

const MOMENT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;

/**
 * Seconds since the epoch of `text`, a day `YYYY-MM-DD` or a day and a time
 * `YYYY-MM-DDTHH:MM`, in the local time zone of the machine the server runs on (spec:
 * search_history `since`/`until`). A day alone is its first second for `'start'`, its last
 * second for `'end'` ("a day counts to its end"); a time is that minute's first second.
 * Throws VaultError `bad_arguments` naming `field` for a day that does not exist
 * (2026-02-30), or naming the time for a time of day that does not (24:00, 10:60).
 */
export function localMoment(text: string, edge: 'start' | 'end', field: string): number {
  const match = MOMENT.exec(text);
  const [year, month, day, hour, minute] = (match?.slice(1) ?? []).map((part) => (part === undefined ? undefined : Number(part)));
  const invalid = (): never => {
    throw new VaultError(
      'bad_arguments',
      `${field} ${JSON.stringify(text)} is not a day that exists. Write it as YYYY-MM-DD, for example "2026-09-24"${field === 'since' || field === 'until' ? ', or with a time, "2026-09-24T18:00"' : ''}.`,
      { [field]: text },
    );
  };
  if (year === undefined || month === undefined || day === undefined) return invalid();
  const midnight = new Date(year, month - 1, day, 0, 0, 0, 0);
  if (midnight.getFullYear() !== year || midnight.getMonth() !== month - 1 || midnight.getDate() !== day) return invalid();
  // The day exists: a wrong time is named as the time (24:00 would otherwise roll into the next day).
  if (hour !== undefined && (hour > 23 || (minute ?? 0) > 59)) {
    const time = text.slice(text.indexOf('T') + 1);
    throw new VaultError(
      'bad_arguments',
      `${field} ${JSON.stringify(text)}: the day is fine, but ${time} is not a time of day; hours go from 00 to 23 and minutes from 00 to 59. For the end of the day write "${text.slice(0, 10)}T23:59", or the day alone.`,
      { [field]: text },
    );
  }
  const date = new Date(year, month - 1, day, hour ?? 0, minute ?? 0, 0, 0);
  if (hour === undefined && edge === 'end') {
    const next = new Date(year, month - 1, day + 1, 0, 0, 0, 0);
    return Math.floor(next.getTime() / 1000) - 1;
  }
  return Math.floor(date.getTime() / 1000);
}

/**
 * Git's `--since`/`--until`/`--before` value for epoch second `seconds`: `@<seconds> +0000`,
 * the form of a commit header, which Git reads exactly for every second from 1970 on. (A bare
 * `@<seconds>` is read as seconds only from 9 digits on, March 1973, and ISO 8601 dates before
 * 1970 are misread.) Null before 1970: Git keeps no commit dated earlier (its timestamps are
 * unsigned), so a `since` then is no limit and an `until` then matches nothing; callers decide.
 */
export function gitDate(seconds: number): string | null {
  return seconds < 0 ? null : `@${seconds} +0000`;
}
