// A client's metadata (RFC 7591 §2), parsed once at the edge: from a registration request
// (RFC 7591 §3.1) or a Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document-00
// §4.1), with the redirect URI rules of OAuth 2.1 §2.3.1 / §7.5, RFC 8252 §7 and RFC 9700 §2.1.
import ipaddr from 'ipaddr.js';
import { OAuthError } from './oauth-error.ts';

/** A client's metadata, checked (RFC 7591 §2). Unknown members of the input are dropped (RFC 7591 §2: "MUST ignore"). */
export interface ClientMetadata {
  /** The URL of a metadata document (its own `client_id`, CIMD §4.1); `null` in a registration request (the server assigns it). */
  client_id: string | null;
  /** Untrusted display text, trimmed, without control or bidi-override characters, at most 200 characters; `null` when absent or blank. */
  client_name: string | null;
  /** The client's home page: an `http:` or `https:` URL. */
  client_uri: string | null;
  /** The client's logo: an `http:` or `https:` URL (not shown yet: CIMD §6.7 asks to prefetch and moderate it first). */
  logo_uri: string | null;
  /** 1 to 20 redirect URIs (1 to 10 of at most 512 characters in a registration), each checked (see {@link redirectUriProblem}), duplicates dropped, as sent (compared exactly). */
  redirect_uris: string[];
  /** `authorization_code`, optionally `refresh_token`; default `["authorization_code"]`. */
  grant_types: string[];
  /** Always `["code"]` (OAuth 2.1 §4.1: the only response type). */
  response_types: string[];
  /** Public clients only: PKCE (S256) stands in for a client secret (OAuth 2.1 §2.1, §7.5.1; MCP authorization "Authorization Code Protection"). */
  token_endpoint_auth_method: 'none';
  /** Space-separated scope tokens (RFC 6749 §3.3), or `null`. */
  scope: string | null;
  software_id: string | null;
  software_version: string | null;
}

/** The most redirect URIs a metadata document may list: enough for every loopback and app scheme a client needs. */
const maxRedirectUris = 20;
/** The longest URI accepted anywhere in a metadata document, in characters. */
const maxUriLength = 2000;
/**
 * A registration's bounds. Its client_id is its whole metadata, sealed, and travels in every
 * authorization request and form: at most 10 redirect URIs of at most 512 characters, and
 * at most 2048 bytes of metadata as JSON, keep it under about 3 KB.
 */
export const registrationLimits = { maxRedirectUris: 10, maxRedirectUriLength: 512, maxMetadataBytes: 2048 } as const;
const maxNameLength = 200;
const maxScopeLength = 1000;
const grantTypesAllowed = ['authorization_code', 'refresh_token'];
/** More entries than this in a list of enumerated values is not a mistake but an attack: refused before looking at them. */
const maxListLength = 20;

/**
 * Schemes that can never receive an authorization response: they run code or open something
 * local in the browser (`javascript:`, `data:`, `file:`, …) or are not navigations at all
 * (RFC 9700 §4.1, OAuth 2.1 §7.5.3). `http:` is refused separately unless the host is loopback.
 */
const refusedSchemes = new Set([
  'javascript',
  'vbscript',
  'data',
  'file',
  'about',
  'blob',
  'filesystem',
  'view-source',
  'ws',
  'wss',
  'ftp',
  'mailto',
  'tel',
  'sms',
  // Browser-internal pages and archive or wrapper schemes: they open something inside the browser or another app, never a client.
  'intent',
  'chrome',
  'chrome-extension',
  'chrome-search',
  'chrome-untrusted',
  'devtools',
  'edge',
  'brave',
  'opera',
  'vivaldi',
  'moz-extension',
  'resource',
  'safari-extension',
  'ms-browser-extension',
  'jar',
  'wyciwyg',
]);

/** Unicode bidi embedding, override and isolate controls and marks: they can make a name display as another (CVE-2021-42574 "Trojan Source"). */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Parses a client's metadata (RFC 7591 §2) from a registration request body
 * (`via: 'registration'`, RFC 7591 §3.1) or a fetched Client ID Metadata Document
 * (`via: 'document'`, CIMD §4.1). Returns the checked metadata with defaults filled in
 * (`grant_types: ["authorization_code"]`, `response_types: ["code"]`,
 * `token_endpoint_auth_method: "none"`).
 *
 * Client authentication: the server has public clients only, PKCE in their place. In a
 * registration, `client_secret_basic` and `client_secret_post` are answered with `none` (RFC 7591
 * §3.2.1 lets the server replace requested values; the client reads the answer). A document
 * that asks for a shared secret is refused: there is no way to hand a document a secret (CIMD
 * §4.1, §6.2); `private_key_jwt` (and any other method) is refused in both, as this server
 * does not authenticate clients.
 *
 * @throws {OAuthError} `invalid_redirect_uri` when only redirect URIs are wrong,
 *   `invalid_client_metadata` otherwise (RFC 7591 §3.2.2); the description names each problem
 *   and how to succeed (printable ASCII without quotes or backslashes, RFC 6749 §5.2).
 */
