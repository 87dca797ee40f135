// The functions of the Bases language (help.obsidian.md/bases/functions): global functions,
// fields and methods of each value kind. Arguments arrive unevaluated, so `if`, `filter`,
// `map` and `reduce` evaluate only what they need.
import { RE2JS } from 're2js';
import { byteCache } from '../byte-cache.ts';
import { addDuration, dateField, durationField, formatDate, parseDateText, parseDuration, relativeDate, startOfDay } from './base-dates.ts';
import {
  type BaseValue,
  FALSE,
  NULL,
  TRUE,
  bool,
  compareForSort,
  compareValues,
  date,
  duration,
  isEmptyValue,
  isTruthy,
  linkTextOfPath,
  list,
  num,
  numericValue,
  str,
  textValue,
  valuesEqual,
} from './base-value.ts';
import { type BaseVault, fileBasename, fileExtension, fileFolder, fileName } from './base-vault.ts';

/**
 * An evaluation failure: the message, the 0-based offset in the expression it concerns, and
 * `formula`, the name of the formula whose failure the message already tells (`formula "x"
 * failed: …`), so an expression using it passes it on instead of wrapping it again.
 */
export class BaseEvalError extends Error {
  readonly position: number;
  readonly formula: string | null;

  constructor(message: string, position: number, formula: string | null = null) {
    super(message);
    this.position = position;
    this.formula = formula;
    this.name = 'BaseEvalError';
  }
}

/** An unevaluated argument: evaluates its expression, with lambda locals (`value`, `index`, `acc`) when given. */
export type Thunk = (locals?: Readonly<Record<string, BaseValue>>) => BaseValue;

/** What functions may consult: the files, the clock, the `.base` file's path, the current row. */
export interface FunctionContext {
  vault: BaseVault;
  now: number;
  basePath: string;
  /** Offset of the call in the expression, for errors. */
  position: number;
}

type FileValue = Extract<BaseValue, { kind: 'file' }>;

function fail(context: FunctionContext, message: string): never {
  throw new BaseEvalError(message, context.position);
}

function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function fileValue(path: string): BaseValue {
  return { kind: 'file', path, context: false };
}

/** Evaluates every argument, in order. */
function all(args: readonly Thunk[]): BaseValue[] {
  return args.map((arg) => arg());
}

function argText(context: FunctionContext, value: BaseValue | undefined, what: string): string {
  if (value === undefined || value.kind === 'null') fail(context, `${what} needs a text argument`);
  return value.kind === 'string' ? value.value : textValue(value);
}

function argNumber(context: FunctionContext, value: BaseValue | undefined, what: string, fallback?: number): number {
  if (value === undefined || value.kind === 'null') {
    if (fallback !== undefined) return fallback;
    fail(context, `${what} needs a number argument`);
  }
  if (value.kind !== 'number') fail(context, `${what} needs a number, not ${article(value.kind)}`);
  return value.value;
}

// ---------------------------------------------------------------- regular expressions

/** The bound of the compiled regular expressions kept (per thread), in bytes, estimated from the pattern's length (README "Memory"). */
export const BASE_REGEX_CACHE_BYTES = 1024 * 1024;
const regexCache = byteCache<string, RE2JS>({ maxBytes: BASE_REGEX_CACHE_BYTES, sizeOf: (_regex, key) => 4096 + 128 * key.length });

/**
 * Compiles a regular expression with RE2 (linear time: a pattern from a `.base` file can
 * never hang the server). Flags `i`, `m`, `s` map to RE2's; `g` is read by `replace`.
 */
function compileRegex(context: FunctionContext, source: string, flags: string): RE2JS {
  const key = `${flags}/${source}`;
  let compiled = regexCache.get(key);
  if (compiled === undefined) {
    let re2Flags = 0;
    if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
    if (flags.includes('s')) re2Flags |= RE2JS.DOTALL;
    try {
      compiled = RE2JS.compile(source, re2Flags);
    } catch (error) {
      fail(
        context,
        `the regular expression /${source}/ is not supported (${(error as Error).message}); lookarounds and backreferences are not available`,
      );
    }
    regexCache.set(key, compiled);
  }
  return compiled;
}

// ---------------------------------------------------------------- global functions

/**
 * Calls a global function (Functions.md "Global"): `if` (lazy), `date`, `now`, `today`,
 * `duration`, `number`, `list`, `link`, `file`, `min`, `max`, `random`, `image`, `icon`,
 * `html`, `escapeHTML`; and the early-access `not(x)` and `empty(x)` some published bases
 * still use. Throws BaseEvalError for an unknown function or a bad argument.
 */
