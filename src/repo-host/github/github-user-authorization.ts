// A person's sign-in with GitHub as the App (the web flow with PKCE), for the front's
// authorization server upstream: the authorize URL, the code exchange, the refresh.
import { exchangeWebFlowCode, getWebFlowAuthorizationUrl, refreshToken } from '@octokit/oauth-methods';
import { Octokit } from '@octokit/rest';
import { VaultError } from '../../vault-error.ts';
import type { UpstreamAuthorization, UpstreamTokens } from '../sign-in.ts';
import { fetchWithTimeout } from './github-api.ts';
import { GitHubUnavailable, githubFailure } from './github-failure.ts';

/** GitHub's OAuth error codes that mean "this code or refresh token is not good" (docs: "Troubleshooting OAuth app access token request errors"). */
const refusedCodes = new Set(['bad_verification_code', 'bad_refresh_token', 'redirect_uri_mismatch', 'unverified_user_email']);

/** What {@link GitHubUserAuthorization} needs of the App. */
export interface GitHubUserAuthorizationOptions {
  /** The App's OAuth client id (`Iv1.…`) and secret. */
  clientId: string;
  clientSecret: string;
  /** REST base URL (`https://api.github.com`, `https://HOST/api/v3`, the stand-in's `apiUrl`): the web origin is derived from it as Octokit does. */
  apiUrl: string;
  /** How long one request may take, in ms; default 15,000. */
  requestTimeoutMs?: number;
}

/**
 * The UpstreamAuthorization of a GitHub App (docs: "Generating a user access token for a
 * GitHub App"), over `@octokit/oauth-methods`: `GET /login/oauth/authorize` with `client_id`,
 * `redirect_uri`, `state` and PKCE S256 (RFC 7636 §4.3; GitHub accepts it for Apps), and
 * `POST /login/oauth/access_token` for the code (with `code_verifier`, RFC 7636 §4.5) and for
 * `grant_type=refresh_token` (single-use refresh tokens: both rotate). GitHub's user tokens
 * expire after 8 hours, refresh tokens after 6 months.
 */
export class GitHubUserAuthorization implements UpstreamAuthorization {
  private readonly request: Octokit['request'];

  private readonly options: GitHubUserAuthorizationOptions;

  constructor(options: GitHubUserAuthorizationOptions) {
    this.options = options;
    this.request = new Octokit({
      baseUrl: options.apiUrl.replace(/\/+$/, ''),
      userAgent: 'major-vault',
      // Failures are reported by the caller, as errors that say what failed.
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      request: { fetch: fetchWithTimeout(options.requestTimeoutMs ?? 15_000) },
    }).request;
  }

  authorizeUrl(request: { state: string; codeChallenge: string; redirectUri: string }): string {
    const { url } = getWebFlowAuthorizationUrl({
      clientType: 'github-app',
      clientId: this.options.clientId,
      redirectUrl: request.redirectUri,
      state: request.state,
      request: this.request,
    });
    const withPkce = new URL(url);
    withPkce.searchParams.set('code_challenge', request.codeChallenge);
    withPkce.searchParams.set('code_challenge_method', 'S256');
    return withPkce.href;
  }

  async exchangeCode(request: { code: string; codeVerifier: string; redirectUri: string }): Promise<UpstreamTokens> {
    try {
      const { authentication } = await exchangeWebFlowCode({
        clientType: 'github-app',
        clientId: this.options.clientId,
        clientSecret: this.options.clientSecret,
        code: request.code,
        redirectUrl: request.redirectUri,
        // oauth-methods has no PKCE parameter; a default parameter of the request goes into the body.
        request: this.request.defaults({ code_verifier: request.codeVerifier }),
      });
      return tokensOf(authentication);
    } catch (error) {
      throw this.failure(error, 'exchange the sign-in code with GitHub');
    }
  }

  async refresh(token: string): Promise<UpstreamTokens> {
    try {
      const { authentication } = await refreshToken({
        clientType: 'github-app',
        clientId: this.options.clientId,
        clientSecret: this.options.clientSecret,
        refreshToken: token,
        request: this.request,
      });
      return tokensOf(authentication);
    } catch (error) {
      throw this.failure(error, 'refresh the GitHub sign-in');
    }
  }

  /** GitHub's OAuth errors come as HTTP 200 with `error` (oauth-methods throws them as status 400): a refusal of the grant, or the App's credentials. */
  private failure(error: unknown, action: string): Error {
    const said = oauthErrorOf(error);
    if (said !== null && refusedCodes.has(said.error))
      return new VaultError('unauthorized', `Could not ${action}: GitHub refused it (${said.error}). Sign in again.`, {}, { cause: error });
    if (said !== null && said.error === 'incorrect_client_credentials')
      return new GitHubUnavailable(
        `Could not ${action}: GitHub does not accept the App's client id and secret; the operator must check MAJOR_VAULT_GITHUB_CLIENT_ID and MAJOR_VAULT_GITHUB_CLIENT_SECRET.`,
        undefined,
        { cause: error },
      );
    if (said !== null) return new GitHubUnavailable(`Could not ${action}: GitHub answered ${said.error}.`, undefined, { cause: error });
    return githubFailure(error, action);
  }
}

/** The tokens of an oauth-methods authentication (times as ISO strings there, ms here). */
function tokensOf(authentication: {
  token: string;
  expiresAt?: string;
  refreshToken?: string;
  refreshTokenExpiresAt?: string;
}): UpstreamTokens {
  const ms = (iso: string | undefined) => (iso === undefined || Number.isNaN(Date.parse(iso)) ? null : Date.parse(iso));
  return {
    accessToken: authentication.token,
    expiresAt: ms(authentication.expiresAt),
    refreshToken: authentication.refreshToken ?? null,
    refreshTokenExpiresAt: ms(authentication.refreshTokenExpiresAt),
  };
}

/** GitHub's OAuth error (`error`, `error_description`) carried by an oauth-methods RequestError, else null. */
function oauthErrorOf(error: unknown): { error: string } | null {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (typeof data === 'object' && data !== null && typeof (data as { error?: unknown }).error === 'string')
    return { error: (data as { error: string }).error };
  return null;
}
