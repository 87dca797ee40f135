// The Bases expression language's lexer and parser: filters and formulas into a syntax tree.
// Grammar and precedence as in Obsidian's docs (help.obsidian.md/bases/syntax), JavaScript order.

/** A position-carrying node of a parsed expression. `start`/`end` are UTF-16 offsets into the source. */
export type Expression =
  | { type: 'number'; value: number; start: number; end: number }
  | { type: 'string'; value: string; start: number; end: number }
  | { type: 'boolean'; value: boolean; start: number; end: number }
  | { type: 'null'; start: number; end: number }
  | { type: 'regex'; source: string; flags: string; start: number; end: number }
  | { type: 'list'; items: Expression[]; start: number; end: number }
  | { type: 'object'; entries: Array<[key: string, value: Expression]>; start: number; end: number }
  | { type: 'this'; start: number; end: number }
  | { type: 'identifier'; name: string; start: number; end: number }
  | { type: 'member'; object: Expression; property: string; start: number; end: number }
  | { type: 'index'; object: Expression; index: Expression; start: number; end: number }
  | { type: 'call'; callee: Expression; args: Expression[]; start: number; end: number }
  | { type: 'unary'; operator: '!' | '-' | '+'; operand: Expression; start: number; end: number }
  | { type: 'binary'; operator: BinaryOperator; left: Expression; right: Expression; start: number; end: number };

/** The binary operators of the language (no `===`, `??`, ternary or `**`: Obsidian has none). */
export type BinaryOperator = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

/** A syntax error: what was wrong, at which 0-based offset of the source. */
export class ExpressionSyntaxError extends Error {
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.position = position;
    this.name = 'ExpressionSyntaxError';
  }
}

type Token =
  | { kind: 'number'; value: number; start: number; end: number }
  | { kind: 'string'; value: string; start: number; end: number }
  | { kind: 'regex'; source: string; flags: string; start: number; end: number }
  | { kind: 'identifier'; value: string; start: number; end: number }
  | { kind: 'punct'; value: string; start: number; end: number }
  | { kind: 'end'; start: number; end: number };

