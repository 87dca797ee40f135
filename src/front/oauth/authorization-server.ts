// The front's OAuth authorization server, one for every installation (MCP authorization,
// 2025-06-18, 2025-11-25, 2026-07-28): metadata, registration, consent, GitHub's sign-in
// upstream, and the token endpoint. It keeps no session and no token store: everything it
// hands out is sealed (tokens/token-sealer.ts); its only state is the Store's short records.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { UpstreamAuthorization, UpstreamTokens } from '../../repo-host/sign-in.ts';
import type { Store } from '../../store/store.ts';
import type { TokenSealer } from '../../tokens/token-sealer.ts';
import { isVaultError } from '../../vault-error.ts';
import { consentPage } from '../pages/consent-page.ts';
import { errorPage } from '../pages/error-page.ts';
import { htmlResponse } from '../pages/page-layout.ts';
import { browserBinding, nonceHash } from './browser-binding.ts';
import { clientBinding } from './client-binding.ts';
import { readBoundedBody } from './bounded-body.ts';
import { clientIdUrlRuleBroken, isClientIdUrl, type ClientMetadataDocuments } from './client-id-metadata-document.ts';
import { isLoopbackRedirect, parseClientMetadata, redirectUriMatches, type ClientMetadata } from './client-metadata.ts';
import { OAuthError, isOAuthError, oauthErrorResponse } from './oauth-error.ts';
import { isPkceValue, newCodeVerifier, s256Challenge } from './pkce.ts';
import { tokenGrant, type CodeClaims } from './token-endpoint.ts';
import { oauthPaths } from '../front-paths.ts';

/** The paths the server answers. */
export { oauthPaths } from '../front-paths.ts';

/** The largest registration or form body taken, in bytes. */
const maxBodyBytes = 16_384;
/** How long an approval may take to come back from GitHub, in ms. */
const consentLifetimeMs = 10 * 60_000;
/** How long an authorization code lives, in ms (RFC 6749 §4.1.2: "a maximum lifetime of 10 minutes is RECOMMENDED"; one minute is plenty). */
const codeLifetimeMs = 60_000;

/** An installation an MCP address names. */
export interface ResourceOwner {
  installationName: string;
}

/** What {@link createAuthorizationServer} needs. */
export interface AuthorizationServerOptions {
  /** The front's public origin, e.g. `https://vault.example`: the issuer (RFC 8414 §2) and the base of every endpoint. */
  issuer: URL;
  sealer: TokenSealer;
  store: Store;
  /** The person's sign-in with the host (GitHub's web flow). */
  upstream: UpstreamAuthorization;
  /** The installation whose MCP address `resource` is exactly, when it is on; else null. */
  resourceFor(resource: string): ResourceOwner | null | Promise<ResourceOwner | null>;
  /** Client ID Metadata Documents, fetched with their guards. */
  clientDocuments: ClientMetadataDocuments;
  /** Treat `http:` loopback URLs as metadata document client ids too; the same as `clientDocuments`' `allowLoopback` (tests and the demo only). Default false. */
  allowLoopbackClientMetadata?: boolean;
  /** A page that documents sign-in (RFC 8414 `service_documentation`). */
  serviceDocumentation?: string;
  log?: Logger;
}

/** The authorization server: a web-standard handler (null for a path not its own) and its RFC 8414 metadata. */
export interface AuthorizationServer {
  /** The issuer identifier (RFC 8414 §2), the origin without a final `/`: what the protected-resource documents name. */
  issuer: string;
  metadata: Record<string, unknown>;
  fetch(request: Request): Promise<Response | null>;
}

/** The validated authorization request (RFC 6749 §4.1.1 with PKCE and the resource). */
interface AuthorizeRequest {
  clientId: string;
  client: ClientMetadata;
  redirectUri: string;
  redirectUriGiven: boolean;
  codeChallenge: string;
  resource: string;
  installationName: string;
  state: string | null;
}

