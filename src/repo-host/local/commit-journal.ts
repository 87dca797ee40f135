// The journal of a commit in progress in a work tree: what a server crashed in the middle of, so the next one can finish it.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serverFolder } from './index-lock.ts';
import type { LockOwner } from './lock-owner.ts';

/** One path of the journaled commit and what Git saw in the work tree there before it. */
export interface JournalPath {
  path: string;
  /** The blob id of the regular file that was there; null when nothing was; `other` for a link or folder. */
  before: string | null;
  /**
   * The blob id of what the work tree gets when it differs from the commit's content (the
   * change applied around the person's uncommitted edits; written to the object database
   * before the journal); absent when the work tree gets the commit's content.
   */
  disk?: string;
}

/**
 * `<gitDir>/major-vault/commit-in-progress`, written (JSON) while the index lock is held, after
 * the commit object exists and before anything in the work tree or the branch changes; removed
 * once the work tree and the index hold the commit. `old` is the parent (null: a first commit),
 * `new` the commit that `update-ref` lands (equal to `old` when only the work tree is written).
 * `token` names the commit's temporaries ({@link tempName}, `index.mv-<token>`).
 */
export interface CommitJournal {
  owner: LockOwner;
  token: string;
  old: string | null;
  new: string;
  paths: JournalPath[];
}

/** Where the journal lives. */
export function journalPath(gitDir: string): string {
  return join(serverFolder(gitDir), 'commit-in-progress');
}

/** A fresh token for a journal (8 hex digits). */
export function newToken(): string {
  return randomBytes(4).toString('hex');
}

/**
 * The temporary name, in its own folder, of path `path`'s new content in the commit with token
 * `token`: `.mv-<8 hex>` (12 bytes, so any name that fits the file system still fits), derived
 * from both, so recovery finds it without listing folders.
 */
export function tempName(token: string, path: string): string {
  return `.mv-${createHash('sha1').update(`${token}\0${path}`).digest('hex').slice(0, 8)}`;
}

/** Writes the journal in one rename (a reader sees all of it or none); the server folder must exist (the lock made it). */
export async function writeJournal(gitDir: string, journal: CommitJournal): Promise<void> {
  const path = journalPath(gitDir);
  const temp = `${path}.${journal.token}`;
  await writeFile(temp, JSON.stringify(journal));
  await rename(temp, path);
}

/** The journal; null when there is none, or when it cannot be read as one (a crash while its temporary was written leaves none). */
export async function readJournal(gitDir: string): Promise<CommitJournal | null> {
  let text: string;
  try {
    text = await readFile(journalPath(gitDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as CommitJournal;
    const valid =
      typeof value.token === 'string' &&
      /^[0-9a-f]{8}$/.test(value.token) &&
      typeof value.new === 'string' &&
      (value.old === null || typeof value.old === 'string') &&
      Array.isArray(value.paths) &&
      typeof value.owner?.pid === 'number';
    return valid ? value : null;
  } catch {
    return null;
  }
}

/** Removes the journal (idempotent). */
export async function removeJournal(gitDir: string): Promise<void> {
  await unlink(journalPath(gitDir)).catch(() => undefined);
}
