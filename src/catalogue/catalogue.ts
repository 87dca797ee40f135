// The answers to `initialize` and `tools/list` for one set of readable repositories, built
// once per set and kept (DESIGN.md "The parts": the catalogue), so a request builds no schema.
import type { LRUCache } from 'lru-cache';
import { byteCache } from '../byte-cache.ts';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { isListableName, listedName, type SpecialToolSpec } from '../special-tools/engine.ts';
import { specialToolDefinition, type SpecialToolDefinition } from '../special-tools/special-tool-definition.ts';
import { repoField, type RepoChoice, type ToolAnnotations, type ToolDefinition } from '../tools/tool.ts';
import { buildInstructions } from './instructions.ts';

/** A readable repository as the catalogue needs it: its name, summary and instructions. */
export interface CatalogueRepo {
  name: string;
  /** The settings' `summary`: the `repo` field's description of this repository; null when none. */
  summary: string | null;
  /** `.vault/instructions.md`; null when the repository has none. */
  instructions: string | null;
  /**
   * Its special tools, resolved (special-tools/special-tools-of.ts `specs`), in their order;
   * absent or empty: none.
   */
  specialTools?: readonly SpecialToolSpec[];
}

/** A JSON Schema object as `tools/list` sends it. */
export type JsonSchemaObject = Record<string, unknown>;

/** One entry of `tools/list` (MCP spec: Tool), exactly as sent; keys without a value are left out. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
  annotations: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

/**
 * One tool of a catalogue: its definition, its listed entry, and the schemas to register it
 * with. `input` and `output` validate with the tool's zod schemas and convert to JSON Schema
 * by handing out the listed entry's schemas, so the SDK converts nothing per request and
 * whatever it derives from them (the `tools/call` result projection, `Mcp-Param` checks)
 * agrees with what was listed.
 */
export interface CatalogueTool<T extends ToolDefinition = ToolDefinition> {
  /** The tool as registered (the instance's registry carries its handler). */
  definition: T;
  listed: ListedTool;
  input: StandardSchemaWithJSON;
  output: StandardSchemaWithJSON;
}

/** The catalogue of one set of readable repositories (immutable: the listed JSON is frozen). */
export interface Catalogue<T extends ToolDefinition = ToolDefinition> {
  /** The `initialize` (and `server/discover`) instructions: {@link buildInstructions} of the repositories. */
  instructions: string;
  /** The `tools/list` result's `tools`: the registry's, in its order, then each repository's special tools. */
  tools: readonly ListedTool[];
  /** The same tools with their definitions and schemas, in the same order. */
  entries: readonly CatalogueTool<T | SpecialToolDefinition>[];
}

/**
 * The bytes of catalogues {@link catalogueFor} keeps per registry (one per distinct set of
 * repositories seen), counted by {@link catalogueBytes}.
 */
export const CATALOGUES_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * What one kept catalogue is counted for: its listed tools and instructions as JSON, twice
 * over (the listed JSON and the schemas validating calls), 2 bytes a character, plus its key.
 */
function catalogueBytes(catalogue: Catalogue, key: string): number {
  return 2 * (2 * (JSON.stringify(catalogue.tools).length + catalogue.instructions.length) + key.length);
}

/** The JSON Schema dialect the SDK lists tools in (its `JSON_SCHEMA_CONVERSION_TARGET`). */
const jsonSchemaTarget = 'draft-2020-12';

const kept = new WeakMap<readonly ToolDefinition[], LRUCache<string, Catalogue>>();
const outputs = new WeakMap<ToolDefinition, { json: JsonSchemaObject; schema: StandardSchemaWithJSON }>();

/**
 * The catalogue of `repos` (the readable ones, sorted by name) for the registry `tools`,
 * built by {@link buildCatalogue} the first time this registry meets these repositories'
 * names, summaries and instructions, then kept (the least recently used one is dropped past
 * {@link CATALOGUES_CACHE_BYTES}). A changed summary or instructions.md is another key, so it is
 * never served stale.
 */
export function catalogueFor<T extends ToolDefinition>(tools: readonly T[], repos: readonly CatalogueRepo[]): Catalogue<T> {
  // The map of a registry holds catalogues of that registry's tools only.
  let byKey = kept.get(tools) as LRUCache<string, Catalogue<T>> | undefined;
  if (byKey === undefined) {
    byKey = byteCache<string, Catalogue<T>>({ maxBytes: CATALOGUES_CACHE_BYTES, sizeOf: catalogueBytes });
    kept.set(tools, byKey as unknown as LRUCache<string, Catalogue>);
  }
  const key = JSON.stringify(repos.map(catalogueInputs));
  let catalogue = byKey.get(key);
  if (catalogue === undefined) {
    catalogue = buildCatalogue(tools, repos);
    byKey.set(key, catalogue);
  }
  return catalogue;
}

