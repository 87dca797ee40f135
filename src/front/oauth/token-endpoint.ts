// The token endpoint's grants (RFC 6749 §4.1.3 and §6, OAuth 2.1): a sealed code for sealed
// tokens, and a refresh that rotates GitHub's tokens once, however many times it is asked.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { UpstreamAuthorization, UpstreamTokens } from '../../repo-host/sign-in.ts';
import type { ShortRecords } from '../../store/store.ts';
import type { AccessTokenClaims } from '../../tokens/sealed-token-sign-in.ts';
import type { TokenSealer } from '../../tokens/token-sealer.ts';
import { isVaultError } from '../../vault-error.ts';
import { clientBinding, isBoundTo } from './client-binding.ts';
import { OAuthError } from './oauth-error.ts';
import { verifierMatches } from './pkce.ts';

/** How long an access token lives when GitHub gives no expiry, in ms (GitHub's own: 8 hours). */
const defaultAccessLifetimeMs = 8 * 3_600_000;
/** How long a refresh token lives when GitHub gives no expiry, in ms (GitHub's own: about 6 months). */
const defaultRefreshLifetimeMs = 184 * 24 * 3_600_000;
/** How long a used code is remembered, in ms: longer than a code lives (60 s), so a replay is always caught. */
const usedCodeMemoryMs = 5 * 60_000;
/** How long a refresh answers again with the same pair (the grace window), in ms. */
export const refreshGraceMs = 60_000;
/** How long one refresh may hold the claim on an old refresh token while it asks GitHub, in ms. */
const refreshClaimMs = 30_000;
/** How long a concurrent refresh waits for the one asking GitHub, in ms, and how often it looks. */
const refreshWaitMs = 10_000;
const refreshPollMs = 50;

/** What a sealed code (kind `code`) holds (RFC 6749 §4.1.2: bound to the client, the redirect URI, PKCE and the resource). */
export interface CodeClaims {
  /** The client's binding ({@link clientBinding}): a digest of its client_id, not the id itself. */
  client: string;
  redirect_uri: string;
  /** Whether the authorization request named the redirect URI (then the token request must too, RFC 6749 §4.1.3). */
  redirect_uri_given: boolean;
  code_challenge: string;
  resource: string;
  /** The person's GitHub tokens. */
  upstream: UpstreamTokens;
  /** A random id: the key that makes the code single-use. */
  code_id: string;
}

/** What a sealed refresh token (kind `refresh`) holds besides its audience (the resource) and expiry. */
export interface RefreshTokenClaims {
  /** The client's binding ({@link clientBinding}). */
  client: string;
  /** GitHub's refresh token. */
  upstream: string;
}

/** The answer of a grant (RFC 6749 §5.1), as kept in a grace record (kind `grace`) too. */
interface TokenAnswer {
  access_token: string;
  refresh_token: string | null;
  /** When the access token expires, ms since the epoch (`expires_in` is computed from it when answering). */
  expires_at: number;
}

/** What the token endpoint needs. */
export interface TokenEndpointOptions {
  sealer: TokenSealer;
  records: ShortRecords;
  upstream: UpstreamAuthorization;
  /** Whether `resource` is the address of an installation that is on. */
  isResource(resource: string): Promise<boolean>;
  log?: Logger;
}

/**
 * Answers one token request: `params` is the form body (RFC 6749 §4.1.3, §6) with the
 * `client_id` of the public client (token_endpoint_auth_method `none`). Resolves to the token
 * answer (RFC 6749 §5.1: `access_token`, `token_type: "Bearer"`, `expires_in`,
 * `refresh_token`), or throws an {@link OAuthError} (RFC 6749 §5.2).
 */
