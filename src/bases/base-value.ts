// The value model of Bases expressions (obsidian.d.ts `Value` classes): kinds, truthiness,
// loose equality, ordering, and the one rule that renders a value as a table cell.
import { type DateParts, type DurationParts, durationMs, renderDate, parseDateText } from './base-dates.ts';

/**
 * A value of the language. Dates carry whether they have a time of day; durations keep
 * calendar months apart from milliseconds; a link keeps its text and, when it resolves,
 * the path of its file; a file value is a path (`context` marks `this`, whose members are
 * the context note's properties).
 */
export type BaseValue =
  | { kind: 'null' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | ({ kind: 'date' } & DateParts)
  | ({ kind: 'duration' } & DurationParts)
  | { kind: 'list'; items: BaseValue[] }
  | { kind: 'object'; entries: ReadonlyMap<string, BaseValue> }
  | { kind: 'link'; target: string; display: string | null; path: string | null; url: boolean }
  | { kind: 'file'; path: string; context: boolean }
  | { kind: 'tag'; name: string }
  | { kind: 'regex'; source: string; flags: string }
  | { kind: 'html' | 'icon' | 'image'; value: string };

/** The kind names, as `isType()` and messages use them. */
export type BaseValueKind = BaseValue['kind'];

export const NULL: BaseValue = { kind: 'null' };
export const TRUE: BaseValue = { kind: 'boolean', value: true };
export const FALSE: BaseValue = { kind: 'boolean', value: false };

/** A boolean value. */
export function bool(value: boolean): BaseValue {
  return value ? TRUE : FALSE;
}

/** A number value. */
export function num(value: number): BaseValue {
  return { kind: 'number', value };
}

/** A string value. */
export function str(value: string): BaseValue {
  return { kind: 'string', value };
}

/** A list value. */
export function list(items: BaseValue[]): BaseValue {
  return { kind: 'list', items };
}

/** A date value. */
export function date(parts: DateParts): BaseValue {
  return { kind: 'date', ms: parts.ms, time: parts.time };
}

/** A duration value. */
export function duration(parts: DurationParts): BaseValue {
  return { kind: 'duration', months: parts.months, ms: parts.ms };
}

/**
 * Truthiness, for filters, `if`, `!`, `&&`, `||` and `isTruthy()`: null, false, 0, NaN, "",
 * an empty list and an empty object are false; everything else (dates, links, files) is true.
 */
export function isTruthy(value: BaseValue): boolean {
  switch (value.kind) {
    case 'null':
      return false;
    case 'boolean':
      return value.value;
    case 'number':
      return value.value !== 0 && !Number.isNaN(value.value);
    case 'string':
      return value.value !== '';
    case 'list':
      return value.items.length > 0;
    case 'object':
      return value.entries.size > 0;
    case 'duration':
      return durationMs(value) !== 0;
    default:
      return true;
  }
}

/** `isEmpty()`: null, "", an empty list or object; a number, date or file is never empty. */
export function isEmptyValue(value: BaseValue): boolean {
  switch (value.kind) {
    case 'null':
      return true;
    case 'string':
      return value.value === '';
    case 'list':
      return value.items.length === 0;
    case 'object':
      return value.entries.size === 0;
    case 'html':
    case 'icon':
    case 'image':
      return value.value === '';
    default:
      return false;
  }
}

function withoutMd(path: string): string {
  return path.endsWith('.md') ? path.slice(0, -3) : path;
}

/** The link text of a path as Obsidian writes it: the file name, without `.md` for a note. */
export function linkTextOfPath(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return withoutMd(name);
}

function normaliseLinkText(text: string): string {
  return withoutMd(text.trim()).normalize('NFC').toLowerCase();
}

function tagKey(text: string): string {
  return text.replace(/^#/, '').toLowerCase();
}

/** Whether a plain string names the same file as `path` (the path, with or without `.md`, or its link text). */
function stringNamesPath(text: string, path: string): boolean {
  const clean = text.replace(/^\[\[|\]\]$/g, '');
  return clean === path || clean === withoutMd(path) || normaliseLinkText(clean) === normaliseLinkText(linkTextOfPath(path));
}

/**
 * Loose equality, for `==`, `!=` and list `contains` (obsidian.d.ts `ListValue.includes`:
 * "loosely equal"). Links are equal when they resolve to the same file, otherwise when their
 * text is the same; a link equals a file (or `this`) it resolves to; a tag equals its name
 * with or without `#`, ignoring case; dates compare by instant; lists and objects element by
 * element. No coercion between numbers and strings: `"1" == 1` is false.
 */
export function valuesEqual(a: BaseValue, b: BaseValue): boolean {
  if (a.kind === 'link' || b.kind === 'link') return linkEquals(a.kind === 'link' ? a : b, a.kind === 'link' ? b : a);
  if (a.kind === 'file' || b.kind === 'file') {
    const file = (a.kind === 'file' ? a : b) as Extract<BaseValue, { kind: 'file' }>;
    const other = a.kind === 'file' ? b : a;
    if (other.kind === 'file') return other.path === file.path;
    if (other.kind === 'string') return stringNamesPath(other.value, file.path);
    return false;
  }
  if (a.kind === 'tag' || b.kind === 'tag') {
    const other = a.kind === 'tag' ? b : a;
    const tag = (a.kind === 'tag' ? a : b) as Extract<BaseValue, { kind: 'tag' }>;
    if (other.kind === 'tag') return tagKey(other.name) === tagKey(tag.name);
    if (other.kind === 'string') return tagKey(other.value) === tagKey(tag.name);
    return false;
  }
  if (a.kind === 'date' && b.kind === 'string') return dateEqualsText(a, b.value);
  if (b.kind === 'date' && a.kind === 'string') return dateEqualsText(b, a.value);
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'null':
      return true;
    case 'boolean':
    case 'number':
    case 'string':
      return a.value === (b as typeof a).value;
    case 'date':
      return a.ms === (b as typeof a).ms;
    case 'duration':
      return durationMs(a) === durationMs(b as typeof a);
    case 'list': {
      const other = b as typeof a;
      return a.items.length === other.items.length && a.items.every((item, i) => valuesEqual(item, other.items[i]!));
    }
    case 'object': {
      const other = b as typeof a;
      if (a.entries.size !== other.entries.size) return false;
      for (const [key, value] of a.entries) {
        const otherValue = other.entries.get(key);
        if (otherValue === undefined || !valuesEqual(value, otherValue)) return false;
      }
      return true;
    }
    case 'regex':
      return a.source === (b as typeof a).source && a.flags === (b as typeof a).flags;
    default:
      return (a as { value: string }).value === (b as { value: string }).value;
  }
}

function dateEqualsText(value: DateParts, text: string): boolean {
  const parsed = parseDateText(text);
  return parsed !== null && parsed.ms === value.ms;
}

function linkEquals(link: BaseValue, other: BaseValue): boolean {
  if (link.kind !== 'link') return false;
  switch (other.kind) {
    case 'link':
      if (link.path !== null && other.path !== null) return link.path === other.path;
      return normaliseLinkText(link.target) === normaliseLinkText(other.target);
    case 'file':
      return link.path === other.path;
    case 'string':
      if (link.path !== null && stringNamesPath(other.value, link.path)) return true;
      return normaliseLinkText(other.value.replace(/^\[\[|\]\]$/g, '')) === normaliseLinkText(link.target);
    default:
      return false;
  }
}

/** A number for arithmetic and ordering: numbers, dates (epoch ms) and durations (ms); null otherwise. */
export function numericValue(value: BaseValue): number | null {
  switch (value.kind) {
    case 'number':
      return value.value;
    case 'date':
      return value.ms;
    case 'duration':
      return durationMs(value);
    default:
      return null;
  }
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Orders two values for `< <= > >=`: numbers and durations numerically, dates by instant
 * (a date against a date string too), strings, links and tags by their text with a
 * numeric-aware collation, booleans false < true. Returns null when they cannot be compared
 * (a number against a string, anything against null): the comparison is then false.
 */
export function compareValues(a: BaseValue, b: BaseValue): number | null {
  if (a.kind === 'null' || b.kind === 'null') return null;
  if (a.kind === 'date' && b.kind === 'string') {
    const parsed = parseDateText(b.value);
    return parsed === null ? null : Math.sign(a.ms - parsed.ms);
  }
  if (b.kind === 'date' && a.kind === 'string') {
    const parsed = parseDateText(a.value);
    return parsed === null ? null : Math.sign(parsed.ms - b.ms);
  }
  const an = numericValue(a);
  const bn = numericValue(b);
  if (an !== null && bn !== null && (a.kind === b.kind || (a.kind !== 'date' && b.kind !== 'date'))) {
    if (Number.isNaN(an) || Number.isNaN(bn)) return null;
    return an < bn ? -1 : an > bn ? 1 : 0;
  }
  if (a.kind === 'boolean' && b.kind === 'boolean') return Number(a.value) - Number(b.value);
  const textual = (value: BaseValue): string | null =>
    value.kind === 'string'
      ? value.value
      : value.kind === 'link'
        ? (value.display ?? value.target)
        : value.kind === 'tag'
          ? value.name
          : value.kind === 'file'
            ? linkTextOfPath(value.path)
            : null;
  const at = textual(a);
  const bt = textual(b);
  if (at !== null && bt !== null) return collator.compare(at, bt);
  return null;
}

const SORT_RANK: Record<string, number> = { number: 0, duration: 0, date: 1, string: 2, link: 2, tag: 2, file: 2, boolean: 3, list: 4 };

/**
 * The order of a sort key (Views.md "Sort"): type-aware through {@link compareValues};
 * lists by their rendered text; values of different kinds by a fixed rank
 * (number < date < text < boolean < list < other). Empty values are placed by the caller.
 */
export function compareForSort(a: BaseValue, b: BaseValue): number {
  const direct = a.kind === 'list' || b.kind === 'list' ? null : compareValues(a, b);
  if (direct !== null) return direct;
  const ra = SORT_RANK[a.kind] ?? 5;
  const rb = SORT_RANK[b.kind] ?? 5;
  if (ra !== rb) return ra - rb;
  return collator.compare(renderValue(a), renderValue(b));
}

/**
 * The text of a value in a table cell, the one documented rule (src/bases/SUPPORTED.md):
 * null and errors `""`; strings as they are; numbers as JavaScript prints them (NaN and
 * infinities `""`); booleans `true`/`false`; dates `YYYY-MM-DD`, or `YYYY-MM-DD HH:mm:ss`
 * in local time when they have a time; durations as milliseconds; lists each element
 * rendered, empty ones skipped, joined with `", "`; links `[[target]]` or
 * `[[target|display]]` (a URL as itself); files `[[name]]`; tags `#tag`; objects as JSON;
 * regular expressions `/source/flags`; icons, images and HTML as their text.
 */
export function renderValue(value: BaseValue): string {
  switch (value.kind) {
    case 'null':
      return '';
    case 'boolean':
      return value.value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value.value) ? String(value.value) : '';
    case 'string':
      return value.value;
    case 'date':
      return renderDate(value);
    case 'duration':
      return String(durationMs(value));
    case 'list':
      return value.items
        .map(renderValue)
        .filter((text) => text !== '')
        .join(', ');
    case 'object':
      return value.entries.size === 0 ? '' : JSON.stringify(plainValue(value));
    case 'link':
      if (value.url) return value.display === null ? value.target : `[${value.display}](${value.target})`;
      return value.display === null || value.display === value.target ? `[[${value.target}]]` : `[[${value.target}|${value.display}]]`;
    case 'file':
      return `[[${linkTextOfPath(value.path)}]]`;
    case 'tag':
      return `#${value.name}`;
    case 'regex':
      return `/${value.source}/${value.flags}`;
    default:
      return value.value;
  }
}

/** The text a value contributes to string concatenation and `toString()`: its cell text. */
export function textValue(value: BaseValue): string {
  return renderValue(value);
}

/** A JSON-like rendering of a value (objects, lists of values), for object cells. */
export function plainValue(value: BaseValue): unknown {
  switch (value.kind) {
    case 'null':
      return null;
    case 'boolean':
    case 'number':
      return value.value;
    case 'list':
      return value.items.map(plainValue);
    case 'object':
      return Object.fromEntries([...value.entries].map(([key, item]) => [key, plainValue(item)]));
    default:
      return renderValue(value);
  }
}
