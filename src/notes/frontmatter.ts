// A note's YAML frontmatter: found, split off and parsed without changing a single value.
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, YAMLMap } from 'yaml';

/** The yaml library (CommonJS, about 70 modules), loaded by the first frontmatter parsed, not by every start. */
let yamlModule: typeof Yaml | null = null;

function yaml(): typeof Yaml {
  return (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
}

/**
 * The frontmatter block of a note and what it says.
 * - `present`: the note opens with a `---` line that a later `---` (or `...`) line closes.
 * - `raw`: the exact text between the fences (line breaks kept, CRLF too), `''` for an
 *   empty block, null when absent. `'---' + eol + raw + '---'` rebuilds the block.
 * - `data`: the fields, parsed with YAML 1.2's core schema, so a date stays the string
 *   written (`2026-01-05`), `no`/`yes` stay strings, `1.10` is the number 1.1 (as YAML says);
 *   a template placeholder such as `{{date}}` is the text written, as Obsidian shows it.
 *   `{}` for an empty block; null when absent, broken or not a mapping.
 * - `error`: what is wrong and on which line of the file, or null. Never thrown.
 * - `startLine`/`endLine`: 1-based lines of the opening and closing fence, 0 when absent.
 * - `bodyStartLine`: the first line after the block (1 when absent).
 * - `bodyOffset`: UTF-16 offset in the text where the body starts (after a BOM when absent).
 * - `bom`: the text starts with U+FEFF. `eol`: the line ending of the opening fence.
 */
export interface Frontmatter {
  present: boolean;
  raw: string | null;
  data: Record<string, unknown> | null;
  error: string | null;
  startLine: number;
  endLine: number;
  bodyStartLine: number;
  bodyOffset: number;
  bom: boolean;
  eol: '\n' | '\r\n';
}

const OPEN_FENCE = /^---[ \t]*$/;
const CLOSE_FENCE = /^(?:---|\.\.\.)[ \t]*$/;
/** Aliases may not expand beyond this many nodes: a "billion laughs" block stays harmless. */
const MAX_ALIAS_COUNT = 100;

/**
 * Finds and parses the frontmatter of `text` (spec: "Notes": YAML between `---` lines at the
 * very top). The opening `---` must be the first line, after an optional BOM; the block ends
 * at the next `---` or `...` line. An unclosed opening fence is no frontmatter (the whole text
 * is body, as Obsidian shows it) and is reported in `error`. Never throws.
 */
export function splitFrontmatter(text: string): Frontmatter {
  const block = frontmatterBlock(text);
  if (block.raw === null) return { ...block, data: null };
  const parsed = parseFrontmatterYaml(block.raw, 1);
  return { ...block, data: parsed.data, error: parsed.error };
}

/** Where the frontmatter of a text lies, without its YAML parsed (see {@link frontmatterBlock}). */
export type FrontmatterBlock = Omit<Frontmatter, 'data'>;

/**
 * Where the frontmatter of `text` lies, as {@link splitFrontmatter} finds it, without parsing
 * its YAML (`error` is only the unclosed fence's): for scanners that need only which lines are
 * frontmatter (links, headings, tags), a note's YAML parse being most of their time. Never throws.
 */
export function frontmatterBlock(text: string): FrontmatterBlock {
  const bom = text.startsWith('\uFEFF');
  const begin = bom ? 1 : 0;
  const absent = (error: string | null, eol: '\n' | '\r\n' = '\n'): FrontmatterBlock => ({
    present: false,
    raw: null,
    error,
    startLine: 0,
    endLine: 0,
    bodyStartLine: 1,
    bodyOffset: begin,
    bom,
    eol,
  });

  const firstBreak = text.indexOf('\n', begin);
  if (firstBreak === -1) return absent(null);
  const eol = text[firstBreak - 1] === '\r' ? '\r\n' : '\n';
  if (!OPEN_FENCE.test(stripCr(text.slice(begin, firstBreak)))) return absent(null, eol);

  // Walk the lines after the opening fence to the closing one.
  const rawStart = firstBreak + 1;
  let lineStart = rawStart;
  let line = 2;
  while (lineStart <= text.length) {
    const br = text.indexOf('\n', lineStart);
    const lineEnd = br === -1 ? text.length : br;
    if (CLOSE_FENCE.test(stripCr(text.slice(lineStart, lineEnd)))) {
      return {
        present: true,
        raw: text.slice(rawStart, lineStart),
        error: null,
        startLine: 1,
        endLine: line,
        bodyStartLine: line + 1,
        bodyOffset: br === -1 ? text.length : br + 1,
        bom,
        eol,
      };
    }
    if (br === -1) break;
    lineStart = br + 1;
    line++;
  }
  return absent(
    'The frontmatter opened by "---" on line 1 is never closed by a "---" line; the whole note is read as body. Add a "---" line after the last field.',
    eol,
  );
}

/**
 * Parses the YAML of a frontmatter block (`raw`, as {@link Frontmatter.raw}) whose opening
 * fence is on line `fenceLine` of the file, so errors name file lines. Returns the fields
 * (`{}` for an empty block) or null with an `error`; never throws. Exported for writers that
 * check a block they are about to write.
 */
export function parseFrontmatterYaml(raw: string, fenceLine = 1): { data: Record<string, unknown> | null; error: string | null } {
  try {
    const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yaml();
    // logLevel 'error': the library would otherwise print its warnings on the server's stderr.
    const parse = (source: string) => {
      const lineCounter = new LineCounter();
      const doc = parseDocument(source, { schema: 'core', prettyErrors: false, lineCounter, uniqueKeys: true, logLevel: 'error' });
      return { source, doc, lineCounter };
    };
    let parsed = parse(raw);
    if (parsed.doc.errors.length > 0) {
      // `created: {{date}} {{time}}` is no YAML, but Obsidian's templates write it: such a value
      // is read as the text written, as a lone `{{date}}` is (see keepPlaceholders). Lines stay
      // lines, so an error left after that names the same line of the file.
      const quoted = quotePlaceholderValues(raw);
      if (quoted !== raw) parsed = parse(quoted);
    }
    const { doc, lineCounter, source } = parsed;
    const first = doc.errors[0];
    if (first) {
      const at = lineCounter.linePos(first.pos[0]);
      const line = fenceLine + at.line;
      return {
        data: null,
        error: `The frontmatter YAML does not parse at line ${line}, column ${at.col}: ${firstLine(first.message)}. Fix that line of the frontmatter.`,
      };
    }
    const contents = doc.contents;
    if (contents === null || (isScalar(contents) && contents.value === null && raw.trim() === '')) {
      return { data: {}, error: null };
    }
    if (!isMap(contents)) {
      const what = isSeq(contents) ? 'a list' : isScalar(contents) ? 'a single value' : 'not a mapping';
      return {
        data: null,
        error: `The frontmatter is ${what}, not a mapping of fields (lines ${fenceLine + 1}–${fenceLine + Math.max(1, lineCounter.lineStarts.length - 1)}). Write it as "field: value" lines.`,
      };
    }
    keepPlaceholders(doc, source);
    const data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Record<string, unknown>;
    return { data, error: null };
  } catch (cause) {
    // Only alias explosions and similar pathological input reach here.
    return { data: null, error: `The frontmatter YAML cannot be read: ${firstLine(String((cause as Error)?.message ?? cause))}.` };
  }
}

/**
 * Turns template placeholders back into the text written. Obsidian's templates write
 * `created: {{date}}`, which YAML reads as a flow mapping whose one key is itself a mapping
 * (`{ {date}: null }`); Obsidian shows such a value as the text `{{date}}`, and so do we:
 * every flow mapping with a single key that is a collection and no value becomes a string
 * holding its source text.
 */
function keepPlaceholders(doc: Document, raw: string): void {
  const { Scalar, visit } = yaml();
  visit(doc, {
    Map(_key, node) {
      if (!isPlaceholder(node) || !node.range) return undefined;
      return new Scalar(raw.slice(node.range[0], node.range[1]));
    },
  });
}

/** A line whose value starts with a template placeholder: the text before the value, the value, a trailing comment. */
const PLACEHOLDER_LINE =
  /^([ \t]*(?:-[ \t]+)*(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{}[\],&*!|>%@`-][^#{}[\],]*?)[ \t]*:[ \t]+)?)(\{\{.*?\}\}.*?)([ \t]+#.*)?$/;

/**
 * `raw` with every value that starts with a template placeholder (`{{date}} {{time}}`,
 * `- {{date}} notes`, possibly followed by a ` # comment`) written as a double-quoted string
 * of the same text, one line for one line; other lines untouched. Only used when `raw` does
 * not parse as it stands.
 */
function quotePlaceholderValues(raw: string): string {
  return raw.replace(/[^\r\n]+/g, (line) => {
    const match = PLACEHOLDER_LINE.exec(line);
    if (match === null) return line;
    const [, before = '', value = '', comment = ''] = match;
    return `${before}${JSON.stringify(value.trimEnd())}${comment}`;
  });
}

function isPlaceholder(node: YAMLMap): boolean {
  const { isCollection, isScalar } = yaml();
  if (!node.flow || node.items.length !== 1) return false;
  const [pair] = node.items;
  const value = pair!.value;
  const empty = value === null || value === undefined || (isScalar(value) && value.value === null && value.range?.[0] === value.range?.[1]);
  return isCollection(pair!.key) && empty;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/[.:]\s*$/, '');
}
