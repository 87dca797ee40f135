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
  /** Each changed path with its new content; `content: null` when the commit deleted it. */
  files: ReadonlyArray<{ path: string; content: Buffer | null }>;
}

/** What a commit changes in the index, before parsing (see {@link committedChange}). */
export interface CommittedChange {
  files: FileRow[];
  texts: NoteText[];
  removed: string[];
  added: string[];
  /** Every path after the commit: the stored ones, with the added and without the removed. */
  current: Set<string>;
}

/**
 * Sorts a commit's readable files (isReadable) against the `stored` paths: deleted ones that
 * were stored are removed, new ones added; each written file is a row with its blob id
 * (computed from the content, in the object format the head's length says) and size, and a
 * `.md` file whose content is text (decodeNoteText) is also a note.
 */
export function committedChange(stored: ReadonlySet<string>, commit: CommittedFiles): CommittedChange {
  const format = commit.head.length === 64 ? 'sha256' : 'sha1';
  const current = new Set(stored);
  const files: FileRow[] = [];
  const texts: NoteText[] = [];
  const removed: string[] = [];
  const added: string[] = [];
  for (const { path, content } of commit.files) {
    // The write tools never write outside the open folders; this keeps the index's rule anyway.
    if (!isReadable({ path }, commit.fields.folders)) continue;
    if (content === null) {
      if (stored.has(path)) removed.push(path);
      current.delete(path);
      continue;
    }
    if (!stored.has(path)) added.push(path);
    current.add(path);
    const oid = blobId(content, format);
    const text = path.endsWith('.md') ? decodeNoteText(content) : null;
    files.push({ path, oid, size: content.length, isNote: text !== null });
    if (text !== null) texts.push({ path, oid, size: content.length, text });
  }
  return { files, texts, removed, added, current };
}
