// Keeps who a bearer token belongs to for a short while, so a burst of requests does not ask
// the host each time (DESIGN.md: the front keeps a person's repositories, keyed by a hash of the token).
import { createHash } from 'node:crypto';
import type { Access } from '../repo-host/person.ts';

/**
 * `authenticate` with its answers kept `ttlMs` milliseconds per token (the token itself is
 * not kept, only its SHA-256). A null answer (unknown token) is not kept, so a token added
 * to the users file works at once. A change of rights shows after at most `ttlMs`.
 */
export function cachedAuthenticate(
  authenticate: (token: string | undefined) => Promise<Access | null>,
  ttlMs: number,
): (token: string | undefined) => Promise<Access | null> {
  const answers = new Map<string, { access: Access; until: number }>();
  return async (token) => {
    const key = token === undefined ? '' : createHash('sha256').update(token).digest('hex');
    const now = Date.now();
    const kept = answers.get(key);
    if (kept && kept.until > now) return kept.access;
    const access = await authenticate(token);
    if (answers.size > 1000) answers.clear();
    if (access) answers.set(key, { access, until: now + ttlMs });
    else answers.delete(key);
    return access;
  };
}
