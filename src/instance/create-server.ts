// The MCP server for one caller: the catalogue of the person's readable repositories (the
// tools with their `repo` field, the instructions), and the one wrapper every call goes through.
import {
  CLIENT_INFO_META_KEY,
  type CallToolResult,
  type McpServer,
  type ServerContext,
  type StandardSchemaV1,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { catalogueFor, type Catalogue, type CatalogueRepo } from '../catalogue/catalogue.ts';
import { answerToolsListFrom, catalogueMcpServer } from '../catalogue/catalogue-server.ts';
import type { Access } from '../repo-host/person.ts';
import { isSpecialTool } from '../special-tools/special-tool-definition.ts';
import { specialToolsOf } from '../special-tools/special-tools-of.ts';
import { NO_READABLE_REPO } from '../tools/tool.ts';
import { VaultError } from '../vault-error.ts';
import type { Installation } from './installation.ts';
import type { Logger } from './log.ts';
import { registerPromptsAndResources } from './prompts-resources.ts';
import type { Tool as ToolWithHandler, ToolContext, Vault } from './tool.ts';
import { specialToolHandlers } from './all-tools.ts';
import { callStarted } from './calls-in-progress.ts';
import { toolError, toolResult, type CallFields } from './tool-result.ts';

/** A tool call that takes longer than this many milliseconds is logged as `call_slow`. */
export const slowCallMs = 1000;

/** What {@link createVaultServer} needs. */
export interface VaultServerOptions {
  installation: Installation;
  /** The caller and their rights: only `access.read` repositories are listed or reachable. */
  access: Access;
  /** The registry (normally `allTools`). */
  tools: readonly ToolWithHandler[];
  /** Where each call is logged: refusals, failures, slow calls (see log.ts). */
  log: Logger;
  /**
   * The client's name when the transport knows it from elsewhere (a 2025-era HTTP client's
   * session id); the request's own `clientInfo` wins when it carries one.
   */
  clientName?: string | null;
}

/**
 * Builds an `McpServer` for one caller (one HTTP request, or one stdio connection) from the
 * catalogue of the caller's readable repositories ({@link catalogueFor}: built once per set
 * of repositories, so a request builds no schema):
 * - every tool of `tools`, in that order, whose `repo` field's `anyOf` names the readable
 *   repositories with their summaries and nothing else (spec: "Who sees what");
 * - the instructions: the service's paragraph, then each readable repository's
 *   instructions.md under `## <repo>`; sent with `initialize` and `server/discover`.
 * Needs the repositories listed, not indexed: during the startup indexing it answers at
 * once, and tool calls wait for the index (see {@link createCatalogueServer}).
 */
export async function createVaultServer(options: VaultServerOptions): Promise<McpServer> {
  const { installation, access } = options;
  const vaults = await installation.vaultsFor(access);
  return createCatalogueServer({
    catalogue: catalogueFor(options.tools, catalogueRepos(vaults)),
    installation: installation.name,
    vaults,
    context: (clientName) => installation.contextFor(access, clientName),
    log: options.log,
    clientName: options.clientName ?? null,
  });
}

/** What {@link createCatalogueServer} needs. */
export interface CatalogueServerOptions {
  /** The caller's catalogue: what `initialize` and `tools/list` answer, and the tools to run. */
  catalogue: Catalogue<ToolWithHandler>;
  /** The installation's name: the authority of the resource URIs (prompts-resources.ts). */
  installation: string;
  /** The caller's readable repositories with their `.vault/`: their prompts and resources are served. */
  vaults: ReadonlyMap<string, Vault>;
  /**
   * The ToolContext of one call, for the client named (may wait for the startup index).
   * Rejecting with VaultError `index_unavailable` answers the call with its message.
   */
  context(clientName: string | null): Promise<ToolContext>;
  /** Where each call is logged: refusals, failures, slow calls (see log.ts). */
  log: Logger;
  /** The client's name when the transport knows it from elsewhere; the request's `clientInfo` wins. */
  clientName?: string | null;
}

/**
 * The `McpServer` of one catalogue:
 * - `initialize`, `server/discover` and `tools/list` answer exactly as the front answers them
 *   (catalogue-server.ts: the catalogue's instructions, its listed tools as they are, the
 *   cache hints);
 * - each call: the SDK validates the arguments with the tool's schema; the call's context
 *   comes from `context` (the named repository, when an own write is not in the index yet,
 *   is brought up to date first); the handler's result becomes `structuredContent` plus the
 *   same JSON as text; a VaultError becomes a tool error with its message; anything else is
 *   logged with its cause and answered generically;
 * - the readable repositories' prompts and resources (prompts-resources.ts);
 * - each call is logged as one line (log.ts): `call_refused` with the refusal's code,
 *   `call_failed`, else `call` at debug; and `call_slow` when it took over {@link slowCallMs}. The
 *   handler's context logs through a child logger bound to the tool (its writes).
 */
export function createCatalogueServer(options: CatalogueServerOptions): McpServer {
  const { catalogue, log } = options;
  const server = catalogueMcpServer(catalogue);
  for (const entry of catalogue.entries) {
    const tool = entry.definition;
    server.registerTool(
      tool.name,
      {
        title: entry.listed.title,
        description: entry.listed.description,
        inputSchema: argumentRefusalsLogged(entry.input, log, tool.name),
        outputSchema: entry.output,
        annotations: entry.listed.annotations,
        ...(entry.listed._meta ? { _meta: entry.listed._meta } : {}),
      },
      async (args: unknown, extra: ServerContext): Promise<CallToolResult> => {
        const startedAt = performance.now();
        const ended = callStarted();
        const input = args as Record<string, unknown>;
        // A special tool takes no `repo`: it works in its own repository.
        const repo = isSpecialTool(tool) ? tool.special.repo : input['repo'];
        const call: Omit<CallFields, 'durationMs'> = {
          tool: tool.name,
          ...(typeof repo === 'string' ? { repo } : {}),
        };
        const took = (): CallFields => ({ ...call, durationMs: Math.round(performance.now() - startedAt) });
        let result: CallToolResult;
        try {
          const context = await options.context(clientNameOf(server, extra) ?? options.clientName ?? null);
          call.person = context.access.person.login;
          // A call naming a repository is refused by the tool as any unknown name is; one that
          // names none would otherwise answer an empty page as if there were nothing to find.
          if (context.vaults.size === 0 && typeof repo !== 'string') throw new VaultError('forbidden', NO_READABLE_REPO);
          await refreshFor(context, repo);
          const callContext = { ...context, log: context.log.child({ tool: tool.name }) };
          result = toolResult(
            isSpecialTool(tool)
              ? await (await specialToolHandlers()).runSpecialTool(tool, input, callContext)
              : await tool.handler(input, callContext),
          );
          log.debug({ event: 'call', ...took() }, `${tool.name} answered`);
        } catch (error) {
          result = toolError(error, log, took());
        } finally {
          ended();
        }
        const done = took();
        if (done.durationMs > slowCallMs) log.warn({ event: 'call_slow', ...done }, `${tool.name} took ${done.durationMs} ms`);
        return result;
      },
    );
  }
  answerToolsListFrom(server, catalogue);
  registerPromptsAndResources(server, {
    installation: options.installation,
    vaults: options.vaults,
    context: () => options.context(options.clientName ?? null),
  });
  return server;
}

/**
 * `schema` with its refusals logged: the SDK checks a call's arguments before the handler runs
 * and answers a mismatch itself, so the `call_refused` line (code `bad_arguments`, with the
 * issues' messages) is written here.
 */
function argumentRefusalsLogged(schema: StandardSchemaWithJSON, log: Logger, tool: string): StandardSchemaWithJSON {
  const standard = schema['~standard'];
  const report = (result: StandardSchemaV1.Result<unknown>): StandardSchemaV1.Result<unknown> => {
    if (result.issues !== undefined && result.issues.length > 0) {
      log.info(
        { event: 'call_refused', tool, code: 'bad_arguments', issues: result.issues.map((issue) => issue.message) },
        `${tool} refused: bad_arguments`,
      );
    }
    return result;
  };
  return {
    '~standard': {
      ...standard,
      validate: (value, options) => {
        const result = standard.validate(value, options);
        return result instanceof Promise ? result.then(report) : report(result);
      },
    },
  };
}

/** The catalogue's view of the readable vaults: name, summary, instructions and special tools, in the vaults' order. */
export function catalogueRepos(vaults: ReadonlyMap<string, Vault>): CatalogueRepo[] {
  return [...vaults.values()].map((vault) => ({
    name: vault.name,
    summary: vault.config.settings.summary,
    instructions: vault.config.instructions,
    specialTools: specialToolsOf(vault.config).specs,
  }));
}

/**
 * Before a call: the repository it names (or, without one, every readable one), through
 * `ctx.refresh`, which waits only when an own write is not in the index yet.
 */
async function refreshFor(ctx: ToolContext, repo: unknown): Promise<void> {
  if (typeof repo === 'string') {
    if (ctx.vaults.has(repo)) await ctx.refresh(repo);
    return;
  }
  await Promise.all([...ctx.vaults.keys()].map((name) => ctx.refresh(name)));
}

/**
 * The MCP client's name: from the request's 2026-07-28 `_meta` envelope, else from the
 * connection's 2025-era `initialize` (stdio, where one instance serves the connection).
 */
function clientNameOf(server: McpServer, extra: ServerContext): string | null {
  const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = envelope?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
  if (typeof info?.name === 'string' && info.name !== '') return info.name;
  // getClientVersion is deprecated for the 2026 era only; on a 2025-era connection it is the way.
  const legacy = server.server.getClientVersion()?.name;
  return legacy ? legacy : null;
}
