// search_notes: the lines of the notes that contain a text or match an RE2 regex, in
// (repository, path, line) order, paged (spec: "search_notes").
import { VaultError } from '../../vault-error.ts';
import { isInFolders } from '../../notes/vault-path.ts';
import type { ScanPosition, Scope } from '../../note-index/note-index.ts';
import { implement, type ToolContext } from '../tool.ts';
import { searchNotes as definition, type SearchMatch } from '../../tools/search-notes.ts';
import { ANSWER_LIMIT, cutEcho, fitAnswer, pastTheEnd } from './answer-budget.ts';
import { compileRegex, isCaseSensitive } from './line-matcher.ts';
import type { MatchQuery } from './match-notes.ts';
import { MatchRun } from './match-pool.ts';
import { regexContentPattern, regexTrigramQuery } from './regex-trigrams.ts';
import { SearchCheckpoints, type SearchCheckpoint } from './search-checkpoints.ts';
import { lineWindow } from './line-window.ts';
import { answerPath, assertFolderExists, callTargets, folderScope, liveScopes, type VaultTarget } from './read-scope.ts';

/** The search_notes tool (spec: "search_notes"; contract: spec/acme-tools-list.json). */
export const searchNotes = implement(definition, {
  async handler(input, ctx) {
    if (!input.regex && /[\r\n]/.test(input.query))
      throw new VaultError(
        'bad_arguments',
        'search_notes matches one line at a time, so a query cannot hold a line break: search for the text of one of its lines.',
      );
    const caseSensitive = isCaseSensitive(input.query, input.regex);
    // Checked here, so a regex that does not parse is refused with its VaultError.
    if (input.regex) compileRegex(input.query.normalize('NFC'), caseSensitive);
    const { across, namedByPath, targets } = await callTargets(ctx, input.repo, input.path, 'folder');
    const scopes = await searchScopes(ctx, targets, !across || namedByPath);
    const wanted = input.offset + input.limit + 1;
    const run = new MatchRun(ctx.matchBudgetMs);
    const query = { regex: input.regex, query: input.query, caseSensitive };
    // A later page starts where an earlier one left off (search-checkpoints.ts); the first
    // page, the one most searches stop at, asks the index for nothing more.
    const checkpoints = input.offset > 0 && scopes.length > 0 ? await SearchCheckpoints.open(ctx.index, { ...query, scopes }) : null;
    const from = checkpoints?.nearest(input.offset) ?? null;
    const collected = await collectMatches(ctx, scopes, query, run, { wanted, from, checkpoints });
    const { stoppedIn } = collected;
    // The matches before the checkpoint are counted, not in hand.
    const before = from?.count ?? 0;
    const total = before + collected.found.length;
    // A search stopped by its budget keeps nothing: asked again, it stops at the same place.
    if (stoppedIn === null) await checkpoints?.keep();
    // Nothing found in a folder must mean an existing folder: a wrong path is refused.
    if (total === 0 && stoppedIn === null && scopes.every((scope) => scope.file === undefined))
      await assertFolderExists(ctx.index, targets, across, 'folder or file');

    const page: SearchMatch[] = collected.found.slice(input.offset - before, input.offset - before + input.limit).map((match) => {
      const shown = lineWindow(match.text, match.start, match.length);
      return {
        path: answerPath(match.repo, match.path, across),
        line: match.line,
        text: shown.text,
        shortened: shown.shortened,
        ...(across ? { repo: match.repo } : {}),
      };
    });
    const stop = stoppedIn === null ? null : await stopAdvice(ctx, scopes, stoppedIn, across);
    const { answer } = fitAnswer(page, (kept, cut) => {
      // A search stopped by its budget is partial: more may follow past where it stopped.
      const hasMore = input.offset + kept.length < total || stop !== null;
      const note: string[] = [];
      if (stop !== null) note.push(stoppedSearch(run.budgetMs, stop, total, input.regex, input.path));
      else if (total === 0) note.push(nothingFound(input.query, input.regex, caseSensitive));
      else if (kept.length === 0 && input.offset >= total)
        note.push(pastTheEnd(input.offset, total, 'matches', 'search_notes', input.limit));
      if (cut) note.push(`The page was cut at ${kept.length} matches to stay within ${ANSWER_LIMIT} characters.`);
      if (input.offset + kept.length < total)
        note.push(`More matches follow: call search_notes again with offset ${input.offset + kept.length}.`);
      return {
        query: cutEcho(input.query),
        matches: [...kept],
        offset: input.offset,
        hasMore,
        ...(note.length > 0 ? { note: note.join(' ') } : {}),
        ...(across ? {} : { repo: targets[0]!.vault.name }),
      };
    });
    return answer;
  },
});

