// The MCP server for one caller: the registry's tools with a `repo` field made of the
// person's readable repositories, the instructions, and the one wrapper every call goes through.
import { CLIENT_INFO_META_KEY, McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { buildInstructions } from '../catalogue/instructions.ts';
import type { Access } from '../repo-host/person.ts';
import { Installation } from './installation.ts';
import type { Log } from './log.ts';
import { serverInfo } from './server-info.ts';
import { repoField, type ToolDefinition, type Vault } from './tool.ts';
import { toolError, toolResult } from './tool-result.ts';

/**
 * How long a client may keep `tools/list` and `server/discover` (2026-07-28 `ttlMs`), in
 * milliseconds. Both differ per person, hence `cacheScope: "private"`; a minute keeps a
 * changed `.vault/` or a changed right visible soon without a list on every turn.
 */
export const listTtlMs = 60_000;

/** What {@link createVaultServer} needs. */
export interface VaultServerOptions {
  installation: Installation;
  /** The caller and their rights: only `access.read` repositories are listed or reachable. */
  access: Access;
  /** The registry (normally `allTools`). */
  tools: readonly ToolDefinition[];
  log: Log;
  /**
   * The client's name when the transport knows it from elsewhere (a 2025-era HTTP client's
   * session id); the request's own `clientInfo` wins when it carries one.
   */
  clientName?: string | null;
}

/**
 * Builds an `McpServer` for one caller (one HTTP request, or one stdio connection).
 * - Every tool of `tools`, in that order, with `input(repoField(choices))` where the
 *   choices are the readable repositories and their summaries, so `repo`'s `anyOf` names
 *   nothing else (spec: "Who sees what").
 * - Instructions: the service's paragraph, then each readable repository's instructions.md
 *   under `## <repo>`; sent with `initialize` and `server/discover`.
 * - List results carry `ttlMs` ({@link listTtlMs}) and `cacheScope: "private"`.
 * - Each call: the named repository (or, without one, every readable one) is refreshed,
 *   the handler runs with a fresh ToolContext, its result becomes `structuredContent` plus
 *   the same JSON as text; a VaultError becomes a tool error with its message; anything
 *   else is logged with its cause and answered generically.
 */
export async function createVaultServer(options: VaultServerOptions): Promise<McpServer> {
  const { installation, access, log } = options;
  const vaults = await installation.vaultsFor(access);
  const instructions = buildInstructions([...vaults.values()].map((vault) => ({ name: vault.name, instructions: vault.config.instructions })));
  const server = new McpServer(serverInfo, {
    instructions,
    capabilities: { tools: {} },
    cacheHints: {
      'tools/list': { ttlMs: listTtlMs, cacheScope: 'private' },
      'server/discover': { ttlMs: listTtlMs, cacheScope: 'private' },
    },
  });
  const repo = repoField(Installation.repoChoices(vaults));
  for (const tool of options.tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input(repo),
        outputSchema: tool.output,
        annotations: tool.annotations,
        ...(tool._meta ? { _meta: tool._meta } : {}),
      },
      async (args: Record<string, unknown>, extra: ServerContext): Promise<CallToolResult> => {
        try {
          await refreshFor(installation, vaults, args['repo']);
          const context = await installation.contextFor(access, clientNameOf(server, extra) ?? options.clientName ?? null);
          const result = await tool.handler(args, context);
          return toolResult(result);
        } catch (error) {
          return toolError(error, log, tool.name);
        }
      },
    );
  }
  return server;
}

/**
 * Brings the repositories a call may read up to date first: the one named, or every
 * readable one for a call across repositories. Cheap when nothing changed.
 */
async function refreshFor(installation: Installation, vaults: ReadonlyMap<string, Vault>, repo: unknown): Promise<void> {
  if (typeof repo === 'string') {
    if (vaults.has(repo)) await installation.refresh(repo);
    return;
  }
  await Promise.all([...vaults.keys()].map((name) => installation.refresh(name)));
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
