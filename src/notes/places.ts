// Places of a note type: path patterns with `{field}` / `{field:slug}` placeholders (spec: "Note types").
import { VaultError } from '../vault-error.ts';
import { fieldText } from './field-text.ts';
import { slugify } from './slug.ts';
import { normalizeVaultPath } from './vault-path.ts';

const PLACEHOLDER = /\{([^{}:]+)(?::(slug))?\}/g;

interface CompiledPlace {
  pattern: RegExp;
  fields: Array<{ name: string; slug: boolean }>;
}

const compiled = new Map<string, CompiledPlace>();

function compile(place: string): CompiledPlace {
  let found = compiled.get(place);
  if (found) return found;
  const fields: CompiledPlace['fields'] = [];
  let source = '';
  let last = 0;
  for (const match of place.matchAll(PLACEHOLDER)) {
    source += escapeRegExp(place.slice(last, match.index));
    source += '([^/]+?)';
    fields.push({ name: match[1]!.trim(), slug: match[2] === 'slug' });
    last = match.index + match[0].length;
  }
  source += escapeRegExp(place.slice(last));
  found = { pattern: new RegExp(`^${source}$`, 'u'), fields };
  compiled.set(place, found);
  return found;
}

/**
 * The placeholder values when `path` fits `place`, else null. Each placeholder matches one
 * non-empty piece of a single path segment; the rest of the place must match literally,
 * case-sensitively (`active/{project:slug}/decisions/{title:slug}.md` fits
 * `active/apollo/decisions/pick-a-date.md` with `{ project: 'apollo', title: 'pick-a-date' }`).
 * With `strictSlugs`, a `{field:slug}` piece must also be a slug already (`slugify(piece) === piece`).
 * A field that occurs twice must have the same value both times.
 */
export function matchPlace(place: string, path: string, options: { strictSlugs?: boolean } = {}): Record<string, string> | null {
  const { pattern, fields } = compile(place);
  const match = pattern.exec(path);
  if (!match) return null;
  const values: Record<string, string> = {};
  for (const [i, field] of fields.entries()) {
    const value = match[i + 1]!;
    if (options.strictSlugs && field.slug && slugify(value) !== value) return null;
    if (field.name in values && values[field.name] !== value) return null;
    values[field.name] = value;
  }
  return values;
}

/** The field names a place uses, in order, each once. */
export function placeFields(place: string): string[] {
  return [...new Set(compile(place).fields.map((field) => field.name))];
}

/**
 * Builds the path for `place` from `values` (a note's frontmatter plus any extra fields):
 * `{field}` becomes the field's text ({@link fieldText}), `{field:slug}` its {@link slugify}d
 * text. The result is a normalised repository path.
 *
 * Throws VaultError `bad_arguments` when a field is missing or empty, when a `{field:slug}`
 * slugs to nothing, or when a plain `{field}` holds a `/`, naming the field and the place;
 * `invalid_path`/`hidden_path` when the built path is not a valid path.
 */
export function buildPlace(place: string, values: Record<string, unknown>): string {
  const built = place.replace(PLACEHOLDER, (_whole, rawName: string, slug: string | undefined) => {
    const name = rawName.trim();
    const text = fieldText(values[name]).trim();
    if (text === '') {
      throw new VaultError(
        'bad_arguments',
        `The path of this note is built from the place "${place}", which needs the field "${name}". Give "${name}" a value in the frontmatter.`,
        { place, field: name },
      );
    }
    if (slug) {
      const slugged = slugify(text);
      if (slugged === '') {
        throw new VaultError(
          'bad_arguments',
          `The field "${name}" (${JSON.stringify(text)}) leaves nothing for a file name in the place "${place}": it has no letters or digits. Give "${name}" a value with letters or digits.`,
          { place, field: name, value: text },
        );
      }
      return slugged;
    }
    if (text.includes('/') || text.includes('\\')) {
      throw new VaultError(
        'bad_arguments',
        `The field "${name}" (${JSON.stringify(text)}) holds a "/" or "\\", but in the place "${place}" it names one file or folder. Give "${name}" a value without slashes.`,
        { place, field: name, value: text },
      );
    }
    return text;
  });
  return normalizeVaultPath(built, 'note');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
