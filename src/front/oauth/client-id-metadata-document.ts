// Clients that describe themselves by URL: fetching a Client ID Metadata Document
// (draft-ietf-oauth-client-id-metadata-document-00, the revision MCP authorization 2025-11-25
// "Client ID Metadata Documents" cites; section numbers below are that revision's) with the
// guards its §6.5 (SSRF) and §6.6 (response size) ask for, cached by HTTP caching headers (§4.4).
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { parseClientMetadata, quoteForDescription, type ClientMetadata } from './client-metadata.ts';
import { isOAuthError, OAuthError } from './oauth-error.ts';

/** The metadata of clients that name themselves by URL, fetched on demand and cached. */
export interface ClientMetadataDocuments {
  /**
   * The checked metadata of the client whose `client_id` is `clientId`, from the document at
   * that URL (or the cache). Throws {@link OAuthError} `invalid_client` naming the rule that failed.
   */
  fetch(clientId: string): Promise<ClientMetadata & { client_id: string }>;
}

/** How {@link clientMetadataDocuments} fetches; every field has a default fit for production. */
export interface ClientMetadataDocumentOptions {
  /** Also accept `http:` URLs and addresses on loopback (127.0.0.0/8, ::1). Tests and the local demo only. Default `false`. */
  allowLoopback?: boolean;
  /** Time for the whole fetch (DNS, connect, TLS, headers, body), in ms. Default 5000. */
  timeoutMs?: number;
  /** The largest document accepted, in bytes (CIMD §6.6 recommends 5 KB). Default 5120. */
  maxBytes?: number;
  /** Documents and refusals kept at once (least recently used dropped first). Default 1000. */
  maxEntries?: number;
  /** How long a document without caching headers is kept, in ms. Default 1 hour. */
  defaultTtlMs?: number;
  /** The longest any document is kept, whatever its headers say, in ms (CIMD §4.4 lets the server bound it). Default 24 hours. */
  maxTtlMs?: number;
  /** How long a failed fetch is answered from memory before the URL is fetched again, in ms. Default 30 s. */
  failureTtlMs?: number;
  /**
   * Certificates (PEM) trusted for `https:` instead of Node's bundled roots: a test's own
   * certificate authority for a document served on loopback. Default: the bundled roots.
   */
  ca?: string;
  /** The most documents fetched at once (distinct URLs); beyond, a fetch is refused with `temporarily_unavailable`. Default 8. */
  maxConcurrentFetches?: number;
  /** Where the detail of a failed connection goes (debug level); the refusal itself names only its kind. */
  log?: Logger;
}

type Settings = Required<Omit<ClientMetadataDocumentOptions, 'ca' | 'log'>> & Pick<ClientMetadataDocumentOptions, 'ca' | 'log'>;

const defaults = {
  allowLoopback: false,
  timeoutMs: 5_000,
  maxBytes: 5 * 1024,
  maxEntries: 1_000,
  defaultTtlMs: 60 * 60 * 1000,
  maxTtlMs: 24 * 60 * 60 * 1000,
  failureTtlMs: 30_000,
  maxConcurrentFetches: 8,
} satisfies Required<Omit<ClientMetadataDocumentOptions, 'ca' | 'log'>>;

const maxClientIdLength = 2000;

/**
 * Whether `clientId` is what this server treats as a Client ID Metadata Document URL (CIMD §3):
 * an `https:` URL with a path (not just `/`), no fragment, no user name or password, no `.` or
 * `..` path segments, printable ASCII. With `allowLoopback`, `http:` to a loopback host too.
 * Any other client id is one the registration endpoint issued.
 */
export function isClientIdUrl(clientId: string, options: { allowLoopback?: boolean } = {}): boolean {
  return clientIdUrlProblem(clientId, options.allowLoopback ?? false) === null;
}

/** Why `clientId` is not a Client ID Metadata Document URL (see {@link isClientIdUrl}), as a clause (`it must have a path, …`), or null when it is one. */
export function clientIdUrlRuleBroken(clientId: string, options: { allowLoopback?: boolean } = {}): string | null {
  return clientIdUrlProblem(clientId, options.allowLoopback ?? false);
}

