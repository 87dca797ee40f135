import { describe, expect, it } from 'vitest';
import { type Expression, ExpressionSyntaxError, parseExpression } from './expression-parser.ts';

/** A compact, position-free rendering of a tree: `(op a b)`, `a.b`, `f(x)`, literals as JSON. */
function show(node: Expression): string {
  switch (node.type) {
    case 'number':
    case 'string':
    case 'boolean':
      return JSON.stringify(node.value);
    case 'null':
      return 'null';
    case 'regex':
      return `/${node.source}/${node.flags}`;
    case 'list':
      return `[${node.items.map(show).join(' ')}]`;
    case 'object':
      return `{${node.entries.map(([key, value]) => `${key}:${show(value)}`).join(' ')}}`;
    case 'this':
      return 'this';
    case 'identifier':
      return node.name;
    case 'member':
      return `${show(node.object)}.${node.property}`;
    case 'index':
      return `${show(node.object)}[${show(node.index)}]`;
    case 'call':
      return `${show(node.callee)}(${node.args.map(show).join(' ')})`;
    case 'unary':
      return `(${node.operator} ${show(node.operand)})`;
    case 'binary':
      return `(${node.operator} ${show(node.left)} ${show(node.right)})`;
  }
}

const parsed = (source: string): string => show(parseExpression(source));

function syntaxError(source: string): ExpressionSyntaxError {
  try {
    parseExpression(source);
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${source} not to parse`);
}

describe('parseExpression', () => {
  it('reads every binary operator with JavaScript precedence, left to right', () => {
    expect(parsed('a || b && c')).toBe('(|| a (&& b c))');
    expect(parsed('a && b == c')).toBe('(&& a (== b c))');
    expect(parsed('a != b < c')).toBe('(!= a (< b c))');
    expect(parsed('a <= b + c')).toBe('(<= a (+ b c))');
    expect(parsed('a > b - c * d')).toBe('(> a (- b (* c d)))');
    expect(parsed('a >= b / c % d')).toBe('(>= a (% (/ b c) d))');
    expect(parsed('a - b - c')).toBe('(- (- a b) c)');
    expect(parsed('(a + b) * c')).toBe('(* (+ a b) c)');
  });

  it('binds unary operators tighter than binary ones and looser than member calls', () => {
    expect(parsed('!file.name.contains("x")')).toBe('(! file.name.contains("x"))');
    expect(parsed('-a * b')).toBe('(* (- a) b)');
    expect(parsed('!!a')).toBe('(! (! a))');
    expect(parsed('(-5).abs()')).toBe('(- 5).abs()');
  });

  it('reads strings in both quotes with backslash escapes', () => {
    expect(parsed(`"double" + 'single'`)).toBe('(+ "double" "single")');
    expect(parsed(`'it\\'s' + "say \\"hi\\"" + "a\\nb" + "\\u00e9"`)).toBe(`(+ (+ (+ "it's" "say \\"hi\\"") "a\\nb") "é")`);
    expect(parsed(`'contains "double" quotes'`)).toBe('"contains \\"double\\" quotes"');
  });

  it('reads numbers, and a dot after digits as a method call unless a digit follows', () => {
    expect(parsed('2.5')).toBe('2.5');
    expect(parsed('1.isTruthy()')).toBe('1.isTruthy()');
    expect(parsed('123.toString()')).toBe('123.toString()');
    expect(parsed('5.isEmpty()')).toBe('5.isEmpty()');
    expect(parsed('(2.5).round()')).toBe('2.5.round()');
    expect(parsed('1e3')).toBe('1000');
  });

  it('reads a slash as a regular expression where an operand is expected, else as division', () => {
    expect(parsed('/abc/.matches("abcde")')).toBe('/abc/.matches("abcde")');
    expect(parsed('"a:b".replace(/:/g, "-")')).toBe('"a:b".replace(/:/g "-")');
    expect(parsed('a / b / c')).toBe('(/ (/ a b) c)');
    expect(parsed('(a) / 2')).toBe('(/ a 2)');
    expect(parsed('x.split(/[,/]/)')).toBe('x.split(/[,/]/)');
    expect(parsed('/(\\w+) (\\w+)/i')).toBe('/(\\w+) (\\w+)/i');
  });

  it('reads lists, objects, booleans, null, this, indexing and calls', () => {
    expect(parsed('[1, "two", [3]]')).toBe('[1 "two" [3]]');
    expect(parsed('[]')).toBe('[]');
    expect(parsed('{"a": 1, b: [2]}')).toBe('{a:1 b:[2]}');
    expect(parsed('{}.isEmpty()')).toBe('{}.isEmpty()');
    expect(parsed('true && false || null')).toBe('(|| (&& true false) null)');
    expect(parsed('this.file.name')).toBe('this.file.name');
    expect(parsed('note["watched-date"]')).toBe('note["watched-date"]');
    expect(parsed('list(x)[-1]')).toBe('list(x)[(- 1)]');
    expect(parsed('if(a, b)')).toBe('if(a b)');
    expect(parsed('[1,2,3].filter(value > 1).map(value * index)')).toBe('[1 2 3].filter((> value 1)).map((* value index))');
  });

  it('reads property names in any script, and a hyphen as subtraction', () => {
    expect(parsed('作者 == "x"')).toBe('(== 作者 "x")');
    expect(parsed('автор.contains("x")')).toBe('автор.contains("x")');
    expect(parsed('watched-date')).toBe('(- watched date)');
  });

  it('reports what is wrong and where', () => {
    expect(syntaxError('a = 1')).toMatchObject({ position: 2, message: expect.stringContaining('use ==') });
    expect(syntaxError('a === 1')).toMatchObject({ position: 2, message: expect.stringContaining('use ==') });
    expect(syntaxError('"open')).toMatchObject({ position: 0, message: expect.stringContaining('no closing "') });
    expect(syntaxError('f(1, 2')).toMatchObject({ position: 6 });
    expect(syntaxError('a +')).toMatchObject({ message: 'the expression ends too early' });
    expect(syntaxError('')).toMatchObject({ message: 'the expression is empty' });
    expect(syntaxError('a b')).toMatchObject({ position: 2, message: expect.stringContaining('after a complete expression') });
    expect(syntaxError('values.map(value => value)')).toMatchObject({ position: 17 });
    expect(syntaxError('/(/')).toMatchObject({ position: 0, message: expect.stringContaining('invalid regular expression') });
    expect(syntaxError('(1)(2)')).toMatchObject({ message: 'only a function or method name can be called' });
    expect(syntaxError('a ? b : c')).toMatchObject({ position: 2 });
  });
});