/**
 * The scope of each target: a file path searches that file, as does a note named without
 * `.md` when no folder has that name; else a folder within the open folders.
 */
async function searchScopes(ctx: ToolContext, targets: readonly VaultTarget[], strict: boolean): Promise<Scope[]> {
  const scopes: Scope[] = [];
  for (const { vault, path } of targets) {
    const open = path !== '' && isInFolders(path, vault.config.settings.folders);
    const file = !open
      ? null
      : (await ctx.index.getFile(vault.name, path))
        ? path
        : !path.endsWith('.md') && (await ctx.index.getNote(vault.name, `${path}.md`)) && !(await hasFolder(ctx, vault.name, path))
          ? `${path}.md`
          : null;
    if (file !== null) {
      scopes.push({ repo: vault.name, prefixes: [], file });
    } else {
      scopes.push(folderScope(vault, path, strict));
    }
  }
  return liveScopes(scopes);
}

/** True when some file of the repository lies below `folder`. */
async function hasFolder(ctx: ToolContext, repo: string, folder: string): Promise<boolean> {
  return (await ctx.index.filePaths(repo)).some((path) => path.startsWith(`${folder}/`));
}

interface FoundMatch {
  repo: string;
  path: string;
  line: number;
  text: string;
  start: number;
  length: number;
}

/**
 * The first `wanted` matching lines in (repo, path, line) order, or, from checkpoint `from`,
 * those after the checkpoint's `count` up to `wanted` in all. Notes are read from the
 * index in growing batches, narrowed by the trigram index to those containing `needle`
 * (plain queries) or having the trigrams a match of the regex must contain, matched by `run` off the event loop, and reading stops as soon as enough
 * lines are found. `stoppedIn`: null when the search ran to its end (or to `wanted`), else
 * the note it was in when its time budget ran out ('' when that was between notes); the
 * matches are then those found before it.
 */
