// The notes and folders a `.base` file names inside its filters and formulas, found with the
// expression parser, and rewritten in place (the rest of the YAML byte-identical) after a move.
import { isMap, isScalar, isSeq, parseDocument, Scalar, visit, type Node as YamlNode } from 'yaml';
import { type Expression, parseExpression } from './expression-parser.ts';

/**
 * One string literal of a `.base` expression that names a note or a folder:
 * - `kind: 'link'`: the argument of `link("People")`, `file("People")`, `file.hasLink(…)`,
 *   `….linksTo(…)`, or any literal written as a wiki-link (`"[[People]]"`, `"[[People|x]]"`);
 *   `value` is the text as the expression reads it (a name, a path, or `[[…]]`).
 * - `kind: 'folder'`: the argument of `file.inFolder("projects/apollo")`.
 * `start`/`end` are UTF-16 offsets of the literal's encoding in the file (its quotes included),
 * or -1 when the YAML spelling of the scalar does not hold it verbatim (a folded line);
 * `line` is its 1-based line (the scalar's first line when not found).
 */
export interface BaseReference {
  kind: 'link' | 'folder';
  value: string;
  line: number;
  start: number;
  end: number;
}

/** A literal found in one scalar, before it is placed in the file. */
interface Literal {
  kind: 'link' | 'folder';
  value: string;
  /** Offsets in the expression source (the scalar's value). */
  start: number;
  end: number;
  quote: string;
}

interface ScalarRefs {
  scalar: Scalar;
  source: string;
  literals: Literal[];
  refs: BaseReference[];
}

/**
 * The references of a `.base` file's text, in file order (see {@link BaseReference}). Looks
 * in the top-level and per-view `filters` (every statement under `and`/`or`/`not`) and in
 * `formulas`; an expression that does not parse, or a file that is not YAML, gives none.
 */
export function findBaseReferences(text: string): BaseReference[] {
  return scalarsOf(text).flatMap((scalar) => scalar.refs);
}

/**
 * `text` with the references for which `replace(ref)` gives a new value rewritten: the literal
 * keeps its quote and the YAML scalar its style; every other byte stays. Returns null when a
 * change could not be written so that the file reads back as intended (the literal was folded
 * across lines, or the new value does not fit a plain scalar): nothing is then changed.
 */
export function rewriteBaseReferences(
  text: string,
  replace: (ref: BaseReference) => string | null,
): { text: string; rewritten: number } | null {
  const edits: Array<{ start: number; end: number; raw: string }> = [];
  const expected: string[] = [];
  for (const scalar of scalarsOf(text)) {
    let source = scalar.source;
    const changes: Array<{ start: number; end: number; raw: string }> = [];
    scalar.refs.forEach((ref, i) => {
      const next = replace(ref);
      if (next === null || next === ref.value) return;
      const literal = scalar.literals[i]!;
      const written = literal.quote + next.replace(/\\/g, '\\\\').replaceAll(literal.quote, `\\${literal.quote}`) + literal.quote;
      changes.push({ start: literal.start, end: literal.end, raw: written });
      edits.push({ start: ref.start, end: ref.end, raw: encodeFor(scalar.scalar.type, written) });
    });
    for (const change of changes.sort((a, b) => b.start - a.start))
      source = source.slice(0, change.start) + change.raw + source.slice(change.end);
    expected.push(source);
  }
  if (edits.length === 0) return { text, rewritten: 0 };
  if (edits.some((edit) => edit.start < 0)) return null;
  let out = '';
  let from = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    out += text.slice(from, edit.start) + edit.raw;
    from = edit.end;
  }
  out += text.slice(from);
  const readBack = scalarsOf(out).map((scalar) => scalar.source);
  if (readBack.length !== expected.length || readBack.some((source, i) => source !== expected[i])) return null;
  return { text: out, rewritten: edits.length };
}

