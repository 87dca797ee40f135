// Rewriting links after a move: each link that pointed at a moved file points at it again,
// written in the form it had (wiki or Markdown, alias, heading, block, embed, encoding).
import { posix } from 'node:path';
import type { LinkResolver } from './link-resolver.ts';
import type { Link } from './links.ts';

/** One note's links to rewrite: its text before the move and where it stood before and after. */
export interface RelinkInput {
  text: string;
  /** `findLinks(text)`. */
  links: readonly Link[];
  /** The note's path before the move. */
  pathBefore: string;
  /** The note's path after the move (the same when the note itself did not move). */
  pathAfter: string;
  /** Resolves over every file path before the move. */
  before: LinkResolver;
  /** Resolves over every file path after the move. */
  after: LinkResolver;
  /** Old path → new path of every moved file. */
  moved: ReadonlyMap<string, string>;
  /** The folder that moved, for a folder move: links to it and to folders inside it follow it. */
  movedFolder?: { from: string; to: string } | null;
}

/**
 * What {@link relinkNote} did: the new text, how many links it rewrote, how many links
 * pointed at a moved file before the move (`toMoved`), and the links it could not keep
 * pointing at their file (`lost`: no spelling of the same form resolves there; left as written).
 */
export interface RelinkResult {
  text: string;
  rewritten: number;
  toMoved: number;
  lost: Link[];
}

/**
 * Rewrites the links of one note so that each resolves after the move to the file it resolved
 * to before (moved files followed to their new path). A link that still resolves to the right
 * file is left byte-identical (a bare `[[Plan]]` whose note moved folders stays `[[Plan]]`);
 * a broken link stays broken. Only the link's target text changes, in place by its offsets:
 * - wiki-links and embeds keep `!`, `#heading`, `#^block`, `|alias`, the table cell's `\|`,
 *   and their spelling: a bare name stays a bare name (the whole path when the name alone
 *   would reach another file), a path stays a path, `.md` is written when it was;
 * - Markdown links keep `<…>` or URL-encoding (non-ASCII letters encoded only when they
 *   were), the `#fragment` and the title, and are written relative to the linking note
 *   (vault-absolute when they were), `./` kept;
 * - Markdown links to a folder (`[t](templates/nygard/)`) follow `movedFolder`, or the linking
 *   note's own move, keeping the trailing slash, `/` from the root or relative form.
 * Links inside code are never in `links` (findLinks skips them), so code never changes.
 */
export function relinkNote(input: RelinkInput): RelinkResult {
  const { text, links, pathBefore, pathAfter, before, after, moved } = input;
  const edits: Array<{ start: number; end: number; raw: string }> = [];
  const lost: Link[] = [];
  let toMoved = 0;
  for (const link of links) {
    if (link.target === '') continue;
    const wiki = isWikiSyntax(link);
    const was = resolveWritten(before, link.target, pathBefore, wiki);
    if (was === null) {
      // A Markdown link to a folder (`[template](templates/nygard/)`), as documentation repositories write them.
      const wasFolder = wiki ? null : before.resolveFolder(link.target, pathBefore);
      if (wasFolder === null) continue;
      const expected = folderAfterMove(wasFolder, input.movedFolder ?? null);
      if (expected !== wasFolder) toMoved++;
      const stillThere =
        after.resolveTarget(link.target, pathAfter, true) === null && after.resolveFolder(link.target, pathAfter) === expected;
      if (stillThere && !lostExactFolder(link.target, pathBefore, wasFolder, pathAfter, expected)) continue;
      const raw = rewriteMarkdownFolder(link, wasFolder, expected, pathBefore, pathAfter, after);
      if (raw === null) lost.push(link);
      else edits.push({ start: link.start, end: link.end, raw });
      continue;
    }
    if (moved.has(was)) toMoved++;
    const expected = moved.get(was) ?? was;
    if (
      resolveWritten(after, link.target, pathAfter, wiki) === expected &&
      !lostExactCase(link, wiki, pathBefore, was, pathAfter, expected)
    )
      continue;
    const raw = wiki ? rewriteWiki(link, expected, pathAfter, after) : rewriteMarkdown(link, was, expected, pathBefore, pathAfter, after);
    if (raw === null) lost.push(link);
    else edits.push({ start: link.start, end: link.end, raw });
  }
  return { text: applyEdits(text, edits), rewritten: edits.length, toMoved, lost };
}