/**
 * The fetcher of Client ID Metadata Documents, with these guards (CIMD §3, §4, §6.5, §6.6;
 * MCP authorization 2025-11-25 "Client ID Metadata Documents" and security best practices "SSRF"):
 *
 * - the URL must pass {@link isClientIdUrl};
 * - the host is resolved (every address) and refused when any address is not public unicast:
 *   loopback, private, link-local, unique-local, carrier-grade NAT, multicast, unspecified,
 *   broadcast, documentation, benchmarking and other special-purpose ranges, and IPv4-mapped,
 *   IPv4-translated, NAT64 and 6to4 forms of those, as `ipaddr.js` classifies them;
 * - the connection goes to the vetted addresses only (the socket's DNS lookup is answered with
 *   them), so a DNS answer that changes between the check and the connection (rebinding) is
 *   never used; the Host header and the TLS server name stay the URL's host;
 * - no redirect is followed (a 3xx is refused), only `200` is accepted;
 * - `timeoutMs` for the whole fetch; at most `maxBytes` (a larger `Content-Length` is refused
 *   unread, a body that grows past it is cut off at once); the content type must be JSON
 *   (`application/json` or `application/*+json`, CIMD §4.1);
 * - the document's `client_id` must equal the URL, character for character (CIMD §4.1), and its
 *   metadata must pass {@link parseClientMetadata} (`via: 'document'`).
 *
 * Answers are cached (CIMD §4.4) for `Cache-Control: max-age` (else `Expires`, else
 * `defaultTtlMs`), at most `maxTtlMs`; `no-store` and `no-cache` are not cached. Concurrent
 * fetches of one URL share one request, and at most `maxConcurrentFetches` (8) URLs are fetched
 * at once: beyond, `temporarily_unavailable`, so variations of a URL (`?a`, `?b`, …) cannot make
 * the server fetch without bound. A failed connection is named by its kind only (failed, timed
 * out, not valid HTTP, certificate not accepted), never its system message (which would tell
 * an outsider what listens where); the detail goes to `log` at debug.
 *
 * A refusal after a fetch was attempted is kept `failureTtlMs` (30 s) so that a hostile or
 * broken URL cannot make the server fetch in a loop. CIMD §4.4 says errors MUST NOT be cached;
 * this keeps no document, only the refusal, and briefly: a fixed document is fetched 30 s later.
 */
export function clientMetadataDocuments(options: ClientMetadataDocumentOptions = {}): ClientMetadataDocuments {
  const settings = { ...defaults, ...options };
  type Entry = { document: ClientMetadata & { client_id: string } } | { refusal: OAuthError };
  const cache = new LRUCache<string, Entry>({ max: settings.maxEntries });
  const inFlight = new Map<string, Promise<ClientMetadata & { client_id: string }>>();

  const fetchAndCache = async (clientId: string): Promise<ClientMetadata & { client_id: string }> => {
    try {
      const { metadata, ttlMs } = await fetchDocument(clientId, settings);
      if (ttlMs > 0) cache.set(clientId, { document: metadata }, { ttl: ttlMs });
      return metadata;
    } catch (error) {
      const refusal = isOAuthError(error)
        ? error
        : new OAuthError('invalid_client', `The client metadata document at ${quoteForDescription(clientId)} could not be fetched.`, {
            cause: error,
          });
      const kept =
        settings.failureTtlMs > 0
          ? new OAuthError(
              refusal.code,
              `${refusal.description} This answer is kept ${Math.ceil(settings.failureTtlMs / 1000)} s before the URL is fetched again.`,
              { cause: refusal.cause },
            )
          : refusal;
      if (settings.failureTtlMs > 0) cache.set(clientId, { refusal: kept }, { ttl: settings.failureTtlMs });
      throw kept;
    }
  };

  return {
    async fetch(clientId) {
      const problem = clientIdUrlProblem(clientId, settings.allowLoopback);
      if (problem !== null)
        throw new OAuthError(
          'invalid_client',
          `The client_id ${quoteForDescription(clientId)} is not a usable Client ID Metadata Document URL: ${problem}.`,
        );
      const cached = cache.get(clientId);
      if (cached !== undefined) {
        if ('refusal' in cached) throw cached.refusal;
        return cached.document;
      }
      let pending = inFlight.get(clientId);
      if (pending === undefined) {
        if (inFlight.size >= settings.maxConcurrentFetches)
          throw new OAuthError(
            'temporarily_unavailable',
            'Too many client metadata documents are being fetched at this moment; try again in a few seconds.',
          );
        pending = fetchAndCache(clientId).finally(() => inFlight.delete(clientId));
        inFlight.set(clientId, pending);
      }
      return pending;
    },
  };
}

