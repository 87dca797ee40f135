// A special tool as it is listed and registered: its engine's schemas around one resolved tool
// file, under `<repo>__<name>` (spec: "How special tools are listed").
import { z } from 'zod';
import type { ToolDefinition } from '../tools/tool.ts';
import { engines } from './all-engines.ts';
import { listedName, type Engine, type JsonSchemaObject, type SpecialToolSpec } from './engine.ts';

/**
 * A special tool's definition: a {@link ToolDefinition} whose `input` ignores the `repo` field
 * (a special tool takes none: it is bound to `special.repo`), with what the instance needs to
 * run it (`special`: the repository and the resolved tool file) and, when its engine lists its
 * input as written, the listed input schema (`inputJson`).
 */
export interface SpecialToolDefinition extends ToolDefinition {
  special: { repo: string; spec: SpecialToolSpec };
  inputJson: JsonSchemaObject | null;
}

/** True when `definition` is a special tool's (as opposed to a basic tool's). */
export function isSpecialTool(definition: ToolDefinition): definition is SpecialToolDefinition {
  return 'special' in definition;
}

/**
 * The definition of the special tool `spec` of the repository `repo`: named `<repo>__<name>`,
 * titled and described by the tool file (the engine's `about` when the file has no body), its
 * input the engine's fields with the file's `fields` replacing their descriptions, its output
 * and annotations the engine's. Throws when `spec.engine` is not an engine (a spec comes from
 * specialToolsOf, which leaves those out).
 */
export function specialToolDefinition(repo: string, spec: SpecialToolSpec): SpecialToolDefinition {
  const engine = engines.get(spec.engine) as Engine<unknown, unknown> | undefined;
  if (engine === undefined) throw new Error(`no engine "${spec.engine}"`);
  const own = engine.input(spec.params);
  const shape: Record<string, z.ZodType> = {};
  for (const [field, schema] of Object.entries(own.shape)) {
    const description = spec.fields[field];
    shape[field] = description === undefined ? schema : (schema as z.ZodType).describe(description);
  }
  const name = listedName(repo, spec.name);
  // Strict: an argument the tool does not take is refused, saying which it takes, rather than
  // dropped unseen (a misspelt field would otherwise be a silent no-op).
  const input = z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownArguments(issue.keys, name, repo, Object.keys(shape)) : undefined),
  });
  let inputJson = engine.inputJson?.(spec.params) ?? null;
  if (inputJson !== null) inputJson = { ...inputJson, additionalProperties: false };
  if (inputJson !== null && Object.keys(spec.fields).length > 0) {
    const properties = { ...(inputJson['properties'] as Record<string, Record<string, unknown>>) };
    for (const [field, description] of Object.entries(spec.fields)) {
      if (properties[field] !== undefined) properties[field] = { ...properties[field], description };
    }
    inputJson = { ...inputJson, properties };
  }
  return {
    name,
    title: spec.title,
    description: spec.description === '' ? engine.about : spec.description,
    annotations: { ...engine.annotations },
    input: () => input,
    output: engine.output(spec.params),
    special: { repo, spec },
    inputJson,
  };
}

/**
 * The refusal of arguments `keys` that the special tool `name` of repository `repo` does not
 * take: `repo` is said to be needless (the tool works in its own repository only, spec: "How
 * special tools are listed"), anything else is named beside the arguments it does take.
 */
export function unknownArguments(keys: readonly PropertyKey[], name: string, repo: string, accepted: readonly string[]): string {
  const names = keys.map(String);
  const sentences: string[] = [];
  if (names.includes('repo')) sentences.push(`${name} takes no repo: it works in the repository ${repo} only, so leave repo out.`);
  const others = names.filter((key) => key !== 'repo');
  if (others.length > 0) {
    const takes = accepted.length > 0 ? `it takes ${accepted.join(', ')}` : 'it takes no arguments';
    sentences.push(`${name} has no argument ${others.map((key) => JSON.stringify(key)).join(', ')}: ${takes}.`);
  }
  return sentences.join(' ');
}
