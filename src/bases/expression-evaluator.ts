// Evaluates parsed Bases expressions against one row: names, operators, calls, and formulas
// that are lazy, memoised per row, may refer to formulas defined later, and never loop.
import { BaseEvalError, callGlobal, callMethod, dateArithmetic, fieldOf, type FunctionContext, type Thunk } from './base-functions.ts';
import {
  type BaseValue,
  NULL,
  bool,
  compareValues,
  duration,
  isTruthy,
  list,
  num,
  numericValue,
  str,
  textValue,
  valuesEqual,
} from './base-value.ts';
import type { BaseVault } from './base-vault.ts';
import { type Expression, ExpressionSyntaxError, parseExpression } from './expression-parser.ts';

export { BaseEvalError } from './base-functions.ts';

/** A formula of the `.base` file: its source, and its tree or why it does not parse. */
interface CompiledFormula {
  source: string;
  expression: Expression | null;
  error: ExpressionSyntaxError | null;
}

type FormulaState = { value: BaseValue } | { error: BaseEvalError } | 'running';

/** What an evaluation runs over: the files, the `.base` file's path, the context file (`this`), the clock. */
export interface EvaluatorOptions {
  vault: BaseVault;
  basePath: string;
  /** The file `this` refers to: the `.base` file itself when it is opened directly. */
  contextPath: string;
  /** `formulas:` of the `.base` file, by name, as written. */
  formulas: ReadonlyMap<string, string>;
  /** The instant `now()` and `today()` answer, epoch ms; fixed for a whole evaluation. */
  now: number;
}

/**
 * Evaluates expressions for rows. Formula values are cached per row and formula, so each is
 * computed at most once per row however often it is referenced; a formula that refers to
 * itself, directly or through others, is an error naming the formula.
 */
export class BaseEvaluator {
  private readonly formulas = new Map<string, CompiledFormula>();
  private readonly formulaStates = new Map<string, Map<string, FormulaState>>();

  private readonly options: EvaluatorOptions;

  constructor(options: EvaluatorOptions) {
    this.options = options;
    for (const [name, source] of options.formulas) {
      try {
        this.formulas.set(name, { source, expression: parseExpression(source), error: null });
      } catch (error) {
        if (!(error instanceof ExpressionSyntaxError)) throw error;
        this.formulas.set(name, { source, expression: null, error });
      }
    }
  }

  /** The parse error of formula `name`, if it has one. */
  formulaSyntaxError(name: string): ExpressionSyntaxError | null {
    return this.formulas.get(name)?.error ?? null;
  }

  /** Whether the base defines formula `name`. */
  hasFormula(name: string): boolean {
    return this.formulas.has(name);
  }

  /** The source text of formula `name`. */
  formulaSource(name: string): string | null {
    return this.formulas.get(name)?.source ?? null;
  }

  /**
   * Evaluates `expression` for the row at `rowPath`. Throws BaseEvalError (message and
   * offset) when it cannot be evaluated; a failing formula it refers to is reported at the
   * reference, naming the formula.
   */
  evaluate(expression: Expression, rowPath: string, locals: Readonly<Record<string, BaseValue>> | null = null): BaseValue {
    try {
      return this.evaluateNode(expression, rowPath, locals);
    } catch (error) {
      throw tooLargeAsEvalError(error, 0);
    }
  }

  /** The value of formula `name` for the row at `rowPath` (memoised). `position` is where it is referenced. */
  formula(name: string, rowPath: string, position = 0): BaseValue {
    const compiled = this.formulas.get(name);
    if (compiled === undefined) {
      const known = [...this.formulas.keys()];
      throw new BaseEvalError(
        `there is no formula "${name}"${known.length > 0 ? `; the formulas are ${known.map((k) => `"${k}"`).join(', ')}` : ''}`,
        position,
      );
    }
    let states = this.formulaStates.get(rowPath);
    if (states === undefined) this.formulaStates.set(rowPath, (states = new Map()));
    const state = states.get(name);
    if (state === 'running') throw new BaseEvalError(`formula "${name}" refers to itself (a circular reference)`, position, name);
    if (state !== undefined) {
      if ('value' in state) return state.value;
      throw new BaseEvalError(state.error.message, position, state.error.formula);
    }
    if (compiled.expression === null) {
      const error = new BaseEvalError(
        `formula "${name}" does not parse: ${compiled.error!.message} at character ${compiled.error!.position + 1} of ${JSON.stringify(compiled.source)}`,
        position,
        name,
      );
      states.set(name, { error });
      throw error;
    }
    states.set(name, 'running');
    try {
      const value = this.evaluateNode(compiled.expression, rowPath, null);
      states.set(name, { value });
      return value;
    } catch (thrown) {
      const error = tooLargeAsEvalError(thrown, position);
      if (!(error instanceof BaseEvalError)) throw error;
      const wrapped =
        error.formula !== null
          ? new BaseEvalError(error.message, position, error.formula)
          : new BaseEvalError(
              `formula "${name}" failed: ${error.message} at character ${error.position + 1} of ${JSON.stringify(compiled.source)}`,
              position,
              name,
            );
      states.set(name, { error: wrapped });
      throw wrapped;
    }
  }