async function collectMatches(
  ctx: ToolContext,
  scopes: readonly Scope[],
  query: MatchQuery,
  run: MatchRun,
  { wanted: wantedInAll, from, checkpoints }: CollectFrom,
): Promise<{ found: FoundMatch[]; stoppedIn: StoppedIn | '' | null }> {
  const found: FoundMatch[] = [];
  const before = from?.count ?? 0;
  const wanted = wantedInAll - before;
  const needle = query.regex ? null : query.query;
  const caseSensitive = query.caseSensitive;
  // A regex reads only the notes with the trigrams any match must contain; one that
  // requires no text ('all') reads every note.
  const trigrams = query.regex ? regexTrigramQuery(query.query.normalize('NFC'), caseSensitive) : undefined;
  // A word the trigrams cannot tell from longer ones (`\bMOC\b` and "pomocí") is checked in the database too.
  const contentPattern = query.regex ? regexContentPattern(query.query.normalize('NFC'), caseSensitive) : null;
  let batch = trigrams?.op === 'all' ? 100 : Math.min(wanted, 200);
  const scan = (after: ScanPosition | null, limit: number) =>
    ctx.index.scanNotes(scopes, {
      needle,
      ...(trigrams ? { trigrams } : {}),
      ...(contentPattern === null ? {} : { contentPattern }),
      caseSensitive,
      after,
      limit,
    });
  let pending = scan(from?.after ?? null, batch);
  for (let page = 0; ; page++) {
    const notes = await pending;
    const last = notes[notes.length - 1];
    // From the second page on, the search is a long one: the next page is read (on the
    // index's thread) while this one is matched (on the pool), not after it.
    const nextBatch = Math.min(batch * 2, 1000);
    const next = page > 0 && last !== undefined && notes.length === batch ? scan({ repo: last.repo, path: last.path }, nextBatch) : null;
    // A page read ahead and then not needed is dropped; its failure is no one's.
    next?.catch(() => {});
    // The budget can run out while the page is read from the index (long notes, a loaded
    // machine): the search stopped at the page's first note, before searching any of it.
    const first = notes[0];
    if (run.stopped) return { found, stoppedIn: first === undefined ? '' : { repo: first.repo, path: first.path } };
    const { matches, stopped, searched, line } = await run.match(
      trigrams ? { ...query, trigrams } : query,
      notes.map((note) => note.content),
      wanted - found.length,
    );
    for (const match of matches) {
      const note = notes[match.note]!;
      found.push({ repo: note.repo, path: note.path, line: match.line, text: match.text, start: match.start, length: match.length });
    }
    const at = notes[searched];
    if (checkpoints !== null && !stopped) {
      // The notes before the one of the last match were searched to their end (that one may
      // hold more matches than were wanted); without enough matches, the whole page was.
      const complete = found.length >= wanted ? (matches[matches.length - 1]?.note ?? 0) : notes.length;
      const lastComplete = notes[complete - 1];
      if (lastComplete !== undefined) {
        const inComplete = matches.filter((match) => match.note < complete).length;
        checkpoints.add({
          after: { repo: lastComplete.repo, path: lastComplete.path },
          count: before + found.length - matches.length + inComplete,
        });
      }
    }
    if (stopped)
      return { found, stoppedIn: at === undefined ? '' : { repo: at.repo, path: at.path, ...(line === undefined ? {} : { line }) } };
    if (found.length >= wanted || notes.length < batch || last === undefined) return { found, stoppedIn: null };
    pending = next ?? scan({ repo: last.repo, path: last.path }, nextBatch);
    batch = nextBatch;
  }
}

/**
 * How many matches a search wants in all (from its first), and where it starts: after
 * checkpoint `from` (whose matches it does not collect again) or, when null, at the first
 * note. With `checkpoints`, each page of notes searched to its end is noted there.
 */
interface CollectFrom {
  wanted: number;
  from: SearchCheckpoint | null;
  checkpoints: SearchCheckpoints | null;
}

/** Where a search stopped: the note it was reading, and the first of its lines not searched (absent: at its start). */
interface StoppedIn extends ScanPosition {
  line?: number;
}

/** Where a stopped search stopped, as answers name it, and what could go on from there. */
interface StopAdvice {
  /** The note it was reading (as answers name it); null when it stopped between notes. */
  note: string | null;
  /** The first line of that note not searched (absent: it had not begun it). */
  line?: number;
  /** True when the search was of that one note already (path named it). */
  onlyNote: boolean;
  /** Up to three notes or folders of the search's scope after that note, as answers name them. */
  later: string[];
}

/**
 * What can go on from where a search stopped: the folders or notes of its scope that sort
 * after the note it was reading (in the first level below the scope's folder), so the advice
 * names places not yet searched rather than the search the person already made.
 */
async function stopAdvice(ctx: ToolContext, scopes: readonly Scope[], stoppedIn: StoppedIn | '', across: boolean): Promise<StopAdvice> {
  if (stoppedIn === '') return { note: null, onlyNote: false, later: [] };
  const scope = scopes.find((candidate) => candidate.repo === stoppedIn.repo);
  const note = answerPath(stoppedIn.repo, stoppedIn.path, across);
  const base = { note, ...(stoppedIn.line === undefined ? {} : { line: stoppedIn.line }) };
  if (scope === undefined || scope.file !== undefined) return { ...base, onlyNote: scope !== undefined, later: [] };
  const prefix = scope.prefixes.filter((candidate) => stoppedIn.path.startsWith(candidate)).sort((x, y) => y.length - x.length)[0] ?? '';
  const paths = (await ctx.index.notePaths(stoppedIn.repo)).filter((path) =>
    scope.prefixes.some((candidate) => path.startsWith(candidate)),
  );
  // First what follows the note in its own folder, then what follows that folder in the scope.
  const folder = stoppedIn.path.slice(0, stoppedIn.path.lastIndexOf('/') + 1);
  const later = laterEntries(paths, folder, stoppedIn.path);
  if (folder.length > prefix.length) later.push(...laterEntries(paths, prefix, stoppedIn.path));
  return { ...base, onlyNote: false, later: later.slice(0, 3).map((entry) => answerPath(stoppedIn.repo, entry, across)) };
}

