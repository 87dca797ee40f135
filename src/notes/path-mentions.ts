// A file's path written out as text (`projects/apollo/plan.md` in a sentence, a table or backticks).
import { inSpans } from './markdown-lines.ts';
import { lineAt, lineOfOffset, lineStarts } from './lines.ts';
import { linkSyntaxSpans } from './links.ts';

/** One line that writes a path: its number (from 1), its text, and where the first mention stands in it (UTF-16). */
export interface PathMention {
  line: number;
  text: string;
  start: number;
  length: number;
}

/**
 * The text that every line naming `path` as a path contains (for a prefilter such as the
 * index's trigram scan): the path without `.md` in a folder, the whole path at the root.
 */
export function pathMentionNeedle(path: string): string {
  return path.includes('/') && path.endsWith('.md') ? path.slice(0, -3) : path;
}

/**
 * The lines of `text` that write the file `path` (repository-relative) out as a path, one
 * entry per line at its first such mention, in line order:
 * - a note in a folder as its whole path with or without `.md` (`projects/plan.md`,
 *   `projects/plan`); a file at the root, or any other file, only as its whole path with its
 *   extension (`Plan.md`, `images/logo.png`), since a root note's bare name (`Plan`) is an
 *   ordinary word, such as the note's own heading;
 * - standing alone: not part of a longer path or name (`archive/projects/plan.md`,
 *   `projects/plan.md.bak`, `projects/planning`);
 * - not inside link syntax (`[[…]]`, `[…](…)`), code or not: whether a link points at the
 *   file is for the link parser and resolver to say (links.ts, link-resolver.ts), so link
 *   syntax shown in a code span or block is no reference.
 * Exact case, as Git compares paths.
 */
export function findPathMentions(text: string, path: string): PathMention[] {
  const needle = pathMentionNeedle(path);
  if (!text.includes(needle)) return [];
  const suffix = needle === path ? '' : '(?:\\.md)?';
  const mention = new RegExp(`(?<![\\p{L}\\p{N}_/.-])${escapeRegExp(needle)}${suffix}(?![\\p{L}\\p{N}_/-]|\\.[\\p{L}\\p{N}])`, 'gu');
  const starts = lineStarts(text);
  const found: PathMention[] = [];
  let current = { line: 0, text: '', links: [] as Array<[number, number]> };
  for (const hit of text.matchAll(mention)) {
    const line = lineOfOffset(starts, hit.index);
    if (found.length > 0 && found[found.length - 1]!.line === line) continue;
    if (current.line !== line) {
      const lineText = lineAt(text, starts, line);
      current = { line, text: lineText, links: linkSyntaxSpans(lineText) };
    }
    const start = hit.index - starts[line - 1]!;
    if (inSpans(current.links, start)) continue;
    found.push({ line, text: current.text, start, length: hit[0].length });
  }
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
