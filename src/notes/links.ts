// Links in a note: wiki-links, embeds and Markdown links, with exact offsets for rewriting.
import { codeSpans, scanMarkdownLines, type MarkdownLine } from './markdown-lines.ts';

/**
 * One link as written.
 * - `kind`: `'wiki'` for `[[…]]`, `'embed'` for `![[…]]` and for a Markdown image
 *   `![alt](…)` (Obsidian shows both inline), `'markdown'` for `[text](…)`.
 * - `raw`: the exact source text, from `[` (or `!`) to the closing `]]` or `)`.
 * - `target`: the path part: as written for wiki-links (trimmed), URL-decoded and with the
 *   `<…>` removed for Markdown links; `''` for a link into the same note (`[[#Heading]]`, `[t](#x)`).
 * - `subpath`: `'#Heading'`, `'#Parent#Child'` or `'#^block'`, or null.
 * - `alias`: the wiki alias after `|`, or a Markdown link's text (an image's alt text); null when none.
 * - `line`: 1-based line in the whole file. `start`/`end`: UTF-16 offsets of `raw` in the
 *   whole text, `text.slice(start, end) === raw`.
 * - `escapedPipe`: the alias was separated with `\|`, as a wiki-link in a table row must be.
 * - `inFrontmatter`: true for a wiki-link written in a frontmatter value (Obsidian's
 *   "properties" links, e.g. `related: "[[Plan]]"`); absent otherwise.
 * - `definition`: true for a link reference definition (`[label]: dest "title"`, kind
 *   `'markdown'`, `alias` the label, `raw` from `[` to the end of the destination or title);
 *   absent otherwise.
 */
export interface Link {
  kind: 'wiki' | 'embed' | 'markdown';
  raw: string;
  target: string;
  subpath: string | null;
  alias: string | null;
  line: number;
  start: number;
  end: number;
  escapedPipe: boolean;
  inFrontmatter?: boolean;
  definition?: boolean;
}

