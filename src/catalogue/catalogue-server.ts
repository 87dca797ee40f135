// The MCP server's face that the catalogue alone decides: who the server is, its instructions,
// its capabilities and cache hints, and the `tools/list` answer. The front answers `initialize`,
// `server/discover` and `tools/list` with it (DESIGN.md "How one call travels", step 4); the
// instance builds its server on it and adds the tools' handlers, so both answer the same.
import { McpServer, type Tool } from '@modelcontextprotocol/server';
import type { ToolDefinition } from '../tools/tool.ts';
import type { Catalogue } from './catalogue.ts';
import { serverInfo } from './server-info.ts';

/**
 * How long a client may keep `tools/list` and `server/discover` (2026-07-28 `ttlMs`), in
 * milliseconds. Both differ per person, hence `cacheScope: "private"`; a minute keeps a
 * changed `.vault/` or a changed right visible soon without a list on every turn.
 */
export const listTtlMs = 60_000;

/**
 * A new `McpServer` that says what `catalogue` says: {@link serverInfo}, the catalogue's
 * instructions (sent with `initialize` and `server/discover`), the `tools`, `prompts` and
 * `resources` capabilities (the instance answers the last two, empty where nothing is offered), and
 * cache hints of {@link listTtlMs} with `cacheScope: "private"` for `tools/list` and
 * `server/discover`. It has no tools yet: the instance registers them, then calls
 * {@link answerToolsListFrom}; the front only calls that.
 */
export function catalogueMcpServer(catalogue: Pick<Catalogue, 'instructions'>): McpServer {
  return new McpServer(serverInfo, {
    instructions: catalogue.instructions,
    // Prompts and resources come from each repository's settings.jsonc; both are always
    // declared, so what initialize says never depends on which repositories offer some.
    capabilities: { tools: {}, prompts: { listChanged: false }, resources: { listChanged: false } },
    cacheHints: {
      'tools/list': { ttlMs: listTtlMs, cacheScope: 'private' },
      'server/discover': { ttlMs: listTtlMs, cacheScope: 'private' },
    },
  });
}

/**
 * Makes `server` answer `tools/list` with the catalogue's list as it is: the same frozen JSON
 * for every request (the SDK would convert every schema again per request). Call it after the
 * last `registerTool`, which installs the SDK's own handler.
 */
export function answerToolsListFrom(server: McpServer, catalogue: Pick<Catalogue<ToolDefinition>, 'tools'>): void {
  const listed = catalogue.tools as unknown as Tool[];
  server.server.removeRequestHandler('tools/list');
  server.server.setRequestHandler('tools/list', () => ({ tools: listed }));
}
