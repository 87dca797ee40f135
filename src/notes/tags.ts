// A note's tags: the frontmatter's `tags` plus inline `#tags`, as Obsidian reads them.
import { codeSpans, inSpans, scanMarkdownLines, type MarkdownLine } from './markdown-lines.ts';

/** `#` at the start or after whitespace, then tag characters (digits only are refused after matching). */
const INLINE_TAG = /(?<=^|\s)#([\p{L}\p{N}\p{M}_\-/]+)/gu;
const WIKI_LINK = /\[\[[^[\]\n]*\]\]/g;

/**
 * The tags of a note, without `#`, in order of appearance, each once (exact spelling; a
 * nested tag `a/b` stays one tag). From the frontmatter: `tags` (or `tag`), a list or a
 * text split at commas and spaces. Inline: `#tag` at the start of a line or after a space,
 * made of letters, digits, marks, `_`, `-` and `/`, not digits only (`#1` is no tag), not
 * in code, not in a wiki-link, and not the `#` of a heading (`# Title` has a space).
 */
export function findTags(
  text: string,
  frontmatterData: Record<string, unknown> | null,
  lines: MarkdownLine[] = scanMarkdownLines(text),
): string[] {
  const tags: string[] = [];
  const add = (tag: string) => {
    const clean = tag.trim().replace(/^#+/, '').replace(/\/+$/, '');
    if (clean !== '' && !tags.includes(clean)) tags.push(clean);
  };
  const field = frontmatterData?.tags ?? frontmatterData?.tag;
  if (Array.isArray(field)) {
    for (const item of field) if (typeof item === 'string' || typeof item === 'number') add(String(item));
  } else if (typeof field === 'string') {
    for (const item of field.split(/[,\s]+/)) add(item);
  }
  for (const line of lines) {
    if (line.kind !== 'text' || !line.text.includes('#')) continue;
    const spans = codeSpans(line.text);
    const links = [...line.text.matchAll(WIKI_LINK)].map((m): [number, number] => [m.index, m.index + m[0].length]);
    for (const match of line.text.matchAll(INLINE_TAG)) {
      if (/^\d+$/.test(match[1]!) || inSpans(spans, match.index) || inSpans(links, match.index)) continue;
      add(match[1]!);
    }
  }
  return tags;
}
