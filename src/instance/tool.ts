// What a tool gets and is on the instance: the ToolContext a handler may use, and a tool as
// run (its definition from src/tools/ with its handler), paired by name in all-tools.ts.
import type { z } from 'zod';
import type { VaultConfig } from '../config/vault-config.ts';
import type { Access } from '../repo-host/person.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import type { NoteIndex } from '../note-index/note-index.ts';
import type { ToolDefinition } from '../tools/tool.ts';
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

// Where RepoChoice was defined before it moved to the tool definitions; kept so importers need not change.
export type { RepoChoice } from '../tools/tool.ts';

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
  /**
   * When this person last asked a tool (by its listed name), in this installation: the Store's
   * last looks (store/store.ts `LastLooks`, issue 15) bound to the installation and the caller,
   * for a "since you last looked" tool. Absent (a test's context): nothing is kept.
   */
  lastLooks?: PersonLastLooks;
}

/** The Store's last looks bound to one installation and person (ToolContext `lastLooks`). */
export interface PersonLastLooks {
  /** When the person last asked `tool`; null when never. */
  get(tool: string): Promise<Date | null>;
  /** Records that the person asked `tool` at `at` (an earlier `at` never moves it back). */
  put(tool: string, at: Date): Promise<void>;
}

/**
 * One tool as the instance runs it: its definition (src/tools/, what tools/list shows) and its
 * handler. The handler gets the input as `input` parsed it and answers what `output` validates;
 * it refuses by throwing a VaultError.
 */
export interface Tool<
  I extends z.ZodRawShape = z.ZodRawShape,
  O extends z.ZodRawShape = z.ZodRawShape,
  N extends string = string,
> extends ToolDefinition<I, O, N> {
  handler(input: z.output<z.ZodObject<I>>, ctx: ToolContext): Promise<z.output<z.ZodObject<O>>>;
}

/**
 * Pairs a definition with its handler: every handler file exports one, and all-tools.ts pairs
 * them with the registry by name. The handler's input and answer are typed by the definition.
 */
export function implement<N extends string, I extends z.ZodRawShape, O extends z.ZodRawShape>(
  definition: ToolDefinition<I, O, N>,
  implementation: Pick<Tool<I, O, N>, 'handler'>,
): Tool<I, O, N> {
  return { ...definition, handler: implementation.handler };
}
