// What a tool is to everyone who lists it: name, title, description, annotations and schemas,
// one value per tool in src/tools/<tool>.ts, registered in all-tools.ts. The instance pairs
// each with its handler (src/instance/tools/); the catalogue and the front list from these alone.
import { z } from 'zod';

/** A repository named in the `repo` field's `anyOf`: its name and summary. */
export interface RepoChoice {
  name: string;
  summary: string | null;
}

/** MCP tool annotations (MCP spec: ToolAnnotations). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * One tool as it is listed. `input(repo)` builds the input schema around the `repo` field made
 * for this person (see {@link repoField}); the SDK lists it as JSON Schema and validates
 * arguments with it, so the handler parses nothing by hand. `output` is the `outputSchema`;
 * the handler's result is sent as `structuredContent` and, the same JSON, as a text block.
 * `N` is the tool's name as a literal type, so handlers can be paired with definitions by name.
 */
export interface ToolDefinition<
  I extends z.ZodRawShape = z.ZodRawShape,
  O extends z.ZodRawShape = z.ZodRawShape,
  N extends string = string,
> {
  name: N;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  _meta?: Record<string, unknown>;
  input(repo: z.ZodString): z.ZodObject<I>;
  output: z.ZodObject<O>;
}

/** Identity function that keeps a definition's types precise (its name as a literal too); every tool file exports one. */
export function defineTool<const N extends string, I extends z.ZodRawShape, O extends z.ZodRawShape>(
  tool: ToolDefinition<I, O, N>,
): ToolDefinition<I, O, N> {
  return tool;
}

/** What a person who can read no repository is told, in `repo`'s description and in refusals. */
export const NO_READABLE_REPO = 'You can read no repository here; ask whoever runs Major Vault for access.';

/**
 * The `repo` field for a person: a string whose listed schema is
 * `{type: "string", description, anyOf: [{const, description}]}` over the readable
 * repositories, as in spec/acme-tools-list.json. Validation of the value itself happens
 * in the handler's lookup, so an unreadable repository is answered exactly like one that
 * does not exist; a `repo` left out (where it is required) or not a string is refused with the
 * names of the readable repositories. For a person who can read none, the schema is
 * `{type: "string", description}` without `anyOf` (JSON Schema 2020-12 §10.2.1.2: anyOf
 * must be a non-empty array), the description saying so ({@link NO_READABLE_REPO}).
 */
export function repoField(choices: readonly RepoChoice[]): z.ZodString {
  const names = choices.map((choice) => `"${choice.name}"`).join(', ');
  // Missing or not a string: the refusal names the repositories, as lookupVault's does.
  const refusal =
    choices.length === 0
      ? `Give "repo": the repository this call works in. ${NO_READABLE_REPO}`
      : `Give "repo": the repository this call works in, one of ${names}.`;
  // JSON Schema forbids an empty anyOf (it must be a non-empty array): for a person who can
  // read no repository the field lists no choices and its description says why.
  if (choices.length === 0) return z.string({ error: refusal }).describe(`The repository this call works in. ${NO_READABLE_REPO}`);
  return z
    .string({ error: refusal })
    .describe('The repository this call works in.')
    .meta({
      anyOf: choices.map((choice) =>
        choice.summary === null ? { const: choice.name } : { const: choice.name, description: choice.summary },
      ),
    });
}