const PUNCTUATORS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '.',
  ',',
  ':',
  '!',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
];
const IDENTIFIER_START = /[\p{L}_$]/u;
const IDENTIFIER_PART = /[\p{L}\p{N}\p{M}_$]/u;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** Splits an expression into tokens. A `/` starts a regex only where an operand is expected. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const operandExpected = (): boolean => {
    const last = tokens[tokens.length - 1];
    if (last === undefined) return true;
    if (last.kind === 'punct') return ![')', ']', '}'].includes(last.value);
    return false;
  };
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (/[0-9]/.test(ch)) {
      while (i < source.length && /[0-9]/.test(source[i]!)) i++;
      // A "." starts a fraction only when a digit follows: `1.isTruthy()` is a method call.
      if (source[i] === '.' && /[0-9]/.test(source[i + 1] ?? '')) {
        i++;
        while (i < source.length && /[0-9]/.test(source[i]!)) i++;
      }
      if (/[eE]/.test(source[i] ?? '') && /^[eE][+-]?[0-9]/.test(source.slice(i, i + 3))) {
        i += source[i + 1] === '+' || source[i + 1] === '-' ? 2 : 1;
        while (i < source.length && /[0-9]/.test(source[i]!)) i++;
      }
      tokens.push({ kind: 'number', value: Number(source.slice(start, i)), start, end: i });
      continue;
    }
    if (ch === '"' || ch === "'") {
      i++;
      let value = '';
      for (;;) {
        if (i >= source.length) throw new ExpressionSyntaxError(`the text starting here has no closing ${ch}`, start);
        const c = source[i]!;
        if (c === ch) {
          i++;
          break;
        }
        if (c === '\\') {
          const next = source[i + 1];
          if (next === undefined) throw new ExpressionSyntaxError(`the text starting here has no closing ${ch}`, start);
          if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) {
            value += String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          value += ESCAPES[next] ?? next;
          i += 2;
          continue;
        }
        value += c;
        i++;
      }
      tokens.push({ kind: 'string', value, start, end: i });
      continue;
    }
    if (ch === '/' && operandExpected()) {
      i++;
      let body = '';
      let inClass = false;
      for (;;) {
        if (i >= source.length) throw new ExpressionSyntaxError('the regular expression starting here has no closing /', start);
        const c = source[i]!;
        if (c === '\\') {
          body += c + (source[i + 1] ?? '');
          i += 2;
          continue;
        }
        if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) {
          i++;
          break;
        }
        body += c;
        i++;
      }
      const flagsStart = i;
      while (i < source.length && /[a-z]/.test(source[i]!)) i++;
      const flags = source.slice(flagsStart, i);
      if (/[^dgimsuy]/.test(flags)) throw new ExpressionSyntaxError(`unknown regular expression flag in "${flags}"`, flagsStart);
      try {
        new RegExp(body, flags);
      } catch (error) {
        throw new ExpressionSyntaxError(`invalid regular expression: ${(error as Error).message}`, start);
      }
      tokens.push({ kind: 'regex', source: body, flags, start, end: i });
      continue;
    }
    if (IDENTIFIER_START.test(ch)) {
      // Identifiers may hold any letter (property names are often not English) but not "-":
      // `watched-date` is a subtraction, as in Obsidian; write `note["watched-date"]`.
      while (i < source.length) {
        const cp = source.codePointAt(i)!;
        const c = String.fromCodePoint(cp);
        if (!IDENTIFIER_PART.test(c)) break;
        i += c.length;
      }
      tokens.push({ kind: 'identifier', value: source.slice(start, i), start, end: i });
      continue;
    }
    const punct = PUNCTUATORS.find((p) => source.startsWith(p, i));
    if (punct === undefined || source.startsWith('===', i) || source.startsWith('!==', i)) {
      const shown =
        source.startsWith('===', i) || source.startsWith('!==', i) ? source.slice(i, i + 3) : String.fromCodePoint(source.codePointAt(i)!);
      const hint = shown === '===' ? ' (use ==)' : shown === '!==' ? ' (use !=)' : shown === '=' ? ' (use == to compare)' : '';
      throw new ExpressionSyntaxError(`unexpected "${shown}"${hint}`, i);
    }
    i += punct.length;
    tokens.push({ kind: 'punct', value: punct, start, end: i });
  }
  tokens.push({ kind: 'end', start: source.length, end: source.length });
  return tokens;
}

const BINARY_LEVELS: ReadonlyArray<readonly BinaryOperator[]> = [
  ['||'],
  ['&&'],
  ['==', '!='],
  ['<', '<=', '>', '>='],
  ['+', '-'],
  ['*', '/', '%'],
];

/**
 * Parses one Bases expression (a filter statement or a formula) into its syntax tree.
 * Supports literals (numbers, strings in either quote with backslash escapes, `true`,
 * `false`, `null`, `/regex/flags`, `[lists]`, `{"objects": …}`), `this`, identifiers,
 * member access, indexing, calls, unary `! - +` and the binary operators with JavaScript
 * precedence. Throws {@link ExpressionSyntaxError} with the offset of the first problem.
 */