  private context(position: number): FunctionContext {
    return { vault: this.options.vault, now: this.options.now, basePath: this.options.basePath, position };
  }

  private evaluateNode(node: Expression, row: string, locals: Readonly<Record<string, BaseValue>> | null): BaseValue {
    switch (node.type) {
      case 'number':
        return num(node.value);
      case 'string':
        return str(node.value);
      case 'boolean':
        return bool(node.value);
      case 'null':
        return NULL;
      case 'regex':
        return { kind: 'regex', source: node.source, flags: node.flags };
      case 'list':
        return list(node.items.map((item) => this.evaluateNode(item, row, locals)));
      case 'object':
        return { kind: 'object', entries: new Map(node.entries.map(([key, value]) => [key, this.evaluateNode(value, row, locals)])) };
      case 'this':
        return { kind: 'file', path: this.options.contextPath, context: true };
      case 'identifier':
        return this.identifier(node.name, row, locals);
      case 'member': {
        const namespace = this.namespaceOf(node.object, locals);
        if (namespace === 'note') return this.options.vault.property(row, node.property);
        if (namespace === 'formula') return this.formula(node.property, row, node.start);
        return fieldOf(this.evaluateNode(node.object, row, locals), node.property, this.context(node.start));
      }
      case 'index': {
        const namespace = this.namespaceOf(node.object, locals);
        const index = this.evaluateNode(node.index, row, locals);
        if (namespace === 'note') return this.options.vault.property(row, textValue(index));
        if (namespace === 'formula') return this.formula(textValue(index), row, node.start);
        return this.indexOf(this.evaluateNode(node.object, row, locals), index, node.start);
      }
      case 'call': {
        const args: Thunk[] = node.args.map(
          (arg) => (extra?: Readonly<Record<string, BaseValue>>) =>
            this.evaluateNode(arg, row, extra === undefined ? locals : { ...locals, ...extra }),
        );
        if (node.callee.type === 'identifier') return callGlobal(node.callee.name, args, this.context(node.callee.start));
        if (node.callee.type === 'member') {
          const receiver = this.evaluateNode(node.callee.object, row, locals);
          return callMethod(receiver, node.callee.property, args, this.context(node.callee.end - node.callee.property.length));
        }
        throw new BaseEvalError('only a function or method name can be called', node.start);
      }
      case 'unary': {
        const operand = this.evaluateNode(node.operand, row, locals);
        if (node.operator === '!') return bool(!isTruthy(operand));
        if (operand.kind === 'null') return NULL;
        if (operand.kind === 'duration') return node.operator === '-' ? duration({ months: -operand.months, ms: -operand.ms }) : operand;
        if (operand.kind !== 'number') throw new BaseEvalError(`${node.operator} needs a number, not ${kindPhrase(operand)}`, node.start);
        return num(node.operator === '-' ? -operand.value : operand.value);
      }
      case 'binary':
        return this.binary(node, row, locals);
    }
  }

  /** `note` and `formula` as namespaces (`note.x`, `formula["y"]`), unless a lambda local shadows them. */
  private namespaceOf(node: Expression, locals: Readonly<Record<string, BaseValue>> | null): 'note' | 'formula' | null {
    if (node.type !== 'identifier') return null;
    if (locals !== null && Object.hasOwn(locals, node.name)) return null;
    return node.name === 'note' || node.name === 'formula' ? node.name : null;
  }

  private identifier(name: string, row: string, locals: Readonly<Record<string, BaseValue>> | null): BaseValue {
    if (locals !== null && Object.hasOwn(locals, name)) return locals[name]!;
    switch (name) {
      case 'file':
        return { kind: 'file', path: row, context: false };
      case 'note':
        return this.options.vault.properties(row);
      case 'formula': {
        const entries = new Map<string, BaseValue>();
        for (const formulaName of this.formulas.keys()) {
          try {
            entries.set(formulaName, this.formula(formulaName, row));
          } catch {
            entries.set(formulaName, NULL);
          }
        }
        return { kind: 'object', entries };
      }
      default:
        // "If no prefix is specified, the property is assumed to be a note property."
        return this.options.vault.property(row, name);
    }
  }

  private indexOf(target: BaseValue, index: BaseValue, position: number): BaseValue {
    switch (target.kind) {
      case 'null':
        return NULL;
      case 'list': {
        if (index.kind !== 'number' || !Number.isInteger(index.value))
          throw new BaseEvalError(`a list is indexed by a whole number, not ${kindPhrase(index)}`, position);
        const i = index.value < 0 ? target.items.length + index.value : index.value;
        return target.items[i] ?? NULL;
      }
      case 'string': {
        if (index.kind !== 'number' || !Number.isInteger(index.value))
          throw new BaseEvalError(`text is indexed by a whole number, not ${kindPhrase(index)}`, position);
        const chars = [...target.value];
        const i = index.value < 0 ? chars.length + index.value : index.value;
        return chars[i] === undefined ? NULL : str(chars[i]);
      }
      default:
        return fieldOf(target, textValue(index), this.context(position));
    }
  }