export function parseClientMetadata(input: unknown, via: 'registration' | 'document'): ClientMetadata {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new OAuthError(
      'invalid_client_metadata',
      via === 'registration'
        ? 'The registration request must be a JSON object of client metadata (RFC 7591 section 3.1), e.g. {redirect_uris: [...], client_name: ...}.'
        : 'The client metadata document must be a JSON object (CIMD section 4.1).',
    );
  }
  const body = input as Record<string, unknown>;
  const problems: string[] = [];
  const redirectProblems: string[] = [];
  const field = (name: string): unknown => (Object.hasOwn(body, name) ? body[name] : undefined);

  let clientId: string | null = null;
  if (via === 'document') {
    const value = field('client_id');
    if (typeof value !== 'string' || value === '')
      problems.push('client_id must be present and be the URL of the document itself (CIMD section 4.1)');
    else clientId = value;
    for (const name of ['client_secret', 'client_secret_expires_at'])
      if (field(name) !== undefined)
        problems.push(`${name} must not appear in a metadata document: a document is public and cannot hold a secret (CIMD section 4.1)`);
  }

  const clientName = optionalText(field('client_name'), 'client_name', maxNameLength, problems);
  const clientUri = optionalWebUrl(field('client_uri'), 'client_uri', problems);
  const logoUri = optionalWebUrl(field('logo_uri'), 'logo_uri', problems);
  const softwareId = optionalText(field('software_id'), 'software_id', maxNameLength, problems);
  const softwareVersion = optionalText(field('software_version'), 'software_version', maxNameLength, problems);
  const scope = optionalScope(field('scope'), problems);

  const redirectUris: string[] = [];
  const rawRedirects = field('redirect_uris');
  const mostRedirects = via === 'registration' ? registrationLimits.maxRedirectUris : maxRedirectUris;
  const longestRedirect = via === 'registration' ? registrationLimits.maxRedirectUriLength : maxUriLength;
  if (!Array.isArray(rawRedirects) || rawRedirects.length === 0) {
    redirectProblems.push(
      'redirect_uris must be a list of at least one redirect URI, e.g. [http://127.0.0.1/callback] (RFC 7591 section 2, OAuth 2.1 section 2.3)',
    );
  } else if (rawRedirects.length > mostRedirects) {
    redirectProblems.push(`redirect_uris lists ${rawRedirects.length} URIs; at most ${mostRedirects} are accepted`);
  } else {
    rawRedirects.forEach((uri: unknown, index) => {
      const problem = redirectUriProblem(uri, longestRedirect);
      if (problem !== null) redirectProblems.push(`redirect_uris[${index}] ${problem}`);
      else if (!redirectUris.includes(uri as string)) redirectUris.push(uri as string);
    });
  }

  const grantTypes = enumeratedList(field('grant_types'), 'grant_types', grantTypesAllowed, ['authorization_code'], problems);
  if (grantTypes !== null && !grantTypes.includes('authorization_code'))
    problems.push('grant_types must include authorization_code: it is the only way to obtain a token here (OAuth 2.1 section 4.1)');
  const responseTypes = enumeratedList(field('response_types'), 'response_types', ['code'], ['code'], problems);
  const authMethod = tokenEndpointAuthMethodProblem(field('token_endpoint_auth_method'), via);
  if (authMethod !== null) problems.push(authMethod);

  if (problems.length > 0 || redirectProblems.length > 0) {
    const all = [...redirectProblems, ...problems];
    const shown = all.slice(0, 5).join('; ') + (all.length > 5 ? `; and ${all.length - 5} more` : '');
    throw new OAuthError(problems.length === 0 ? 'invalid_redirect_uri' : 'invalid_client_metadata', `Client metadata refused: ${shown}.`);
  }
  const metadata: ClientMetadata = {
    client_id: clientId,
    client_name: clientName,
    client_uri: clientUri,
    logo_uri: logoUri,
    redirect_uris: redirectUris,
    grant_types: grantTypes!,
    response_types: responseTypes!,
    token_endpoint_auth_method: 'none',
    scope,
    software_id: softwareId,
    software_version: softwareVersion,
  };
  const size = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  if (via === 'registration' && size > registrationLimits.maxMetadataBytes)
    throw new OAuthError(
      'invalid_client_metadata',
      `Client metadata refused: it is ${size} bytes as JSON; at most ${registrationLimits.maxMetadataBytes} are accepted in a registration (the client_id carries it). Shorten client_name and the URIs, or list fewer redirect URIs.`,
    );
  return metadata;
}