export function callGlobal(name: string, args: readonly Thunk[], context: FunctionContext): BaseValue {
  switch (name) {
    case 'if': {
      if (args.length < 2 || args.length > 3) fail(context, 'if() takes a condition, a value when true and optionally a value when false');
      return isTruthy(args[0]!()) ? args[1]!() : args.length === 3 ? args[2]!() : NULL;
    }
    case 'now':
      return date({ ms: context.now, time: true });
    case 'today':
      return date({ ms: startOfDay(context.now), time: false });
    case 'date': {
      const value = args[0]?.() ?? NULL;
      if (value.kind === 'date') return value;
      if (value.kind === 'null') return NULL;
      if (value.kind === 'number') return date({ ms: value.value, time: true });
      const text = textValue(value);
      const parsed = parseDateText(text);
      if (parsed === null) fail(context, `date() cannot read ${JSON.stringify(text)}; write it as "YYYY-MM-DD" or "YYYY-MM-DD HH:mm:ss"`);
      return date(parsed);
    }
    case 'duration': {
      const value = args[0]?.() ?? NULL;
      if (value.kind === 'duration' || value.kind === 'null') return value;
      if (value.kind === 'number') return duration({ months: 0, ms: value.value });
      const parsed = parseDuration(textValue(value));
      if (parsed === null)
        fail(
          context,
          `duration() cannot read ${JSON.stringify(textValue(value))}; write a number and a unit such as "7d", "1 month" or "2h"`,
        );
      return duration(parsed);
    }
    case 'number': {
      const value = args[0]?.() ?? NULL;
      switch (value.kind) {
        case 'null':
          return NULL;
        case 'number':
          return value;
        case 'boolean':
          return num(value.value ? 1 : 0);
        case 'date':
        case 'duration':
          return num(numericValue(value)!);
        default: {
          const text = textValue(value).trim();
          const parsed = Number(text);
          if (text === '' || Number.isNaN(parsed)) fail(context, `number() cannot read ${JSON.stringify(text)} as a number`);
          return num(parsed);
        }
      }
    }
    case 'list': {
      const value = args[0]?.() ?? NULL;
      if (value.kind === 'list') return value;
      return value.kind === 'null' ? list([]) : list([value]);
    }
    case 'link': {
      const value = args[0]?.() ?? NULL;
      const display = args[1]?.();
      const displayText = display === undefined || display.kind === 'null' ? null : textValue(display);
      if (value.kind === 'null') return NULL;
      if (value.kind === 'file')
        return { kind: 'link', target: linkTextOfPath(value.path), display: displayText, path: value.path, url: false };
      if (value.kind === 'link') return displayText === null ? value : { ...value, display: displayText };
      return context.vault.linkValue(textValue(value), context.basePath, displayText);
    }
    case 'file': {
      const value = args[0]?.() ?? NULL;
      return asFile(value, context);
    }
    case 'min':
    case 'max': {
      const values = all(args)
        .flatMap((value) => (value.kind === 'list' ? value.items : [value]))
        .filter((value) => value.kind !== 'null');
      if (values.length === 0) return NULL;
      let best = values[0]!;
      for (const value of values.slice(1)) {
        const order = compareValues(value, best);
        if (order === null) fail(context, `${name}() needs numbers or dates, not ${article(value.kind)} and ${article(best.kind)}`);
        if ((name === 'max' && order > 0) || (name === 'min' && order < 0)) best = value;
      }
      return best;
    }
    case 'random':
      return num(Math.random());
    case 'escapeHTML': {
      const value = args[0]?.() ?? NULL;
      return str(
        textValue(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
      );
    }
    case 'html':
    case 'icon':
    case 'image': {
      const value = args[0]?.() ?? NULL;
      if (value.kind === 'null') return NULL;
      if (name === 'image' && value.kind === 'file') return { kind: 'image', value: `![[${fileName(value.path)}]]` };
      if (name === 'image' && value.kind === 'link' && !value.url) return { kind: 'image', value: `![[${value.target}]]` };
      return { kind: name, value: value.kind === 'link' && value.url ? value.target : textValue(value) };
    }
    case 'not':
      return bool(!isTruthy(args[0]?.() ?? NULL));
    case 'empty':
      return bool(isEmptyValue(args[0]?.() ?? NULL));
    default:
      fail(context, `there is no function "${name}"`);
  }
}

function asFile(value: BaseValue, context: FunctionContext): BaseValue {
  switch (value.kind) {
    case 'file':
      return value.context ? fileValue(value.path) : value;
    case 'link':
      return value.path === null ? NULL : fileValue(value.path);
    case 'string': {
      const text = value.value.replace(/^\[\[|\]\]$/g, '');
      if (context.vault.get(text) !== undefined) return fileValue(text);
      const resolved = context.vault.resolve(text, context.basePath);
      return resolved === null ? NULL : fileValue(resolved);
    }
    default:
      return NULL;
  }
}

// ---------------------------------------------------------------- fields

/**
 * A field of a value (`x.name` that is not a call): `length` of strings and lists; date
 * fields `year` … `millisecond`; duration totals `years` … `milliseconds`; object keys;
 * file fields (`name`, `basename`, `path`, `folder`, `ext`, `size`, `ctime`, `mtime`,
 * `tags`, `links`, `embeds`, `backlinks`, `properties`, `file`); on `this`, `file` is
 * the context file and any other name one of its note properties. Null when absent.
 */
export function fieldOf(value: BaseValue, name: string, context: FunctionContext): BaseValue {
  switch (value.kind) {
    case 'null':
      return NULL;
    case 'string':
      return name === 'length' ? num([...value.value].length) : NULL;
    case 'list':
      return name === 'length' ? num(value.items.length) : NULL;
    case 'date': {
      const field = dateField(value, name);
      return field === null ? NULL : num(field);
    }
    case 'duration': {
      const field = durationField(value, name);
      return field === null ? NULL : num(field);
    }
    case 'object':
      return value.entries.get(name) ?? NULL;
    case 'file':
      if (value.context) {
        if (name === 'file') return fileValue(value.path);
        if (name === 'note') return context.vault.properties(value.path);
        return context.vault.property(value.path, name);
      }
      return fileField(value, name, context);
    case 'link':
      return name === 'length' ? num(value.target.length) : NULL;
    default:
      return NULL;
  }
}

function fileField(file: FileValue, name: string, context: FunctionContext): BaseValue {
  const { vault } = context;
  const note = vault.get(file.path);
  switch (name) {
    case 'file':
      return file;
    case 'name':
      return str(fileName(file.path));
    case 'basename':
      return str(fileBasename(file.path));
    case 'path':
      return str(file.path);
    case 'folder':
      return str(fileFolder(file.path));
    case 'ext':
      return str(fileExtension(file.path));
    case 'size':
      return note === undefined ? NULL : num(note.size);
    case 'ctime':
      return note?.ctime ? date({ ms: note.ctime.getTime(), time: true }) : NULL;
    case 'mtime':
      return note?.mtime ? date({ ms: note.mtime.getTime(), time: true }) : NULL;
    case 'tags': {
      const seen = new Set<string>();
      const tags: BaseValue[] = [];
      for (const tag of note?.tags ?? []) {
        const clean = tag.replace(/^#/, '');
        if (clean === '' || seen.has(clean.toLowerCase())) continue;
        seen.add(clean.toLowerCase());
        tags.push({ kind: 'tag', name: clean });
      }
      return list(tags);
    }
    case 'links':
      return list((note?.links ?? []).map((ref) => vault.linkRefValue(ref)));
    case 'embeds':
      return list((note?.embeds ?? []).map((ref) => vault.linkRefValue(ref)));
    case 'backlinks':
      return list(vault.backlinks(file.path).map(fileValue));
    case 'properties':
      return vault.properties(file.path);
    default:
      return NULL;
  }
}

// ---------------------------------------------------------------- methods

/**
 * Calls `receiver.name(args…)` by the receiver's kind (Functions.md): the methods of any
 * value (`isTruthy`, `isType`, `toString`, `isEmpty`), then those of strings, numbers,
 * dates, lists, links, files, objects and regular expressions. A method of strings also
 * works on a link (its target) and a tag (`#tag`). On null every method but `isEmpty`,
 * `isTruthy`, `isType` and `toString` gives null, so `if(due, …)` guards are optional.
 * Throws BaseEvalError for a method the kind does not have or a bad argument.
 */
export function callMethod(receiver: BaseValue, name: string, args: readonly Thunk[], context: FunctionContext): BaseValue {
  switch (name) {
    case 'isTruthy':
      return bool(isTruthy(receiver));
    case 'isEmpty':
      return bool(isEmptyValue(receiver));
    case 'toString':
      return str(textValue(receiver));
    case 'isType': {
      const wanted = argText(context, args[0]?.(), 'isType()').toLowerCase();
      const kind = receiver.kind === 'file' ? 'file' : receiver.kind;
      if (wanted === kind) return TRUE;
      if (wanted === 'string' && receiver.kind === 'tag') return TRUE;
      if ((wanted === 'text' && receiver.kind === 'string') || (wanted === 'array' && receiver.kind === 'list')) return TRUE;
      return FALSE;
    }
  }
  switch (receiver.kind) {
    case 'null':
      return NULL;
    case 'string':
      return stringMethod(receiver.value, name, args, context);
    case 'tag':
      return stringMethod(`#${receiver.name}`, name, args, context);
    case 'number':
      return numberMethod(receiver.value, name, args, context);
    case 'date':
      return dateMethod(receiver, name, args, context);
    case 'list':
      return listMethod(receiver.items, name, args, context);
    case 'link':
      return linkMethod(receiver, name, args, context);
    case 'file':
      return fileMethod(receiver, name, args, context);
    case 'object':
      if (name === 'keys') return list([...receiver.entries.keys()].map(str));
      if (name === 'values') return list([...receiver.entries.values()]);
      break;
    case 'regex':
      if (name === 'matches') {
        const text = args[0]?.() ?? NULL;
        if (text.kind === 'null') return FALSE;
        return bool(compileRegex(context, receiver.source, receiver.flags).test(textValue(text)));
      }
      break;
    case 'boolean':
    case 'duration':
      break;
    default:
      break;
  }
  fail(context, `${article(receiver.kind)} has no function "${name}"`);
}

function stringMethod(text: string, name: string, args: readonly Thunk[], context: FunctionContext): BaseValue {
  const texts = (): string[] => all(args).map((value) => textValue(value));
  switch (name) {
    case 'contains':
      return bool(text.includes(argText(context, args[0]?.(), 'contains()')));
    case 'containsAll':
      return bool(texts().every((part) => text.includes(part)));
    case 'containsAny':
      return bool(texts().some((part) => text.includes(part)));
    case 'startsWith':
      return bool(text.startsWith(argText(context, args[0]?.(), 'startsWith()')));
    case 'endsWith':
      return bool(text.endsWith(argText(context, args[0]?.(), 'endsWith()')));
    case 'lower':
      return str(text.toLowerCase());
    case 'upper':
      return str(text.toUpperCase());
    case 'title':
      return str(text.replace(/(^|[\s\-_/(])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()));
    case 'trim':
      return str(text.trim());
    case 'reverse':
      return str([...text].reverse().join(''));
    case 'repeat': {
      const count = argNumber(context, args[0]?.(), 'repeat()');
      if (count < 0 || count > 10_000 || !Number.isInteger(count)) fail(context, 'repeat() needs a whole number from 0 to 10000');
      return str(text.repeat(count));
    }
    case 'slice': {
      const start = argNumber(context, args[0]?.(), 'slice()', 0);
      const end = args[1] === undefined ? undefined : argNumber(context, args[1](), 'slice()', text.length);
      return str(text.slice(start, end));
    }
    case 'replace': {
      const pattern = args[0]?.() ?? NULL;
      const replacement = argText(context, args[1]?.() ?? str(''), 'replace()');
      if (pattern.kind === 'regex') {
        const matcher = compileRegex(context, pattern.source, pattern.flags).matcher(text);
        return str(pattern.flags.includes('g') ? matcher.replaceAll(replacement) : matcher.replaceFirst(replacement));
      }
      const search = argText(context, pattern, 'replace()');
      return str(search === '' ? text : text.split(search).join(replacement));
    }
    case 'split': {
      const separator = args[0]?.() ?? NULL;
      const limit = args[1] === undefined ? undefined : argNumber(context, args[1](), 'split()');
      let parts: string[];
      if (separator.kind === 'regex') parts = compileRegex(context, separator.source, separator.flags).split(text, -1);
      else parts = text.split(argText(context, separator, 'split()'));
      return list((limit === undefined ? parts : parts.slice(0, Math.max(0, limit))).map(str));
    }
    case 'matches': {
      const pattern = args[0]?.() ?? NULL;
      if (pattern.kind !== 'regex') fail(context, 'matches() needs a regular expression such as /abc/');
      return bool(compileRegex(context, pattern.source, pattern.flags).test(text));
    }
    default:
      fail(context, `text has no function "${name}"`);
  }
}

function numberMethod(value: number, name: string, args: readonly Thunk[], context: FunctionContext): BaseValue {
  switch (name) {
    case 'abs':
      return num(Math.abs(value));
    case 'ceil':
      return num(Math.ceil(value));
    case 'floor':
      return num(Math.floor(value));
    case 'round': {
      const digits = argNumber(context, args[0]?.(), 'round()', 0);
      if (digits === 0) return num(Math.round(value));
      const factor = 10 ** digits;
      return num(Math.round((value + Number.EPSILON) * factor) / factor);
    }
    case 'toFixed': {
      const digits = argNumber(context, args[0]?.(), 'toFixed()', 0);
      if (digits < 0 || digits > 100 || !Number.isInteger(digits)) fail(context, 'toFixed() needs a whole number of digits from 0 to 100');
      return str(Number.isFinite(value) ? value.toFixed(digits) : '');
    }
    default:
      fail(context, `a number has no function "${name}"`);
  }
}

function dateMethod(
  value: Extract<BaseValue, { kind: 'date' }>,
  name: string,
  args: readonly Thunk[],
  context: FunctionContext,
): BaseValue {
  switch (name) {
    case 'date':
      return date({ ms: startOfDay(value.ms), time: false });
    case 'format':
      return str(formatDate(value, argText(context, args[0]?.(), 'format()')));
    case 'time':
      return str(formatDate(value, 'HH:mm:ss'));
    case 'relative':
      return str(relativeDate(value, context.now));
    default:
      fail(context, `a date has no function "${name}"`);
  }
}

function listMethod(items: readonly BaseValue[], name: string, args: readonly Thunk[], context: FunctionContext): BaseValue {
  const includes = (wanted: BaseValue): boolean => items.some((item) => valuesEqual(item, wanted));
  const numbers = (): number[] => items.map((item) => numericValue(item)).filter((n): n is number => n !== null && !Number.isNaN(n));
  switch (name) {
    case 'contains':
      return bool(includes(args[0]?.() ?? NULL));
    case 'containsAll':
      return bool(all(args).every(includes));
    case 'containsAny':
      return bool(all(args).some(includes));
    case 'filter': {
      const predicate = args[0];
      if (predicate === undefined) fail(context, 'filter() needs a condition, such as filter(value > 2)');
      return list(items.filter((item, index) => isTruthy(predicate({ value: item, index: num(index) }))));
    }
    case 'map': {
      const mapper = args[0];
      if (mapper === undefined) fail(context, 'map() needs an expression, such as map(value + 1)');
      return list(items.map((item, index) => mapper({ value: item, index: num(index) })));
    }
    case 'reduce': {
      const step = args[0];
      if (step === undefined) fail(context, 'reduce() needs an expression and a start value, such as reduce(acc + value, 0)');
      let acc = args[1]?.() ?? NULL;
      items.forEach((item, index) => {
        acc = step({ value: item, index: num(index), acc });
      });
      return acc;
    }
    case 'flat':
      return list(items.flatMap((item) => (item.kind === 'list' ? item.items : [item])));
    case 'join': {
      const separator = args[0] === undefined ? ',' : argText(context, args[0](), 'join()');
      return str(items.map(textValue).join(separator));
    }
    case 'reverse':
      return list([...items].reverse());
    case 'slice': {
      const start = argNumber(context, args[0]?.(), 'slice()', 0);
      const end = args[1] === undefined ? undefined : argNumber(context, args[1](), 'slice()', items.length);
      return list(items.slice(start, end));
    }
    case 'sort':
      return list(
        [...items].sort((a, b) => (a.kind === 'null' ? (b.kind === 'null' ? 0 : 1) : b.kind === 'null' ? -1 : compareForSort(a, b))),
      );
    case 'unique': {
      const kept: BaseValue[] = [];
      for (const item of items) if (!kept.some((other) => valuesEqual(other, item))) kept.push(item);
      return list(kept);
    }
    case 'first':
      return items[0] ?? NULL;
    case 'last':
      return items[items.length - 1] ?? NULL;
    case 'sum':
      return num(numbers().reduce((a, b) => a + b, 0));
    case 'mean':
    case 'average': {
      const values = numbers();
      return values.length === 0 ? NULL : num(values.reduce((a, b) => a + b, 0) / values.length);
    }
    case 'median': {
      const values = numbers().sort((a, b) => a - b);
      if (values.length === 0) return NULL;
      const middle = Math.floor(values.length / 2);
      return num(values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2);
    }
    case 'stddev': {
      const values = numbers();
      if (values.length === 0) return NULL;
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return num(Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length));
    }
    case 'min':
    case 'max':
    case 'earliest':
    case 'latest': {
      const wantDates = name === 'earliest' || name === 'latest';
      const candidates = items.filter((item) => (wantDates ? item.kind === 'date' : item.kind === 'number'));
      if (candidates.length === 0) return NULL;
      const greatest = name === 'max' || name === 'latest';
      return candidates.reduce((best, item) => {
        const order = compareValues(item, best) ?? 0;
        return greatest ? (order > 0 ? item : best) : order < 0 ? item : best;
      });
    }
    default:
      fail(context, `a list has no function "${name}"`);
  }
}

function linkMethod(link: Extract<BaseValue, { kind: 'link' }>, name: string, args: readonly Thunk[], context: FunctionContext): BaseValue {
  switch (name) {
    case 'asFile':
      return link.path === null ? NULL : fileValue(link.path);
    case 'linksTo': {
      if (link.path === null) return FALSE;
      const target = targetPath(args[0]?.() ?? NULL, link.path, context);
      const source = context.vault.get(link.path);
      return bool(target !== null && source !== undefined && [...source.links, ...source.embeds].some((ref) => ref.path === target));
    }
    default:
      // A link read as text: `file.embeds[0].containsAny("jpg", "png")` works in Obsidian.
      return stringMethod(link.target, name, args, context);
  }
}

/** The path a `hasLink`/`linksTo` argument names: a file, a link, or a path or name resolved from `fromPath`. */
function targetPath(value: BaseValue, fromPath: string, context: FunctionContext): string | null {
  switch (value.kind) {
    case 'file':
      return value.path;
    case 'link':
      return value.path;
    case 'string': {
      const text = value.value.replace(/^\[\[|\]\]$/g, '');
      if (context.vault.get(text) !== undefined) return text;
      return context.vault.resolve(text, fromPath);
    }
    default:
      return null;
  }
}

function fileMethod(file: FileValue, name: string, args: readonly Thunk[], context: FunctionContext): BaseValue {
  const { vault } = context;
  switch (name) {
    case 'asLink': {
      const display = args[0]?.();
      return {
        kind: 'link',
        target: linkTextOfPath(file.path),
        display: display === undefined || display.kind === 'null' ? null : textValue(display),
        path: file.path,
        url: false,
      };
    }
    case 'hasLink': {
      const wanted = args[0]?.() ?? NULL;
      const note = vault.get(file.path);
      if (note === undefined || wanted.kind === 'null') return FALSE;
      const refs = [...note.links, ...note.embeds];
      const target = targetPath(wanted, file.path, context);
      if (target !== null) return bool(refs.some((ref) => ref.path === target));
      // An unresolved link still matches a link written the same way.
      const text = (wanted.kind === 'link' ? wanted.target : textValue(wanted)).toLowerCase();
      return bool(refs.some((ref) => ref.path === null && ref.target.toLowerCase() === text));
    }
    case 'hasProperty':
      return bool(vault.hasProperty(file.path, argText(context, args[0]?.(), 'hasProperty()')));
    case 'hasTag': {
      const note = vault.get(file.path);
      const tags = (note?.tags ?? []).map((tag) => tag.replace(/^#/, '').toLowerCase());
      const wanted = all(args).map((value) => textValue(value).replace(/^#/, '').toLowerCase());
      return bool(wanted.some((tag) => tags.some((have) => have === tag || have.startsWith(`${tag}/`))));
    }
    case 'inFolder': {
      const folder = argText(context, args[0]?.() ?? str(''), 'inFolder()').replace(/^\/+|\/+$/g, '');
      if (folder === '') return TRUE;
      return bool(file.path.startsWith(`${folder}/`));
    }
    default:
      fail(context, `a file has no function "${name}"`);
  }
}

// ---------------------------------------------------------------- operators

/** Adds durations to dates: `date ± duration`, a duration string or milliseconds. */
export function dateArithmetic(
  left: Extract<BaseValue, { kind: 'date' }>,
  right: BaseValue,
  sign: 1 | -1,
  context: FunctionContext,
): BaseValue | null {
  if (right.kind === 'duration') return date(addDuration(left, right, sign));
  if (right.kind === 'string') {
    const parsed = parseDuration(right.value);
    if (parsed === null) return null;
    return date(addDuration(left, parsed, sign));
  }
  if (right.kind === 'number') return date(addDuration(left, { months: 0, ms: right.value }, sign));
  void context;
  return null;
}
