// find_references' answers for what notes' link lists miss: links to a folder, and the notes
// and folders a `.base` file names in its filters and formulas.
import { asWikiLink, findBaseReferences } from '../../bases/base-references.ts';
import { LinkResolver } from '../../notes/link-resolver.ts';
import { isWikiSyntax } from '../../notes/link-rewrite.ts';
import { findLinks } from '../../notes/links.ts';
import { lineOfOffset, lineStarts } from '../../notes/lines.ts';
import { decodeNoteText } from '../../notes/note-text.ts';
import { isInFolders } from '../../notes/vault-path.ts';
import type { ScanPosition, Scope } from '../../note-index/note-index.ts';
import type { ToolContext, Vault } from '../tool.ts';

/** One line that points at the file or folder asked for; `start`/`length` mark the link in `text`, the whole line. */
export interface PathReference {
  value: string;
  path: string;
  line: number;
  text: string;
  start: number;
  length: number;
}

/**
 * Lines of the notes in `scope` that point at `folder` (a folder of `paths`, the repository's
 * files): Markdown links that reach it ({@link LinkResolver.resolveFolder}: relative or from
 * the root, with or without the trailing slash, URL-encoded or in `<…>`, link reference
 * definitions too), and plain mentions of its path written out as one (`templates/nygard/`
 * in a table or code span; a one-word folder `kit` only as `kit/` or `/kit`, never the bare
 * word, as in a heading `# kit`); one per line, unsorted.
 */
export async function folderReferences(ctx: ToolContext, scope: Scope, folder: string, paths: readonly string[]): Promise<PathReference[]> {
  const resolver = resolverOf(paths);
  const name = folder.slice(folder.lastIndexOf('/') + 1);
  // Every link to the folder holds this much of its name as written, encoded or not.
  const needle = (name.match(/[A-Za-z0-9_.~-]+/g) ?? []).sort((a, b) => b.length - a.length)[0] ?? null;
  const mention = new RegExp(`(?<![\\p{L}\\p{N}_/.-])/?${escapeRegExp(folder)}/?(?![\\p{L}\\p{N}_/-]|\\.[\\p{L}\\p{N}])`, 'gu');
  const found: PathReference[] = [];
  let after: ScanPosition | null = null;
  for (;;) {
    const notes = await ctx.index.scanNotes([scope], { needle, caseSensitive: false, after, limit: 200 });
    for (const note of notes) {
      const lines = new Set<number>();
      let starts: number[] | null = null;
      for (const link of findLinks(note.content)) {
        if (isWikiSyntax(link) || link.target === '' || lines.has(link.line)) continue;
        if (resolver.resolveTarget(link.target, note.path, true) !== null || resolver.resolveFolder(link.target, note.path) !== folder)
          continue;
        starts ??= lineStarts(note.content);
        const lineStart = starts[lineOfOffset(starts, link.start) - 1] ?? 0;
        lines.add(link.line);
        found.push({
          value: folder,
          path: note.path,
          line: link.line,
          text: lineText(note.content, starts, link.line),
          start: link.start - lineStart,
          length: link.end - link.start,
        });
      }
      if (!note.content.includes(folder)) continue;
      starts ??= lineStarts(note.content);
      for (let line = 1; line <= starts.length; line++) {
        if (lines.has(line)) continue;
        const text = lineText(note.content, starts, line);
        // A path written out holds a slash: `kit/`, `/kit`, `a/kit`; the bare word `kit` (a heading, a sentence) is no mention.
        const hit = [...text.matchAll(mention)].find((match) => match[0].includes('/'));
        if (hit) found.push({ value: folder, path: note.path, line, text, start: hit.index, length: hit[0].length });
      }
    }
    if (notes.length < 200) break;
    after = { repo: notes[notes.length - 1]!.repo, path: notes[notes.length - 1]!.path };
  }
  return found;
}

/**
 * Lines of the `.base` files among `paths` (in the open folders) whose filters or formulas name
 * `target` (see {@link findBaseReferences}): for a file, `link()`, `file()`, `hasLink()`,
 * `linksTo()` arguments and `"[[…]]"` literals that resolve to it from the base; for a folder
 * (`isFolder`), `file.inFolder()` arguments naming it. One per line, in path and line order.
 */
export async function baseFileReferences(
  ctx: ToolContext,
  vault: Vault,
  target: string,
  isFolder: boolean,
  paths: readonly string[],
): Promise<PathReference[]> {
  const bases = paths.filter((path) => path.toLowerCase().endsWith('.base') && isInFolders(path, vault.config.settings.folders));
  if (bases.length === 0) return [];
  const resolver = isFolder ? null : resolverOf(paths);
  const found: PathReference[] = [];
  for (const base of bases) {
    const content = await ctx.host.readFile(vault.name, base).catch(() => null);
    const text = content === null ? null : decodeNoteText(content);
    if (text === null) continue;
    const starts = lineStarts(text);
    const lines = new Set<number>();
    for (const ref of findBaseReferences(text)) {
      if (lines.has(ref.line)) continue;
      let hit: boolean;
      if (isFolder) {
        hit = ref.kind === 'folder' && ref.value.replace(/^\/+|\/+$/g, '').normalize('NFC') === target.normalize('NFC');
      } else {
        const wiki = ref.kind === 'link' ? asWikiLink(ref.value) : null;
        const link = wiki === null ? undefined : findLinks(wiki)[0];
        hit = link !== undefined && resolver!.resolve(link, base) === target;
      }
      if (!hit) continue;
      lines.add(ref.line);
      const lineStart = starts[ref.line - 1] ?? 0;
      found.push({
        value: target,
        path: base,
        line: ref.line,
        text: lineText(text, starts, ref.line),
        start: ref.start === -1 ? 0 : ref.start - lineStart,
        length: ref.start === -1 ? 0 : ref.end - ref.start,
      });
    }
  }
  return found;
}

/** The resolvers of the path lists in use: NoteIndex.filePaths keeps one list per index state, so a resolver is built once per state, not per call. */
const resolvers = new WeakMap<readonly string[], LinkResolver>();

function resolverOf(paths: readonly string[]): LinkResolver {
  let resolver = resolvers.get(paths);
  if (resolver === undefined) resolvers.set(paths, (resolver = new LinkResolver(paths)));
  return resolver;
}

function lineText(content: string, starts: readonly number[], line: number): string {
  let end = starts[line] ?? content.length;
  if (content[end - 1] === '\n') end--;
  if (content[end - 1] === '\r') end--;
  return content.slice(starts[line - 1] ?? 0, end);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
