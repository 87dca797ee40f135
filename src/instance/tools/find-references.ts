// find_references: every line that mentions one of some values, or every link and path
// mention that points at one file (spec: "find_references").
import { lineAt, lineStarts, lineOfOffset } from '../../notes/lines.ts';
import { findPathMentions, pathMentionNeedle } from '../../notes/path-mentions.ts';
import { isStruckAt } from '../../notes/struck.ts';
import { assertInFolders, isInFolders } from '../../notes/vault-path.ts';
import type { ScanPosition, Scope } from '../../note-index/note-index.ts';
import { VaultError } from '../../vault-error.ts';
import { implement, type ToolContext, type Vault } from '../tool.ts';
import { findReferences as definition, type Reference } from '../../tools/find-references.ts';
import { ANSWER_LIMIT, cutEcho, fitAnswer, pastTheEnd } from './answer-budget.ts';
import { existingPath } from './existing-path.ts';
import { baseFileReferences, folderReferences, type PathReference } from './folder-references.ts';
import { MatchRun } from './match-pool.ts';
import { lineWindow } from './line-window.ts';
import { closestPaths, folderScope, lookupVault } from './read-scope.ts';

/** Counting stops after this many lines per value (spec: `counts[].capped`). */
export const COUNT_CAP = 2000;

/**
 * One line found, with the value or path it mentions and where in the line; a value's line
 * may carry `text` empty and the `content` of its note instead, its line taken out only when
 * shown ({@link lineOf}).
 */
type FoundReference = PathReference & { content?: string };

/** The text of the line `ref` names: as found, or taken from its note's content. */
function lineOf(ref: FoundReference): string {
  const content = ref.content;
  if (content === undefined) return ref.text;
  const starts = lineStarts(content);
  return ref.line <= starts.length ? lineAt(content, starts, ref.line) : '';
}

/** The find_references tool (spec: "find_references"; contract: spec/acme-tools-list.json). */
export const findReferences = implement(definition, {
  async handler(input, ctx) {
    if ((input.values === undefined) === (input.path === undefined)) {
      throw new VaultError(
        'bad_arguments',
        input.values === undefined
          ? 'Send either values (texts to find, for example ["34 Stores at Acme"]) or path (a file, to find what links to it).'
          : 'Send either values or path, not both: make one call for the values and another for the path.',
      );
    }
    const broken = input.values?.find((value) => /[\r\n]/.test(value));
    if (broken !== undefined)
      throw new VaultError(
        'bad_arguments',
        `find_references finds lines that mention a value, so a value cannot hold a line break (${JSON.stringify(cutEcho(broken))}): send the text of one of its lines.`,
      );
    const vault = await lookupVault(ctx, input.repo);
    const scope = folderScope(vault, '', true);
    const run = new MatchRun(ctx.matchBudgetMs);
    const { counts, found } =
      input.values !== undefined
        ? await valueReferences(ctx, scope, input.values, run)
        : await pathReferences(ctx, vault, scope, input.path!, run);

    const page: Reference[] = found.slice(input.offset, input.offset + input.limit).map((ref) => {
      // A note's first line is shown without its byte order mark, as ripgrep shows it (the
      // index keeps the mark: notes/note-text.ts).
      const line = lineOf(ref);
      const marked = ref.line === 1 && line.charCodeAt(0) === 0xfeff;
      const text = marked ? line.slice(1) : line;
      const start = marked ? Math.max(0, ref.start - 1) : ref.start;
      const shown = lineWindow(text, start, ref.length);
      return {
        value: cutEcho(ref.value),
        path: ref.path,
        line: ref.line,
        text: shown.text,
        shortened: shown.shortened,
        ...(isStruckAt(text, start) ? { struck: true } : {}),
      };
    });
    const { answer } = fitAnswer(page, (kept, cut) => {
      const hasMore = input.offset + kept.length < found.length;
      const note: string[] = [];
      if (run.stopped) note.push(stoppedSearch(run.budgetMs, found.length));
      else if (found.length === 0) note.push('Nothing mentions it in the notes you can read here.');
      else if (kept.length === 0 && input.offset >= found.length)
        note.push(pastTheEnd(input.offset, found.length, 'references', 'find_references', input.limit));
      if (counts.some((count) => count.capped))
        note.push(
          `Counting stops at ${COUNT_CAP} lines per value; only those can be paged through (search_notes with the value pages through every line).`,
        );
      if (kept.some((ref) => ref.struck))
        note.push('struck: true marks a mention inside ~~strikethrough~~, which the vault has crossed out.');
      if (cut) note.push(`The page was cut at ${kept.length} references to stay within ${ANSWER_LIMIT} characters.`);
      if (hasMore) note.push(`More references follow: call find_references again with offset ${input.offset + kept.length}.`);
      return {
        // A value is echoed cut, so an overlong one cannot fill the answer.
        counts: counts.map((count) => ({ ...count, value: cutEcho(count.value) })),
        references: [...kept],
        offset: input.offset,
        hasMore,
        ...(note.length > 0 ? { note: note.join(' ') } : {}),
        repo: vault.name,
      };
    });
    return answer;
  },
});

