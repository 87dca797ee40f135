// What codes and tokens carry of their client: a short digest of its client_id, not the id
// itself (a registered client's id is its whole metadata, sealed, and can be kilobytes).
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The binding of a client: base64url (no padding) of SHA-256 of its `client_id` as UTF-8,
 * 43 characters. Codes, access and refresh tokens and consent states carry it (RFC 6749
 * §4.1.2, §10.5: a code is bound to its client), so their size does not grow with the client.
 */
export function clientBinding(clientId: string): string {
  return createHash('sha256').update(clientId, 'utf8').digest('base64url');
}

/** Whether `binding` (from a sealed code or token) is the binding of `clientId`, compared in constant time. */
export function isBoundTo(binding: unknown, clientId: string): boolean {
  if (typeof binding !== 'string') return false;
  const expected = Buffer.from(clientBinding(clientId), 'utf8');
  const given = Buffer.from(binding, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
