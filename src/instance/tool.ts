// What a tool is: one value per tool (name, title, description, schemas, annotations,
// handler), registered in all-tools.ts. The instance and the catalogue both list from it.
import { z } from 'zod';
import type { VaultConfig } from '../config/vault-config.ts';
import type { Access } from '../repo-host/person.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import type { NoteIndex } from '../note-index/note-index.ts';
import type { Logger } from './log.ts';

/** A readable repository as a tool sees it: its name, summary and configuration. */
export interface Vault {
  name: string;
  /** The head commit the configuration and the index were read at; null when empty. */
  head: string | null;
  config: VaultConfig;
  /** Whether the calling person may write here. */
  canWrite: boolean;
}

/** A repository named in the `repo` field's `anyOf`: its name and summary. */
export interface RepoChoice {
  name: string;
  summary: string | null;
}

/**
 * Everything a handler may use. Only repositories the person can read are in `vaults`:
 * a tool never sees the others (spec: "A person sees nothing of a repository they cannot
 * read, not even its name").
 */
export interface ToolContext {
  /** The caller and their rights; without their credential, which only `host` sends along. */
  access: Omit<Access, 'credential'>;
  /** The readable repositories by name, sorted by name. */
  vaults: ReadonlyMap<string, Vault>;
  index: NoteIndex;
  /**
   * Repository access bound to the caller (repo-host/caller-repo-host.ts): a commit carries
   * the caller's credential to the host. No sign-in, no `close`: those are not a tool's.
   */
  host: RepoHost;
  /** The MCP client's name from `initialize`, when known: goes into commit subjects. */
  clientName: string | null;
  /**
   * Makes sure the index holds what this installation itself committed to `repo` before
   * the call goes on (write tools call it after their commit, so the next read sees the
   * write). Changes made outside the server (an editor, a push) reach the index through
   * the background poll within about two seconds; reads never wait for that check.
   */
  refresh(repo: string): Promise<void>;
  /** Where the call says what it did (writes: see log.ts); bound to the tool and person during a call. */
  log: Logger;
  /**
   * The time budget of one call's CPU-heavy work (matching note text in search_notes and
   * find_references, evaluating a view in base_view), in
   * milliseconds; past it the call answers what it found with a note on how to narrow it.
   * Default: `DEFAULT_MATCH_BUDGET_MS` of tools/match-pool.ts (3 s).
   */
  matchBudgetMs?: number;
}

/** MCP tool annotations (MCP spec: ToolAnnotations). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * One tool. `input(repo)` builds the input schema around the `repo` field made for this
 * person (see {@link repoField}); the SDK lists it as JSON Schema and validates arguments
 * with it, so the handler parses nothing by hand. `output` is the `outputSchema`; the
 * handler's result is sent as `structuredContent` and, the same JSON, as a text block.
 * A handler refuses by throwing a VaultError.
 */
export interface ToolDefinition<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  _meta?: Record<string, unknown>;
  input(repo: z.ZodString): z.ZodObject<I>;
  output: z.ZodObject<O>;
  handler(input: z.output<z.ZodObject<I>>, ctx: ToolContext): Promise<z.output<z.ZodObject<O>>>;
}

/** Identity function that keeps a tool's types precise; every tool file exports one. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}

/**
 * The `repo` field for a person: a string whose listed schema is
 * `{type: "string", description, anyOf: [{const, description}]}` over the readable
 * repositories, as in spec/acme-tools-list.json. Validation of the value itself happens
 * in the handler's lookup, so an unreadable repository is answered exactly like one that
 * does not exist; a `repo` left out (where it is required) or not a string is refused with the
 * names of the readable repositories.
 */
export function repoField(choices: readonly RepoChoice[]): z.ZodString {
  const names = choices.map((choice) => `"${choice.name}"`).join(', ');
  // Missing or not a string: the refusal names the repositories, as lookupVault's does.
  const refusal =
    choices.length === 0
      ? 'Give "repo": the repository this call works in. You can read no repository here.'
      : `Give "repo": the repository this call works in, one of ${names}.`;
  return z
    .string({ error: refusal })
    .describe('The repository this call works in.')
    .meta({
      anyOf: choices.map((choice) => (choice.summary === null ? { const: choice.name } : { const: choice.name, description: choice.summary })),
    });
}
