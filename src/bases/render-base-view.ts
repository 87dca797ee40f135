// The Bases pipeline for one view: filters, formulas, sort, limit, groupBy, columns, cells,
// paging — in Obsidian's order (obsidian.d.ts BasesQueryResult: sort and limit, then groups).
import { VaultError } from '../vault-error.ts';
import { fieldOf } from './base-functions.ts';
import { type BaseFile, type BaseViewDefinition, type FilterNode, type PropertyId, parseBaseFile, propertyLabel } from './base-file.ts';
import { type BaseValue, NULL, compareForSort, isEmptyValue, isTruthy, renderValue } from './base-value.ts';
import { type BaseNote, BaseVault, type BaseVaultInput, fileBasename } from './base-vault.ts';
import { BaseEvalError, BaseEvaluator } from './expression-evaluator.ts';

/** What to render: the `.base` file, the view, the files, the context file, the clock and the page. */
export interface RenderBaseViewInput {
  /** Path of the `.base` file (for `link()` resolution, messages and the default `this`). */
  basePath: string;
  /** Its text, or the file already parsed. */
  base: string | BaseFile;
  /** The view's name; null or undefined for the first view. */
  view?: string | null;
  vault: BaseVaultInput;
  /**
   * The file `this` refers to (docs: the `.base` file when opened directly, the embedding
   * note when embedded). Defaults to the row at `basePath`, else a bare file at that path.
   */
  context?: BaseNote;
  /** Epoch ms that `now()` and `today()` answer; defaults to the current time. */
  now?: number;
  /** Page size (default 50) and rows to skip (default 0). */
  limit?: number;
  offset?: number;
}

/** A column: the normalised property id and its heading. */
export interface BaseColumn {
  property: string;
  label: string;
}

/** One row of the page: the file's path and one text per column. */
export interface BaseRow {
  path: string;
  cells: string[];
}

/** A rendered page of a view. `problems` says what could not be evaluated, with where and why. */
export interface BaseViewPage {
  view: string;
  availableViews: string[];
  columns: BaseColumn[];
  rows: BaseRow[];
  /** Rows of the view in all, after filters and `limit`, before paging. */
  total: number;
  offset: number;
  hasMore: boolean;
  problems: string[];
  /** Set when a cooperative render ({@link renderBaseViewCooperatively}) stopped at its time budget. */
  cut?: RenderCut;
}

/**
 * Where a render stopped at its time budget. `filter`: only the first `done` of `of` files
 * were checked against the filters, so the rows are those found among them, in path order,
 * neither sorted nor grouped; `sort`/`group`: every row is there, but the rows are in path
 * order (`sort`) or sorted and not grouped (`group`); `done` of the `of` rows had their value.
 */
export interface RenderCut {
  phase: 'filter' | 'sort' | 'group';
  done: number;
  of: number;
}

/** Options of {@link renderBaseViewCooperatively}. */
export interface CooperativeOptions {
  /** Time budget of the whole render, in ms: past it the render stops and answers what it has. */
  budgetMs: number;
  /** Run at most about this long (ms) before yielding to the event loop; default 10. */
  sliceMs?: number;
}

const MAX_PROBLEMS = 5;

/** Collects evaluation problems once each, in the order they first occur. */
class ProblemLog {
  private readonly seen = new Map<string, number>();

  /** A problem of one row; the count of rows it concerns is shown when more than one. */
  add(message: string): void {
    this.seen.set(message, (this.seen.get(message) ?? 0) + 1);
  }

  /** A problem of the file itself, the same for every row: shown without a count. */
  once(message: string): void {
    if (!this.seen.has(message)) this.seen.set(message, 0);
  }

  list(): string[] {
    const messages = [...this.seen.entries()].map(([message, count]) => (count > 1 ? `${message} (${count} rows)` : message));
    if (messages.length <= MAX_PROBLEMS) return messages;
    return [...messages.slice(0, MAX_PROBLEMS), `…and ${messages.length - MAX_PROBLEMS} more problems`];
  }
}

/**
 * Picks a view by name: the exact name, else the only one that matches ignoring case and
 * spaces; the first view when `name` is empty. Throws VaultError `unknown_view` listing the
 * names that exist.
 */
export function selectView(base: BaseFile, name: string | null | undefined, basePath: string): BaseViewDefinition {
  if (name === null || name === undefined || name === '') return base.views[0]!;
  const exact = base.views.find((view) => view.name === name);
  if (exact !== undefined) return exact;
  const fold = (text: string): string => text.toLowerCase().replace(/\s+/g, '');
  const loose = base.views.filter((view) => fold(view.name) === fold(name));
  if (loose.length === 1) return loose[0]!;
  const availableViews = base.views.map((view) => view.name);
  throw new VaultError(
    'unknown_view',
    `The base ${JSON.stringify(basePath)} has no view named ${JSON.stringify(name)}. Its views are: ${availableViews.map((v) => JSON.stringify(v)).join(', ')}. Call again with one of them, or leave "view" out for the first.`,
    { path: basePath, view: name, availableViews },
  );
}

