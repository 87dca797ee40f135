// The rows a commit this process just made changes: its files sorted into file rows, note texts, added and removed paths.
import { decodeNoteText } from '../notes/note-text.ts';
import { isReadable } from '../notes/vault-path.ts';
import { blobId } from '../repo-host/blob-id.ts';
import type { FileRow } from './index-rows.ts';
import type { ParseFields } from './parse-fields.ts';
import type { NoteText } from './parse-notes.ts';

/** The files of one commit, as applyCommittedFiles (indexer.ts) takes them. */
export interface CommittedFiles {
  /** The commit that holds them (the branch head after it). */
  head: string;
  /** The frontmatter fields of the repository's `.vault/` settings (type and summary). */
  fields: ParseFields;
  /**
   * Each changed path with its new content; `content: null` when the commit deleted it.
   * `from`: the path a moved file came from (deleted by the same commit).
   */
  files: ReadonlyArray<{ path: string; content: Buffer | null; from?: string }>;
}

/** What a commit changes in the index, before parsing (see {@link committedChange}). */
export interface CommittedChange {
  files: FileRow[];
  texts: NoteText[];
  removed: string[];
  added: string[];
  /** Moved notes: new path → old path, where the old path was a stored file the commit removed. */
  moves: Map<string, string>;
}

/**
 * Sorts a commit's readable files (isReadable) against the `stored` paths: deleted ones that
 * were stored are removed, new ones added; each written file is a row with its blob id
 * (computed from the content, in the object format the head's length says) and size, and a
 * `.md` file whose content is text (decodeNoteText) is also a note; a note written with the
 * `from` of a stored path the commit removes is a move (`moves`). `stored`: the stored paths
 * (a set, or the map of path → blob id).
 */
export function committedChange(stored: { has(path: string): boolean }, commit: CommittedFiles): CommittedChange {
  const format = commit.head.length === 64 ? 'sha256' : 'sha1';
  const files: FileRow[] = [];
  const texts: NoteText[] = [];
  const removed: string[] = [];
  const added: string[] = [];
  const moves = new Map<string, string>();
  const removing = new Set(commit.files.filter((file) => file.content === null).map((file) => file.path));
  for (const { path, content, from } of commit.files) {
    // The write tools never write outside the open folders; this keeps the index's rule anyway.
    if (!isReadable({ path }, commit.fields.folders)) continue;
    if (content === null) {
      if (stored.has(path)) removed.push(path);
      continue;
    }
    if (!stored.has(path)) added.push(path);
    const oid = blobId(content, format);
    const text = path.endsWith('.md') ? decodeNoteText(content) : null;
    files.push({ path, oid, size: content.length, isNote: text !== null });
    if (text !== null) texts.push({ path, oid, size: content.length, text });
    if (text !== null && from !== undefined && removing.has(from) && stored.has(from) && isReadable({ path: from }, commit.fields.folders))
      moves.set(path, from);
  }
  return { files, texts, removed, added, moves };
}