/** Every expression scalar of the file with its literals placed in the file. */
function scalarsOf(text: string): ScalarRefs[] {
  const document = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false, logLevel: 'silent' });
  if (document.errors.length > 0 || !isMap(document.contents)) return [];
  const root = document.contents;
  const nodes: YamlNode[] = [];
  const filters = root.get('filters', true) as YamlNode | undefined;
  if (filters) nodes.push(filters);
  const formulas = root.get('formulas', true) as YamlNode | undefined;
  if (isMap(formulas)) for (const pair of formulas.items) if (pair.value) nodes.push(pair.value as YamlNode);
  const views = root.get('views', true) as YamlNode | undefined;
  if (isSeq(views)) {
    for (const view of views.items) {
      const viewFilters = isMap(view) ? (view.get('filters', true) as YamlNode | undefined) : undefined;
      if (viewFilters) nodes.push(viewFilters);
    }
  }
  const scalars: Scalar[] = [];
  for (const node of nodes) {
    if (isScalar(node)) scalars.push(node);
    else
      visit(node, {
        Scalar(key, scalar) {
          if (key !== 'key') scalars.push(scalar);
        },
      });
  }
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const found: ScalarRefs[] = [];
  for (const scalar of scalars.sort((a, b) => (a.range?.[0] ?? 0) - (b.range?.[0] ?? 0))) {
    if (typeof scalar.value !== 'string' || !scalar.range) continue;
    const source = scalar.value;
    let expression: Expression;
    try {
      expression = parseExpression(source);
    } catch {
      continue;
    }
    const literals = literalsOf(expression, source);
    if (literals.length === 0) continue;
    const [from, to] = scalar.range;
    const raw = text.slice(from, to);
    const refs = literals.map((literal): BaseReference => {
      const written = source.slice(literal.start, literal.end);
      let occurrence = 0;
      for (let at = source.indexOf(written); at !== -1 && at < literal.start; at = source.indexOf(written, at + written.length))
        occurrence++;
      const encoded = encodeFor(scalar.type, written);
      let at = raw.indexOf(encoded);
      for (let i = 0; i < occurrence && at !== -1; i++) at = raw.indexOf(encoded, at + encoded.length);
      const start = at === -1 ? -1 : from + at;
      return {
        kind: literal.kind,
        value: literal.value,
        line: lineOf(start === -1 ? from : start),
        start,
        end: start === -1 ? -1 : start + encoded.length,
      };
    });
    found.push({ scalar, source, literals, refs });
  }
  return found;
}

/** How text of an expression is spelled inside a YAML scalar of `type`. */
function encodeFor(type: Scalar['type'], written: string): string {
  if (type === Scalar.QUOTE_SINGLE) return written.replaceAll("'", "''");
  if (type === Scalar.QUOTE_DOUBLE) return written.replace(/\\/g, '\\\\').replaceAll('"', '\\"');
  return written;
}

const WIKI_LITERAL = /^!?\[\[[^\]\n]+\]\]$/;
const LINK_FUNCTIONS = new Set(['link', 'file']);
const LINK_METHODS = new Set(['hasLink', 'linksTo']);

/** The note- and folder-naming string literals of an expression, in source order. */
function literalsOf(expression: Expression, source: string): Literal[] {
  const out: Literal[] = [];
  const claimed = new Set<Expression>();
  const add = (node: Expression | undefined, kind: 'link' | 'folder') => {
    if (node?.type !== 'string' || claimed.has(node)) return;
    claimed.add(node);
    out.push({ kind, value: node.value, start: node.start, end: node.end, quote: source[node.start]! });
  };
  const walk = (node: Expression): void => {
    switch (node.type) {
      case 'call': {
        const callee = node.callee;
        if (callee.type === 'identifier' && LINK_FUNCTIONS.has(callee.name)) add(node.args[0], 'link');
        if (callee.type === 'member' && LINK_METHODS.has(callee.property)) add(node.args[0], 'link');
        if (callee.type === 'member' && callee.property === 'inFolder') add(node.args[0], 'folder');
        walk(callee);
        node.args.forEach(walk);
        return;
      }
      case 'string':
        if (WIKI_LITERAL.test(node.value)) add(node, 'link');
        return;
      case 'list':
        node.items.forEach(walk);
        return;
      case 'object':
        node.entries.forEach(([, value]) => walk(value));
        return;
      case 'member':
        walk(node.object);
        return;
      case 'index':
        walk(node.object);
        walk(node.index);
        return;
      case 'unary':
        walk(node.operand);
        return;
      case 'binary':
        walk(node.left);
        walk(node.right);
        return;
      default:
        return;
    }
  };
  walk(expression);
  return out.sort((a, b) => a.start - b.start);
}

/**
 * A `kind: 'link'` reference's value as a wiki-link (`People` → `[[People]]`; `[[…]]` as it
 * is), so the notes' link resolver and rewriter read it as Obsidian does; null when the value
 * cannot be one (it holds brackets, `|` or a line break outside `[[…]]`).
 */
export function asWikiLink(value: string): string | null {
  if (WIKI_LITERAL.test(value)) return value;
  if (/[[\]|\n]/.test(value) || value.trim() === '') return null;
  return `[[${value}]]`;
}

/** The value to write back for a reference whose wiki-link form ({@link asWikiLink}) became `link`. */
export function fromWikiLink(value: string, link: string): string {
  return WIKI_LITERAL.test(value) ? link : link.slice(2, -2);
}