export async function tokenGrant(params: URLSearchParams, options: TokenEndpointOptions): Promise<Record<string, unknown>> {
  const grantType = params.get('grant_type');
  const shownGrant = grantType === 'authorization_code' || grantType === 'refresh_token' ? grantType : 'other';
  let answer: TokenAnswer;
  let clientId: string;
  try {
    single(params, 'grant_type');
    const given = single(params, 'client_id');
    if (given === null) throw new OAuthError('invalid_request', 'Give client_id: the client this grant was issued to.');
    clientId = given;
    if (grantType === 'authorization_code') answer = await codeGrant(params, clientId, options);
    else if (grantType === 'refresh_token') answer = await refreshGrant(params, clientId, options);
    else
      throw new OAuthError(
        grantType === null || grantType === '' ? 'invalid_request' : 'unsupported_grant_type',
        'Give grant_type authorization_code (with code, code_verifier, redirect_uri, client_id) or refresh_token (with refresh_token, client_id).',
      );
  } catch (error) {
    if (error instanceof OAuthError)
      options.log?.info({ event: 'token_refused', grantType: shownGrant, code: error.code }, 'a token request was refused');
    throw error;
  }
  options.log?.info({ event: 'token_issued', grantType: shownGrant, client: clientBinding(clientId) }, 'tokens issued');
  return {
    access_token: answer.access_token,
    token_type: 'Bearer',
    expires_in: Math.max(0, Math.floor((answer.expires_at - Date.now()) / 1000)),
    ...(answer.refresh_token !== null ? { refresh_token: answer.refresh_token } : {}),
  };
}

/**
 * `grant_type=authorization_code` (RFC 6749 §4.1.3): the code must be ours, unexpired (60 s),
 * of this client (§4.1.3 "ensure that the authorization code was issued to the authenticated
 * confidential client, or … public client"), for this exact redirect URI, answered by the PKCE
 * verifier (RFC 7636 §4.6), for the resource given (RFC 8707 §2.2), and used once (§4.1.2,
 * checked last, so a code stolen without its verifier cannot be burnt by the thief).
 */
async function codeGrant(params: URLSearchParams, clientId: string, options: TokenEndpointOptions): Promise<TokenAnswer> {
  const code = single(params, 'code');
  if (code === null) throw new OAuthError('invalid_request', 'Give code: the authorization code the redirect carried.');
  const opened = await options.sealer.open<CodeClaims>('code', code);
  if (opened === null)
    throw new OAuthError(
      'invalid_grant',
      'The code is not valid: it expired (codes live 60 seconds), was altered, or was not issued here. Sign in again.',
    );
  const claims = opened.claims;
  if (!isBoundTo(claims.client, clientId)) throw new OAuthError('invalid_grant', 'The code was issued to another client.');
  const redirectUri = single(params, 'redirect_uri');
  if (redirectUri === null ? claims.redirect_uri_given : redirectUri !== claims.redirect_uri)
    throw new OAuthError('invalid_grant', 'redirect_uri must be exactly the one of the authorization request.');
  const verifier = single(params, 'code_verifier');
  if (verifier === null) throw new OAuthError('invalid_grant', 'Give code_verifier: PKCE (S256) is required.');
  if (!verifierMatches(verifier, claims.code_challenge))
    throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge of the authorization request.');
  await checkResource(params, claims.resource, options);
  if (!(await options.records.putIfAbsent(`code:${claims.code_id}`, '1', usedCodeMemoryMs)))
    throw new OAuthError('invalid_grant', 'The code was already used. Sign in again.');
  return issue(claims.client, claims.resource, claims.upstream, options.sealer);
}

/**
 * `grant_type=refresh_token` (RFC 6749 §6, OAuth 2.1 §4.3): the refresh token must be ours,
 * unexpired, of this client and for the resource given. GitHub's refresh tokens are
 * single-use, and clients refresh from several places at once, so the first refresh of a
 * token claims it in the store (keyed by its SHA-256), asks GitHub, and keeps the new pair
 * sealed for {@link refreshGraceMs}: every refresh of the same token in that window, here or
 * in another process, answers that same pair (OAuth 2.1 §4.3.1 allows rotation with such a
 * window). GitHub refusing the refresh token is `invalid_grant`; GitHub unreachable is
 * `temporarily_unavailable`.
 */
