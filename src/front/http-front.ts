// The HTTP face of an installation: Streamable HTTP MCP at `/<name>` (2026-07-28 and the
// 2025 revisions on one endpoint), the address page, the protected-resource document, and
// the checks in front of them (Host and Origin against DNS rebinding, the bearer token).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, validateHostHeader, validateOriginHeader, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Catalogue } from '../catalogue/catalogue.ts';
import { answerToolsListFrom, catalogueMcpServer } from '../catalogue/catalogue-server.ts';
import type { Access } from '../repo-host/person.ts';
import type { SignIn } from '../repo-host/sign-in.ts';
import { isVaultError } from '../vault-error.ts';
import { cachedAuthenticate, type CachedAuthenticate } from './access-cache.ts';
import { clientNameFromSessionId, initializeClientName, sessionIdFor } from './legacy-session.ts';
import { preparedAnswers, type JsonRpcBody } from './prepared-answers.ts';
import type { AuthorizationServer } from './oauth/authorization-server.ts';
import type { PageRoute } from './github-setup-route.ts';
import { addressPage } from './pages/address-page.ts';
import { htmlResponse } from './pages/page-layout.ts';
import { protectedResourceMetadata, unauthorizedResponse } from './protected-resource-metadata.ts';
import type { WebhookRoute } from './webhook/github-webhook.ts';

/** How long the front keeps who a token belongs to, in milliseconds. */
const accessTtlMs = 10_000;

/** The loopback names every front accepts in `Host` and `Origin`. */
export const loopbackHostnames: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** One MCP address of a front: an installation's name, who may call it, its catalogue and where its calls go. */
export interface FrontAddress {
  /** The installation's name: the MCP address is `/<name>`. */
  name: string;
  /** Who a bearer token belongs to, and whether one is needed (the users file, one local person, or GitHub's sign-in). */
  signIn: SignIn;
  /**
   * The catalogue of a caller's readable repositories: what `initialize`, `server/discover`
   * and `tools/list` answer (DESIGN.md "How one call travels", step 4). The front answers
   * those itself, from this; when it resolves to null (hosted: nothing stored yet) they are
   * forwarded like every other request.
   */
  catalogue: CatalogueSource;
  /**
   * Called once a catalogue answer's body has been handed to the connection (hosted: wakes the
   * installation's instance, whose start must not delay the answer it follows). Optional.
   */
  catalogueAnswered?: () => void;
  /** Answers every other MCP request for the installation, once the front has checked its caller (built in main/). */
  forward: Forward;
}

/** What every front shares, whatever addresses it routes to. */
interface FrontCommonOptions {
  /** Where a request that fails inside the SDK is logged; default: nowhere. */
  log?: Logger;
  /**
   * Hostnames (no port; IPv6 in brackets) that `Host` and `Origin` may name besides the
   * loopback names, or `'any'` when bound to every interface. `'any'` is only safe with
   * bearer tokens: a page that rebinds a name to this server still has no token to send.
   */
  allowedHostnames: readonly string[] | 'any';
  /**
   * The endpoint for a host's webhook deliveries (webhook/github-webhook.ts), built in main/
   * with its receiver; absent: no such route. Its requests skip the `Host` check: they come
   * from the host's servers, not a browser, and carry their own signature.
   */
  webhook?: WebhookRoute;
  /**
   * The OAuth authorization server (oauth/authorization-server.ts), when people sign in
   * through the front: its paths are routed to it, and the protected-resource document names
   * its issuer (RFC 9728 §2 `authorization_servers`). Absent: tokens come from elsewhere (a
   * users file) and the document names no server.
   */
  authorization?: AuthorizationServer;
  /**
   * The origin people reach the front at behind a TLS proxy, e.g. `https://vault.acme.example`.
   * A request whose `Host` is that origin's host is answered with addresses on it (the
   * protected-resource document's `resource`, the 401 challenge, the address page), since the
   * proxy speaks plain HTTP to the front and the request's own URL says `http:`. Absent: the
   * request's own origin.
   */
  publicOrigin?: URL;
  /** The install status page at the GitHub App's Setup URL (github-setup-route.ts), built in main/; absent: no such route. */
  installStatus?: PageRoute;
}

