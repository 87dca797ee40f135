// Every text the authorization server may put in an error_description or on an error page is
// printable ASCII (RFC 6749 §5.2: %x20-21 / %x23-5B / %x5D-7E), read from the sources
// themselves: every string and template literal of src/front/oauth/*.ts, comments excluded.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { OAuthError } from './oauth-error.ts';

const folder = import.meta.dirname;
const sources = readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

/** The text of every string or template literal in `file` with its line. */
function literals(file: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(join(folder, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node))
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('error descriptions of src/front/oauth', () => {
  test.each(sources)('%s: every literal is printable ASCII, without a doubled full stop or a stray grammar slip', (file) => {
    for (const { line, text } of literals(file)) {
      expect(text, `${file}:${line}`).toMatch(/^[\x20-\x7e]*$/);
      expect(text, `${file}:${line}`).not.toMatch(/[a-z)]\.\.(?!\.)/i);
      expect(text, `${file}:${line}`).not.toMatch(/no longer served here/);
    }
  });

  test('an OAuthError keeps to %x20-21 / %x23-5B / %x5D-7E in JSON', () => {
    const error = new OAuthError('invalid_request', 'Give response_type=code.');
    expect(error.toJSON().error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
  });
});
