// Writing frontmatter: values serialised so they parse back to exactly themselves, one key
// edited without touching a byte of the rest.
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, parseDocument, Scalar, visit } from 'yaml';
import { VaultError } from '../vault-error.ts';
import { parseFrontmatterYaml, splitFrontmatter } from './frontmatter.ts';

/** Strings that YAML 1.1 readers (older tools, some plugins) would read as booleans: quoted for them. */
const YAML11_BOOLEAN = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|false|False|FALSE)$/;

/**
 * The YAML for a frontmatter block holding `values` (JSON values: strings, numbers, booleans,
 * null, arrays, objects), in their key order, each line ending in `eol`, without the `---`
 * fences. Written with the `yaml` library on the YAML 1.2 core schema and checked by parsing
 * it back: a string `no` stays a string (and is quoted for YAML 1.1 readers), `"1.10"` is
 * quoted and stays `1.10`, a date string stays that string. `{}` gives `''`.
 * Throws VaultError `bad_arguments` for a value that cannot round-trip (e.g. `undefined`).
 */
export function serializeFrontmatter(values: Record<string, unknown>, eol: '\n' | '\r\n' = '\n'): string {
  if (Object.keys(values).length === 0) return '';
  const doc = new Document(values, { schema: 'core' });
  visit(doc, {
    Scalar(key, node) {
      // Values only: a key `no:` reads as the string "no" for every YAML reader that maps keys to strings.
      if (key !== 'key' && typeof node.value === 'string' && YAML11_BOOLEAN.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  const yaml = doc.toString({ lineWidth: 0, minContentWidth: 0 });
  const parsed = parseFrontmatterYaml(yaml);
  if (parsed.data === null || !isDeepStrictEqual(parsed.data, values)) {
    throw new VaultError(
      'bad_arguments',
      'The frontmatter holds a value that YAML cannot write back exactly (for example an undefined value). Give strings, finite numbers, booleans, null, lists and objects.',
    );
  }
  return eol === '\n' ? yaml : yaml.replace(/\n/g, '\r\n');
}

/**
 * A whole note: `---`, the frontmatter for `values`, `---`, then `body`, with `eol` line
 * endings in the frontmatter. Without values, just the body.
 */
export function buildNoteText(values: Record<string, unknown>, body: string, eol: '\n' | '\r\n' = '\n'): string {
  const yaml = serializeFrontmatter(values, eol);
  if (yaml === '') return body;
  return `---${eol}${yaml}---${eol}${body}`;
}

/**
 * One YAML scalar written inline: a string, number, boolean or null as it would stand after
 * `key: `, quoted when YAML would otherwise read it as something else (`"no"`, `"1.10"`,
 * `"a: b"`). Multi-line strings are written double-quoted with `\n` escapes (JSON is YAML).
 */
export function yamlScalar(value: string | number | boolean | null): string {
  if (typeof value === 'string' && /[\n\r]/.test(value)) return JSON.stringify(value);
  const doc = new Document(value, { schema: 'core' });
  if (isScalar(doc.contents) && typeof value === 'string' && YAML11_BOOLEAN.test(value)) doc.contents.type = Scalar.QUOTE_DOUBLE;
  return doc.toString({ lineWidth: 0 }).replace(/\n$/, '');
}

/**
 * Sets one top-level frontmatter field of a note's `text` to a scalar `value`, changing only
 * that value's bytes: every other key, comment, quoting, the order, the BOM and the line
 * endings stay as they are (issue 4: "Never rewrites what it did not target"). A missing key
 * is added as the block's last line; a note without frontmatter gets a block at the top.
 * Throws VaultError `invalid_frontmatter` when the block does not parse (it cannot be edited
 * safely), and checks that the result parses to the old fields with this one changed.
 */
export function setFrontmatterField(text: string, key: string, value: string | number | boolean | null): string {
  const fm = splitFrontmatter(text);
  const scalar = yamlScalar(value);
  const keyText = yamlScalar(key);
  if (!fm.present) {
    if (fm.error !== null) throw new VaultError('invalid_frontmatter', `${fm.error} The field "${key}" cannot be set until it is.`);
    const eol = fm.eol;
    const at = fm.bom ? 1 : 0;
    return `${text.slice(0, at)}---${eol}${keyText}: ${scalar}${eol}---${eol}${text.slice(at)}`;
  }
  if (fm.data === null) {
    throw new VaultError(
      'invalid_frontmatter',
      `${fm.error ?? 'The frontmatter is not a mapping of fields.'} The field "${key}" cannot be set until it is.`,
    );
  }
  const raw = fm.raw ?? '';
  const rawStart = text.indexOf('\n', fm.bom ? 1 : 0) + 1;
  const doc = parseDocument(raw, { schema: 'core', keepSourceTokens: false });
  let edited: string | null = null;
  if (isMap(doc.contents)) {
    const pair = doc.contents.items.find((item) => isScalar(item.key) && item.key.value === key);
    if (pair) {
      const valueNode = pair.value as { range?: [number, number, number] } | null;
      const keyNode = pair.key as { range?: [number, number, number] };
      if (valueNode && valueNode.range && !(isScalar(valueNode) && valueNode.value === null && valueNode.range[0] === valueNode.range[1])) {
        const [from, to] = valueNode.range;
        edited = raw.slice(0, from) + scalar + raw.slice(to);
      } else if (keyNode.range) {
        // `key:` with nothing after it: the value goes right after the colon.
        const colon = raw.indexOf(':', keyNode.range[1]);
        edited = raw.slice(0, colon + 1) + ' ' + scalar + raw.slice(colon + 1).replace(/^[ \t]+(?=\r?\n|$)/, '');
      }
    }
  }
  if (edited === null) {
    const eol = fm.eol;
    const base = raw === '' || raw.endsWith('\n') ? raw : raw + eol;
    edited = `${base}${keyText}: ${scalar}${eol}`;
  }
  const check = parseFrontmatterYaml(edited);
  if (check.data === null || !isDeepStrictEqual(check.data, { ...fm.data, [key]: value })) {
    throw new VaultError(
      'invalid_frontmatter',
      `The field "${key}" could not be set without changing other fields of the frontmatter. Edit it with edit_note instead.`,
    );
  }
  return text.slice(0, rawStart) + edited + text.slice(rawStart + raw.length);
}