  private binary(
    node: Extract<Expression, { type: 'binary' }>,
    row: string,
    locals: Readonly<Record<string, BaseValue>> | null,
  ): BaseValue {
    const { operator } = node;
    if (operator === '&&')
      return bool(isTruthy(this.evaluateNode(node.left, row, locals)) && isTruthy(this.evaluateNode(node.right, row, locals)));
    if (operator === '||')
      return bool(isTruthy(this.evaluateNode(node.left, row, locals)) || isTruthy(this.evaluateNode(node.right, row, locals)));
    const left = this.evaluateNode(node.left, row, locals);
    const right = this.evaluateNode(node.right, row, locals);
    switch (operator) {
      case '==':
        return bool(valuesEqual(left, right));
      case '!=':
        return bool(!valuesEqual(left, right));
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const order = compareValues(left, right);
        if (order === null) return bool(false);
        return bool(operator === '<' ? order < 0 : operator === '<=' ? order <= 0 : operator === '>' ? order > 0 : order >= 0);
      }
      default:
        return this.arithmetic(operator, left, right, node.start);
    }
  }

  /**
   * `+ - * / %`: numbers as JavaScript; `+` with text on either side concatenates (null as
   * ""); `date ± duration` (a duration, a duration string such as "1M", or milliseconds);
   * `date - date` is a duration; a duration times or divided by a number is a duration;
   * any other operand null gives null. Anything else is an error naming both kinds.
   */
  private arithmetic(operator: '+' | '-' | '*' | '/' | '%', left: BaseValue, right: BaseValue, position: number): BaseValue {
    if (operator === '+' && (left.kind === 'string' || right.kind === 'string')) {
      if (left.kind === 'date' && right.kind === 'string') {
        const shifted = dateArithmetic(left, right, 1, this.context(position));
        if (shifted !== null) return shifted;
      }
      return str(textValue(left) + textValue(right));
    }
    if (left.kind === 'null' || right.kind === 'null') return NULL;
    if (left.kind === 'number' && right.kind === 'number') {
      const a = left.value;
      const b = right.value;
      return num(operator === '+' ? a + b : operator === '-' ? a - b : operator === '*' ? a * b : operator === '/' ? a / b : a % b);
    }
    if (left.kind === 'date' && (operator === '+' || operator === '-')) {
      if (operator === '-' && right.kind === 'date') return duration({ months: 0, ms: left.ms - right.ms });
      const shifted = dateArithmetic(left, right, operator === '+' ? 1 : -1, this.context(position));
      if (shifted !== null) return shifted;
    }
    if (right.kind === 'date' && left.kind === 'duration' && operator === '+') {
      const shifted = dateArithmetic(right, left, 1, this.context(position));
      if (shifted !== null) return shifted;
    }
    if (left.kind === 'duration') {
      if (right.kind === 'duration' && (operator === '+' || operator === '-')) {
        const sign = operator === '+' ? 1 : -1;
        return duration({ months: left.months + sign * right.months, ms: left.ms + sign * right.ms });
      }
      if (right.kind === 'number' && (operator === '*' || operator === '/')) {
        const factor = operator === '*' ? right.value : 1 / right.value;
        return duration({ months: left.months * factor, ms: left.ms * factor });
      }
    }
    if (left.kind === 'list' && right.kind === 'list' && operator === '+') return list([...left.items, ...right.items]);
    const a = numericValue(left);
    const b = numericValue(right);
    if (a !== null && b !== null && left.kind !== 'date' && right.kind !== 'date') {
      return num(operator === '+' ? a + b : operator === '-' ? a - b : operator === '*' ? a * b : operator === '/' ? a / b : a % b);
    }
    throw new BaseEvalError(`cannot ${VERBS[operator]} ${kindPhrase(left)} and ${kindPhrase(right)}`, position);
  }
}

const VERBS = { '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide', '%': 'take the remainder of' } as const;

function kindPhrase(value: BaseValue): string {
  const kind = value.kind === 'string' ? 'text' : value.kind;
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/**
 * A JavaScript RangeError (a string or list too long to make, a recursion too deep: what
 * chained `repeat()`s or deeply nested formulas can ask for) as the formula's own failure, so
 * the cell is left empty with a reason instead of the whole view failing; other errors as they are.
 */
function tooLargeAsEvalError(error: unknown, position: number): unknown {
  if (!(error instanceof RangeError)) return error;
  return new BaseEvalError(`the result is too large to compute (${error.message}); simplify the formula`, position);
}
