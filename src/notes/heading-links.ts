// Headings keep their links (issue 15): which headings an edit renamed, and the links to them
// rewritten to the new text, each in the form it was written.
import { findHeadings } from './headings.ts';
import type { LinkResolver } from './link-resolver.ts';
import { destinationSpan, encodePath, isWikiSyntax, resolveLink } from './link-rewrite.ts';
import type { Link } from './links.ts';

/** One renamed heading: its text before and after, and its level. */
export interface HeadingRename {
  from: string;
  to: string;
  level: number;
}

/**
 * The headings an edit renamed, from a note's text before and after. A rename is a heading
 * line changed in place: both versions have the same headings, one for one, in the same order
 * and at the same levels, and a heading's text differs. An edit that adds, removes or reorders
 * headings, or changes a level, renames none (the links are then left as they are). A rename
 * whose old text is still another heading of the note, or whose new text was one already,
 * is left out too: links to that text still reach a heading, and would be ambiguous if moved.
 * Texts compare loosely (case, Unicode normalisation and runs of spaces ignored), as links
 * find headings.
 */
export function headingRenames(before: string, after: string): HeadingRename[] {
  const old = findHeadings(before);
  const now = findHeadings(after);
  if (old.length !== now.length || old.some((heading, i) => heading.level !== now[i]!.level)) return [];
  const renames: HeadingRename[] = [];
  for (const [i, heading] of old.entries()) {
    const next = now[i]!;
    if (loose(heading.text) === loose(next.text)) continue;
    const stillThere = now.some((other) => loose(other.text) === loose(heading.text));
    const wasThere = old.some((other) => loose(other.text) === loose(next.text));
    if (!stillThere && !wasThere) renames.push({ from: heading.text, to: next.text, level: heading.level });
  }
  return renames;
}

/**
 * A heading's anchor as GitHub and most Markdown renderers write it (`[t](note.md#old-heading)`):
 * lower case, every character but letters, marks, digits, spaces, `-` and `_` dropped, each
 * space a `-`.
 */
export function headingAnchor(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** What {@link relinkHeadings} gives: the replacements, as offsets of the note's text. */
export interface HeadingRelink {
  edits: Array<{ start: number; end: number; raw: string }>;
  /**
   * The wiki-links (as written) that reach a renamed heading whose new text a wiki-link cannot
   * hold (see {@link wikiUnsafeHeading}): rewritten, they would end early or name another
   * heading, so none of them is; the caller refuses the rename.
   */
  unwritable: string[];
}

/**
 * The characters of a new heading that a wiki-link to it cannot hold, as Obsidian parses
 * `[[Note#Heading|label]]`: `[` and `]` (the link would end at the first `]]`, or read as a
 * nested link), `|` (starts the label), `#` (starts a sub-heading), and `^` first (a block
 * reference). An empty array when the text is safe.
 */
export function wikiUnsafeHeading(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) if (char === '[' || char === ']' || char === '|' || char === '#') found.add(char);
  if (text.trimStart().startsWith('^')) found.add('^');
  return [...found];
}

/**
 * The links of one note (`links`, from `findLinks` of its text at `fromPath`) that reach a
 * renamed heading of the note `renamedPath`, rewritten to its new text:
 * - wiki-links and embeds: `[[Note#Old heading]]`, `[[Note#Old heading|label]]`,
 *   `![[Note#Old heading]]`, `[[Note#Parent#Old heading]]`, `[[#Old heading]]` in the note
 *   itself: each `#` part that names an old heading becomes the new text; the rest as written;
 * - Markdown links: a fragment that is the heading's text (`#Old%20heading`, Obsidian's form)
 *   becomes the new text encoded the same way; one that is its anchor (`#old-heading`,
 *   GitHub's form, see {@link headingAnchor}) becomes the new anchor.
 * A link whose path does not resolve to `renamedPath` (through `resolver`) is left alone. A
 * wiki-link to a heading renamed to a text it cannot hold is not rewritten but listed in
 * `unwritable`.
 */
export function relinkHeadings(
  links: readonly Link[],
  fromPath: string,
  renamedPath: string,
  renames: readonly HeadingRename[],
  resolver: LinkResolver,
): HeadingRelink {
  const edits: HeadingRelink['edits'] = [];
  const unwritable: string[] = [];
  for (const link of links) {
    if (link.subpath === null || link.subpath.startsWith('#^')) continue;
    if (resolveLink(resolver, link, fromPath) !== renamedPath) continue;
    const raw = isWikiSyntax(link) ? rewriteWiki(link.raw, renames) : rewriteMarkdown(link.raw, renames);
    if (raw === UNWRITABLE) unwritable.push(link.raw);
    else if (raw !== null && raw !== link.raw) edits.push({ start: link.start, end: link.end, raw });
  }
  return { edits, unwritable };
}

/** What {@link rewriteWiki} gives for a link to a heading whose new text it cannot hold. */
const UNWRITABLE = Symbol('unwritable');

function rewriteWiki(raw: string, renames: readonly HeadingRename[]): string | null | typeof UNWRITABLE {
  const open = raw.startsWith('!') ? 3 : 2;
  const close = raw.length - 2;
  const hash = raw.indexOf('#', open);
  if (hash === -1 || hash >= close) return null;
  let stop = close;
  for (let i = hash; i < close; i++) {
    if (raw[i] === '|' || (raw[i] === '\\' && raw[i + 1] === '|')) {
      stop = i;
      break;
    }
  }
  const parts = raw.slice(hash + 1, stop).split('#');
  let changed = false;
  let unsafe = false;
  const next = parts.map((part) => {
    const rename = renames.find((candidate) => loose(candidate.from) === loose(part));
    if (rename === undefined) return part;
    changed = true;
    if (wikiUnsafeHeading(rename.to).length > 0) unsafe = true;
    const lead = /^\s*/.exec(part)![0];
    const trail = /\s*$/.exec(part)![0];
    return lead + rename.to + trail;
  });
  if (!changed) return null;
  if (unsafe) return UNWRITABLE;
  return raw.slice(0, hash + 1) + next.join('#') + raw.slice(stop);
}

function rewriteMarkdown(raw: string, renames: readonly HeadingRename[]): string | null {
  const dest = destinationSpan(raw);
  if (dest === null) return null;
  const written = raw.slice(dest.start, dest.end);
  const hash = written.indexOf('#');
  if (hash === -1) return null;
  const fragment = written.slice(hash + 1);
  const angle = written.startsWith('<');
  let decoded = fragment;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    // Not percent-encoding: compared as written.
  }
  for (const rename of renames) {
    let replacement: string | null = null;
    // The anchor first: `#old` of a heading "Old" is its anchor, and stays one.
    if (decoded === headingAnchor(rename.from)) {
      replacement = headingAnchor(rename.to);
    } else if (loose(decoded) === loose(rename.from)) {
      // In <…> a space may stand, but not < or > (they end it), nor | (on a table row it splits the cell).
      replacement = angle
        ? rename.to.replace(/[<>|]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
        : encodePath(rename.to, /%[89a-f][0-9a-f]/i.test(fragment));
    }
    if (replacement !== null) return raw.slice(0, dest.start) + written.slice(0, hash + 1) + replacement + raw.slice(dest.end);
  }
  return null;
}

function loose(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}
