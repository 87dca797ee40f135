// Reads a `.base` file (Obsidian's Bases YAML, help.obsidian.md/bases/syntax) into views,
// filters, formulas and display names; what cannot be used is kept as a problem with its line.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { VaultError } from '../vault-error.ts';
import { type Expression, ExpressionSyntaxError, parseExpression } from './expression-parser.ts';

/** A property id split into its kind and name: `note.x`, `file.x` or `formula.x`. */
export interface PropertyId {
  /** The normalised id, e.g. `note.author`, `file.name`, `formula.Age`. */
  id: string;
  kind: 'note' | 'file' | 'formula';
  name: string;
}

/**
 * Normalises a property id as written in `order`, `sort`, `groupBy` or `properties`:
 * `note.x`, `file.x`, `formula.x` stay; the pre-release `property.x` means `note.x`; a bare
 * `x` means `note.x` (docs: "If no prefix is specified, the property is assumed to be a note
 * property"). Splits at the first `.` only, so `formula.Type icon` keeps its name.
 */
export function normalizePropertyId(raw: string): PropertyId {
  const text = raw.trim();
  const dot = text.indexOf('.');
  const prefix = dot === -1 ? '' : text.slice(0, dot);
  const rest = text.slice(dot + 1);
  if (prefix === 'note' || prefix === 'property') return { id: `note.${rest}`, kind: 'note', name: rest };
  if (prefix === 'file') return { id: `file.${rest}`, kind: 'file', name: rest };
  if (prefix === 'formula') return { id: `formula.${rest}`, kind: 'formula', name: rest };
  return { id: `note.${text}`, kind: 'note', name: text };
}

/** A filter statement, a group of them, or a YAML node that could not be read as either. */
export type FilterNode =
  | { kind: 'expression'; source: string; expression: Expression | null; syntaxError: ExpressionSyntaxError | null; line: number }
  | { kind: 'and' | 'or' | 'not'; children: FilterNode[]; line: number }
  | { kind: 'invalid'; message: string; line: number };

/** One sort key (or the groupBy key): a normalised property and its direction. */
export interface SortKey {
  property: PropertyId;
  direction: 'ASC' | 'DESC';
}

/** One view of the file. Keys this engine does not use (`columnSize`, `image`, `cardSize`…) are ignored. */
export interface BaseViewDefinition {
  type: string;
  name: string;
  filters: FilterNode | null;
  /** The columns in order; null when the view has no `order`. */
  order: PropertyId[] | null;
  sort: SortKey[];
  /** At most this many rows (after sorting); null for all. */
  limit: number | null;
  groupBy: SortKey | null;
  line: number;
}

/** Something in the file that was left out, with the 1-based line it is on (0 when unknown). */
export interface BaseFileProblem {
  message: string;
  line: number;
}

/** A `.base` file as the engine uses it. */
export interface BaseFile {
  filters: FilterNode | null;
  /** `formulas:` by name, as written (numbers and booleans turned into their text). */
  formulas: Map<string, string>;
  /** Column labels by normalised property id, from `properties.<id>.displayName` (or the early `display:`). */
  displayNames: Map<string, string>;
  views: BaseViewDefinition[];
  problems: BaseFileProblem[];
}

/** The view used when a file has none: a table of file names. */
const DEFAULT_VIEW_NAME = 'Table';

/**
 * True when the value on `line` (a key's, or a list item's) starts with "!" or "&": YAML took
 * an unquoted expression there for a tag or an anchor. Read from the text, not from the YAML
 * error's message, whose wording is the parser's.
 */