const WIKI = /(!?)\[\[([^[\]\n]+?)\]\]/g;
const SCHEME = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Finds every link in `text` (Obsidian's reading of Markdown):
 * - `[[target]]`, `[[target|alias]]`, `[[target#Heading]]`, `[[target#^block]]`,
 *   `[[#Heading]]`, `[[a\|b]]` (table rows), and each of these as an embed with `!`.
 * - Markdown `[text](dest)`, `[text](<dest with spaces>)`, `[text](dest "title")` and
 *   images `![alt](dest)`; the destination is URL-decoded (`%20` → space) after the `#`
 *   fragment and a `?query` are split off (the query is kept in `raw` only).
 * - link reference definitions (CommonMark): a line `[label]: dest` or `[label]: <dest> "title"`,
 *   indented at most 3 spaces, not continuing a paragraph (the line before is blank, code, a
 *   heading or another definition); its destination is the link, for every `[text][label]`
 *   that uses it. A footnote (`[^1]: …`) is none.
 * - not links: anything inside fenced or indented code or an inline code span, an escaped
 *   `\[`, an external URL (a destination with a scheme such as `https:` or `mailto:`, or
 *   starting `//`), an empty destination, `[[]]`.
 * - in the frontmatter only wiki-links count (`inFrontmatter: true`).
 * Sorted by `start`. `lines` may be passed when the caller already scanned the text.
 */
export function findLinks(text: string, lines: MarkdownLine[] = scanMarkdownLines(text)): Link[] {
  const links: Link[] = [];
  // Whether the line before may precede a definition: a definition cannot interrupt a paragraph.
  let open = true;
  for (const line of lines) {
    const mayDefine = open;
    open = line.kind !== 'text' || /^ {0,3}#{1,6}(?:[ \t]|$)/.test(line.text);
    if (line.kind === 'frontmatter') {
      for (const link of wikiLinksIn(line, [])) links.push({ ...link, inFrontmatter: true });
    } else if (line.kind === 'text') {
      if (!line.text.includes('[')) continue;
      const definition = mayDefine ? definitionIn(line) : null;
      if (definition !== null) {
        open = true;
        if (definition !== 'external') links.push(definition);
        continue;
      }
      const spans = codeSpans(line.text);
      const wiki = wikiLinksIn(line, spans);
      links.push(...wiki, ...markdownLinksIn(line, spans, wiki));
    }
  }
  return links.sort((a, b) => a.start - b.start);
}

/** Splits the inside of `[[…]]` into target, subpath and alias (Obsidian's link syntax). */
export function parseWikiContent(content: string): { target: string; subpath: string | null; alias: string | null; escapedPipe: boolean } {
  let pathPart = content;
  let alias: string | null = null;
  let escapedPipe = false;
  const pipe = content.indexOf('|');
  if (pipe !== -1) {
    escapedPipe = pipe > 0 && content[pipe - 1] === '\\';
    pathPart = content.slice(0, escapedPipe ? pipe - 1 : pipe);
    alias = content.slice(pipe + 1).trim();
  }
  const hash = pathPart.indexOf('#');
  const target = (hash === -1 ? pathPart : pathPart.slice(0, hash)).trim();
  const subpath = hash === -1 ? null : pathPart.slice(hash).trim();
  return { target, subpath: subpath === '#' ? null : subpath, alias, escapedPipe };
}

/**
 * The link reference definition `line` holds (`[label]: dest "title"`, CommonMark 4.7, on one
 * line), `'external'` for one whose destination has a scheme, or null when it holds none.
 */
function definitionIn(line: MarkdownLine): Link | 'external' | null {
  const head = /^ {0,3}\[((?:[^[\]\\]|\\.){1,999})\]:[ \t]*/.exec(line.text);
  if (head === null || head[1]!.startsWith('^') || head[1]!.trim() === '') return null;
  const dest = parseDefinitionDestination(line.text, head[0].length);
  if (dest === null) return null;
  if (SCHEME.test(dest.url)) return 'external';
  const from = line.text.indexOf('[');
  return {
    kind: 'markdown',
    raw: line.text.slice(from, dest.end),
    ...splitDestination(dest.url),
    alias: head[1]!,
    line: line.number,
    start: line.start + from,
    end: line.start + dest.end,
    escapedPipe: false,
    definition: true,
  };
}

/**
 * A definition's destination and optional title from `at` to the end of the line: the
 * destination (`<…>` or without spaces, backslash escapes removed) and the offset after the
 * title or destination. Null when the rest of the line is not that.
 */
function parseDefinitionDestination(s: string, at: number): { url: string; end: number } | null {
  let i = at;
  let url = '';
  if (s[i] === '<') {
    i++;
    while (i < s.length && s[i] !== '>') {
      if (s[i] === '<') return null;
      if (s[i] === '\\' && i + 1 < s.length) i++;
      url += s[i];
      i++;
    }
    if (s[i] !== '>') return null;
    i++;
  } else {
    while (i < s.length && s[i] !== ' ' && s[i] !== '\t') {
      if (s[i] === '\\' && i + 1 < s.length && /[!-/:-@[-`{-~]/.test(s[i + 1]!)) i++;
      url += s[i];
      i++;
    }
    if (url === '') return null;
  }
  let end = i;
  while (s[i] === ' ' || s[i] === '\t') i++;
  const quote = s[i];
  if (i > end && (quote === '"' || quote === "'" || quote === '(')) {
    const closeQuote = quote === '(' ? ')' : quote;
    i++;
    while (i < s.length && s[i] !== closeQuote) {
      if (s[i] === '\\') i++;
      i++;
    }
    if (s[i] !== closeQuote) return null;
    end = ++i;
    while (s[i] === ' ' || s[i] === '\t') i++;
  }
  return i === s.length ? { url, end } : null;
}

function wikiLinksIn(line: MarkdownLine, spans: Array<[number, number]>): Link[] {
  const found: Link[] = [];
  if (!line.text.includes('[[')) return found;
  for (const match of line.text.matchAll(WIKI)) {
    const at = match.index;
    const end = at + match[0].length;
    if (at > 0 && line.text[at - 1] === '\\') continue;
    if (touchesCode(spans, at, end)) continue;
    const parsed = parseWikiContent(match[2]!);
    if (parsed.target === '' && parsed.subpath === null) continue;
    found.push({
      kind: match[1] ? 'embed' : 'wiki',
      raw: match[0],
      ...parsed,
      line: line.number,
      start: line.start + at,
      end: line.start + end,
    });
  }
  return found;
}

function markdownLinksIn(line: MarkdownLine, spans: Array<[number, number]>, wiki: Link[]): Link[] {
  const found: Link[] = [];
  const s = line.text;
  const inWiki = (i: number) => wiki.some((w) => i >= w.start - line.start && i < w.end - line.start);
  for (let i = s.indexOf('['); i !== -1; i = s.indexOf('[', i + 1)) {
    if (isEscaped(s, i) || inWiki(i) || s[i + 1] === '[') continue;
    const close = matchingBracket(s, i);
    if (close === -1 || s[close + 1] !== '(') continue;
    const dest = parseDestination(s, close + 2);
    if (!dest) continue;
    const image = i > 0 && s[i - 1] === '!' && !isEscaped(s, i - 1);
    const from = image ? i - 1 : i;
    if (touchesCode(spans, from, dest.end)) continue;
    if (dest.url === '' || SCHEME.test(dest.url)) continue;
    found.push({
      kind: image ? 'embed' : 'markdown',
      raw: s.slice(from, dest.end),
      ...splitDestination(dest.url),
      alias: s.slice(i + 1, close),
      line: line.number,
      start: line.start + from,
      end: line.start + dest.end,
      escapedPipe: false,
    });
  }
  return found;
}

/** True when a code span overlaps `[from, to)`: the link's brackets would be code, not syntax. */
function touchesCode(spans: Array<[number, number]>, from: number, to: number): boolean {
  return spans.some(([a, b]) => (from >= a && from < b) || (to - 1 >= a && to - 1 < b) || (a > from && a < to && b > to));
}

function isEscaped(s: string, i: number): boolean {
  let backslashes = 0;
  for (let j = i - 1; j >= 0 && s[j] === '\\'; j--) backslashes++;
  return backslashes % 2 === 1;
}

/** The `]` that closes the `[` at `open`, counting nested brackets; -1 when none on the line. */
function matchingBracket(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      depth++;
    } else if (c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * Reads a Markdown link destination and optional title from `at` (just after `(`) to the
 * closing `)` (CommonMark "Links"). Returns the destination with backslash escapes removed
 * and the offset after `)`, or null when the text there is not a link destination.
 */
function parseDestination(s: string, at: number): { url: string; end: number } | null {
  let i = at;
  while (s[i] === ' ' || s[i] === '\t') i++;
  let url = '';
  if (s[i] === '<') {
    i++;
    while (i < s.length && s[i] !== '>') {
      if (s[i] === '<') return null;
      if (s[i] === '\\' && i + 1 < s.length) i++;
      url += s[i];
      i++;
    }
    if (s[i] !== '>') return null;
    i++;
  } else {
    let depth = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === ' ' || c === '\t') break;
      if (c === '\\' && i + 1 < s.length && /[!-/:-@[-`{-~]/.test(s[i + 1]!)) {
        url += s[i + 1];
        i += 2;
        continue;
      }
      if (c === '(') depth++;
      if (c === ')') {
        if (depth === 0) break;
        depth--;
      }
      url += c;
      i++;
    }
  }
  while (s[i] === ' ' || s[i] === '\t') i++;
  const quote = s[i];
  if (quote === '"' || quote === "'" || quote === '(') {
    const closeQuote = quote === '(' ? ')' : quote;
    i++;
    while (i < s.length && s[i] !== closeQuote) {
      if (s[i] === '\\') i++;
      i++;
    }
    if (s[i] !== closeQuote) return null;
    i++;
    while (s[i] === ' ' || s[i] === '\t') i++;
  }
  if (s[i] !== ')') return null;
  return { url, end: i + 1 };
}

/**
 * A Markdown destination's path and `#fragment`: the path URL-decoded and without a `?query`
 * (`kit/inner/?x=1` names the folder `kit/inner/`; a `?` in a file name is written `%3F`).
 */
function splitDestination(url: string): { target: string; subpath: string | null } {
  const hash = url.indexOf('#');
  const pathPart = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? null : url.slice(hash);
  const query = pathPart.indexOf('?');
  return {
    target: percentDecode(query === -1 ? pathPart : pathPart.slice(0, query)),
    subpath: fragment === null || fragment === '#' ? null : percentDecode(fragment),
  };
}

/** URL-decodes a link target; text that is not valid percent-encoding stays as written. */
function percentDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value.replace(/%[0-9a-f]{2}/gi, (escape) => {
      try {
        return decodeURIComponent(escape);
      } catch {
        return escape;
      }
    });
  }
}

/**
 * Where one line writes link syntax, whether or not it is a link: `[[…]]` and `![[…]]`,
 * `[text](dest)` and `![alt](dest)`, as `[start, end)` offsets into `line`, also inside code
 * spans, escaped (`\[[…]]`) and with external destinations. For telling a path written as
 * text from one written as a link, which {@link findLinks} alone judges.
 */
export function linkSyntaxSpans(line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (!line.includes('[')) return spans;
  for (const match of line.matchAll(WIKI)) spans.push([match.index, match.index + match[0].length]);
  const definition = /^ {0,3}\[[^\]]+\]:[ \t]*(?:<[^>]*>|\S+)(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?/.exec(line);
  if (definition !== null && !definition[0].trimStart().startsWith('[^')) spans.push([definition[0].indexOf('['), definition[0].length]);
  for (let i = line.indexOf('['); i !== -1; i = line.indexOf('[', i + 1)) {
    const close = matchingBracket(line, i);
    if (close === -1 || line[close + 1] !== '(') continue;
    const dest = parseDestination(line, close + 2);
    if (dest) spans.push([i > 0 && line[i - 1] === '!' ? i - 1 : i, dest.end]);
  }
  return spans;
}