/**
 * Which file `link` in the note at `fromPath` points at: wiki-links by name or path, Markdown
 * links (images included) relative to the note first. Null when it points nowhere.
 */
export function resolveLink(resolver: LinkResolver, link: Link, fromPath: string): string | null {
  if (link.target === '') return fromPath;
  return resolveWritten(resolver, link.target, fromPath, isWikiSyntax(link));
}

/** True for `[[…]]` and `![[…]]`; false for Markdown links and images `![alt](…)`. */
export function isWikiSyntax(link: Pick<Link, 'raw'>): boolean {
  return link.raw.startsWith('[[') || link.raw.startsWith('![[');
}

/** Replaces `[start, end)` spans of `text` (non-overlapping, any order) with new text. */
export function applyEdits(text: string, edits: ReadonlyArray<{ start: number; end: number; raw: string }>): string {
  if (edits.length === 0) return text;
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let from = 0;
  for (const edit of sorted) {
    out += text.slice(from, edit.start) + edit.raw;
    from = edit.end;
  }
  return out + text.slice(from);
}

/**
 * True when a path-form link named its file with the exact case before and, after a move that
 * changed only case somewhere, reaches it only through case-insensitive matching: written
 * again so that case-sensitive readers (Git hosts, static sites) still follow it.
 */
function lostExactCase(link: Link, wiki: boolean, pathBefore: string, was: string, pathAfter: string, expected: string): boolean {
  if (wiki && !link.target.includes('/')) return false;
  const spelled = (from: string, rooted: boolean) => {
    const folder = posix.dirname(from) === '.' ? '' : posix.dirname(from);
    const base = rooted ? link.target.replace(/^\/+/, '') : posix.normalize(posix.join(folder, link.target));
    return base.normalize('NFC');
  };
  const exact = (written: string, file: string) => written === file.normalize('NFC') || `${written}.md` === file.normalize('NFC');
  // The form that named the file exactly before (relative first for Markdown links) must still do so after.
  const relativeOnly = link.target.startsWith('./') || link.target.startsWith('../');
  const forms = wiki || link.target.startsWith('/') ? [true] : relativeOnly ? [false] : [false, true];
  const form = forms.find((rooted) => exact(spelled(pathBefore, rooted), was));
  return form !== undefined && !exact(spelled(pathAfter, form), expected);
}

/**
 * True when a Markdown link to a folder named it exactly (same case, NFC) before in one form,
 * relative to the linking note or from the root with `/`, and after the move no longer does in
 * that form: it reaches the folder only by the resolver's fallbacks (the root for a relative
 * link whose note moved, case-insensitive matching after a case-only rename), which Git hosts
 * and static sites do not take. Such a link is written again.
 */
function lostExactFolder(target: string, pathBefore: string, was: string, pathAfter: string, expected: string): boolean {
  const spelled = (from: string, rooted: boolean): string => {
    const folder = posix.dirname(from) === '.' ? '' : posix.dirname(from);
    const path = rooted ? target.replace(/^\/+/, '') : posix.join(folder, target);
    const normal = posix.normalize(path === '' ? '.' : path).replace(/\/+$/, '');
    return (normal === '.' ? '' : normal).normalize('NFC');
  };
  const rooted = target.startsWith('/');
  const forms = rooted ? [true] : target.startsWith('./') || target.startsWith('../') ? [false] : [false, true];
  const form = forms.find((root) => spelled(pathBefore, root) === was.normalize('NFC'));
  return form !== undefined && spelled(pathAfter, form) !== expected.normalize('NFC');
}

