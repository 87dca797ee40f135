// Reads back a path Git printed C-quoted, for the few outputs without `-z` (blame --porcelain).

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * The exact path behind `quoted`, as Git writes names with special characters
 * (`quote_c_style`: `"…"` around, `\t` `\n` `\"` `\\` and the like, octal `\303\251` for
 * bytes), decoded as UTF-8. A value not starting with `"` is returned as it is.
 */
export function unquoteGitPath(quoted: string): string {
  if (!quoted.startsWith('"') || !quoted.endsWith('"') || quoted.length < 2) return quoted;
  const body = Array.from(quoted.slice(1, -1)); // code points, so a pair of surrogates stays one character
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i] ?? '';
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4).join(''));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else if (next in SIMPLE_ESCAPES) {
      bytes.push(SIMPLE_ESCAPES[next] ?? 0);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
