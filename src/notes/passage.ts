// Finding the one passage an edit replaces: exactly once, overlaps counted, CRLF read as LF.
import { VaultError } from '../vault-error.ts';
import { closestPassage, type ClosestPassage } from './closest-passage.ts';

/** Where a passage stands: UTF-16 offsets `[start, end)` in the original text, and its first line (from 1). */
export interface PassageRange {
  start: number;
  end: number;
  line: number;
}

/** A passage replaced in a text: the new text, where the passage stood, and where the new text now stands. */
export interface PassageReplacement {
  text: string;
  /** The line the replaced passage started on, counting from 1. */
  line: number;
  /** `[start, end)` of the inserted text in the new text (UTF-16 offsets). */
  start: number;
  end: number;
}

/** Characters of the closest passage a refusal shows. */
const MAX_SHOWN = 600;

/**
 * Every place `passage` occurs in `text`, overlapping occurrences included (`"aa"` occurs
 * twice in `"aaa"`). Matching reads CRLF as LF on both sides, so a passage copied with LF
 * line breaks finds its place in a CRLF note; the ranges are offsets in the original text
 * (a match that ends on a line break covers its `\r\n`). An empty passage occurs once in an
 * empty text and nowhere else counts (it is refused by {@link findPassage}).
 */
export function passageOccurrences(text: string, passage: string): PassageRange[] {
  const { normal, crBefore } = toLf(text);
  const needle = passage.replace(/\r\n/g, '\n');
  if (needle === '') return text === '' ? [{ start: 0, end: 0, line: 1 }] : [];
  const ranges: PassageRange[] = [];
  let lineCount = 1;
  let counted = 0;
  for (let at = normal.indexOf(needle); at !== -1; at = normal.indexOf(needle, at + 1)) {
    for (let i = normal.indexOf('\n', counted); i !== -1 && i < at; i = normal.indexOf('\n', i + 1)) {
      lineCount++;
      counted = i + 1;
    }
    if (counted < at) counted = at;
    ranges.push({ start: toOriginal(at, crBefore), end: toOriginal(at + needle.length, crBefore), line: lineCount });
  }
  return ranges;
}

/**
 * The one place `passage` stands in the note at `path` (spec: edit_note `old_text`: "It has
 * to appear exactly once"). Throws VaultError `ambiguous_passage` naming the lines where it
 * occurs, or `passage_not_found` naming the closest passage and its line, so the caller can
 * correct `old_text`; `bad_arguments` for an empty passage in a non-empty note.
 */
export function findPassage(text: string, passage: string, path: string): PassageRange {
  if (passage === '' && text !== '') {
    throw new VaultError(
      'bad_arguments',
      `old_text is empty, and an empty passage stands everywhere in "${path}". To add lines, send the neighbouring line as old_text and that line plus the new ones as new_text.`,
      { path },
    );
  }
  const ranges = passageOccurrences(text, passage);
  if (ranges.length === 1) return ranges[0]!;
  if (ranges.length > 1) {
    const lines = [...new Set(ranges.map((range) => range.line))];
    throw new VaultError(
      'ambiguous_passage',
      `old_text occurs ${ranges.length} times in "${path}", starting on ${lineList(lines)}. It has to appear exactly once: take more of the lines above or below it until it is unique.`,
      { path, lines },
    );
  }
  const closest = closestPassage(text, passage);
  if (closest === null) {
    const why = text === '' ? `"${path}" is empty` : 'old_text holds nothing to compare but whitespace or Markdown marks';
    throw new VaultError(
      'passage_not_found',
      `old_text does not occur in "${path}": ${why}. Read the note and send a passage exactly as it stands.`,
      { path },
    );
  }
  throw new VaultError('passage_not_found', notFoundMessage(path, closest), {
    path,
    closestLine: closest.line,
    closestEndLine: closest.endLine,
    closestText: closest.text,
    ...(closest.differences ? { differences: closest.differences } : {}),
  });
}

/** The refusal for an `old_text` that does not occur: the closest passage, where it stands, and what differs. */
function notFoundMessage(path: string, closest: ClosestPassage): string {
  const where = closest.endLine > closest.line ? `lines ${closest.line}-${closest.endLine}` : `line ${closest.line}`;
  const send = `Send old_text exactly as it stands there, including indentation and line breaks (read_note with from_line ${closest.line} shows it).`;
  if (closest.differences) {
    const differs =
      closest.differences.length === 0
        ? 'It differs only in the spacing or line breaks around it.'
        : `There ${closest.differences.length === 1 ? 'it differs once' : 'it differs'}: ${closest.differences.join('; ')}.`;
    return `old_text does not occur in "${path}" as written, but it stands once on ${where} when emphasis marks, quotes, dashes and spacing are read loosely:\n${show(closest.text)}\n${differs} ${send}`;
  }
  const lead =
    closest.similarity < 0.4
      ? 'Nothing in the note is close to old_text (is it in another note, or changed already?); the most similar passage'
      : 'The closest passage';
  return `old_text does not occur in "${path}". ${lead} is on ${where}:\n${show(closest.text)}\n${send}`;
}

/**
 * Replaces the one occurrence of `oldText` in `text` with `newText`, inserted literally
 * (`$&`, `$1` and backslashes mean themselves). `newText`'s line breaks are written with
 * the note's own line ending (the first break of `text`; LF for a text without one), so a
 * CRLF note stays CRLF. Throws as {@link findPassage}.
 */
export function replacePassage(text: string, oldText: string, newText: string, path: string): PassageReplacement {
  const range = findPassage(text, oldText, path);
  const eol = noteEol(text, newText);
  const inserted = newText.replace(/\r?\n/g, eol);
  return {
    text: text.slice(0, range.start) + inserted + text.slice(range.end),
    line: range.line,
    start: range.start,
    end: range.start + inserted.length,
  };
}

/** The line ending a replacement in `text` is written with: the text's own, else the new text's first. */
function noteEol(text: string, newText: string): string {
  const source = text.includes('\n') ? text : newText;
  const i = source.indexOf('\n');
  return i > 0 && source[i - 1] === '\r' ? '\r\n' : '\n';
}

/** `text` with every CRLF read as LF, and for each removed CR the LF offset (in the LF text) it stood before. */
function toLf(text: string): { normal: string; crBefore: number[] } {
  const crBefore: number[] = [];
  if (!text.includes('\r\n')) return { normal: text, crBefore };
  let normal = '';
  let from = 0;
  for (let i = text.indexOf('\r\n'); i !== -1; i = text.indexOf('\r\n', i + 2)) {
    normal += text.slice(from, i);
    crBefore.push(normal.length);
    from = i + 1;
  }
  normal += text.slice(from);
  return { normal, crBefore };
}

/** Maps an offset in the LF text back to the original: every removed CR before it shifts it by one. */
function toOriginal(offset: number, crBefore: readonly number[]): number {
  let low = 0;
  let high = crBefore.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (crBefore[mid]! < offset) low = mid + 1;
    else high = mid;
  }
  return offset + low;
}

function lineList(lines: readonly number[]): string {
  const words = lines.map(String);
  if (words.length === 1) return `line ${words[0]}`;
  return `lines ${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function show(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
