// The sign-in of a sealed access token: open it, check who it is for, then ask the host
// about the token inside (DESIGN.md "How one call travels", step 5).
import type { Access } from '../repo-host/person.ts';
import type { SignIn } from '../repo-host/sign-in.ts';
import type { TokenSealer } from './token-sealer.ts';

/** What a sealed access token (kind `access`) holds besides its audience and expiry. */
export interface AccessTokenClaims {
  /** The OAuth client it was issued to: base64url SHA-256 of its client_id (front/oauth/client-binding.ts). */
  client: string;
  /** The person's upstream (GitHub) access token. */
  upstream: string;
}

/**
 * The SignIn of the instance (and of the front in one process): a bearer token is a sealed
 * access token the front issued (kind `access`), for exactly one of `audiences` (the
 * installation's MCP address, RFC 8707 §2 / RFC 9068 §4: a token for another address is
 * refused) and not expired; then `inner` (the GitHub sign-in) is asked with the upstream token
 * inside, so GitHub still checks it (revoked, expired on its side). Anything else is null (a
 * 401): a raw GitHub token sent as the bearer is refused, since the MCP specification forbids
 * token passthrough ("Access Token Privilege Restriction"). `audiences` is read at each call,
 * so a composition root may fill it once it knows where it listens.
 */
export class SealedTokenSignIn implements SignIn {
  readonly requiresToken = true;

  private readonly sealer: TokenSealer;
  private readonly audiences: ReadonlySet<string>;
  private readonly inner: SignIn;

  constructor(sealer: TokenSealer, audiences: ReadonlySet<string>, inner: SignIn) {
    this.sealer = sealer;
    this.audiences = audiences;
    this.inner = inner;
  }

  async authenticate(token: string | undefined): Promise<Access | null> {
    if (token === undefined || token === '') return null;
    const opened = await this.sealer.open<AccessTokenClaims>('access', token);
    if (opened === null || opened.audience === null || !this.audiences.has(opened.audience)) return null;
    if (typeof opened.claims.upstream !== 'string' || opened.claims.upstream === '') return null;
    return this.inner.authenticate(opened.claims.upstream);
  }
}