/**
 * What is wrong with one redirect URI, or `null` when it is accepted. Accepted (OAuth 2.1
 * §2.3.1, RFC 8252 §7, MCP authorization "Communication Security"): an absolute URI of printable
 * ASCII, at most `maxLength` characters (2000; 512 in a registration), without fragment (RFC 6749 §3.1.2) or userinfo, that is
 * - `https:` to any host;
 * - `http:` to a loopback host only: `localhost`, `127.0.0.0/8` or `[::1]`, any port
 *   (RFC 8252 §7.3, §8.3);
 * - an app's private-use scheme (RFC 8252 §7.1), e.g. `com.example.app:/callback`,
 *   `cursor://…`, `vscode://…`.
 * Refused: `http:` to any other host, schemes that run or open something in the browser
 * (`javascript:`, `data:`, `file:`, `about:`, `blob:`, …; RFC 9700 §4.1), browser-internal and
 * archive or wrapper schemes (`intent:`, `chrome:`, `chrome-extension:`, `edge:`, `jar:`,
 * `view-source:`, …), any `*` in the host (no wildcards), and `http(s):` whose authority is
 * empty as written (`https:///cb`, which URL parsing reads as the host `cb`).
 */
export function redirectUriProblem(uri: unknown, maxLength: number = maxUriLength): string | null {
  if (typeof uri !== 'string') return 'must be a string';
  if (uri.length > maxLength) return `is ${uri.length} characters long; at most ${maxLength} are accepted`;
  if (!/^[\x21-\x7e]+$/.test(uri)) return 'must be printable ASCII without spaces (percent-encode other characters, RFC 3986)';
  if (uri.includes('#')) return `must not contain a fragment (#...): ${quoteForDescription(uri)} (RFC 6749 section 3.1.2)`;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(uri))
    return `must be an absolute URI with a scheme, e.g. https://app.example/callback or http://127.0.0.1/callback, not ${quoteForDescription(uri)}`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `is not a valid URI: ${quoteForDescription(uri)}`;
  }
  const scheme = url.protocol.slice(0, -1);
  if (refusedSchemes.has(scheme))
    return `uses the scheme ${scheme}:, which cannot receive an authorization response; use https:, http: on a loopback address, or an app scheme such as com.example.app:/callback`;
  if (url.username !== '' || url.password !== '' || /^[^:]*:\/\/[^/?#]*@/.test(uri))
    return `must not contain a user name or password (user@host): ${quoteForDescription(uri)}`;
  if (/^[a-z][a-z0-9+.-]*:\/\/[/?#]/i.test(uri) && (scheme === 'http' || scheme === 'https'))
    return `has an empty host (${scheme}:/// is read as a host taken from the path): ${quoteForDescription(uri)}; name the host, e.g. https://app.example/callback`;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\*/i.test(uri) || url.host.includes('*'))
    return `must not contain * in its host (wildcards are not accepted; register each redirect URI exactly): ${quoteForDescription(uri)}`;
  if (scheme === 'http' && !isLoopbackHost(url.hostname))
    return `uses http: to ${quoteForDescription(url.hostname)}; http: is accepted only for a loopback address (localhost, 127.0.0.1, [::1]: RFC 8252 section 7.3), use https: for any other host`;
  return null;
}

/**
 * Whether a redirect URI sends the code to a program on the person's own machine: `http:` or
 * `https:` to `localhost`, `127.0.0.0/8` or `[::1]`. The consent page warns about these: any
 * program on that machine may be listening (RFC 8252 §8.3, MCP security best practices).
 * `false` for a URI that does not parse.
 */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Whether the redirect URI of an authorization request matches one the client registered:
 * exact string comparison, no normalisation of case, trailing slash, percent-encoding or
 * query (OAuth 2.1 §4.1.1 and §7.5.3, RFC 9700 §2.1, CIMD §4.5).
 *
 * One exception, by choice: for a registered `http:` loopback URI the port of the requested
 * one may differ (RFC 8252 §7.3: native apps listen on a port the operating system picks at
 * the time of the request). Everything else, the host spelling (`localhost` is not
 * `127.0.0.1`) included, must still be the same characters. `https:` loopback URIs and
 * app schemes get no exception.
 */
export function redirectUriMatches(registered: string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  if (redirectUriProblem(requested) !== null || !isLoopbackHttp(requested)) return false;
  const wanted = withoutPort(requested);
  return registered.some((uri) => isLoopbackHttp(uri) && withoutPort(uri) === wanted);
}

/**
 * A value from outside, fit to quote in an `error_description`: single-quoted, cut at 80
 * characters, every character RFC 6749 §5.2 forbids there (non-ASCII, controls, `"` and `\`)
 * replaced by `?`.
 */
export function quoteForDescription(value: string): string {
  const cut = value.length > 80 ? `${value.slice(0, 80)}...` : value;
  return `'${cut.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?')}'`;
}

/** `localhost`, an IPv4 address in 127.0.0.0/8, or `[::1]`, as `URL.hostname` spells them (RFC 8252 §7.3, §8.3). */
function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) && ipaddr.IPv4.parse(hostname).range() === 'loopback';
}