/**
 * What of a repository a catalogue depends on, as JSON-ready data: name, summary,
 * instructions and special tools. Two repositories with the same inputs list the same.
 */
export function catalogueInputs(repo: CatalogueRepo): unknown[] {
  const inputs: unknown[] = [repo.name, repo.summary, repo.instructions];
  if (repo.specialTools !== undefined && repo.specialTools.length > 0) inputs.push(repo.specialTools);
  return inputs;
}

/**
 * Builds the catalogue of `repos` for the registry `tools` (spec: "Who sees what", "What a
 * client is told first"): each tool's input schema around the `repo` field whose `anyOf`
 * names exactly these repositories with their summaries, its output schema, and the
 * instructions made of the service's paragraph and each repository's instructions.md. After
 * the registry's tools come the repositories' special tools (spec: "How special tools are
 * listed"), repository by repository in `repos`' order, each in its own order, named
 * `<repo>__<name>`, without a `repo` field.
 */
export function buildCatalogue<T extends ToolDefinition>(tools: readonly T[], repos: readonly CatalogueRepo[]): Catalogue<T> {
  const choices: RepoChoice[] = repos.map((repo) => ({ name: repo.name, summary: repo.summary }));
  const repo = repoField(choices);
  const special = repos.flatMap((one) =>
    (one.specialTools ?? [])
      .filter((spec) => isListableName(listedName(one.name, spec.name)))
      .map((spec) => specialToolDefinition(one.name, spec)),
  );
  const entries = [...tools, ...special].map((definition): CatalogueTool<T | SpecialToolDefinition> => {
    const input = definition.input(repo);
    const listedJson = 'inputJson' in definition ? (definition as SpecialToolDefinition).inputJson : null;
    const inputJson = deepFreeze(listedJson === null ? listedInputSchema(input) : { type: 'object', ...listedJson });
    const output = outputOf(definition);
    const listed: ListedTool = deepFreeze({
      name: definition.name,
      title: definition.title,
      description: definition.description,
      inputSchema: inputJson,
      outputSchema: output.json,
      // Copies: freezing must not reach into the registry's own objects.
      annotations: { ...definition.annotations },
      ...(definition._meta ? { _meta: structuredClone(definition._meta) } : {}),
    });
    return { definition, listed, input: withListedJson(input, inputJson), output: output.schema };
  });
  return {
    instructions: buildInstructions(repos),
    tools: Object.freeze(entries.map((entry) => entry.listed)),
    entries: Object.freeze(entries),
  };
}

/** A tool's output schema, listed and wrapped once per definition: it does not depend on the repositories. */
function outputOf(definition: ToolDefinition): { json: JsonSchemaObject; schema: StandardSchemaWithJSON } {
  let output = outputs.get(definition);
  if (output === undefined) {
    const json = deepFreeze(listedOutputSchema(definition.output));
    output = { json, schema: withListedJson(definition.output, json) };
    outputs.set(definition, output);
  }
  return output;
}

/** The input schema as the SDK lists it: zod's draft 2020-12 conversion, with `type: "object"` first. */
function listedInputSchema(schema: z.ZodObject): JsonSchemaObject {
  return { type: 'object', ...schema['~standard'].jsonSchema.input({ target: jsonSchemaTarget }) };
}

/** The output schema as the SDK lists it: zod's draft 2020-12 conversion (an object: it has its type). */
function listedOutputSchema(schema: z.ZodObject): JsonSchemaObject {
  return schema['~standard'].jsonSchema.output({ target: jsonSchemaTarget });
}

/**
 * `schema` as a Standard Schema whose validation is the zod schema's own and whose JSON
 * Schema is `json` (already converted): the SDK then converts nothing when it registers or
 * lists the tool, or checks a call.
 */
function withListedJson(schema: z.ZodObject, json: JsonSchemaObject): StandardSchemaWithJSON {
  const standard = schema['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: standard.vendor,
      validate: (value, options) => standard.validate(value, options),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** `value` with every object and array in it frozen: shared answers must not be changed by a caller. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