/** What is wrong with `clientId` as a metadata document URL (CIMD §3), or `null`. */
function clientIdUrlProblem(clientId: string, allowLoopback: boolean): string | null {
  if (typeof clientId !== 'string' || clientId === '') return 'it is empty';
  if (clientId.length > maxClientIdLength) return `it is longer than ${maxClientIdLength} characters`;
  if (!/^[\x21-\x7e]+$/.test(clientId)) return 'it must be printable ASCII without spaces';
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'it is not a URL';
  }
  const loopbackHttp = allowLoopback && url.protocol === 'http:' && isLoopbackAddressLiteralOrLocalhost(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) return 'it must use https: (CIMD section 3)';
  if (clientId.includes('#')) return 'it must not contain a fragment (CIMD section 3)';
  if (url.username !== '' || url.password !== '' || /^[^:]*:\/\/[^/?#]*@/.test(clientId))
    return 'it must not contain a user name or password (CIMD section 3)';
  const rawPath = /^[^:]*:\/\/[^/?#]*([^?#]*)/.exec(clientId)?.[1] ?? '';
  if (rawPath === '' || rawPath === '/') return 'it must have a path, e.g. https://app.example/oauth/client.json (CIMD section 3)';
  if (rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment)))
    return 'it must not contain . or .. path segments (CIMD section 3)';
  return null;
}

function isLoopbackAddressLiteralOrLocalhost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(literal) && addressRange(literal).range === 'loopback';
}

/** The special-purpose range an address falls in (`unicast` for a public one), looking inside IPv4-in-IPv6 forms. */
function addressRange(address: string): { range: string; embedded: string | null } {
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return { range: ip.range(), embedded: null };
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const bytes = v6.toByteArray();
  let v4: ipaddr.IPv4 | null = null;
  // ::ffff:a.b.c.d (RFC 4291 §2.5.5.2), ::ffff:0:a.b.c.d (RFC 6145), 64:ff9b::a.b.c.d (NAT64, RFC 6052 §2.1).
  if (range === 'ipv4Mapped' || range === 'rfc6145' || (range === 'rfc6052' && v6.match(ipaddr.IPv6.parseCIDR('64:ff9b::/96'))))
    v4 = new ipaddr.IPv4(bytes.slice(12, 16));
  // 2002:aabb:ccdd::/48 carries a.b.c.d (6to4, RFC 3056 §2).
  else if (range === '6to4') v4 = new ipaddr.IPv4(bytes.slice(2, 6));
  if (v4 === null) return { range, embedded: null };
  return { range: v4.range(), embedded: v4.toString() };
}

/** Why `address` may not be fetched from, or `null` when it may (public unicast; loopback too with `allowLoopback`). */
function addressProblem(address: string, allowLoopback: boolean): string | null {
  let classified: { range: string; embedded: string | null };
  try {
    classified = addressRange(address);
  } catch {
    return `${quoteForDescription(address)} is not an IP address`;
  }
  const { range, embedded } = classified;
  if (range === 'unicast' || (allowLoopback && range === 'loopback')) return null;
  const kind = rangeNames[range] ?? `a special-purpose address (${range})`;
  return embedded === null ? `${address} is ${kind}` : `${address} is a form of ${embedded}, ${kind}`;
}