async function refreshGrant(params: URLSearchParams, clientId: string, options: TokenEndpointOptions): Promise<TokenAnswer> {
  const refreshToken = single(params, 'refresh_token');
  if (refreshToken === null) throw new OAuthError('invalid_request', 'Give refresh_token.');
  const opened = await options.sealer.open<RefreshTokenClaims>('refresh', refreshToken);
  if (opened === null || opened.audience === null)
    throw new OAuthError(
      'invalid_grant',
      'The refresh token is not valid: it expired, was altered, or was not issued here. Sign in again.',
    );
  if (!isBoundTo(opened.claims.client, clientId)) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client.');
  const resource = opened.audience;
  await checkResource(params, resource, options);

  const key = `refresh:${createHash('sha256').update(refreshToken, 'utf8').digest('hex')}`;
  const deadline = Date.now() + refreshWaitMs;
  for (;;) {
    const kept = await options.records.get(key);
    if (kept !== null && kept !== 'pending') {
      const grace = await options.sealer.open<TokenAnswer>('grace', kept);
      if (grace !== null) {
        options.log?.info({ event: 'token_refreshed', shared: true }, 'a refresh answered with the pair of the grace window');
        return grace.claims;
      }
    }
    if (kept === null && (await options.records.putIfAbsent(key, 'pending', refreshClaimMs))) {
      return refreshUpstream(key, opened.claims, resource, options);
    }
    if (Date.now() > deadline)
      throw new OAuthError('temporarily_unavailable', 'Another refresh of this token is still under way; try again in a few seconds.');
    await new Promise((resolve) => setTimeout(resolve, refreshPollMs));
  }
}

/** The claimed refresh: asks GitHub, keeps the answer for the grace window, or gives the claim up on a failure. */
async function refreshUpstream(
  key: string,
  claims: RefreshTokenClaims,
  resource: string,
  options: TokenEndpointOptions,
): Promise<TokenAnswer> {
  let tokens: UpstreamTokens;
  try {
    tokens = await options.upstream.refresh(claims.upstream);
  } catch (error) {
    await options.records.delete(key);
    if (isVaultError(error, 'unauthorized'))
      throw new OAuthError('invalid_grant', 'GitHub no longer accepts this refresh token (used, expired or revoked). Sign in again.', {
        cause: error,
      });
    options.log?.warn({ event: 'refresh_upstream_failed', err: error }, 'refreshing a GitHub sign-in failed');
    throw new OAuthError('temporarily_unavailable', 'GitHub could not be reached to refresh the sign-in; try again in a minute.', {
      cause: error,
    });
  }
  const answer = await issue(claims.client, resource, tokens, options.sealer);
  await options.records.put(
    key,
    await options.sealer.seal('grace', { ...answer }, { expiresAt: Date.now() + refreshGraceMs }),
    refreshGraceMs,
  );
  options.log?.info({ event: 'token_refreshed', shared: false }, 'a refresh rotated the tokens with GitHub');
  return answer;
}

/**
 * Our own tokens for GitHub's (no passthrough: MCP authorization, "Token Passthrough"): an
 * access token sealed for `resource` (the audience, RFC 8707 §2) and the client's binding, carrying
 * GitHub's access token and expiring with it; a refresh token likewise with GitHub's refresh
 * token (none when GitHub gave none).
 */
async function issue(client: string, resource: string, upstream: UpstreamTokens, sealer: TokenSealer): Promise<TokenAnswer> {
  const now = Date.now();
  const expiresAt = upstream.expiresAt ?? now + defaultAccessLifetimeMs;
  const access: AccessTokenClaims = { client, upstream: upstream.accessToken };
  const accessToken = await sealer.seal('access', { ...access }, { audience: resource, expiresAt });
  let refreshToken: string | null = null;
  if (upstream.refreshToken !== null) {
    const refresh: RefreshTokenClaims = { client, upstream: upstream.refreshToken };
    refreshToken = await sealer.seal(
      'refresh',
      { ...refresh },
      { audience: resource, expiresAt: upstream.refreshTokenExpiresAt ?? now + defaultRefreshLifetimeMs },
    );
  }
  return { access_token: accessToken, refresh_token: refreshToken, expires_at: expiresAt };
}

/** The `resource` of a token request, when given, must be the one the grant is bound to (RFC 8707 §2.2), and it must still be served. */
async function checkResource(params: URLSearchParams, bound: string, options: TokenEndpointOptions): Promise<void> {
  const given = params.getAll('resource');
  if (given.length > 1 || (given.length === 1 && given[0] !== bound))
    throw new OAuthError('invalid_target', `This grant is for the resource ${bound}; give that resource or none.`);
  if (!(await options.isResource(bound))) throw new OAuthError('invalid_target', `${bound} is not an address served here.`);
}

/** The one value of `name` (null when absent or empty); a parameter given twice is refused (RFC 6749 §3.2: "parameters MUST NOT be included more than once"). */
function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw new OAuthError('invalid_request', `Give ${name} once.`);
  return values[0] === undefined || values[0] === '' ? null : values[0];
}