function valueStartsWithTagOrAnchor(line: string): boolean {
  return /^\s*(?:-\s+)*(?:[^\s:#!&-][^:#]*:\s+)?[!&]/.test(line);
}

/**
 * Parses the text of a `.base` file. Top-level `filters`, `formulas`, `properties`
 * (`displayName`), `summaries` (read, not shown) and `views` (each `type`, `name`,
 * `filters`, `order`, `sort` with `property` or the legacy `column`, `limit`, `groupBy`);
 * unknown keys are ignored. A filter or formula that YAML did not read as text (an unquoted
 * `!…` becomes a tag, `[…]` a list) is kept as a problem with its line, and the rest still
 * works. Throws VaultError `invalid_base` when the text is not YAML or not a mapping.
 */
export function parseBaseFile(text: string, path: string): BaseFile {
  const lineCounter = new LineCounter();
  const source = text.replace(/^\uFEFF/, '');
  const document = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: false, logLevel: 'error' });
  const lineOf = (node: YamlNode | null | undefined): number => (node?.range ? lineCounter.linePos(node.range[0]).line : 0);
  if (document.errors.length > 0) {
    const error = document.errors[0]!;
    const { line, col } = lineCounter.linePos(error.pos[0]);
    const hint = valueStartsWithTagOrAnchor(source.split('\n')[line - 1] ?? '')
      ? ' A filter or formula that starts with "!", "[", "{", "&", "*" or a quote must be put in quotes, for example \'!file.name.contains("x")\'.'
      : '';
    throw new VaultError(
      'invalid_base',
      `The base ${JSON.stringify(path)} is not valid YAML: ${error.message.split('\n')[0]} at line ${line}, column ${col}.${hint} Fix the file, then call again.`,
      {
        path,
        line,
        column: col,
      },
    );
  }
  const root = document.contents;
  const problems: BaseFileProblem[] = [];
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    return { filters: null, formulas: new Map(), displayNames: new Map(), views: [defaultView()], problems };
  }
  if (!isMap(root)) {
    throw new VaultError(
      'invalid_base',
      `The base ${JSON.stringify(path)} must be a YAML mapping with keys such as "filters", "formulas", "properties" and "views". Fix the file, then call again.`,
      { path },
    );
  }

  const readFilter = (node: unknown, where: string): FilterNode | null => {
    if (node === null || node === undefined) return null;
    const yamlNode = node as YamlNode;
    const line = lineOf(yamlNode);
    if (isScalar(yamlNode)) {
      if (yamlNode.value === null || yamlNode.value === '') return null;
      if (yamlNode.tag !== undefined && yamlNode.tag.startsWith('!') && !yamlNode.tag.startsWith('!!')) {
        return {
          kind: 'invalid',
          message: `${where} at line ${line} starts with "!" but is not in quotes, so YAML read it as a tag; write it in quotes, for example '${yamlNode.tag}${yamlNode.value === null ? '' : ` ${String(yamlNode.value)}`}'`,
          line,
        };
      }
      if (typeof yamlNode.value !== 'string') {
        return {
          kind: 'invalid',
          message: `${where} at line ${line} is ${JSON.stringify(yamlNode.value)}, not an expression; write the expression in quotes`,
          line,
        };
      }
      return expressionNode(yamlNode.value, line);
    }
    if (isMap(yamlNode)) {
      const entries = yamlNode.items.filter((pair) => isScalar(pair.key) && ['and', 'or', 'not'].includes(String(pair.key.value)));
      if (entries.length !== 1) {
        return { kind: 'invalid', message: `${where} at line ${line} must have exactly one of "and", "or" or "not"`, line };
      }
      const pair = entries[0]!;
      const kind = String((pair.key as { value: unknown }).value) as 'and' | 'or' | 'not';
      const value = pair.value as YamlNode | null;
      const children: FilterNode[] = [];
      if (isSeq(value)) {
        for (const item of value.items) {
          const child = readFilter(item, `${where} (${kind})`);
          if (child !== null) children.push(child);
        }
      } else if (value !== null && !(isScalar(value) && value.value === null)) {
        const child = readFilter(value, `${where} (${kind})`);
        if (child !== null) children.push(child);
      }
      return { kind, children, line };
    }
    if (isSeq(yamlNode)) {
      return {
        kind: 'invalid',
        message: `${where} at line ${line} is a YAML list: an expression that starts with "[" must be in quotes, or use "and:"/"or:" for several conditions`,
        line,
      };
    }
    return { kind: 'invalid', message: `${where} at line ${line} is not an expression`, line };
  };

  const formulas = new Map<string, string>();
  const formulasNode = root.get('formulas', true) as YamlNode | undefined;
  if (isMap(formulasNode)) {
    for (const pair of formulasNode.items) {
      const name = isScalar(pair.key) ? String(pair.key.value) : null;
      if (name === null) continue;
      const value = pair.value as YamlNode | null;
      const line = lineOf(value ?? (pair.key as YamlNode));
      if (isScalar(value) && value.tag !== undefined && value.tag.startsWith('!') && !value.tag.startsWith('!!')) {
        problems.push({
          message: `formula "${name}" at line ${line} starts with "!" but is not in quotes, so YAML read it as a tag; write it in quotes`,
          line,
        });
        formulas.set(name, '');
        continue;
      }
      if (isScalar(value) && value.value !== null && typeof value.value !== 'object') {
        formulas.set(name, String(value.value));
      } else if (value === null || (isScalar(value) && value.value === null)) {
        formulas.set(name, '');
      } else {
        problems.push({
          message: `formula "${name}" at line ${line} is a YAML ${isSeq(value) ? 'list' : 'mapping'}, not an expression; an expression that starts with "[" or "{" must be in quotes`,
          line,
        });
        formulas.set(name, '');
      }
    }
  }

  const displayNames = new Map<string, string>();
  const propertiesNode = root.get('properties', true) as YamlNode | undefined;
  if (isMap(propertiesNode)) {
    for (const pair of propertiesNode.items) {
      if (!isScalar(pair.key)) continue;
      const config = pair.value as YamlNode | null;
      const displayName = isMap(config) ? config.get('displayName') : undefined;
      if (displayName !== undefined && displayName !== null && typeof displayName !== 'object') {
        displayNames.set(normalizePropertyId(String(pair.key.value)).id, String(displayName));
      }
    }
  }
  // The early-access `display: {id: label}` (kepano's Games.base): used when `properties` says nothing.
  const displayNode = root.get('display', true) as YamlNode | undefined;
  if (isMap(displayNode)) {
    for (const pair of displayNode.items) {
      if (!isScalar(pair.key) || !isScalar(pair.value)) continue;
      const id = normalizePropertyId(String(pair.key.value)).id;
      if (!displayNames.has(id) && pair.value.value !== null) displayNames.set(id, String(pair.value.value));
    }
  }

  const filters = readFilter(root.get('filters', true), 'the filter');

  const readKey = (node: unknown, where: string, line: number): SortKey | null => {
    if (!isMap(node as YamlNode)) {
      problems.push({ message: `${where} at line ${line} must be a mapping with "property" and "direction"`, line });
      return null;
    }
    const map = node as { get(key: string): unknown };
    const property = map.get('property') ?? map.get('column');
    if (property === undefined || property === null || typeof property === 'object') {
      problems.push({ message: `${where} at line ${line} names no "property"`, line });
      return null;
    }
    const direction = String(map.get('direction') ?? 'ASC').toUpperCase() === 'DESC' ? 'DESC' : 'ASC';
    return { property: normalizePropertyId(String(property)), direction };
  };

  const views: BaseViewDefinition[] = [];
  const viewsNode = root.get('views', true) as YamlNode | undefined;
  if (isSeq(viewsNode)) {
    viewsNode.items.forEach((item, index) => {
      const viewNode = item as YamlNode;
      const line = lineOf(viewNode);
      if (!isMap(viewNode)) {
        problems.push({ message: `view ${index + 1} at line ${line} is not a mapping and was left out`, line });
        return;
      }
      const rawName = viewNode.get('name');
      const name = rawName === undefined || rawName === null || typeof rawName === 'object' ? `View ${index + 1}` : String(rawName);
      const rawType = viewNode.get('type');
      const orderNode = viewNode.get('order', true) as YamlNode | undefined;
      let order: PropertyId[] | null = null;
      if (isSeq(orderNode)) {
        order = [];
        for (const entry of orderNode.items) {
          if (isScalar(entry) && entry.value !== null && typeof entry.value !== 'object')
            order.push(normalizePropertyId(String(entry.value)));
        }
      }
      const sort: SortKey[] = [];
      const sortNode = viewNode.get('sort', true) as YamlNode | undefined;
      if (isSeq(sortNode)) {
        for (const entry of sortNode.items) {
          const key = readKey(entry, `a sort key of view "${name}"`, lineOf(entry as YamlNode));
          if (key !== null) sort.push(key);
        }
      }
      const groupNode = viewNode.get('groupBy', true) as YamlNode | undefined;
      const groupBy =
        groupNode === undefined || groupNode === null ? null : readKey(groupNode, `groupBy of view "${name}"`, lineOf(groupNode));
      const rawLimit = viewNode.get('limit');
      const limitNumber = typeof rawLimit === 'number' ? rawLimit : typeof rawLimit === 'string' ? Number(rawLimit) : NaN;
      views.push({
        type: rawType === undefined || rawType === null ? 'table' : String(rawType),
        name,
        filters: readFilter(viewNode.get('filters', true), `the filter of view "${name}"`),
        order,
        sort,
        limit: Number.isInteger(limitNumber) && limitNumber > 0 ? limitNumber : null,
        groupBy,
        line,
      });
    });
  }
  if (views.length === 0) views.push(defaultView());
  return { filters, formulas, displayNames, views, problems };

  function expressionNode(source: string, line: number): FilterNode {
    try {
      return { kind: 'expression', source, expression: parseExpression(source), syntaxError: null, line };
    } catch (error) {
      if (!(error instanceof ExpressionSyntaxError)) throw error;
      return { kind: 'expression', source, expression: null, syntaxError: error, line };
    }
  }
}

function defaultView(): BaseViewDefinition {
  return { type: 'table', name: DEFAULT_VIEW_NAME, filters: null, order: null, sort: [], limit: null, groupBy: null, line: 0 };
}

/** The column label of a property: its display name, else its name without the `note.`/`file.`/`formula.` prefix. */
export function propertyLabel(base: BaseFile, property: PropertyId): string {
  return base.displayNames.get(property.id) ?? property.name;
}