/**
 * Lines mentioning each value, case-insensitively, value by value, each in path and line
 * order; counting a value stops after {@link COUNT_CAP} lines.
 */
async function valueReferences(
  ctx: ToolContext,
  scope: Scope,
  values: readonly string[],
  run: MatchRun,
): Promise<{ counts: Array<{ value: string; lines: number; capped: boolean }>; found: FoundReference[] }> {
  const counts: Array<{ value: string; lines: number; capped: boolean }> = [];
  const found: FoundReference[] = [];
  for (const value of values) {
    const query = { regex: false, query: value, caseSensitive: false };
    let lines = 0;
    let capped = false;
    let after: ScanPosition | null = null;
    for (;;) {
      if (run.stopped) break;
      const notes = await ctx.index.scanNotes([scope], { needle: value, caseSensitive: false, after, limit: 200 });
      // Only a page of the lines is shown: the thread sends back where they are, not their texts.
      const { matches } = await run.match(
        query,
        notes.map((note) => note.content),
        COUNT_CAP + 1 - lines,
        { lineTexts: false },
      );
      for (const match of matches) {
        if (lines === COUNT_CAP) {
          capped = true;
          break;
        }
        lines++;
        const note = notes[match.note]!;
        found.push({ value, path: note.path, line: match.line, text: '', content: note.content, start: match.start, length: match.length });
      }
      if (capped || run.stopped || notes.length < 200) break;
      after = { repo: notes[notes.length - 1]!.repo, path: notes[notes.length - 1]!.path };
    }
    counts.push({ value, lines, capped });
  }
  return { counts, found };
}

/**
 * Lines that point at the file `asked` (a note may be named without `.md`): every
 * wiki-link, embed and Markdown link that resolves to it, every plain mention of its
 * path (with or without `.md`), and every `.base` filter or formula that names it; or, when
 * `asked` is a folder, the links to it and the bases' `file.inFolder()` that name it (see
 * {@link folderReferences}). One reference per line, in path and line order.
 */