/**
 * Renders one view of a base over the given files (the pipeline of src/bases/SUPPORTED.md):
 * 1. rows: every file for which the global filters AND the view's filters hold (`and`,
 *    `or`, `not` = none of; an empty group holds); a statement that fails to evaluate counts
 *    as false for that row; one that does not parse is left out of its group;
 * 2. sort by the view's keys in order (type-aware, stable, empty values last in both
 *    directions, ties by path), or by path when there are none; then `limit`;
 * 3. groupBy: rows are gathered by the group value, groups in the key's direction, the group
 *    without a value last, rows keeping their order inside a group;
 * 4. columns from `order` (`file.name` when it is missing or empty), labelled by
 *    `displayName` or the name without its prefix; cells rendered by `renderValue`, the
 *    `file.name` cell of a note without `.md` as Obsidian shows it;
 * 5. the page `offset`…`offset+limit`.
 * Throws VaultError `invalid_base` (not YAML) or `unknown_view`.
 */
export function renderBaseView(input: RenderBaseViewInput): BaseViewPage {
  const steps = renderSteps(input);
  for (;;) {
    const step = steps.next(false);
    if (step.done) return step.value;
  }
}

/**
 * {@link renderBaseView} in slices that yield to the event loop (every `sliceMs`, about 10 ms),
 * so a view with heavy formulas over many rows never holds other calls. Past `budgetMs` it
 * stops where it is and answers with what it has, `cut` saying what was left undone
 * ({@link RenderCut}); the page's own cells are always computed. One expression is never
 * interrupted: the slices fall between rows. Throws as renderBaseView.
 */