function resolveWritten(resolver: LinkResolver, target: string, fromPath: string, wiki: boolean): string | null {
  return resolver.resolveTarget(target, fromPath, !wiki);
}

/** A wiki-link with its target part replaced by a spelling that reaches `expected`; null when none does. */
function rewriteWiki(link: Link, expected: string, fromPath: string, after: LinkResolver): string | null {
  const open = link.raw.startsWith('!') ? 3 : 2;
  const close = link.raw.length - 2;
  let stop = close;
  for (let i = open; i < close; i++) {
    const c = link.raw[i];
    if (c === '#' || c === '|' || (c === '\\' && link.raw[i + 1] === '|')) {
      stop = i;
      break;
    }
  }
  const written = link.raw.slice(open, stop);
  const lead = /^\s*/.exec(written)![0];
  const trail = /\s*$/.exec(written)![0];
  const core = written.trim();
  const withMd = /\.md$/i.test(core);
  const full = expected.endsWith('.md') && !withMd ? expected.slice(0, -3) : expected;
  const name = posix.basename(full);
  const rooted = core.startsWith('/');
  const spellings = core.includes('/') ? [rooted ? `/${full}` : full] : [name, full];
  for (const spelling of spellings) {
    if (spelling.includes(']]') || spelling.includes('|')) continue;
    if (after.resolveTarget(spelling, fromPath, false) === expected) {
      return link.raw.slice(0, open) + lead + spelling + trail + link.raw.slice(stop);
    }
  }
  return null;
}