const rangeNames: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address (RFC 1918)',
  linkLocal: 'a link-local address (where cloud metadata services answer)',
  uniqueLocal: 'a unique-local (private) address (RFC 4193)',
  carrierGradeNat: 'a carrier-grade NAT address (RFC 6598)',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved or documentation address',
  benchmarking: 'a benchmarking address (RFC 5180)',
  deprecatedSiteLocal: 'a site-local (private) address',
  teredo: 'a Teredo tunnel address',
  rfc6052: 'a local-use NAT64 address (RFC 8215)',
};

/** A document fetched and checked, and how long it may be kept (0: not at all). */
interface Fetched {
  metadata: ClientMetadata & { client_id: string };
  ttlMs: number;
}

/** Resolves, vets, connects to the vetted addresses and reads the document, all within `timeoutMs`. */
async function fetchDocument(clientId: string, settings: Settings): Promise<Fetched> {
  const url = new URL(clientId);
  const where = `The client metadata document at ${quoteForDescription(clientId)}`;
  const refuse = (why: string, cause?: unknown) => new OAuthError('invalid_client', `${where} ${why}`, { cause });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  const timedOut = () => refuse(`did not answer within ${settings.timeoutMs / 1000} s; serve it faster and try again.`);
  try {
    const addresses = await withAbort(resolve(url.hostname, refuse), controller.signal, timedOut);
    for (const { address } of addresses) {
      const problem = addressProblem(address, settings.allowLoopback);
      if (problem !== null)
        throw refuse(
          `is not fetched: its host ${quoteForDescription(url.hostname)} resolves to an address that may not be fetched (${problem}). Metadata documents are fetched only from public addresses (CIMD section 6.5, SSRF).`,
        );
    }
    const response = await get(url, addresses, settings, controller.signal, refuse, timedOut);
    let json: unknown;
    try {
      json = JSON.parse(response.body.toString('utf8').replace(/^\uFEFF/, ''));
    } catch (error) {
      throw refuse('is not valid JSON.', error);
    }
    const documentClientId = typeof json === 'object' && json !== null ? (json as Record<string, unknown>).client_id : undefined;
    if (documentClientId !== clientId)
      throw refuse(
        `names the client_id ${typeof documentClientId === 'string' ? quoteForDescription(documentClientId) : 'nothing'}; it must be the URL of the document itself, character for character (CIMD section 4.1).`,
      );
    let metadata: ClientMetadata;
    try {
      metadata = parseClientMetadata(json, 'document');
    } catch (error) {
      if (isOAuthError(error)) throw refuse(`is not accepted. ${error.description}`, error);
      throw error;
    }
    return { metadata: { ...metadata, client_id: clientId }, ttlMs: cacheLifetime(response.headers, settings) };
  } finally {
    clearTimeout(timer);
  }
}

/** Every address of `hostname` (an IP literal is its own address). */
async function resolve(hostname: string, refuse: (why: string, cause?: unknown) => OAuthError): Promise<LookupAddress[]> {
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(literal)) return [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  try {
    const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
    if (addresses.length === 0) throw new Error('no address');
    return addresses;
  } catch (error) {
    throw refuse(`is not fetched: its host ${quoteForDescription(hostname)} does not resolve.`, error);
  }
}

/**
 * A DNS lookup for the socket that answers with the vetted addresses only (the pin against
 * rebinding). Node asks for `all` when it tries several addresses (`autoSelectFamily`).
 */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