/** What {@link createFront} needs: the one address it serves, and what every front shares. */
export interface FrontOptions extends FrontCommonOptions, FrontAddress {}

/** What {@link createRoutingFront} needs: how to find an address by name, and what every front shares. */
export interface RoutingFrontOptions extends FrontCommonOptions {
  /**
   * The address served at `/<name>` (the name exactly as in the path), else null: a 404. Asked
   * on every request to an address, so keep it quick (a lookup in memory; hosted, the list of
   * installations switched on, read again now and then). The same object for as long as the
   * address stays the same: who a token belongs to is kept per address object.
   */
  addressFor(name: string): FrontAddress | null | Promise<FrontAddress | null>;
  /** Where `GET /` sends a browser (the one installation's name); absent: `/` is a 404 saying how addresses look. */
  home?: string;
}

/** A web-standard handler (`fetch`) for the whole HTTP surface, and its shutdown. */
export interface Front {
  fetch(request: Request): Promise<Response>;
  /**
   * Forgets who every token belongs to, at the address `name` or at all of them, so the next
   * request of each asks its `signIn` again: for when the host says rights changed (a
   * webhook), instead of waiting out the short cache.
   */
  forgetAccess(name?: string): void;
  /** The largest request body a path takes, in bytes, when it is not the MCP default of 4 MiB (the webhook's 25 MB); else undefined. */
  maxBodyBytes(path: string): number | undefined;
  close(): Promise<void>;
}

/** The checked caller of one MCP request, as the front hands it on with the request. */
export interface Caller {
  /** Who the token belongs to and what they may read and write. */
  access: Access;
  /** The bearer token as sent (absent without a users file). */
  token: string | undefined;
  /** The client's name: from this request's `initialize`, else from a 2025-era session id; null when unknown. */
  clientName: string | null;
}

/**
 * Answers one MCP request (Streamable HTTP, web-standard) for the installation on behalf of
 * `caller`: the front's way to reach the instance without importing it (DESIGN.md "Code
 * layout": the front never imports the instance). Resolves to the MCP response as is.
 */
export type Forward = (request: Request, caller: Caller) => Promise<Response>;

/** What the front answers `initialize`, `server/discover` and `tools/list` with: the instructions and the listed tools (catalogue/catalogue.ts). */
export type CatalogueAnswer = Pick<Catalogue, 'instructions' | 'tools'>;

/**
 * The catalogue for a person's rights (`access.read`): in one process, built from the
 * installation's listed repositories and their `.vault/`; hosted, read from the catalogue
 * store, or null when the store has none yet for the installation (the request is then
 * forwarded to the instance). Needs the repositories listed, not indexed.
 */
export type CatalogueSource = (access: Access) => Promise<CatalogueAnswer | null>;

/**
 * The JSON-RPC methods the catalogue alone answers: the handshake and the list of tools.
 * Anything else (a tool call, a 2025-era GET stream or DELETE, a batch) is forwarded.
 */
const catalogueMethods: ReadonlySet<string> = new Set(['initialize', 'notifications/initialized', 'server/discover', 'tools/list']);

/** What the catalogue's MCP handler gets with each request (its `authInfo.extra`). */
interface CatalogueRequest {
  caller: Caller;
  catalogue: CatalogueAnswer;
}

/** Where the protected-resource documents are served (RFC 9728 §3.1). */
const metadataPrefix = '/.well-known/oauth-protected-resource';

/**
 * Builds the front of one installation (`serve`, `serve-github`, the instance): the routes of
 * {@link createRoutingFront} with the one address `options.name`, and `GET /` sending a
 * browser there.
 */
export function createFront(options: FrontOptions): Front {
  const { name, signIn, catalogue, forward, ...common } = options;
  const address: FrontAddress = { name, signIn, catalogue, forward };
  return createRoutingFront({ ...common, addressFor: (asked) => (asked === name ? address : null), home: name });
}