/**
 * The entries (notes, or folders holding notes) directly in `folder` (`""` or ending in `/`)
 * that sort after the entry holding `path`, in path order, at most three.
 */
function laterEntries(paths: readonly string[], folder: string, path: string): string[] {
  const entryOf = (file: string) => {
    const slash = file.indexOf('/', folder.length);
    return slash === -1 ? file : file.slice(0, slash);
  };
  const here = entryOf(path);
  const later: string[] = [];
  for (const file of paths) {
    if (!file.startsWith(folder)) continue;
    const entry = entryOf(file);
    if (entry > here && !later.includes(entry)) later.push(entry);
    if (later.length === 3) break;
  }
  return later;
}

/**
 * The note of a search stopped by its time budget: what the matches are, where it stopped,
 * and what would search on from there. Asking again with another offset would stop at the
 * same place, so the advice names what works instead: the note alone, the folders after it,
 * read_note from the line it reached, a more distinctive query.
 */
function stoppedSearch(budgetMs: number, stop: StopAdvice, found: number, regex: boolean, path: string | undefined): string {
  const seconds = `${Math.round(budgetMs / 100) / 10} s`;
  const what = found === 0 ? 'No match was found before that point' : 'The matches shown are all those before that point, in order';
  const partial = `; more may follow after it, so this answer is partial (hasMore is true), and asking again with another offset would stop at the same place.`;
  const query = regex
    ? 'make the regex start with literal text and avoid .* and repeated groups, or search for a plain phrase with regex left out'
    : 'use a longer, more distinctive phrase';
  if (stop.note === null) {
    const narrow =
      path === undefined
        ? 'give path a folder (or one note) to search part of the notes at a time'
        : 'give path a smaller folder or one note';
    return `The search stopped after its time budget of ${seconds}, before it had read every note. ${what}${partial} To search on: ${narrow}; or ${query}.`;
  }
  const reached =
    stop.line === undefined || stop.line <= 1
      ? `before it had searched any of ${stop.note}`
      : `after line ${stop.line - 1} of ${stop.note}`;
  const where = `The search stopped after its time budget of ${seconds} while reading ${stop.note}, which has very long lines or a lot of text: it stopped ${reached}; every note before it was searched in full.`;
  const ways: string[] = [];
  if (!stop.onlyNote) ways.push(`search ${stop.note} alone, with path "${stop.note}" (one note gets the whole budget)`);
  if (stop.later.length > 0)
    ways.push(`give path what comes after it, one at a time, to search the rest: ${stop.later.map((entry) => `"${entry}"`).join(', ')}`);
  ways.push(
    `read ${stop.note} with read_note, path "${stop.note}"${stop.line !== undefined && stop.line > 1 ? ` and from_line ${stop.line}` : ''}, which reads any range of lines at once`,
  );
  ways.push(query);
  return `${where} ${what}${partial} What works instead: ${ways.join('; or ')}.`;
}

function nothingFound(query: string, regex: boolean, caseSensitive: boolean): string {
  const hints = [`Nothing matches ${JSON.stringify(cutEcho(query))}.`];
  if (caseSensitive) hints.push('The query has a capital letter, so case counted: try it in lower case to ignore case.');
  if (!regex && /\s/.test(query)) hints.push('The whole phrase was looked for as written: try one distinctive word of it.');
  if (regex) hints.push('The query was read as a regular expression (RE2), one line at a time.');
  if (regex && /\\[wWdDsSbB]/.test(query.replace(/\\\\/g, '')))
    hints.push(
      'In RE2, \\w, \\d, \\s and \\b know ASCII only: for letters of any script use \\p{L} (a word: \\p{L}+), for digits \\p{Nd}.',
    );
  return hints.join(' ');
}