/** What a consent state (kind `consent`, sent to GitHub as `state`) holds. */
interface ConsentClaims {
  /** The client's binding ({@link clientBinding}), not its id: the state travels in URLs. */
  client: string;
  redirect_uri: string;
  redirect_uri_given: boolean;
  code_challenge: string;
  resource: string;
  state: string | null;
  /** SHA-256 of the approving browser's nonce. */
  browser: string;
  /** The PKCE verifier of the request to GitHub. */
  verifier: string;
}

/**
 * A refusal of the authorization endpoint: always a page on our origin, never a redirect to the
 * client (RFC 9700 §4.11.2: an automatic error redirect to a URI anyone may register is an
 * open redirector). The client hears of a refusal only after the person acted (Deny, GitHub).
 */
type AuthorizeRefusal = { page: { title: string; message: string; hint?: string } };

/**
 * Builds the authorization server. Endpoints:
 * - `GET /.well-known/oauth-authorization-server`: metadata (RFC 8414 §3);
 * - `POST /oauth/register`: dynamic client registration (RFC 7591 §3): the client id is the
 *   client's metadata, sealed (kind `client`, no expiry);
 * - `GET /oauth/authorize`: the authorization request (RFC 6749 §4.1.1), then the consent page;
 * - `POST /oauth/authorize`: the consent form; approved, the person goes to GitHub;
 * - `GET /oauth/callback`: GitHub sends the person back; the client gets our code;
 * - `POST /oauth/token`: the token endpoint (RFC 6749 §3.2, token-endpoint.ts).
 * Metadata, registration and token endpoints allow any origin (CORS `*`): browser-based
 * clients call them, and they carry no cookie.
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const issuer = options.issuer.origin;
  const { sealer, store, upstream } = options;
  const allowLoopback = options.allowLoopbackClientMetadata ?? false;
  const secure = options.issuer.protocol === 'https:';
  const binding = browserBinding(sealer, secure);
  const callbackUrl = `${issuer}${oauthPaths.callback}`;
  const upstreamOrigin = new URL(upstream.authorizeUrl({ state: 'x', codeChallenge: 'x', redirectUri: callbackUrl })).origin;
  const ownerOf = async (resource: string): Promise<ResourceOwner | null> => {
    try {
      return await options.resourceFor(resource);
    } catch (error) {
      options.log?.error({ err: error }, 'could not tell which installation a resource is');
      return null;
    }
  };
  const metadata: Record<string, unknown> = {
    issuer,
    authorization_endpoint: `${issuer}${oauthPaths.authorize}`,
    token_endpoint: `${issuer}${oauthPaths.token}`,
    registration_endpoint: `${issuer}${oauthPaths.register}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    ...(options.serviceDocumentation !== undefined ? { service_documentation: options.serviceDocumentation } : {}),
  };

  /**
   * Checks an authorization request (RFC 6749 §4.1.1, §4.1.2.1): client and redirect URI first,
   * then the rest. Every refusal is a page on our origin naming the OAuth error, what was wrong
   * and the client's redirect host; none redirects (RFC 9700 §4.11.2).
   */
  async function validate(params: URLSearchParams): Promise<AuthorizeRequest | AuthorizeRefusal> {
    const repeated = repeatedParameter(params, authorizeParameters);
    if (repeated !== null)
      return page(
        'Parameter given twice',
        `The sign-in request gives ${repeated} more than once; each parameter may be given once (RFC 6749 section 3.1).`,
        'Start the sign-in again from your assistant; if this happens again, tell its makers.',
      );
    const clientId = params.get('client_id') ?? '';
    if (clientId === '')
      return page('No client', 'The sign-in request names no client (client_id).', 'Start the sign-in again from your assistant.');
    let client: ClientMetadata;
    const urlRule = clientIdUrlRuleBroken(clientId, { allowLoopback });
    if (urlRule !== null && /^[a-z][a-z0-9+.-]*:\/\//i.test(clientId))
      return page(
        'Unusable client_id',
        `The client_id ${clientId.length > 200 ? `${clientId.slice(0, 200)}...` : clientId} looks like the URL of a Client ID Metadata Document, but ${urlRule}.`,
        'The makers of the assistant must publish its metadata document at a URL that follows these rules.',
      );
    if (urlRule === null) {
      try {
        client = await options.clientDocuments.fetch(clientId);
      } catch (error) {
        if (!isOAuthError(error)) options.log?.warn({ err: error, clientId }, 'a client metadata document could not be read');
        return page(
          'Unknown client',
          `The client's metadata document at ${clientId} could not be used: ${isOAuthError(error) ? error.description.replace(/\.$/, '') : 'it could not be fetched'}.`,
        );
      }
    } else {
      const opened = await sealer.open<{ metadata: ClientMetadata }>('client', clientId);
      if (opened === null)
        return page(
          'Unknown client',
          'This client is not registered here (its client_id was not issued by this server).',
          'Remove the server from your assistant and add it again, so it registers anew.',
        );
      client = opened.claims.metadata;
    }
    const given = params.get('redirect_uri');
    let redirectUri: string;
    if (given === null || given === '') {
      if (client.redirect_uris.length !== 1)
        return page(
          'No redirect URI',
          'The sign-in request names no redirect_uri, and the client has several.',
          'Start the sign-in again from your assistant.',
        );
      redirectUri = client.redirect_uris[0]!;
    } else if (!redirectUriMatches(client.redirect_uris, given)) {
      return page('Redirect URI not registered', `The client did not register ${given} as a redirect URI; it must match exactly.`);
    } else {
      redirectUri = given;
    }
    const state = params.get('state');
    const back = (code: OAuthError['code'], description: string): AuthorizeRefusal =>
      page(
        'Sign-in request refused',
        `The sign-in request of ${client.client_name ?? 'this client'} (which would return to ${redirectHost(redirectUri)}) was refused (${code}): ${description}`,
        'Start the sign-in again from your assistant; if this happens again, the assistant sends a request this server does not accept; tell its makers what this page says.',
      );
    if (params.get('response_type') !== 'code') return back('unsupported_response_type', 'Give response_type=code.');
    const challenge = params.get('code_challenge');
    const method = params.get('code_challenge_method');
    if (!isPkceValue(challenge)) return back('invalid_request', 'PKCE is required: give code_challenge (S256, 43 to 128 characters).');
    if (method !== 'S256') return back('invalid_request', 'PKCE with code_challenge_method=S256 is required; plain is not accepted.');
    const resources = params.getAll('resource');
    if (resources.length !== 1)
      return back('invalid_target', 'Give resource once: the MCP address to sign in to (RFC 8707), e.g. https://host/acme.');
    const owner = await ownerOf(resources[0]!);
    if (owner === null) return back('invalid_target', `${resources[0]} is not the address of an installation served here.`);
    return {
      clientId,
      client,
      redirectUri,
      redirectUriGiven: given !== null && given !== '',
      codeChallenge: challenge,
      resource: resources[0]!,
      installationName: owner.installationName,
      state,
    };
  }

  function redirectWithError(redirectUri: string, code: OAuthError['code'], description: string, state: string | null): URL {
    const url = new URL(redirectUri);
    url.searchParams.set('error', code);
    url.searchParams.set('error_description', description);
    if (state !== null) url.searchParams.set('state', state);
    url.searchParams.set('iss', issuer);
    return url;
  }

  /** The request fields the CSRF token covers: what the consent approves. */
  const approved = (request: AuthorizeRequest) => [
    request.clientId,
    request.redirectUri,
    request.codeChallenge,
    request.resource,
    request.state ?? '',
  ];

  async function authorizeGet(request: Request, params: URLSearchParams): Promise<Response> {
    const checked = await validate(params);
    if ('page' in checked) return errorResponse(checked.page);
    const { nonce, setCookie } = await binding.bind(request);
    const hiddenFields: Record<string, string> = {
      client_id: checked.clientId,
      redirect_uri: checked.redirectUri,
      response_type: 'code',
      code_challenge: checked.codeChallenge,
      code_challenge_method: 'S256',
      resource: checked.resource,
      ...(checked.state !== null ? { state: checked.state } : {}),
      ...(checked.redirectUriGiven ? {} : { redirect_uri_omitted: '1' }),
      csrf: binding.csrfToken(nonce, approved(checked)),
    };
    const html = consentPage({
      installationName: checked.installationName,
      resource: checked.resource,
      clientName: checked.client.client_name,
      clientId: checked.clientId,
      clientIdIsUrl: isClientIdUrl(checked.clientId, { allowLoopback }),
      clientUri: checked.client.client_uri,
      redirectUri: checked.redirectUri,
      redirectIsLocal: isLoopbackRedirect(checked.redirectUri),
      formAction: oauthPaths.authorize,
      hiddenFields,
    });
    // The form's answer redirects to GitHub or (denied) to the client; CSP form-action covers those redirects too.
    return htmlResponse(html, { headers: { 'set-cookie': setCookie }, formTargets: [upstreamOrigin, checked.redirectUri] });
  }

  async function authorizePost(request: Request): Promise<Response> {
    const params = await formOf(request);
    if (params === null) return errorResponse({ title: 'Bad request', message: 'The consent form could not be read.' }, 400);
    const nonce = await binding.nonceOf(request);
    if (nonce === null)
      return errorResponse(
        {
          title: 'Sign-in not started in this browser',
          message: 'This browser did not keep the sign-in cookie of the consent page.',
          hint: 'Start the sign-in again from your assistant, in one browser, with cookies allowed.',
        },
        403,
      );
    if (params.get('redirect_uri_omitted') === '1') params.delete('redirect_uri');
    const checked = await validate(params);
    if ('page' in checked) return errorResponse(checked.page);
    if (!binding.csrfMatches(nonce, approved(checked), params.get('csrf') ?? ''))
      return errorResponse(
        {
          title: 'Consent not accepted',
          message: "The consent form did not come from this browser's sign-in (its CSRF token does not match).",
          hint: 'Start the sign-in again from your assistant.',
        },
        403,
      );
    const repeatedField = repeatedParameter(params, ['decision', 'csrf']);
    if (repeatedField !== null)
      return errorResponse(
        { title: 'Bad request', message: `The consent form gives ${repeatedField} more than once.`, hint: 'Choose Approve or Deny once.' },
        400,
      );
    const decision = params.get('decision');
    const consentFields = {
      client: checked.client.client_name,
      clientHost: isClientIdUrl(checked.clientId, { allowLoopback }) ? new URL(checked.clientId).host : null,
      redirectHost: redirectHost(checked.redirectUri),
      installation: checked.installationName,
    };
    if (decision === 'deny') options.log?.info({ event: 'sign_in_denied', ...consentFields }, 'a person denied a sign-in');
    if (decision === 'approve') options.log?.info({ event: 'sign_in_consented', ...consentFields }, 'a person approved a sign-in');
    if (decision === 'deny')
      return redirect(redirectWithError(checked.redirectUri, 'access_denied', 'The person denied the sign-in.', checked.state), 303);
    if (decision !== 'approve') return errorResponse({ title: 'Bad request', message: 'Choose Approve or Deny.' }, 400);
    const verifier = newCodeVerifier();
    const consent: ConsentClaims = {
      client: clientBinding(checked.clientId),
      redirect_uri: checked.redirectUri,
      redirect_uri_given: checked.redirectUriGiven,
      code_challenge: checked.codeChallenge,
      resource: checked.resource,
      state: checked.state,
      browser: nonceHash(nonce),
      verifier,
    };
    const state = await sealer.seal('consent', { ...consent }, { expiresAt: Date.now() + consentLifetimeMs });
    return redirect(new URL(upstream.authorizeUrl({ state, codeChallenge: s256Challenge(verifier), redirectUri: callbackUrl })), 303);
  }

  async function callback(request: Request, params: URLSearchParams): Promise<Response> {
    const opened = await sealer.open<ConsentClaims>('consent', params.get('state') ?? '');
    if (opened === null)
      return errorResponse({
        title: 'Sign-in expired',
        message: 'This sign-in is not known here, or took longer than 10 minutes.',
        hint: 'Start the sign-in again from your assistant.',
      });
    const consent = opened.claims;
    const nonce = await binding.nonceOf(request);
    if (nonce === null || nonceHash(nonce) !== consent.browser)
      return errorResponse(
        {
          title: 'Approved in another browser',
          message: 'This sign-in was approved in another browser; it can only be completed in the browser that approved it.',
          hint: 'Start the sign-in again from your assistant, in this browser.',
        },
        403,
      );
    const back = (code: OAuthError['code'], description: string) =>
      redirect(redirectWithError(consent.redirect_uri, code, description, consent.state), 302);
    if (params.has('error')) return back('access_denied', 'The GitHub sign-in was not completed.');
    const code = params.get('code');
    if (code === null || code === '') return back('server_error', 'GitHub sent the person back without a code.');
    let tokens: UpstreamTokens;
    try {
      tokens = await upstream.exchangeCode({ code, codeVerifier: consent.verifier, redirectUri: callbackUrl });
    } catch (error) {
      if (isVaultError(error, 'unauthorized')) return back('access_denied', 'GitHub did not accept the sign-in; try again.');
      options.log?.warn({ event: 'sign_in_upstream_failed', err: error }, 'exchanging a GitHub sign-in code failed');
      return back('temporarily_unavailable', 'GitHub could not be reached to complete the sign-in; try again in a minute.');
    }
    const claims: CodeClaims = {
      client: consent.client,
      redirect_uri: consent.redirect_uri,
      redirect_uri_given: consent.redirect_uri_given,
      code_challenge: consent.code_challenge,
      resource: consent.resource,
      upstream: tokens,
      code_id: randomBytes(16).toString('base64url'),
    };
    const ourCode = await sealer.seal('code', { ...claims }, { expiresAt: Date.now() + codeLifetimeMs });
    options.log?.info(
      { event: 'sign_in_completed', client: consent.client, redirectHost: redirectHost(consent.redirect_uri), resource: consent.resource },
      'a sign-in completed; the client gets its code',
    );
    const target = new URL(consent.redirect_uri);
    target.searchParams.set('code', ourCode);
    if (consent.state !== null) target.searchParams.set('state', consent.state);
    target.searchParams.set('iss', issuer);
    return redirect(target, 302);
  }

  async function register(request: Request): Promise<Response> {
    const text = await readBoundedBody(request, maxBodyBytes);
    if (text === null) throw new OAuthError('invalid_client_metadata', `The registration is larger than ${maxBodyBytes} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new OAuthError('invalid_client_metadata', 'The registration must be a JSON object of client metadata (RFC 7591 section 2).');
    }
    const metadata = parseClientMetadata(body, 'registration');
    const clientId = await sealer.seal('client', { metadata }, {});
    const shown = Object.fromEntries(Object.entries(metadata).filter(([name, value]) => value !== null && name !== 'client_id'));
    return json(
      { ...shown, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: 'none' },
      201,
    );
  }

  async function token(request: Request): Promise<Response> {
    const params = await formOf(request);
    if (params === null)
      throw new OAuthError(
        'invalid_request',
        `Send the token request as application/x-www-form-urlencoded, at most ${maxBodyBytes} bytes.`,
      );
    // A public client may put its id in Basic authentication instead (RFC 6749 §2.3.1).
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (basic !== undefined && !params.has('client_id')) {
      const id = Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? '';
      let decoded: string;
      try {
        decoded = decodeURIComponent(id.replace(/\+/g, ' '));
      } catch {
        throw new OAuthError(
          'invalid_client',
          'The client id in Basic authentication is not valid form-encoding (RFC 6749 section 2.3.1).',
        );
      }
      params.set('client_id', decoded);
    }
    const answer = await tokenGrant(params, {
      sealer,
      records: store.records,
      upstream,
      isResource: async (resource) => (await ownerOf(resource)) !== null,
      ...(options.log ? { log: options.log } : {}),
    });
    return json(answer, 200);
  }

  return {
    issuer,
    metadata,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const method = request.method;
      const publicEndpoint = path === oauthPaths.metadata || path === oauthPaths.register || path === oauthPaths.token;
      if (publicEndpoint && method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
      try {
        if (path === oauthPaths.metadata) {
          if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed('GET');
          return json(metadata, 200, { 'cache-control': 'max-age=3600' });
        }
        if (path === oauthPaths.register) return method === 'POST' ? await register(request) : methodNotAllowed('POST');
        if (path === oauthPaths.token) return method === 'POST' ? await token(request) : methodNotAllowed('POST');
        const params = new URL(request.url).searchParams;
        if (path === oauthPaths.authorize) {
          if (method === 'GET') return await authorizeGet(request, params);
          if (method === 'POST') return await authorizePost(request);
          return methodNotAllowed('GET, POST');
        }
        if (path === oauthPaths.callback) return method === 'GET' ? await callback(request, params) : methodNotAllowed('GET');
        return null;
      } catch (error) {
        if (isOAuthError(error)) {
          // RFC 6749 §5.2: invalid_client after Authorization-header authentication is 401 with WWW-Authenticate.
          const basicChallenge = error.code === 'invalid_client' && request.headers.has('authorization');
          return withCors(oauthErrorResponse(error, basicChallenge ? { 'www-authenticate': 'Basic realm="oauth"' } : {}), publicEndpoint);
        }
        options.log?.error({ err: error, path }, 'the authorization server failed');
        if (publicEndpoint) return withCors(oauthErrorResponse(new OAuthError('server_error', 'Something went wrong; try again.')), true);
        return errorResponse(
          { title: 'Something went wrong', message: 'The sign-in failed on our side.', hint: 'Try again from your assistant.' },
          500,
        );
      }
    },
  };
}

/** CORS of the endpoints browser-based clients call (metadata, registration, token). */
const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
  'access-control-max-age': '600',
};

function withCors(response: Response, cors: boolean): Response {
  if (!cors) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(corsHeaders)) headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
}

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache', ...corsHeaders, ...headers },
  });
}

function redirect(location: URL, status: 302 | 303): Response {
  return new Response(null, { status, headers: { location: location.href, 'cache-control': 'no-store' } });
}

/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2). */
const authorizeParameters = [
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'state',
  'scope',
  'resource',
  'redirect_uri_omitted',
];

/** The first of `names` that `params` gives more than once (RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once"), or null. */
function repeatedParameter(params: URLSearchParams, names: readonly string[]): string | null {
  return names.find((name) => params.getAll(name).length > 1) ?? null;
}

/** The host (with port) a redirect URI sends the person to, or its scheme for an app's private-use scheme. */
function redirectHost(uri: string): string {
  try {
    const url = new URL(uri);
    return url.host !== '' ? url.host : `the app scheme ${url.protocol}`;
  } catch {
    return 'an address that does not parse';
  }
}

function page(title: string, message: string, hint?: string): AuthorizeRefusal {
  return { page: { title, message, ...(hint !== undefined ? { hint } : {}) } };
}

function errorResponse(content: { title: string; message: string; hint?: string }, status = 400): Response {
  return htmlResponse(errorPage(content), { status });
}

function methodNotAllowed(allow: string): Response {
  return new Response('Method not allowed.', { status: 405, headers: { allow } });
}

/** The form body of a POST (`application/x-www-form-urlencoded`, bounded), else null. */
async function formOf(request: Request): Promise<URLSearchParams | null> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return null;
  const text = await readBoundedBody(request, maxBodyBytes);
  return text === null ? null : new URLSearchParams(text);
}