async function pathReferences(
  ctx: ToolContext,
  vault: Vault,
  scope: Scope,
  asked: string,
  run: MatchRun,
): Promise<{ counts: Array<{ value: string; lines: number; capped: boolean }>; found: FoundReference[] }> {
  // The spelling the repository holds: exactly as given first, then ignoring Unicode normalisation; `<repo>/<path>` understood.
  const { path: spelled } = await existingPath(ctx.host, vault.name, asked, 'folder', {
    repo: vault.name,
    noteSuffix: true,
    folders: vault.config.settings.folders,
  });
  assertInFolders(spelled, vault.config.settings.folders);
  const byLine = new Map<string, FoundReference>();
  const key = (path: string, line: number) => `${path}\n${String(line).padStart(9, '0')}`;
  const filePaths = await ctx.index.filePaths(vault.name);
  const isFolder =
    !filePaths.includes(spelled) && !filePaths.includes(`${spelled}.md`) && filePaths.some((path) => path.startsWith(`${spelled}/`));
  // A folder: the links to it (documentation repositories link folders, GitHub's convention) and the bases that filter on it.
  const target = isFolder ? spelled : await existingFile(ctx, vault, spelled);
  const pointing = isFolder ? await folderReferences(ctx, scope, target, filePaths) : [];
  for (const ref of [...pointing, ...(await baseFileReferences(ctx, vault, target, isFolder, filePaths))]) {
    if (isInFolders(ref.path, vault.config.settings.folders) && !byLine.has(key(ref.path, ref.line)))
      byLine.set(key(ref.path, ref.line), ref);
  }

  // A link into the note itself (`[[#Risks]]`) names no file: it is not a reference to it.
  const links = (isFolder ? [] : await ctx.index.linksTo(vault.name, target)).filter(
    (link) => link.target !== '' && isInFolders(link.source, vault.config.settings.folders),
  );
  const contents = await ctx.index.contents(vault.name, [...new Set(links.map((link) => link.source))]);
  const startsOf = new Map<string, number[]>();
  for (const link of links) {
    const content = contents.get(link.source);
    if (content === undefined || byLine.has(key(link.source, link.line))) continue;
    let starts = startsOf.get(link.source);
    if (!starts) startsOf.set(link.source, (starts = lineStarts(content)));
    const lineStart = starts[lineOfOffset(starts, link.start) - 1] ?? 0;
    byLine.set(key(link.source, link.line), {
      value: target,
      path: link.source,
      line: link.line,
      text: lineAt(content, starts, link.line),
      start: link.start - lineStart,
      length: link.end - link.start,
    });
  }

  // The path written out as text, such as `projects/apollo/plan.md` in backticks or a table.
  const needle = pathMentionNeedle(target);
  let after: ScanPosition | null = null;
  while (!isFolder) {
    const notes = await ctx.index.scanNotes([scope], { needle, caseSensitive: true, after, limit: 200 });
    for (const note of notes) {
      for (const mention of findPathMentions(note.content, target)) {
        if (!byLine.has(key(note.path, mention.line)))
          byLine.set(key(note.path, mention.line), { value: target, path: note.path, ...mention });
      }
    }
    if (run.stopped || notes.length < 200) break;
    after = { repo: notes[notes.length - 1]!.repo, path: notes[notes.length - 1]!.path };
  }
  const found = [...byLine.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ref]) => ref);
  const capped = found.length > COUNT_CAP;
  return { counts: [{ value: target, lines: Math.min(found.length, COUNT_CAP), capped }], found: found.slice(0, COUNT_CAP) };
}

/** The note of a search stopped by its time budget: what the references and counts are, and how to narrow it. */
function stoppedSearch(budgetMs: number, found: number): string {
  const seconds = `${Math.round(budgetMs / 100) / 10} s`;
  const what =
    found === 0 ? 'No mention was found before that' : 'The references and counts are those found before that, in order; there may be more';
  return `The search stopped after its time budget of ${seconds}: some notes have very long lines or a lot of text. ${what}. To find them all, look for a longer, more distinctive value, one value per call, or use search_notes with path set to a folder.`;
}

/** The indexed file at `path`, or the note `path.md`; else VaultError `note_not_found` with the closest paths. */
async function existingFile(ctx: ToolContext, vault: Vault, path: string): Promise<string> {
  if (await ctx.index.getFile(vault.name, path)) return path;
  if (!path.endsWith('.md') && (await ctx.index.getFile(vault.name, `${path}.md`))) return `${path}.md`;
  const closest = closestPaths(await ctx.index.filePaths(vault.name), path, vault.config.settings.folders);
  throw new VaultError(
    'note_not_found',
    `There is no file ${path} in ${vault.name}${closest.length > 0 ? `. The closest by name: ${closest.map((p) => `"${p}"`).join(', ')}` : ''}. Use list_notes or search_notes to find the note you mean.`,
    { path, closest },
  );
}
