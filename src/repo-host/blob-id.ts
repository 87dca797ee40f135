// The Git blob id of some bytes, computed as Git does, without starting a process: the `oid` the
// RepoHost port speaks in (Snapshot), so the core and every adapter compute it the same way.
import { createHash } from 'node:crypto';

/** A repository's object format: SHA-1 (40 hex digits) or SHA-256 (64). */
export type ObjectFormat = 'sha1' | 'sha256';

/**
 * The id `git hash-object --no-filters` gives `content`: the hash of `blob <size>\0<content>`
 * in the repository's object format (Git's object model, "Git Internals — Git Objects").
 */
export function blobId(content: Buffer, format: ObjectFormat = 'sha1'): string {
  return createHash(format).update(`blob ${content.length}\0`).update(content).digest('hex');
}
