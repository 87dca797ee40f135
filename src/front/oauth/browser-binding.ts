// Binds a sign-in to the browser that approved it: a sealed cookie holding a random nonce,
// a CSRF token for the consent form derived from it, and a hash of it in the consent state.
import { createHash, randomBytes } from 'node:crypto';
import type { TokenSealer } from '../../tokens/token-sealer.ts';

/** How long the browser's cookie (and so its nonce) lives, in ms: longer than any sign-in. */
const cookieLifetimeMs = 12 * 3_600_000;

/** The browser-binding cookie and CSRF tokens of one authorization server. */
export interface BrowserBinding {
  /** The nonce of the request's cookie when it is ours and valid, else null. */
  nonceOf(request: Request): Promise<string | null>;
  /**
   * The nonce to use for this browser (the cookie's when valid, so two sign-ins in flight in
   * one browser both complete; else a new one) and the `Set-Cookie` that keeps it another
   * {@link cookieLifetimeMs}.
   */
  bind(request: Request): Promise<{ nonce: string; setCookie: string }>;
  /** The consent form's CSRF token: an HMAC of the nonce and the request it approves. */
  csrfToken(nonce: string, request: readonly string[]): string;
  /** Whether `token` is {@link csrfToken} of this nonce and request. */
  csrfMatches(nonce: string, request: readonly string[], token: string): boolean;
}

/** The hash of a nonce kept in the consent state (the nonce itself stays in the cookie). */
export function nonceHash(nonce: string): string {
  return createHash('sha256').update(nonce, 'utf8').digest('base64url');
}

/**
 * The binding over `sealer`. The cookie (RFC 6265bis) is `HttpOnly`, `SameSite=Lax` (sent on
 * GitHub's top-level redirect back, not on cross-site posts), `Path=/`, and, when the issuer
 * is https, `Secure` with the `__Host-` prefix (so no subdomain can set it). Its value is a
 * sealed `browser` token with the nonce, so it cannot be forged or read.
 */
export function browserBinding(sealer: TokenSealer, secure: boolean): BrowserBinding {
  const name = secure ? '__Host-major-vault-browser' : 'major-vault-browser';
  const nonceOf = async (request: Request): Promise<string | null> => {
    const value = cookieValue(request.headers.get('cookie'), name);
    if (value === null) return null;
    const opened = await sealer.open<{ nonce?: unknown }>('browser', value);
    return typeof opened?.claims.nonce === 'string' ? opened.claims.nonce : null;
  };
  return {
    nonceOf,
    async bind(request) {
      const nonce = (await nonceOf(request)) ?? randomBytes(32).toString('base64url');
      const sealed = await sealer.seal('browser', { nonce }, { expiresAt: Date.now() + cookieLifetimeMs });
      const attributes = [`Path=/`, `Max-Age=${cookieLifetimeMs / 1000}`, 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
      return { nonce, setCookie: `${name}=${sealed}; ${attributes.join('; ')}` };
    },
    csrfToken: (nonce, request) => sealer.mac('consent csrf', JSON.stringify([nonce, ...request])),
    csrfMatches: (nonce, request, token) => sealer.macMatches('consent csrf', JSON.stringify([nonce, ...request]), token),
  };
}

/** The value of cookie `name` in a `Cookie` header, else null. */
function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