export async function renderBaseViewCooperatively(input: RenderBaseViewInput, options: CooperativeOptions): Promise<BaseViewPage> {
  const sliceMs = options.sliceMs ?? 10;
  const deadline = performance.now() + options.budgetMs;
  const steps = renderSteps(input);
  let slice = performance.now();
  let stop = false;
  for (;;) {
    const step = steps.next(stop);
    if (step.done) return step.value;
    const now = performance.now();
    if (now - slice > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    if (now > deadline) stop = true;
  }
}

/**
 * The pipeline of {@link renderBaseView} as steps: it yields between rows, and the value sent
 * back says whether to stop at the time budget (then it skips what is left of filtering,
 * sorting or grouping and answers with `cut` set).
 */
function* renderSteps(input: RenderBaseViewInput): Generator<void, BaseViewPage, boolean> {
  const base = typeof input.base === 'string' ? parseBaseFile(input.base, input.basePath) : input.base;
  const view = selectView(base, input.view, input.basePath);
  const contextNote = input.context ?? input.vault.notes.find((note) => note.path === input.basePath) ?? bareFile(input.basePath);
  const vault = new BaseVault(input.vault, [contextNote]);
  const evaluator = new BaseEvaluator({
    vault,
    basePath: input.basePath,
    contextPath: contextNote.path,
    formulas: base.formulas,
    now: input.now ?? Date.now(),
  });
  const problems = new ProblemLog();
  for (const problem of base.problems) problems.once(problem.message);
  const where = (node: FilterNode, scope: string): string => `${scope}${node.line > 0 ? ` (line ${node.line})` : ''}`;

  const filterHolds = (node: FilterNode, row: string, scope: string): boolean | null => {
    switch (node.kind) {
      case 'invalid':
        problems.once(`${node.message}; it was left out`);
        return null;
      case 'expression': {
        if (node.expression === null) {
          problems.once(
            `${where(node, scope)} ${JSON.stringify(node.source)} does not parse: ${node.syntaxError!.message} at character ${node.syntaxError!.position + 1}; it was left out`,
          );
          return null;
        }
        try {
          return isTruthy(evaluator.evaluate(node.expression, row));
        } catch (error) {
          if (!(error instanceof BaseEvalError)) throw error;
          problems.add(
            `${where(node, scope)} ${JSON.stringify(node.source)}: ${error.message} at character ${error.position + 1}; such rows were left out`,
          );
          return false;
        }
      }
      default: {
        const results = node.children.map((child) => filterHolds(child, row, scope)).filter((result): result is boolean => result !== null);
        if (node.kind === 'and') return results.every(Boolean);
        if (node.kind === 'or') return results.length === 0 || results.some(Boolean);
        return !results.some(Boolean);
      }
    }
  };

  const valueOf = (property: PropertyId, row: string, scope: string): BaseValue => {
    try {
      if (property.kind === 'note') return vault.property(row, property.name);
      if (property.kind === 'formula') return evaluator.formula(property.name, row);
      return fieldOf({ kind: 'file', path: row, context: false }, property.name, { vault, now: 0, basePath: input.basePath, position: 0 });
    } catch (error) {
      if (!(error instanceof BaseEvalError)) throw error;
      problems.add(`${scope} ${property.id}: ${error.message}`);
      return NULL;
    }
  };

  const viewScope = `view ${JSON.stringify(view.name)}`;
  let cut: RenderCut | undefined;
  let rows: string[] = [];
  const files = input.vault.notes;
  for (let i = 0; i < files.length; i++) {
    if (i > 0 && (yield)) {
      cut = { phase: 'filter', done: i, of: files.length };
      break;
    }
    const row = files[i]!.path;
    const global = base.filters === null ? null : filterHolds(base.filters, row, `${viewScope}, global filter`);
    if (global === false) continue;
    const own = view.filters === null ? null : filterHolds(view.filters, row, `${viewScope}, filter`);
    if (own !== false) rows.push(row);
  }

  /** The rows sorted by the keys; null when stopped at the budget first. */
  function* sortRows(
    paths: string[],
    keys: ReadonlyArray<{ property: PropertyId; direction: 'ASC' | 'DESC' }>,
    scope: string,
  ): Generator<void, string[] | null, boolean> {
    const keyed: Array<{ path: string; values: BaseValue[] }> = [];
    for (const path of paths) {
      if (keys.length > 0 && keyed.length > 0 && (yield)) {
        cut = { phase: 'sort', done: keyed.length, of: paths.length };
        return null;
      }
      keyed.push({ path, values: keys.map((key) => valueOf(key.property, path, scope)) });
    }
    keyed.sort((a, b) => {
      for (let i = 0; i < keys.length; i++) {
        const order = compareSortValues(a.values[i]!, b.values[i]!, keys[i]!.direction);
        if (order !== 0) return order;
      }
      return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    });
    return keyed.map((entry) => entry.path);
  }

  if (cut === undefined) rows = (yield* sortRows(rows, view.sort, `${viewScope}, sort by`)) ?? rows;
  if (view.limit !== null) rows = rows.slice(0, view.limit);
  if (view.groupBy !== null && cut === undefined) {
    const groupBy = view.groupBy;
    const keys = new Map<string, BaseValue>();
    for (const path of rows) {
      if (keys.size > 0 && (yield)) {
        cut = { phase: 'group', done: keys.size, of: rows.length };
        break;
      }
      keys.set(path, valueOf(groupBy.property, path, `${viewScope}, group by`));
    }
    if (cut === undefined) rows = groupRows(rows, groupBy.property, groupBy.direction, (path) => keys.get(path)!);
  }

  const order = view.order !== null && view.order.length > 0 ? view.order : [{ id: 'file.name', kind: 'file' as const, name: 'name' }];
  const columns = order.map((property) => ({ property: property.id, label: propertyLabel(base, property) }));
  const limit = Math.max(1, input.limit ?? 50);
  const offset = Math.max(0, input.offset ?? 0);
  const page = rows.slice(offset, offset + limit).map((path) => ({
    path,
    cells: order.map((property) => {
      if (property.id === 'file.name' && path.endsWith('.md')) return fileBasename(path);
      return renderValue(valueOf(property, path, `${viewScope}, column`));
    }),
  }));
  return {
    view: view.name,
    availableViews: base.views.map((v) => v.name),
    columns,
    rows: page,
    total: rows.length,
    offset,
    hasMore: offset + page.length < rows.length,
    problems: problems.list(),
    ...(cut === undefined ? {} : { cut }),
  };
}

/** Sort order of two key values: empty values (null, "", []) last whatever the direction. */
function compareSortValues(a: BaseValue, b: BaseValue, direction: 'ASC' | 'DESC'): number {
  const aEmpty = isEmptyValue(a);
  const bEmpty = isEmptyValue(b);
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  const order = compareForSort(a, b);
  return direction === 'DESC' ? -order : order;
}

/** Gathers rows by their group value (loose equality), groups ordered by key, the empty group last. */
function groupRows(rows: string[], _property: PropertyId, direction: 'ASC' | 'DESC', valueOf: (path: string) => BaseValue): string[] {
  const groups: Array<{ key: BaseValue; text: string; paths: string[] }> = [];
  const byText = new Map<string, { key: BaseValue; text: string; paths: string[] }>();
  for (const path of rows) {
    const key = valueOf(path);
    const text = isEmptyValue(key) ? '\u0000empty' : `${key.kind}\u0000${renderValue(key).toLowerCase()}`;
    let group = byText.get(text);
    if (group === undefined) {
      group = { key, text, paths: [] };
      byText.set(text, group);
      groups.push(group);
    }
    group.paths.push(path);
  }
  groups.sort((a, b) => compareSortValues(a.key, b.key, direction));
  return groups.flatMap((group) => group.paths);
}

/** A file that is not one of the rows (the `.base` file when only notes are rows). */
function bareFile(path: string): BaseNote {
  return { path, frontmatter: null, tags: [], links: [], embeds: [], size: 0, ctime: null, mtime: null };
}
