// The front's way to the instance in one process: a `Forward` that answers each MCP request
// with a stateless MCP server built for the caller (DESIGN.md "How one call travels": the
// front forwards every call to the installation's instance; hosted, this is an HTTP hop).
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { catalogueFor } from '../catalogue/catalogue.ts';
import type { Caller, CatalogueSource, Forward } from '../front/http-front.ts';
import { catalogueRepos, createVaultServer } from '../instance/create-server.ts';
import type { Installation } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import type { Tool } from '../instance/tool.ts';

/** A {@link Forward}, the front's {@link CatalogueSource}, and how to release what the forward holds (open MCP streams). */
export interface LocalForward {
  forward: Forward;
  /** The catalogue of a caller's readable repositories, from the same registry as the instance's. */
  catalogue: CatalogueSource;
  close(): Promise<void>;
}

/**
 * Forwards to `installation` in this process: each request gets its own `McpServer` from
 * `createVaultServer` for the caller's access and client name, over the registry `tools`.
 * A request that fails inside the SDK is logged to `log` (`an MCP request failed`).
 */
export function forwardLocally(options: { installation: Installation; tools: readonly Tool[]; log: Logger }): LocalForward {
  const { installation, tools, log } = options;
  const mcp: McpHttpHandler = createMcpHandler(
    async ({ authInfo }) => {
      const caller = authInfo?.extra as Caller | undefined;
      if (!caller) throw new Error('An MCP request reached the handler without a checked caller.');
      return createVaultServer({ installation, access: caller.access, tools, log, clientName: caller.clientName });
    },
    { onerror: (error) => log.error({ err: error }, 'an MCP request failed') },
  );
  return {
    catalogue: async (access) => catalogueFor(tools, catalogueRepos(await installation.vaultsFor(access))),
    forward: (request, caller) =>
      mcp.fetch(request, {
        authInfo: {
          token: caller.token ?? '',
          clientId: caller.clientName ?? 'unknown',
          scopes: [],
          extra: caller as unknown as Record<string, unknown>,
        },
      }),
    close: () => mcp.close(),
  };
}