function isLoopbackHttp(uri: string): boolean {
  return /^http:/i.test(uri) && isLoopbackRedirect(uri);
}

/** The URI without its `:port`, spelled as sent otherwise (for the loopback port exception). */
function withoutPort(uri: string): string {
  return uri.replace(/^(http:\/\/)(\[[^\]]*\]|[^/?#:@]*)(?::\d*)?(?=[/?#]|$)/i, '$1$2');
}

function optionalText(value: unknown, name: string, max: number, problems: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    problems.push(`${name} must be a string`);
    return null;
  }
  const text = value.trim();
  if (/\p{Cc}/u.test(text) || bidiControls.test(text)) {
    problems.push(`${name} must not contain control characters (line breaks, tabs, bidi overrides)`);
    return null;
  }
  if ([...text].length > max) {
    problems.push(`${name} is ${[...text].length} characters long; at most ${max} are accepted`);
    return null;
  }
  return text === '' ? null : text;
}

function optionalWebUrl(value: unknown, name: string, problems: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    problems.push(`${name} must be a string`);
    return null;
  }
  if (value.length > maxUriLength || !/^https?:\/\/[\x21-\x7e]+$/i.test(value) || !URL.canParse(value)) {
    problems.push(`${name} must be an http: or https: URL of printable ASCII, at most ${maxUriLength} characters`);
    return null;
  }
  return value;
}

/** RFC 6749 §3.3: scope tokens of %x21 / %x23-5B / %x5D-7E, separated by single spaces. */
function optionalScope(value: unknown, problems: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    problems.push('scope must be a string of space-separated scope tokens');
    return null;
  }
  if (value === '') return null;
  if (value.length > maxScopeLength || !/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(value)) {
    problems.push(`scope must be scope tokens separated by single spaces (RFC 6749 section 3.3), at most ${maxScopeLength} characters`);
    return null;
  }
  return value;
}

/** A list of values from `allowed`, duplicates dropped; `fallback` when absent. `null` (and a problem) when wrong. */
function enumeratedList(value: unknown, name: string, allowed: string[], fallback: string[], problems: string[]): string[] | null {
  if (value === undefined || value === null) return [...fallback];
  const hint = `allowed: ${allowed.join(', ')}`;
  if (!Array.isArray(value) || value.length === 0 || value.length > maxListLength) {
    problems.push(`${name} must be a non-empty list of at most ${maxListLength} values (${hint})`);
    return null;
  }
  const unknown = value.filter((entry: unknown) => typeof entry !== 'string' || !allowed.includes(entry));
  if (unknown.length > 0) {
    const named = unknown.slice(0, 3).map((entry: unknown) => (typeof entry === 'string' ? quoteForDescription(entry) : 'a non-string'));
    problems.push(`${name} holds ${named.join(', ')}, not supported here (${hint})`);
    return null;
  }
  return [...new Set(value as string[])];
}

function tokenEndpointAuthMethodProblem(value: unknown, via: 'registration' | 'document'): string | null {
  if (value === undefined || value === null || value === 'none') return null;
  if (typeof value !== 'string') return 'token_endpoint_auth_method must be a string; use none';
  const secret = ['client_secret_basic', 'client_secret_post', 'client_secret_jwt'].includes(value);
  if (via === 'registration' && (value === 'client_secret_basic' || value === 'client_secret_post')) return null;
  if (via === 'document' && secret)
    return `token_endpoint_auth_method ${value} needs a shared secret, which a public metadata document cannot establish (CIMD sections 4.1 and 6.2); use none: PKCE protects the code`;
  return `token_endpoint_auth_method ${quoteForDescription(value)} is not supported: this server accepts public clients only, PKCE (S256) in place of client authentication; use none`;
}
