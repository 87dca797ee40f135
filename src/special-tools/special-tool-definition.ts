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
  const input = z.object(shape);
  let inputJson = engine.inputJson?.(spec.params) ?? null;
  if (inputJson !== null && Object.keys(spec.fields).length > 0) {
    const properties = { ...(inputJson['properties'] as Record<string, Record<string, unknown>>) };
    for (const [field, description] of Object.entries(spec.fields)) {
      if (properties[field] !== undefined) properties[field] = { ...properties[field], description };
    }
    inputJson = { ...inputJson, properties };
  }
  return {
    name: listedName(repo, spec.name),
    title: spec.title,
    description: spec.description === '' ? engine.about : spec.description,
    annotations: { ...engine.annotations },
    input: () => input,
    output: engine.output(spec.params),
    special: { repo, spec },
    inputJson,
  };
}