export function parseExpression(source: string): Expression {
  const tokens = tokenize(source);
  let position = 0;
  const peek = (): Token => tokens[position]!;
  const next = (): Token => tokens[position++]!;
  const isPunct = (value: string): boolean => {
    const token = peek();
    return token.kind === 'punct' && token.value === value;
  };
  const describe = (token: Token): string =>
    token.kind === 'end' ? 'the end of the expression' : `"${source.slice(token.start, token.end)}"`;
  const expect = (value: string, what: string): Token => {
    const token = peek();
    if (token.kind !== 'punct' || token.value !== value)
      throw new ExpressionSyntaxError(`expected "${value}" ${what}, found ${describe(token)}`, token.start);
    return next();
  };

  const parseBinary = (level: number): Expression => {
    if (level === BINARY_LEVELS.length) return parseUnary();
    const operators = BINARY_LEVELS[level]!;
    let left = parseBinary(level + 1);
    for (;;) {
      const token = peek();
      if (token.kind !== 'punct' || !(operators as readonly string[]).includes(token.value)) return left;
      next();
      const right = parseBinary(level + 1);
      left = { type: 'binary', operator: token.value as BinaryOperator, left, right, start: left.start, end: right.end };
    }
  };

  const parseUnary = (): Expression => {
    const token = peek();
    if (token.kind === 'punct' && (token.value === '!' || token.value === '-' || token.value === '+')) {
      next();
      const operand = parseUnary();
      return { type: 'unary', operator: token.value, operand, start: token.start, end: operand.end };
    }
    return parsePostfix();
  };

  const parseArguments = (close: string, what: string): { items: Expression[]; end: number } => {
    const items: Expression[] = [];
    while (!isPunct(close)) {
      items.push(parseBinary(0));
      if (isPunct(',')) {
        next();
        continue;
      }
      if (!isPunct(close)) throw new ExpressionSyntaxError(`expected "," or "${close}" ${what}, found ${describe(peek())}`, peek().start);
    }
    return { items, end: next().end };
  };

  const parsePostfix = (): Expression => {
    let expression = parsePrimary();
    for (;;) {
      if (isPunct('.')) {
        next();
        const name = next();
        if (name.kind !== 'identifier')
          throw new ExpressionSyntaxError(`expected a property or function name after ".", found ${describe(name)}`, name.start);
        expression = { type: 'member', object: expression, property: name.value, start: expression.start, end: name.end };
      } else if (isPunct('[')) {
        next();
        const index = parseBinary(0);
        const close = expect(']', 'to close the index');
        expression = { type: 'index', object: expression, index, start: expression.start, end: close.end };
      } else if (isPunct('(')) {
        if (expression.type !== 'identifier' && expression.type !== 'member') {
          throw new ExpressionSyntaxError('only a function or method name can be called', peek().start);
        }
        next();
        const { items, end } = parseArguments(')', 'in the arguments');
        expression = { type: 'call', callee: expression, args: items, start: expression.start, end };
      } else {
        return expression;
      }
    }
  };

  const parsePrimary = (): Expression => {
    const token = next();
    switch (token.kind) {
      case 'number':
        return { type: 'number', value: token.value, start: token.start, end: token.end };
      case 'string':
        return { type: 'string', value: token.value, start: token.start, end: token.end };
      case 'regex':
        return { type: 'regex', source: token.source, flags: token.flags, start: token.start, end: token.end };
      case 'identifier':
        if (token.value === 'true' || token.value === 'false')
          return { type: 'boolean', value: token.value === 'true', start: token.start, end: token.end };
        if (token.value === 'null') return { type: 'null', start: token.start, end: token.end };
        if (token.value === 'this') return { type: 'this', start: token.start, end: token.end };
        return { type: 'identifier', name: token.value, start: token.start, end: token.end };
      case 'punct':
        if (token.value === '(') {
          const inner = parseBinary(0);
          expect(')', 'to close the parenthesis');
          return inner;
        }
        if (token.value === '[') {
          const { items, end } = parseArguments(']', 'in the list');
          return { type: 'list', items, start: token.start, end };
        }
        if (token.value === '{') {
          const entries: Array<[string, Expression]> = [];
          while (!isPunct('}')) {
            const key = next();
            if (key.kind !== 'string' && key.kind !== 'identifier' && key.kind !== 'number') {
              throw new ExpressionSyntaxError(`expected a key in the object, found ${describe(key)}`, key.start);
            }
            expect(':', 'after the key');
            entries.push([String(key.value), parseBinary(0)]);
            if (isPunct(',')) next();
            else if (!isPunct('}'))
              throw new ExpressionSyntaxError(`expected "," or "}" in the object, found ${describe(peek())}`, peek().start);
          }
          const close = next();
          return { type: 'object', entries, start: token.start, end: close.end };
        }
        throw new ExpressionSyntaxError(`unexpected ${describe(token)}`, token.start);
      case 'end':
        throw new ExpressionSyntaxError(source.trim() === '' ? 'the expression is empty' : 'the expression ends too early', token.start);
    }
  };

  const expression = parseBinary(0);
  const rest = peek();
  if (rest.kind !== 'end') {
    const hint = rest.kind === 'punct' && rest.value === '=' ? ' (use == to compare)' : '';
    throw new ExpressionSyntaxError(`unexpected ${describe(rest)} after a complete expression${hint}`, rest.start);
  }
  return expression;
}