/** A Markdown link with its destination's path replaced, in the same style; null when none reaches `expected`. */
function rewriteMarkdown(
  link: Link,
  was: string,
  expected: string,
  pathBefore: string,
  pathAfter: string,
  after: LinkResolver,
): string | null {
  const dest = destinationSpan(link.raw);
  if (dest === null) return null;
  const writtenDest = link.raw.slice(dest.start, dest.end);
  // The path ends at a `?query` or `#fragment`, kept as written.
  const hash = writtenDest.search(/[?#]/);
  const writtenPath = hash === -1 ? writtenDest : writtenDest.slice(0, hash);
  const decoded = link.target;
  const withMd = /\.md$/i.test(decoded) || !expected.endsWith('.md');
  const folderBefore = posix.dirname(pathBefore) === '.' ? '' : posix.dirname(pathBefore);
  const folderAfter = posix.dirname(pathAfter) === '.' ? '' : posix.dirname(pathAfter);
  const relativeBefore = posix.normalize(posix.join(folderBefore, decoded));
  const style =
    sameFile(relativeBefore, was) || sameFile(`${relativeBefore}.md`, was) ? 'relative' : decoded.includes('/') ? 'absolute' : 'name';
  const target = withMd ? expected : expected.slice(0, -3);
  let relative = posix.relative(folderAfter, target);
  if (decoded.startsWith('./') && !relative.startsWith('../')) relative = `./${relative}`;
  const candidates =
    style === 'relative'
      ? [relative]
      : style === 'absolute'
        ? [decoded.startsWith('/') ? `/${target}` : target, relative]
        : [posix.basename(target), relative];
  const angle = writtenDest.startsWith('<');
  const encodeNonAscii = /%[89a-f][0-9a-f]/i.test(writtenPath);
  for (const candidate of candidates) {
    if (after.resolveTarget(candidate, pathAfter, true) !== expected) continue;
    const spelled = angle ? `<${candidate}` : encodePath(candidate, encodeNonAscii);
    return link.raw.slice(0, dest.start) + spelled + writtenDest.slice(writtenPath.length) + link.raw.slice(dest.end);
  }
  return null;
}

/** Where `folder` is after the move: under the moved folder's new name when it was in it. */
export function folderAfterMove(folder: string, movedFolder: { from: string; to: string } | null): string {
  if (movedFolder === null) return folder;
  const from = movedFolder.from.normalize('NFC');
  const nfc = folder.normalize('NFC');
  if (nfc === from || nfc.startsWith(`${from}/`)) return movedFolder.to + nfc.slice(from.length);
  return folder;
}

/**
 * A Markdown link to a folder with its destination rewritten to reach `expected` from the
 * linking note's new place, in its own form: relative (`./` kept), from the root with `/`, or
 * from the root without it; the trailing slash kept or left off as written; encoded as written.
 * Null when no such spelling reaches the folder.
 */
function rewriteMarkdownFolder(
  link: Link,
  was: string,
  expected: string,
  pathBefore: string,
  pathAfter: string,
  after: LinkResolver,
): string | null {
  const dest = destinationSpan(link.raw);
  if (dest === null) return null;
  const writtenDest = link.raw.slice(dest.start, dest.end);
  // The path ends at a `?query` or `#fragment`, kept as written.
  const hash = writtenDest.search(/[?#]/);
  const writtenPath = hash === -1 ? writtenDest : writtenDest.slice(0, hash);
  const decoded = link.target;
  const slash = /\/>?$/.test(writtenPath) ? '/' : '';
  const folderBefore = posix.dirname(pathBefore) === '.' ? '' : posix.dirname(pathBefore);
  const folderAfter = posix.dirname(pathAfter) === '.' ? '' : posix.dirname(pathAfter);
  const rooted = decoded.startsWith('/');
  const relativeBefore = posix.normalize(posix.join(folderBefore, decoded)).replace(/\/+$/, '');
  const style = rooted ? 'rooted' : sameFile(relativeBefore === '.' ? '' : relativeBefore, was) ? 'relative' : 'absolute';
  let relative = posix.relative(folderAfter, expected) || '.';
  if (decoded.startsWith('./') && !relative.startsWith('.')) relative = `./${relative}`;
  const candidates = style === 'relative' ? [relative] : style === 'rooted' ? [`/${expected}`] : [expected, relative];
  const angle = writtenDest.startsWith('<');
  const encodeNonAscii = /%[89a-f][0-9a-f]/i.test(writtenPath);
  for (const bare of candidates) {
    const candidate = bare === '/' ? bare : bare + slash;
    if (after.resolveTarget(candidate, pathAfter, true) !== null || after.resolveFolder(candidate, pathAfter) !== expected) continue;
    const spelled = angle ? `<${candidate}` : encodePath(candidate, encodeNonAscii);
    return link.raw.slice(0, dest.start) + spelled + writtenDest.slice(writtenPath.length) + link.raw.slice(dest.end);
  }
  return null;
}

function sameFile(a: string, b: string): boolean {
  return a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();
}

/**
 * The destination of a Markdown link, image or link reference definition `raw` as offsets into it: for `<…>` from the
 * `<` up to (not including) the `>`, otherwise the whole destination. Null when not found.
 */
export function destinationSpan(raw: string): { start: number; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let i = raw.startsWith('!') ? 1 : 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) {
      close = i;
      break;
    }
  }
  // A link reference definition: `[label]: dest "title"`.
  const definition = close !== -1 && raw[close + 1] === ':';
  if (close === -1 || (raw[close + 1] !== '(' && !definition)) return null;
  let i = close + 2;
  while (raw[i] === ' ' || raw[i] === '\t') i++;
  const start = i;
  if (raw[i] === '<') {
    const end = raw.indexOf('>', i);
    return end === -1 ? null : { start, end };
  }
  let parens = 0;
  for (; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === ' ' || c === '\t') break;
    if (definition) continue;
    if (c === '(') parens++;
    if (c === ')') {
      if (parens === 0) break;
      parens--;
    }
  }
  return { start, end: i };
}

/** Percent-encodes what a bare Markdown destination cannot hold; non-ASCII letters only when asked. */
export function encodePath(path: string, encodeNonAscii: boolean): string {
  let out = '';
  for (const ch of path) {
    const code = ch.codePointAt(0)!;
    if (code > 0x7e) out += encodeNonAscii ? encodeURIComponent(ch) : ch;
    else if (code <= 0x20 || ' %()<>#?[]\\^`|"{}'.includes(ch)) out += `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += ch;
  }
  return out;
}
