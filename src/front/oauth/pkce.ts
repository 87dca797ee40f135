// PKCE (RFC 7636) with S256 only, as OAuth 2.1 and the MCP authorization specification require.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A code verifier or an S256 challenge: 43 to 128 unreserved characters (RFC 7636 §4.1, §4.2). */
const pkceValue = /^[A-Za-z0-9._~-]{43,128}$/;

/** Whether `value` has the shape of a verifier or challenge (RFC 7636 §4.1). */
export function isPkceValue(value: string | null | undefined): value is string {
  return typeof value === 'string' && pkceValue.test(value);
}

/** A new code verifier: 32 random bytes, base64url (43 characters; RFC 7636 §4.1 and its recommendation in §7.1). */
export function newCodeVerifier(): string {
  return randomBytes(32).toString('base64url');
}

/** The S256 challenge of `verifier`: BASE64URL(SHA256(ASCII(verifier))) (RFC 7636 §4.2). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether `verifier` answers `challenge` with S256 (RFC 7636 §4.6), compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isPkceValue(verifier)) return false;
  const computed = Buffer.from(s256Challenge(verifier), 'utf8');
  const expected = Buffer.from(challenge, 'utf8');
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