/**
 * Builds a front for any number of addresses (hosted: one per installation switched on).
 * Routes:
 * - `POST /<name>` (and the 2025 revisions' `GET`/`DELETE`): MCP. `initialize`,
 *   `server/discover` and `tools/list` are answered here from the address's `catalogue`;
 *   every other request goes with the checked caller to its `forward` (in one process: one
 *   stateless server per request; hosted: over HTTP to the installation's instance). When a
 *   token is needed the request needs `Authorization: Bearer <token>` that the address's
 *   `signIn` knows, else `401` with `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728 §5.1).
 * - `GET /<name>` from a browser (`Accept: text/html`): the address page.
 * - `GET /.well-known/oauth-protected-resource/<name>`: the RFC 9728 document (when a token is
 *   needed), naming the authorization server's issuer when there is one; without the name,
 *   the `home` address's.
 * - the authorization server's paths (`/.well-known/oauth-authorization-server`, `/oauth/…`), when given.
 * - `GET /`: redirects to `/<home>`, when given.
 * - the `webhook` route, when given (no `Host` check: it checks its own signature).
 * - the `installStatus` route, when given (`/github/setup`: the install status page).
 * Every other request's `Host` must be allowed (403 otherwise); an MCP request's `Origin`, when
 * present, must be an allowed name or the request's own host. Who a token belongs to is kept
 * a few seconds per address, never across addresses.
 */
