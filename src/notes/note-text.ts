// A blob's bytes as note text, or null for a binary file: the one "is this file text" rule,
// used by the indexer, the reads, the writes and the history tools alike.

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The UTF-8 text of `content`, or null when it is not text: a NUL byte anywhere, or bytes
 * that are not valid UTF-8. Git takes a NUL in a file's first 8000 bytes as binary
 * (`buffer_is_binary`, xdiff-interface.c); it samples only for speed, while the whole blob is
 * read here, and a NUL further on cannot be stored as text (Postgres refuses it), so any NUL
 * counts. Notes are UTF-8: decoding other bytes would replace them, and a write would then
 * change bytes nobody edited. A BOM is kept as U+FEFF, so the text round-trips and
 * splitFrontmatter can report it.
 */
export function decodeNoteText(content: Uint8Array): string | null {
  if (content.includes(0)) return null;
  try {
    return decoder.decode(content);
  } catch {
    return null;
  }
}
