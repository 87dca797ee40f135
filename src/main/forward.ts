// The front's way to the instance in one process: a `Forward` that answers each MCP request
// with a stateless MCP server built for the caller (DESIGN.md "How one call travels": the
// front forwards every call to the installation's instance; hosted, this is an HTTP hop).
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { overlongResourceUri } from '../instance/overlong-uri.ts';
import { catalogueFor } from '../catalogue/catalogue.ts';
import type { Caller, CatalogueSource, Forward } from '../front/http-front.ts';
import { catalogueRepos, createCatalogueServer, createVaultServer } from '../instance/create-server.ts';
import { indexUnavailable } from '../instance/index-unavailable-error.ts';
import type { Installation } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import type { Tool, Vault } from '../instance/tool.ts';
import type { Access } from '../repo-host/person.ts';

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
 *
 * `installation` may still be opening (a promise): until it is open, the catalogue (what
 * `initialize` and `tools/list` answer) comes from `earlyVaults` (the repositories and their
 * `.vault/` read from Git, without the index), and a tool call waits for the installation and
 * its startup indexing; when it failed to open, the call answers VaultError
 * `index_unavailable` with the cause. Without `earlyVaults`, everything waits for it.
 */
export function forwardLocally(options: {
  /** The installation's name: the authority of its resource URIs while it is still opening. */
  name: string;
  installation: Installation | Promise<Installation>;
  earlyVaults?: (access: Access) => Promise<ReadonlyMap<string, Vault>>;
  /** Told each time a request waits for the installation itself (a tool call; a catalogue not read early): serveLocal starts opening it then. */
  wanted?: () => void;
  tools: readonly Tool[];
  log: Logger;
}): LocalForward {
  const { tools, log, earlyVaults } = options;
  let open: Installation | null = options.installation instanceof Promise ? null : options.installation;
  const opening = Promise.resolve(options.installation);
  opening.then(
    (installation) => (open = installation),
    () => undefined,
  );
  /** The installation once open; rejects with `index_unavailable` when it could not be. */
  const installation = (): Promise<Installation> => {
    options.wanted?.();
    return opening.catch((error: unknown) => Promise.reject(indexUnavailable(error)));
  };
  /** The caller's vaults: the installation's once open, else read early (or, failing that, the installation's). */
  const vaultsOf = async (access: Access): Promise<ReadonlyMap<string, Vault>> => {
    if (open === null && earlyVaults) {
      const early = await earlyVaults(access).catch(() => null);
      if (early !== null) return early;
    }
    return (open ?? (await installation())).vaultsFor(access);
  };
  const mcp: McpHttpHandler = createMcpHandler(
    async ({ authInfo }) => {
      const caller = authInfo?.extra as Caller | undefined;
      if (!caller) throw new Error('An MCP request reached the handler without a checked caller.');
      if (open !== null || !earlyVaults)
        return createVaultServer({
          installation: open ?? (await installation()),
          access: caller.access,
          tools,
          log,
          clientName: caller.clientName,
        });
      // Still opening: the same catalogue, and calls that wait for the installation.
      const vaults = await vaultsOf(caller.access);
      return createCatalogueServer({
        catalogue: catalogueFor(tools, catalogueRepos(vaults)),
        installation: options.name,
        vaults,
        context: async (clientName) => (await installation()).contextFor(caller.access, clientName),
        log,
        clientName: caller.clientName,
      });
    },
    { onerror: (error) => log.error({ err: error }, 'an MCP request failed') },
  );
  return {
    catalogue: async (access) => catalogueFor(tools, catalogueRepos(await vaultsOf(access))),
    forward: async (request, caller) =>
      (await overlongResourceUri(request)) ??
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