export function createRoutingFront(options: RoutingFrontOptions): Front {
  const authorizationServers = options.authorization ? [options.authorization.issuer] : [];
  /** Each address's cache of who a token belongs to: by address object, so a renamed or replaced installation starts afresh. */
  let caches = new WeakMap<FrontAddress, CachedAuthenticate>();
  /** The cache of the address last seen under each name, for `forgetAccess(name)`. */
  const cachedByName = new Map<string, CachedAuthenticate>();
  const authenticateAt = (address: FrontAddress): CachedAuthenticate => {
    let cached = caches.get(address);
    if (cached === undefined) {
      cached = cachedAuthenticate((token) => address.signIn.authenticate(token), accessTtlMs);
      caches.set(address, cached);
      cachedByName.set(address.name, cached);
    }
    return cached;
  };
  // One stateless server per request, saying what the caller's catalogue says.
  const catalogueMcp: McpHttpHandler = createMcpHandler(
    async ({ authInfo }) => {
      const answering = authInfo?.extra as CatalogueRequest | undefined;
      if (!answering) throw new Error('An MCP request reached the catalogue without a checked caller.');
      const server = catalogueMcpServer(answering.catalogue);
      answerToolsListFrom(server, answering.catalogue);
      return server;
    },
    { onerror: (error) => options.log?.error({ err: error }, 'an MCP request failed') },
  );
  // Its answers, kept as bytes per catalogue and request shape: a known shape costs no server.
  const prepared = preparedAnswers();

  async function serveMcp(request: Request, address: FrontAddress, resourceUrl: URL): Promise<Response> {
    const origin = request.headers.get('origin');
    const ownHost = new URL(request.url).hostname;
    const allowedOrigins =
      options.allowedHostnames === 'any' ? [...loopbackHostnames, ownHost] : [...loopbackHostnames, ...options.allowedHostnames];
    const originCheck = validateOriginHeader(origin, allowedOrigins);
    if (!originCheck.ok) return forbidden(originCheck.message);
    // An allowed page (a browser-based client such as the MCP Inspector) may read the answers.
    if (origin === null) return answerMcp(request, address, resourceUrl);
    const cors = corsHeaders(origin, request.headers.get('access-control-request-headers'));
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    return withHeaders(await answerMcp(request, address, resourceUrl), cors);
  }

  async function answerMcp(request: Request, address: FrontAddress, resourceUrl: URL): Promise<Response> {
    const token = bearerToken(request.headers.get('authorization'));
    if (address.signIn.requiresToken && token === undefined) return unauthorizedResponse(resourceUrl, false);
    let access: Access | null;
    try {
      access = await authenticateAt(address)(token);
    } catch (error) {
      // The host could not say who this is (GitHub down or slow): say so, and when to retry,
      // rather than an internal error; anything else is the SDK's to log and answer.
      if (!isVaultError(error, 'host_unavailable')) throw error;
      options.log?.warn({ event: 'sign_in_unavailable', err: error }, error.message);
      return jsonRpcError(503, error.message, { 'retry-after': '30' });
    }
    if (!access) return unauthorizedResponse(resourceUrl, token !== undefined);

    const body: unknown =
      request.method === 'POST'
        ? await request
            .clone()
            .json()
            .catch(() => null)
        : null;
    const initializing = initializeClientName(body);
    const clientName = initializing ?? clientNameFromSessionId(request.headers.get('mcp-session-id'));
    const caller: Caller = { access, token, clientName };
    const catalogue = answeredByCatalogue(body) ? await address.catalogue(access) : null;
    const response =
      catalogue !== null
        ? await prepared.answer(request, body as JsonRpcBody, catalogue, (asked) =>
            catalogueMcp.fetch(asked, {
              authInfo: {
                token: token ?? '',
                clientId: clientName ?? 'unknown',
                scopes: [],
                extra: { caller, catalogue } satisfies CatalogueRequest as unknown as Record<string, unknown>,
              },
            }),
          )
        : await address.forward(request, caller);
    // A 2025-era client gets its name back as a session id, so later stateless calls know it.
    const named =
      initializing !== null && response.ok && !response.headers.has('mcp-session-id')
        ? withHeaders(response, { 'mcp-session-id': sessionIdFor(initializing) })
        : response;
    return catalogue !== null && address.catalogueAnswered !== undefined ? afterBodySent(named, address.catalogueAnswered) : named;
  }

  /** The address a path names, `/<name>` or the protected-resource document's `/.well-known/oauth-protected-resource/<name>`. */
  async function addressAt(name: string | undefined): Promise<FrontAddress | null> {
    if (name === undefined || name === '' || name.includes('/')) return null;
    return options.addressFor(name);
  }

  function notFound(origin: URL, home: string | undefined): Response {
    const text =
      home !== undefined
        ? `Not found. The MCP address of this server is ${new URL(`/${home}`, origin).href}\n`
        : `Not found. An installation's MCP address is ${origin.origin}/<name>, with the name it was switched on under.\n`;
    return new Response(text, { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }

  return {
    async fetch(request: Request): Promise<Response> {
      const url = new URL(request.url);
      if (options.webhook && url.pathname === options.webhook.path) return options.webhook.handle(request);
      const hostCheck =
        options.allowedHostnames === 'any'
          ? null
          : validateHostHeader(request.headers.get('host'), [...loopbackHostnames, ...options.allowedHostnames]);
      if (hostCheck && !hostCheck.ok) return forbidden(hostCheck.message);
      const publicOrigin = options.publicOrigin;
      const origin = publicOrigin !== undefined && url.host === publicOrigin.host ? publicOrigin : new URL(url.origin);
      const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
      if (options.authorization) {
        const answer = await options.authorization.fetch(request);
        if (answer !== null) return answer;
      }

      if (path === metadataPrefix || path.startsWith(`${metadataPrefix}/`)) {
        const address = await addressAt(path === metadataPrefix ? options.home : path.slice(metadataPrefix.length + 1));
        if (address !== null && address.signIn.requiresToken) {
          if (request.method === 'OPTIONS') {
            return new Response(null, { status: 204, headers: publicCorsHeaders(request.headers.get('access-control-request-headers')) });
          }
          if (request.method !== 'GET' && request.method !== 'HEAD')
            return new Response('Method not allowed.', { status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });
          const resourceUrl = new URL(`/${address.name}`, origin);
          return new Response(JSON.stringify(protectedResourceMetadata(resourceUrl, address.name, authorizationServers)), {
            headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'max-age=3600' },
          });
        }
        return notFound(origin, options.home);
      }
      if (options.installStatus && path === options.installStatus.path) return options.installStatus.handle(request);
      if (path === '/') {
        if (request.method === 'GET' && options.home !== undefined)
          return new Response(null, { status: 302, headers: { location: `/${options.home}` } });
        return notFound(origin, options.home);
      }
      const address = await addressAt(path.slice(1));
      if (address === null) return notFound(origin, options.home);
      const resourceUrl = new URL(`/${address.name}`, origin);
      if (request.method === 'GET' && wantsHtml(request)) {
        return htmlResponse(
          addressPage({
            name: address.name,
            url: resourceUrl.href,
            signIn: options.authorization ? 'oauth' : address.signIn.requiresToken ? 'token' : 'none',
          }),
        );
      }
      return serveMcp(request, address, resourceUrl);
    },
    forgetAccess(name?: string) {
      if (name === undefined) {
        caches = new WeakMap();
        cachedByName.clear();
        return;
      }
      cachedByName.get(name)?.forget();
    },
    // The catalogue's open streams; whoever built `forward` closes that.
    maxBodyBytes: (path) => (options.webhook && path === options.webhook.path ? options.webhook.maxBodyBytes : undefined),
    close: () => catalogueMcp.close(),
  };
}

/** A front listening on a port: its origin (e.g. `http://127.0.0.1:8787`) and how to stop it. */
export interface ListeningFront {
  server: Server;
  origin: URL;
  /**
   * Stops accepting connections, then waits up to `drainMs` (default 0) for the requests in
   * progress to be answered (an open event stream, `GET` with `Accept: text/event-stream`,
   * is not waited for), then ends every connection and closes the front. Resolves when done.
   */
  close(options?: { drainMs?: number }): Promise<void>;
}

/**
 * How long the front and instance processes let the calls in progress finish on `SIGTERM`
 * before they end the rest (ms): less than the 30 s a container platform usually allows
 * between `SIGTERM` and `SIGKILL`.
 */
export const shutdownDrainMs = 20_000;

/**
 * Serves `front` with `node:http` on `hostname:port` (port 0 picks a free one) and resolves
 * once it listens. `close` stops accepting, lets the requests in progress finish (up to its
 * `drainMs`), ends open connections and closes the front.
 */
export async function listenFront(front: Front, options: { port: number; hostname: string; log: Logger }): Promise<ListeningFront> {
  const onerror = (error: Error) => options.log.error({ err: error }, 'an HTTP request failed');
  const handle = toNodeHandler(front, { onerror });
  // A path with a larger body than MCP's 4 MiB (GitHub's webhook: 25 MB) gets a handler of its
  // own, so only that path buffers that much before it is checked.
  const larger = new Map<number, ReturnType<typeof toNodeHandler>>();
  // Requests in progress that a drain waits for: every one but an open event stream.
  let inProgress = 0;
  let drained: (() => void) | null = null;
  const server = createServer((req, res) => {
    if (!(req.method === 'GET' && (req.headers.accept ?? '').includes('text/event-stream'))) {
      inProgress += 1;
      res.once('close', () => {
        inProgress -= 1;
        if (inProgress === 0) drained?.();
      });
    }
    const limit = front.maxBodyBytes(new URL(req.url ?? '/', 'http://front').pathname);
    if (limit === undefined) return void handle(req, res);
    // That path is a signed webhook: a delivery without its signature header is answered (401)
    // before its body is read, so unsigned floods of large bodies cost no memory.
    if (req.method === 'POST' && req.headers['x-hub-signature-256'] === undefined) return void answerUnread(front, req, res, onerror);
    let own = larger.get(limit);
    if (own === undefined) larger.set(limit, (own = toNodeHandler(front, { onerror, maxRequestBodySize: limit })));
    void own(req, res);
  });
  // Node closes an idle kept-alive connection after 5 s by default; after a busy moment that
  // timer can fire as a client's next request arrives on it, which the client sees as a reset
  // connection. A minute, as load balancers keep them, leaves clients to close first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const shownHost = options.hostname === '0.0.0.0' || options.hostname === '::' ? 'localhost' : hostForUrl;
  return {
    server,
    origin: new URL(`http://${shownHost}:${address.port}`),
    async close(closeOptions = {}) {
      const drainMs = closeOptions.drainMs ?? 0;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (drainMs > 0 && inProgress > 0) {
        options.log.info({ event: 'drain_started', inProgress, drainMs }, `letting ${inProgress} request(s) in progress finish`);
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          drained = resolve;
          timer = setTimeout(resolve, drainMs);
        });
        clearTimeout(timer);
        if (inProgress > 0) options.log.warn({ event: 'drain_cut', inProgress }, `ending ${inProgress} request(s) still in progress`);
      }
      await front.close();
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * Answers `req` with what `front` says to it without its body (which is drained, not kept):
 * for a request refused on its headers alone. Ends the connection, so the unread body is not
 * taken for the next request.
 */
async function answerUnread(front: Front, req: IncomingMessage, res: ServerResponse, onerror: (error: Error) => void): Promise<void> {
  req.resume();
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'front'}`);
    const answer = await front.fetch(new Request(url, { method: req.method ?? 'POST', headers }));
    const body = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), connection: 'close', 'content-length': String(body.length) });
    res.end(body);
  } catch (error) {
    onerror(error as Error);
    if (!res.headersSent) res.writeHead(500, { connection: 'close' });
    res.end();
  }
}

/**
 * CORS for an allowed origin: the MCP headers in both directions (a preflight's requested
 * headers are allowed as asked: the origin is trusted already, and 2026-07-28 clients send
 * per-parameter `Mcp-Param-*` headers), and the 401 challenge readable.
 */
function corsHeaders(origin: string, requestedHeaders: string | null): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers':
      requestedHeaders ?? 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id, mcp-method, mcp-name',
    'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
    'access-control-max-age': '600',
    vary: 'origin',
  };
}

/**
 * A CORS preflight's answer for a public document (the RFC 9728 protected-resource metadata):
 * any origin may read it, with the headers it asks to send allowed as asked (header names only;
 * browser clients send `MCP-Protocol-Version`, MCP authorization "Protocol Version Header").
 * The document carries no credentials, so allowing every origin gives nothing away.
 */
function publicCorsHeaders(requestedHeaders: string | null): Record<string, string> {
  const asked = (requestedHeaders ?? '')
    .split(',')
    .map((header) => header.trim().toLowerCase())
    .filter((header) => /^[!#$%&'*+.^_`|~0-9a-z-]{1,100}$/.test(header));
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, OPTIONS',
    'access-control-allow-headers': [...new Set(['mcp-protocol-version', ...asked])].join(', '),
    'access-control-max-age': '600',
  };
}