interface Answer {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One GET to the vetted addresses: 200 with a JSON body of at most `maxBytes`, or a refusal. */
function get(
  url: URL,
  addresses: LookupAddress[],
  settings: Settings,
  signal: AbortSignal,
  refuse: (why: string, cause?: unknown) => OAuthError,
  timedOut: () => OAuthError,
): Promise<Answer> {
  const { ca, maxBytes } = settings;
  return new Promise<Answer>((resolvePromise, reject) => {
    let settled = false;
    const fail = (error: OAuthError) => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(error);
    };
    const requestOptions: https.RequestOptions = {
      method: 'GET',
      lookup: pinnedLookup(addresses),
      agent: false,
      ...(ca !== undefined ? { ca } : {}),
      maxHeaderSize: 8 * 1024,
      headers: { accept: 'application/json', 'accept-encoding': 'identity', 'user-agent': 'major-vault (client metadata)' },
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, requestOptions, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        const location = response.headers.location;
        return fail(
          refuse(
            `answered with a redirect (HTTP ${status}${location ? ` to ${quoteForDescription(location)}` : ''}); redirects are not followed: serve the document at the client_id URL itself.`,
          ),
        );
      }
      if (status !== 200) return fail(refuse(`answered HTTP ${status}; it must answer 200 with the document.`));
      const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!/^application\/([a-z0-9.+-]+\+)?json$/.test(type))
        return fail(refuse(`has the content type ${quoteForDescription(type || 'none')}; it must be application/json (CIMD section 4.1).`));
      const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      if (encoding !== 'identity')
        return fail(refuse(`is sent with Content-Encoding ${quoteForDescription(encoding)}; send it uncompressed.`));
      const tooLarge = () => refuse(`is larger than ${maxBytes} bytes, the most accepted (CIMD section 6.6); make it smaller.`);
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      response.on('end', () => {
        if (settled) return;
        settled = true;
        resolvePromise({ headers: response.headers, body: Buffer.concat(chunks) });
      });
      response.on('error', (error) => fail(refuse('was cut off while it was read.', error)));
    });
    request.on('error', (error) => {
      if (signal.aborted) return fail(timedOut());
      settings.log?.debug({ err: error, url: url.href }, 'a client metadata document could not be fetched');
      fail(refuse(`could not be fetched: ${connectionFailure(error)}.`, error));
    });
    if (signal.aborted) return fail(timedOut());
    signal.addEventListener('abort', () => fail(timedOut()), { once: true });
    request.end();
  });
}

/** The kind of a failed request, in words fit for anyone to read: no address, port or system message. */
function connectionFailure(error: Error & { code?: unknown }): string {
  const code = typeof error.code === 'string' ? error.code : '';
  if (code.startsWith('HPE_')) return 'the answer was not valid HTTP';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'the connection timed out';
  if (/CERT|TLS|SSL|SELF_SIGNED|VERIFY/.test(code)) return 'its TLS certificate was not accepted';
  return 'the connection failed';
}

/** `promise`, or `onAbort()` as soon as `signal` aborts. */
function withAbort<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolvePromise, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error as Error);
      },
    );
  });
}

/**
 * How long an answer may be kept, in ms (RFC 9111 §4.2.1, CIMD §4.4): 0 for `no-store` or
 * `no-cache`; else `max-age`; else `Expires` minus `Date` (or now); else `defaultTtlMs`;
 * never more than `maxTtlMs`.
 */
function cacheLifetime(headers: http.IncomingHttpHeaders, settings: Settings): number {
  const directives = (headers['cache-control'] ?? '')
    .toLowerCase()
    .split(',')
    .map((part) => part.trim());
  if (directives.some((directive) => directive === 'no-store' || directive === 'no-cache' || directive.startsWith('no-cache='))) return 0;
  const maxAge = directives.map((directive) => /^max-age=("?)(\d+)\1$/.exec(directive)?.[2]).find((value) => value !== undefined);
  let ttlMs: number;
  if (maxAge !== undefined) ttlMs = Number(maxAge) * 1000;
  else if (headers.expires !== undefined) {
    const expires = Date.parse(headers.expires);
    const date = headers.date !== undefined ? Date.parse(headers.date) : Date.now();
    ttlMs = Number.isNaN(expires) ? 0 : expires - (Number.isNaN(date) ? Date.now() : date);
  } else ttlMs = settings.defaultTtlMs;
  return Math.max(0, Math.min(ttlMs, settings.maxTtlMs));
}
