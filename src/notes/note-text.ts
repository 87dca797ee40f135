// A blob's bytes as note text, or null for a binary file.

/** How far to look for a NUL byte: Git's own binary heuristic reads the first 8 KiB too. */
const SNIFF_BYTES = 8192;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The UTF-8 text of `content`, or null when it is binary: a NUL byte in the first 8 KiB
 * (as Git decides) or bytes that are not valid UTF-8. A BOM is kept as U+FEFF, so the text
 * round-trips and splitFrontmatter can report it.
 */
export function decodeNoteText(content: Uint8Array): string | null {
  const head = content.subarray(0, SNIFF_BYTES);
  if (head.includes(0)) return null;
  try {
    return decoder.decode(content);
  } catch {
    return null;
  }
}