/** `response` with `headers` added (its own are immutable when it came from a handler). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

/**
 * `response` with a body that calls `sent` (on a later turn of the event loop) once its last
 * chunk has been handed to the connection and the connection ended, or once it was cancelled
 * (the client went away). A response without a body calls it at once, the same way.
 */
function afterBodySent(response: Response, sent: () => void): Response {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    setImmediate(sent);
  };
  if (response.body === null) {
    once();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        controller.close();
        once();
      } catch (error) {
        controller.error(error);
        once();
      }
    },
    cancel(reason) {
      once();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Whether `body` is one JSON-RPC message whose method the catalogue answers ({@link catalogueMethods}). */
function answeredByCatalogue(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const method = (body as { method?: unknown }).method;
  return typeof method === 'string' && catalogueMethods.has(method);
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), else undefined. */
function bearerToken(header: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : undefined;
}

function wantsHtml(request: Request): boolean {
  return (request.headers.get('accept') ?? '').includes('text/html');
}

/** A 403 in the JSON-RPC error shape the SDK's own guards answer with. */
function forbidden(message: string): Response {
  return jsonRpcError(403, message);
}

/** An HTTP error whose body is a JSON-RPC error (code -32000) with `message`, as the SDK's own guards answer. */
function jsonRpcError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
