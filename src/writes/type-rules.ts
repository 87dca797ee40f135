// What a write checks against the repository's note types: places and the frontmatter schema.
import type { NoteType, VaultConfig } from '../config/vault-config.ts';
import { frontmatterValidator } from '../notes/frontmatter-schema.ts';
import { matchPlace } from '../notes/places.ts';
import { isExempt } from '../notes/vault-path.ts';
import { VaultError } from '../vault-error.ts';

/**
 * The frontmatter problems of `data` under `type`'s JSON Schema (2020-12, validated with
 * notes/frontmatter-schema.ts, formats asserted), each as one readable line such as `decided_on: must be string` or
 * `must have required property 'decided_by'`. Empty when it fits. A type whose schema does not
 * compile gives no problems here (the configuration reports it).
 */
export function schemaProblems(type: NoteType, data: Record<string, unknown>): string[] {
  const validate = frontmatterValidator(type.frontmatter);
  if (typeof validate === 'string') return [];
  if (validate(data)) return [];
  return (validate.errors ?? []).map((error) => {
    const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const extra =
      error.keyword === 'enum'
        ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')})`
        : '';
    return `${field === '' ? '' : `${field}: `}${error.message ?? 'is not valid'}${extra}`;
  });
}

/** The note's type name from its frontmatter (`typeField`), or null when it names none. */
export function typeNameOf(config: VaultConfig, data: Record<string, unknown> | null): string | null {
  const value = data?.[config.settings.typeField];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** True when `path` matches one of `type`'s places (spec: "Note types", `places`). */
export function fitsPlace(type: NoteType, path: string): boolean {
  return type.places.some((place) => matchPlace(place, path) !== null);
}

/** True when no type rule applies at `path`: a README, or a path in `exempt` (spec: "Unknown and missing types"). */
export function isTypeExempt(config: VaultConfig, path: string): boolean {
  return isExempt(path, config.settings.exempt);
}

/** The type named `name`, or VaultError `unknown_type` naming the repository's types. */
export function requireType(config: VaultConfig, name: string): NoteType {
  const type = config.types.get(name);
  if (type !== undefined) return type;
  const names = [...config.types.keys()].sort();
  throw new VaultError(
    'unknown_type',
    names.length === 0
      ? `This repository defines no note types, so "${name}" is not one. Leave the type out.`
      : `"${name}" is not a note type of this repository. Its types: ${names.map((n) => `"${n}"`).join(', ')}.`,
    { type: name, types: names },
  );
}

/** VaultError `bad_arguments` for a path that `type` does not allow, naming its places. */
export function placeRefusal(type: NoteType, path: string): VaultError {
  return new VaultError(
    'bad_arguments',
    `"${path}" is not a place for a note of type "${type.name}". Its places: ${type.places.map((p) => `"${p}"`).join(', ')}. Choose a path that matches one of them.`,
    { path, type: type.name, places: [...type.places] },
  );
}

/** VaultError `schema_violation` listing the frontmatter problems a change would introduce. */
export function schemaRefusal(type: NoteType, path: string, problems: readonly string[]): VaultError {
  return new VaultError(
    'schema_violation',
    `The frontmatter of "${path}" would not fit the type "${type.name}": ${problems.join('; ')}. Give the fields the type asks for, with values of the right kind.`,
    { path, type: type.name, problems: [...problems] },
  );
}
