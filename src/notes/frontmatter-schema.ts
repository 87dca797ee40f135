// The one JSON Schema validator for a note type's frontmatter: read_note's report, the write
// tools' refusal and the configuration check all compile a type's schema here.
import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';

/** Ajv and ajv-formats (CommonJS, about 90 modules), loaded by the first schema compiled, not by every start. */
let ajvModules: { Ajv2020: typeof Ajv2020; addFormats: (ajv: Ajv2020) => void } | null = null;

function loadAjv(): { Ajv2020: typeof Ajv2020; addFormats: (ajv: Ajv2020) => void } {
  if (ajvModules === null) {
    const require = createRequire(import.meta.url);
    const formats = require('ajv-formats') as { default?: (ajv: Ajv2020) => void } & ((ajv: Ajv2020) => void);
    ajvModules = {
      Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
      // ajv-formats exports its function both as the module and as its `default`.
      addFormats: formats.default ?? formats,
    };
  }
  return ajvModules;
}

/**
 * A fresh Ajv for a type's `frontmatter` schema (spec: "Note types": "a JSON Schema for the
 * note's frontmatter"): draft 2020-12, every error reported (`allErrors`), and formats such as
 * `date`, `email` or `uri` asserted (ajv-formats), so a `format: date` field holding "next
 * week" is a problem for reads and writes alike. Not strict, as a repository's schema may carry
 * keywords of its own; `strict: true` gives the strict compile the configuration check uses to
 * hint at a misspelt keyword. Fresh each time, so two types (or two loads of one) may reuse
 * an `$id`.
 */
export function frontmatterAjv(options: { strict?: boolean } = {}): Ajv2020 {
  const { Ajv2020, addFormats } = loadAjv();
  const ajv = options.strict
    ? new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, strictRequired: false, logger: false })
    : new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

const compiled = new WeakMap<object, ValidateFunction | string>();

/**
 * The validator of a type's frontmatter `schema` (compiled once per schema object, with
 * {@link frontmatterAjv}), or the compile error's message when it does not compile (the
 * configuration check reports that; validation then finds no problems).
 */
export function frontmatterValidator(schema: Record<string, unknown>): ValidateFunction | string {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    try {
      validator = frontmatterAjv().compile(schema);
    } catch (error) {
      validator = error instanceof Error ? error.message : String(error);
    }
    compiled.set(schema, validator);
  }
  return validator;
}
