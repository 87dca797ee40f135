// Keeps who a bearer token belongs to for a short while, so a burst of requests does not ask
// the host each time (DESIGN.md: the front keeps a person's repositories, keyed by a hash of the token).
import { createHash } from 'node:crypto';
import type { Access } from '../repo-host/person.ts';

/** An `authenticate` that keeps its answers, and `forget` to drop them all. */
export interface CachedAuthenticate {
  (token: string | undefined): Promise<Access | null>;
  forget(): void;
}

/**
 * `authenticate` with its answers kept `ttlMs` milliseconds per token (the token itself is
 * not kept, only its SHA-256). A null answer (unknown token) is not kept, so a token added
 * to the users file works at once. A change of rights shows after at most `ttlMs`, or at
 * once after `forget()`.
 */
export function cachedAuthenticate(authenticate: (token: string | undefined) => Promise<Access | null>, ttlMs: number): CachedAuthenticate {
  const answers = new Map<string, { access: Access; until: number }>();
  // Bumped by forget(): an answer asked for before it is not kept after it.
  let generation = 0;
  const cached = async (token: string | undefined): Promise<Access | null> => {
    const key = token === undefined ? '' : createHash('sha256').update(token).digest('hex');
    const now = Date.now();
    const kept = answers.get(key);
    if (kept && kept.until > now) return kept.access;
    const askedIn = generation;
    const access = await authenticate(token);
    if (askedIn !== generation) return access;
    if (answers.size > 1000) answers.clear();
    if (access) answers.set(key, { access, until: now + ttlMs });
    else answers.delete(key);
    return access;
  };
  return Object.assign(cached, {
    forget: () => {
      generation += 1;
      answers.clear();
    },
  });
}
