// The sign-in port: who a credential belongs to and what they may read and write (DESIGN.md
// "Ports and adapters", RepoHost's sign-in side). Local: a users file, or one local person.
// Hosted: the person's GitHub token. Kept apart from repository access, so no tool reaches it.
import type { Access } from './person.ts';

/** Signs callers in; the front (HTTP) and the stdio root ask it, never a tool. */
export interface SignIn {
  /** Whether a bearer token is required at all (false: local single-person mode). */
  readonly requiresToken: boolean;
  /**
   * Who a bearer token belongs to and what they may read and write, with the credential
   * their writes carry to the host (`Access.credential`); null for an unknown or missing
   * token. The local adapter without a users file answers every call (token or none) with
   * its one person, who reads and writes everything.
   */
  authenticate(token: string | undefined): Promise<Access | null>;
}

/**
 * A person's tokens from the host's own sign-in (GitHub's user access token and its refresh
 * token). Times in ms since the epoch; null when the host gives none (a GitHub App with
 * expiring tokens switched off: the access token never expires and there is no refresh token).
 */
export interface UpstreamTokens {
  accessToken: string;
  expiresAt: number | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: number | null;
}

/**
 * The host's sign-in of a person, as the front's authorization server uses it upstream
 * (DESIGN.md "How one call travels", step 2): the App's OAuth web flow with PKCE (RFC 7636).
 * Failures: a VaultError `unauthorized` when the host refused the code or the refresh token
 * (used, expired, revoked: the person signs in again), `host_unavailable` when it could not
 * be reached or answered unexpectedly (try again later).
 */
export interface UpstreamAuthorization {
  /** Where to send the person's browser: the host's authorize page with `state`, the S256 `codeChallenge` and `redirectUri`. */
  authorizeUrl(request: { state: string; codeChallenge: string; redirectUri: string }): string;
  /** Exchanges the code the host sent back (RFC 6749 §4.1.3) with the PKCE verifier, for the person's tokens. */
  exchangeCode(request: { code: string; codeVerifier: string; redirectUri: string }): Promise<UpstreamTokens>;
  /** A new pair for a refresh token (RFC 6749 §6); the host's refresh tokens are single-use, so both rotate. */
  refresh(refreshToken: string): Promise<UpstreamTokens>;
}
