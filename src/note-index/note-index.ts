// The index's query surface: every statement the tools run, behind a named, typed function.
// Tools import only this module from note-index/; the rows are written by indexer.ts.
import { byteCache, estimateBytes } from '../byte-cache.ts';
import type { Graded } from '../notes/grades.ts';
import type { Heading } from '../notes/headings.ts';
import { decodeNoteText } from '../notes/note-text.ts';
import { runPoolTask } from './parse-task.ts';
import type { SqlClient } from './sql-client.ts';
import { needleKeys, searchFold, type TrigramQuery } from './trigram-keys.ts';
import { candidateNoteIds, queryNoteIds } from './trigram-postings.ts';
import { storedFileOids } from './stored-file-oids.ts';

export { targetKey } from './target-key.ts';

/** One note as indexed: its text and what parsing found in it. Line numbers count from 1. */
export interface IndexedNote {
  repo: string;
  path: string;
  /** Blob id of the content. */
  oid: string;
  /** Bytes. */
  size: number;
  /** The whole file, exactly as stored (UTF-8 decoded). */
  content: string;
  totalLines: number;
  title: string;
  type: string | null;
  summary: string | null;
  /** Parsed frontmatter; null when absent or broken (then `frontmatterError` says why). */
  frontmatter: Record<string, unknown> | null;
  frontmatterError: string | null;
  headings: Heading[];
  tags: string[];
  grades: Graded[];
}

/** One indexed file of any kind. `size` in bytes, null when unknown. */
export interface IndexedFile {
  repo: string;
  path: string;
  oid: string;
  size: number | null;
  isNote: boolean;
}

/** One link of a note, with the file it resolves to (null: no such file). */
export interface IndexedLink {
  /** The note the link stands in. */
  source: string;
  line: number;
  kind: 'wiki' | 'embed' | 'markdown';
  raw: string;
  target: string;
  subpath: string | null;
  alias: string | null;
  /** UTF-16 offsets of `raw` in the source note's whole text. */
  start: number;
  end: number;
  inFrontmatter: boolean;
  resolved: string | null;
}

/** A note as bases see it: frontmatter, tags, outgoing links and embeds, size. */
export interface NoteRow {
  path: string;
  oid: string;
  size: number;
  title: string;
  type: string | null;
  summary: string | null;
  frontmatter: Record<string, unknown> | null;
  tags: string[];
  /** Wiki-links and markdown links, in order. */
  links: LinkTarget[];
  embeds: LinkTarget[];
}

/** A link as a table of notes needs it: what it names, and the file that resolves to (or null). */
export interface LinkTarget {
  target: string;
  resolved: string | null;
}

/** The snapshot a repository's rows were built from. */
export interface RepoIndexState {
  head: string | null;
  fingerprint: string;
  indexedAt: Date;
}

/**
 * Where a query looks: one repository, narrowed to paths starting with one of `prefixes`
 * (`''` for everything, else a folder ending in `/`) or, with `file`, to that one path.
 * An empty `prefixes` list matches nothing.
 */
export interface Scope {
  repo: string;
  prefixes: readonly string[];
  file?: string;
}

/** One line of list_notes, before its fields are formatted. */
export interface NoteListing {
  repo: string;
  path: string;
  title: string;
  type: string | null;
  summary: string | null;
  frontmatter: Record<string, unknown> | null;
}

/** A note's text, for searching it line by line. */
export interface NoteText {
  repo: string;
  path: string;
  content: string;
}

/** A position in (repo, path) order, to continue a scan after it. */
export interface ScanPosition {
  repo: string;
  path: string;
}

/** Typed access to the notes index of one installation (all repositories in one database). */
export interface NoteIndex {
  /** The snapshot the repository was indexed at; null before its first sync. */
  repoState(repo: string): Promise<RepoIndexState | null>;
  /**
   * One note, or null when there is no note (text `.md` file) at `path`. The text of a long
   * note (over 256 KB) is taken from `readBlob(oid)` when given (the caller's Git object
   * store, read by a child process, off the event loop), else from the index, and kept by
   * blob id for the next call; a blob `readBlob` cannot give (null) is read from the index.
   */
  getNote(repo: string, path: string, readBlob?: (oid: string) => Promise<Buffer | null>): Promise<IndexedNote | null>;
  /** One file of any kind, or null when the index has none at `path`. */
  getFile(repo: string, path: string): Promise<IndexedFile | null>;
  /**
   * Every indexed (non-hidden) file path, sorted (byte order). The list is kept per index
   * state of the repository (head, fingerprint, time of indexing; up to
   * {@link FILE_PATHS_CACHE_BYTES}) and shared between callers: never change it.
   */
  filePaths(repo: string): Promise<readonly string[]>;
  /** Every note path, sorted (byte order). */
  notePaths(repo: string): Promise<string[]>;
  /** Every note's path, title and summary in the scopes, sorted by repository and path. */
  noteOutline(scopes: readonly Scope[]): Promise<Array<{ repo: string; path: string; summary: string | null }>>;
  /** The links written in a note, in order. */
  linksFrom(repo: string, path: string): Promise<IndexedLink[]>;
  /** The links in any note that resolve to `targetPath`, sorted by source path and offset. */
  linksTo(repo: string, targetPath: string): Promise<IndexedLink[]>;
  /**
   * Every indexed file's blob id, by path: what the rows of each file were built from, so a
   * caller can tell which files changed since (their rows may lag).
   */
  fileOids(repo: string): Promise<Map<string, string>>;
  /**
   * The notes with a link whose target key ({@link targetKey}: file name, lower case, NFC,
   * without `.md`) is one of `keys`, each with the targets of those links; `''` among `keys`
   * asks for the links whose target ends in `/` (a folder) or names no file (`[[#Heading]]`).
   * Resolved or not: a note that links a name nothing bears yet is among them too.
   */
  linkSourcesByKey(repo: string, keys: readonly string[]): Promise<Map<string, string[]>>;
  /** Every note with frontmatter, tags, links, embeds and size, sorted by path (for bases). */
  noteRows(repo: string): Promise<NoteRow[]>;
  /**
   * A page of notes in the scopes whose type (and/or frontmatter `status`, compared as
   * text) is exactly the one given; sorted by repository, then path (byte order).
   * `total` counts every match.
   */
  listNotes(
    scopes: readonly Scope[],
    filter: { type?: string; status?: string },
    page: { limit: number; offset: number },
  ): Promise<{ notes: NoteListing[]; total: number }>;
  /** The distinct values of `type` or frontmatter `status` in the scopes, with counts, most frequent first. */
  fieldValues(scopes: readonly Scope[], field: 'type' | 'status'): Promise<Array<{ value: string; notes: number }>>;
  /**
   * Up to `limit` notes in the scopes after `after`, in (repo, path) order, whose content
   * contains `needle`, both compared in Unicode's NFC form: exactly, or when not
   * case-sensitive after {@link searchFold} (lower case as JavaScript's `toLowerCase`, so
   * every note the callers' line matching finds);
   * with `needle` null, every note. The trigram posting lists narrow the candidates.
   * With `trigrams` (and no needle): the notes whose keys satisfy that query, unchecked —
   * a superset of those a regex can match, which the caller matches (instance/tools/regex-trigrams.ts).
   * The candidates are found once per query object: pages of one search pass the same
   * object (a note indexed between its pages is not among them, as if the search had begun
   * before it); a new search passes a new one. With `contentPattern` (and no needle), only
   * the notes whose stored text matches that Postgres regex (instance/tools/regex-trigrams.ts
   * `regexContentPattern`), checked in the database, so the others are never read out of it.
   */
  scanNotes(
    scopes: readonly Scope[],
    options: {
      needle: string | null;
      trigrams?: TrigramQuery;
      contentPattern?: string;
      caseSensitive: boolean;
      after: ScanPosition | null;
      limit: number;
    },
  ): Promise<NoteText[]>;
  /** The content of these notes of one repository, by path (missing ones left out). */
  contents(repo: string, paths: readonly string[]): Promise<Map<string, string>>;
  /**
   * Every link of the repository that leaves its note (`resolved` is another file, or null
   * when no file has that name; links to a heading of their own note are left out), sorted by
   * source path and offset: the `health` engine's dangling links and orphans.
   */
  linkGraph(repo: string): Promise<GraphLink[]>;
  /** Every note's path, type, parsed frontmatter and frontmatter error, sorted by path: the `health` engine's type checks. */
  noteFrontmatters(repo: string): Promise<NoteFrontmatter[]>;
}

/** A link as the repository's link graph has it (NoteIndex.linkGraph). */
export interface GraphLink {
  source: string;
  line: number;
  raw: string;
  target: string;
  /** The file it resolves to; null when none. */
  resolved: string | null;
}

/** A note's frontmatter as the type checks need it (NoteIndex.noteFrontmatters). */
export interface NoteFrontmatter {
  path: string;
  type: string | null;
  frontmatter: Record<string, unknown> | null;
  frontmatterError: string | null;
}

interface NoteDbRow {
  repo: string;
  path: string;
  oid: string;
  size: number;
  content: string;
  total_lines: number;
  title: string;
  type: string | null;
  summary: string | null;
  frontmatter: Record<string, unknown> | null;
  frontmatter_error: string | null;
  headings: Heading[];
  tags: string[];
  grades: Graded[];
}

interface LinkDbRow {
  source: string;
  line: number;
  kind: 'wiki' | 'embed' | 'markdown';
  raw: string;
  target: string;
  subpath: string | null;
  alias: string | null;
  start_offset: number;
  end_offset: number;
  in_frontmatter: boolean;
  resolved: string | null;
}

const LINK_COLUMNS = 'source, line, kind, raw, target, subpath, alias, start_offset, end_offset, in_frontmatter, resolved';

/** Byte order: the columns are declared, the same on PGlite and every server. */
const BY_PATH = 'repo, path';

/**
 * Builds the {@link NoteIndex} over one database; `noteTextsBytes` bounds its kept notes'
 * texts ({@link NoteTexts}, default {@link NOTE_TEXTS_CACHE_BYTES}).
 */
export function createNoteIndex(sql: SqlClient, options: { noteTextsBytes?: number } = {}): NoteIndex {
  const longContents = new LongContents();
  const noteTexts = new NoteTexts(options.noteTextsBytes);
  const pathLists = byteCache<string, { key: string; paths: readonly string[] }>({
    maxBytes: FILE_PATHS_CACHE_BYTES,
    sizeOf: (entry) => estimateBytes(entry.paths),
  });
  // The candidates of a regex's trigram query, by repository, kept while the caller holds
  // that query object: one search reads its pages with the same object, and evaluating a
  // query of hundreds of trigrams for every page cost more than the pages.
  const queryCandidates = new WeakMap<TrigramQuery, Map<string, { ids: number[] | null; state: string | null }>>();
  // The candidates of a needle's keys or a regex's trigram query, by repository and index
  // state: the next search of the same text reads no posting list again, and a change of
  // the index (a write, an outside commit, a rebuild) gives a new state and new candidates.
  const stateCandidates = byteCache<string, { state: string; ids: number[] | null }>({
    maxBytes: CANDIDATES_CACHE_BYTES,
    sizeOf: (entry, key) => 64 + 2 * (key.length + entry.state.length) + 8 * (entry.ids?.length ?? 0),
  });
  /**
   * The candidates `read` gives for `what` (a needle's keys or a regex's query, as text) in
   * `repo`, kept under the repository's index state, read before them: candidates read
   * while the index moves are kept under the older state, which no later call asks for.
   */
  const candidatesAt = async (
    repo: string,
    what: string,
    read: () => Promise<number[] | null>,
  ): Promise<{ ids: number[] | null; state: string | null }> => {
    const state = await indexState(sql, repo);
    if (state === null) return { ids: await read(), state };
    const key = `${repo}\0${what}`;
    const kept = stateCandidates.get(key);
    if (kept !== undefined && kept.state === state) return { ids: kept.ids, state };
    const ids = await read();
    stateCandidates.set(key, { state, ids });
    return { ids, state };
  };
  const candidateRows = new CandidateRows();
  /**
   * The scan rows of the candidates `ids` of `what` in `repo` at index `state`, kept, for a
   * scan that goes on past its first page (`after` given) or whose rows are kept already;
   * null otherwise (the page is then read with its own statement).
   */
  const keptRowsOf = async (
    repo: string,
    what: string,
    state: string | null,
    ids: readonly number[],
    after: ScanPosition | null,
  ): Promise<readonly ScanRow[] | null> => {
    if (state === null || ids.length > CANDIDATE_ROWS_MAX) return null;
    const key = `${repo}\0${what}`;
    const kept = candidateRows.get(key, state);
    if (kept !== null || after === null) return kept;
    return candidateRows.read(sql, key, state, repo, ids);
  };
  return {
    async repoState(repo) {
      const row = (
        await sql.query<{ head: string | null; fingerprint: string; indexed_at: Date | string }>(
          'SELECT head, fingerprint, indexed_at FROM repos WHERE name = $1',
          [repo],
        )
      ).rows[0];
      return row ? { head: row.head, fingerprint: row.fingerprint, indexedAt: new Date(row.indexed_at) } : null;
    },

    async getNote(repo, path, readBlob) {
      // The text of a long note is left in the table here: copying megabytes out of PGlite runs on the event loop.
      const row = (
        await sql.query<NoteDbRow & { bytes: number }>(
          `SELECT repo, path, oid, size, total_lines, title, type, summary, frontmatter, frontmatter_error, headings, tags, grades,
                octet_length(content) AS bytes, CASE WHEN octet_length(content) <= ${LONG_CONTENT_BYTES} THEN ${wholeText(sql, 'content')} END AS content
           FROM notes WHERE repo = $1 AND path = $2`,
          [repo, path],
        )
      ).rows[0];
      if (!row) return null;
      if (row.content === null) row.content = await longContents.read(sql, row, readBlob);
      return toIndexedNote(row);
    },

    async getFile(repo, path) {
      const row = (
        await sql.query<{ repo: string; path: string; oid: string; size: number | null; is_note: boolean }>(
          'SELECT repo, path, oid, size, is_note FROM files WHERE repo = $1 AND path = $2',
          [repo, path],
        )
      ).rows[0];
      return row ? { repo: row.repo, path: row.path, oid: row.oid, size: row.size, isNote: row.is_note } : null;
    },

    async filePaths(repo) {
      // One row of state instead of every path (6,300 on obsidian-help) when the index has not moved.
      const state = (
        await sql.query<{ head: string | null; fingerprint: string; indexed_at: Date | string }>(
          'SELECT head, fingerprint, indexed_at FROM repos WHERE name = $1',
          [repo],
        )
      ).rows[0];
      const key = state === undefined ? null : `${state.head ?? ''}\0${state.fingerprint}\0${new Date(state.indexed_at).getTime()}`;
      const kept = pathLists.get(repo);
      if (key !== null && kept?.key === key) return kept.paths;
      const paths = (await sql.query<{ path: string }>('SELECT path FROM files WHERE repo = $1 ORDER BY path', [repo])).rows.map(
        (row) => row.path,
      );
      // Read after the state, so the list is at least as new as the key it is kept under.
      if (key !== null) pathLists.set(repo, { key, paths: Object.freeze(paths) });
      return paths;
    },

    async notePaths(repo) {
      return (await sql.query<{ path: string }>('SELECT path FROM notes WHERE repo = $1 ORDER BY path', [repo])).rows.map(
        (row) => row.path,
      );
    },

    async noteOutline(scopes) {
      const where = scopeClause(scopes, []);
      return (
        await sql.query<{ repo: string; path: string; summary: string | null }>(
          `SELECT repo, path, summary FROM notes WHERE ${where.sql} ORDER BY ${BY_PATH}`,
          where.params,
        )
      ).rows;
    },

    async linksFrom(repo, path) {
      const rows = (
        await sql.query<LinkDbRow>(`SELECT ${LINK_COLUMNS} FROM links WHERE repo = $1 AND source = $2 ORDER BY ordinal`, [repo, path])
      ).rows;
      return rows.map(toIndexedLink);
    },

    async linksTo(repo, targetPath) {
      const rows = (
        await sql.query<LinkDbRow>(`SELECT ${LINK_COLUMNS} FROM links WHERE repo = $1 AND resolved = $2 ORDER BY source, ordinal`, [
          repo,
          targetPath,
        ])
      ).rows;
      return rows.map(toIndexedLink);
    },

    async fileOids(repo) {
      return storedFileOids(sql, repo);
    },

    async linkSourcesByKey(repo, keys) {
      const out = new Map<string, string[]>();
      if (keys.length === 0) return out;
      const rows = (
        await sql.query<{ source: string; target: string }>(
          'SELECT DISTINCT source, target FROM links WHERE repo = $1 AND target_key = ANY($2::text[])',
          [repo, [...new Set(keys)]],
        )
      ).rows;
      for (const row of rows) {
        const targets = out.get(row.source);
        if (targets === undefined) out.set(row.source, [row.target]);
        else targets.push(row.target);
      }
      return out;
    },

    async noteRows(repo) {
      // Links are aggregated per note in SQL: materialising every link row in JS (61k on
      // obsidian-help) cost seconds on PGlite; one array per note costs milliseconds.
      const rows = (
        await sql.query<
          Omit<NoteRow, 'links' | 'embeds'> & {
            links: Array<[string, string | null]> | null;
            embeds: Array<[string, string | null]> | null;
          }
        >(
          `SELECT n.path, n.oid, n.size, n.title, n.type, n.summary, n.frontmatter, n.tags, l.links, l.embeds
           FROM notes n
           LEFT JOIN (
             SELECT source,
                    jsonb_agg(jsonb_build_array(target, resolved) ORDER BY ordinal) FILTER (WHERE kind <> 'embed') AS links,
                    jsonb_agg(jsonb_build_array(target, resolved) ORDER BY ordinal) FILTER (WHERE kind = 'embed') AS embeds
               FROM links WHERE repo = $1 GROUP BY source
           ) l ON l.source = n.path
          WHERE n.repo = $1
          ORDER BY n.path`,
          [repo],
        )
      ).rows;
      const toTargets = (pairs: Array<[string, string | null]> | null): LinkTarget[] =>
        (pairs ?? []).map(([target, resolved]) => ({ target, resolved }));
      return rows.map(({ links, embeds, ...note }) => ({ ...note, links: toTargets(links), embeds: toTargets(embeds) }));
    },

    async listNotes(scopes, filter, page) {
      const params: unknown[] = [];
      const conditions = [scopeClause(scopes, params).sql];
      if (filter.type !== undefined) conditions.push(`type = $${params.push(filter.type)}`);
      if (filter.status !== undefined) conditions.push(`frontmatter->>'status' = $${params.push(filter.status)}`);
      const where = conditions.join(' AND ');
      const total =
        (await sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM notes WHERE ${where}`, params)).rows[0]?.total ?? 0;
      const rows = (
        await sql.query<NoteListing>(
          `SELECT repo, path, title, type, summary, frontmatter FROM notes WHERE ${where}
         ORDER BY ${BY_PATH} LIMIT $${params.push(page.limit)} OFFSET $${params.push(page.offset)}`,
          params,
        )
      ).rows;
      return { notes: rows, total };
    },

    async fieldValues(scopes, field) {
      const params: unknown[] = [];
      const where = scopeClause(scopes, params).sql;
      const expression = field === 'type' ? 'type' : `frontmatter->>'status'`;
      return (
        await sql.query<{ value: string; notes: number }>(
          `SELECT ${expression} AS value, count(*)::int AS notes FROM notes WHERE ${where} AND ${expression} IS NOT NULL
         GROUP BY 1 ORDER BY 2 DESC, 1`,
          params,
        )
      ).rows;
    },

    async scanNotes(scopes, options) {
      const needle = options.needle === null || options.needle === '' ? null : options.needle;
      if (needle === null && options.trigrams !== undefined && options.trigrams.op !== 'all') {
        const candidates = new Map<string, number[]>();
        const keptRows = new Map<string, readonly ScanRow[] | null>();
        let known = queryCandidates.get(options.trigrams);
        if (known === undefined) queryCandidates.set(options.trigrams, (known = new Map()));
        const what = `r${JSON.stringify(options.trigrams)}`;
        for (const repo of new Set(scopes.map((scope) => scope.repo))) {
          const query = options.trigrams;
          if (!known.has(repo)) known.set(repo, await candidatesAt(repo, what, () => queryNoteIds(sql, repo, query)));
          const { ids, state } = known.get(repo)!;
          if (ids !== null) candidates.set(repo, ids);
          keptRows.set(
            repo,
            ids === null || options.contentPattern !== undefined ? null : await keptRowsOf(repo, what, state, ids, options.after),
          );
        }
        const narrowed = scopes.filter((scope) => candidates.get(scope.repo)?.length !== 0);
        return narrowed.length === 0
          ? []
          : (
              await scanPage(
                sql,
                longContents,
                noteTexts,
                narrowed,
                candidates,
                options.after,
                options.limit,
                options.contentPattern,
                keptRows,
              )
            ).map(plainNote);
      }
      if (needle === null)
        return (await scanPage(sql, longContents, noteTexts, scopes, new Map(), options.after, options.limit, options.contentPattern)).map(
          plainNote,
        );
      // The needle's trigram keys narrow each repository to the notes that have them all (a
      // needle of fewer than three characters has none and narrows nothing); the notes are
      // then checked here, where folding case is JavaScript's, as the callers' line matching.
      const keys = needleKeys(needle);
      const candidates = new Map<string, number[]>();
      const states = new Map<string, string | null>();
      const what = `p${keys.join(',')}`;
      if (keys.length > 0) {
        for (const repo of new Set(scopes.map((scope) => scope.repo))) {
          const { ids, state } = await candidatesAt(repo, what, () => candidateNoteIds(sql, repo, keys));
          candidates.set(repo, ids!);
          states.set(repo, state);
        }
      }
      /** The kept rows of each repository's candidates, once the scan is past a first page (see keptRowsOf). */
      const keptAfter = async (position: ScanPosition | null) => {
        const kept = new Map<string, readonly ScanRow[] | null>();
        for (const [repo, ids] of candidates) kept.set(repo, await keptRowsOf(repo, what, states.get(repo) ?? null, ids, position));
        return kept;
      };
      const narrowed = scopes.filter((scope) => candidates.get(scope.repo)?.length !== 0);
      // Both sides in NFC, as the keys (searchFold) and the line matching see them.
      const folded = searchFold(needle);
      const composed = needle.normalize('NFC');
      // A long note is folded on the worker pool: lower-casing costs milliseconds per MB.
      const contains = async (note: ScannedNote): Promise<boolean> => {
        const content = note.content;
        if (content.length > LONG_CONTENT_BYTES)
          return runPoolTask('contains', { text: content, needle, caseSensitive: options.caseSensitive });
        return options.caseSensitive ? content.normalize('NFC').includes(composed) : noteTexts.fold(note.oid, content).includes(folded);
      };
      const found: NoteText[] = [];
      let after = options.after;
      for (let page = Math.max(options.limit, 20); narrowed.length > 0; page = Math.min(page * 2, 1000)) {
        const notes = await scanPage(sql, longContents, noteTexts, narrowed, candidates, after, page, undefined, await keptAfter(after));
        for (const note of notes) {
          if (!(await contains(note))) continue;
          found.push(plainNote(note));
          if (found.length === options.limit) return found;
        }
        if (notes.length < page) break;
        after = notes[notes.length - 1]!;
      }
      return found;
    },

    async contents(repo, paths) {
      // Blob ids first; only the texts not kept are copied out of the index.
      const rows = (
        await sql.query<{ path: string; oid: string; id: number }>(
          'SELECT path, oid, id FROM notes WHERE repo = $1 AND path = ANY($2::text[])',
          [repo, [...paths]],
        )
      ).rows;
      // The kept texts are taken before the others are read: keeping those may push these out.
      const kept = rows.map((row) => noteTexts.get(row.oid));
      const fetched = await noteTexts.fetch(
        sql,
        rows.filter((_, i) => kept[i] === undefined).map((row) => ({ repo, id: row.id })),
      );
      const contents = new Map<string, string>();
      for (const [i, row] of rows.entries()) {
        const now = fetched.get(`${repo}\0${row.id}`);
        const content = kept[i] ?? (now?.path === row.path ? now.content : undefined);
        if (content !== undefined) contents.set(row.path, content);
      }
      return contents;
    },

    async linkGraph(repo) {
      return (
        await sql.query<GraphLink>(
          `SELECT source, line, raw, target, resolved FROM links
           WHERE repo = $1 AND target <> '' AND resolved IS DISTINCT FROM source
           ORDER BY source, ordinal`,
          [repo],
        )
      ).rows;
    },

    async noteFrontmatters(repo) {
      const rows = (
        await sql.query<{
          path: string;
          type: string | null;
          frontmatter: Record<string, unknown> | null;
          frontmatter_error: string | null;
        }>('SELECT path, type, frontmatter, frontmatter_error FROM notes WHERE repo = $1 ORDER BY path', [repo])
      ).rows;
      return rows.map((row) => ({ path: row.path, type: row.type, frontmatter: row.frontmatter, frontmatterError: row.frontmatter_error }));
    },
  };
}

/**
 * A select expression for the text column `column` that hands a note's text back as stored,
 * byte order mark included (note-text.ts keeps a BOM as U+FEFF, so a text round-trips):
 * PGlite decodes each text field with a TextDecoder that drops a leading U+FEFF, so there a
 * text that starts with one is sent with a second; node-postgres keeps it as it is.
 */
function wholeText(sql: SqlClient, column: string): string {
  return sql.engine === 'pglite' ? `CASE WHEN starts_with(${column}, U&'\\FEFF') THEN U&'\\FEFF' || ${column} ELSE ${column} END` : column;
}

/** The bound of the kept search candidates (note ids by repository, query and index state), in bytes (README "Memory"). */
export const CANDIDATES_CACHE_BYTES = 1024 * 1024;

/**
 * The index state of `repo` as text (head, fingerprint and the time of indexing to the
 * microsecond): every write of a repository's rows sets a new one; null when it is not indexed.
 */
async function indexState(sql: SqlClient, repo: string): Promise<string | null> {
  const row = (
    await sql.query<{ head: string | null; fingerprint: string; indexed_at: string }>(
      'SELECT head, fingerprint, indexed_at::text AS indexed_at FROM repos WHERE name = $1',
      [repo],
    )
  ).rows[0];
  return row === undefined ? null : `${row.head ?? ''}\0${row.fingerprint}\0${row.indexed_at}`;
}

/** The bound of the kept file path lists (NoteIndex.filePaths), by repository, in bytes (README "Memory"). */
export const FILE_PATHS_CACHE_BYTES = 4 * 1024 * 1024;

/** The bound of {@link LongContents}: the long notes' text kept, in bytes (README "Memory"). */
export const LONG_CONTENTS_CACHE_BYTES = 32 * 1024 * 1024;

/** Notes of more than this many bytes are read one per statement and kept in {@link LongContents}. */
const LONG_CONTENT_BYTES = 256 * 1024;

/**
 * The contents of long notes, by repository, path and blob id, kept for the next scan: the
 * index (PGlite) runs on the event loop, and copying and decoding megabytes of text on every
 * search of them would hold every other call. A changed note has a new blob id, so an entry
 * is never stale. Bounded to {@link LONG_CONTENTS_CACHE_BYTES} of text; the least recently used goes first.
 */
class LongContents {
  private readonly entries = byteCache<string, { text: Promise<string>; bytes: number }>({
    maxBytes: LONG_CONTENTS_CACHE_BYTES,
    sizeOf: (entry) => entry.bytes,
  });

  /**
   * The content of the note (when not kept: from `readBlob` when it gives the blob, else read
   * with one statement).
   */
  read(
    sql: SqlClient,
    note: { repo: string; path: string; oid: string; bytes: number },
    readBlob?: (oid: string) => Promise<Buffer | null>,
  ): Promise<string> {
    const key = `${note.repo}\0${note.path}\0${note.oid}`;
    const kept = this.entries.get(key);
    if (kept) return kept.text;
    const fromIndex = () =>
      sql.query<{ content: string }>(
        `SELECT ${wholeText(sql, 'content')} AS content FROM notes WHERE repo = $1 AND path = $2 AND oid = $3`,
        [note.repo, note.path, note.oid],
      );
    const fromBlob = async () => {
      const buffer = await readBlob!(note.oid).catch(() => null);
      const text = buffer === null ? null : decodeNoteText(buffer);
      return text === null ? fromIndex() : { rows: [{ content: text }] };
    };
    const text = (readBlob ? fromBlob() : fromIndex()).then(async (result) => {
      if (result.rows[0]) return result.rows[0].content;
      // Changed since the page was read: its text as it is now, not kept under the old blob id.
      this.forget(key, entry);
      return (
        (
          await sql.query<{ content: string }>(`SELECT ${wholeText(sql, 'content')} AS content FROM notes WHERE repo = $1 AND path = $2`, [
            note.repo,
            note.path,
          ])
        ).rows[0]?.content ?? ''
      );
    });
    // UTF-8 bytes stand for the string's size (V8 keeps Latin-1 text at 1 byte a character, other text at 2).
    const entry = { text, bytes: note.bytes };
    text.catch(() => this.forget(key, entry));
    this.entries.set(key, entry);
    return text;
  }

  private forget(key: string, entry: { text: Promise<string> }): void {
    if (this.entries.peek(key) === entry) this.entries.delete(key);
  }
}

/**
 * Up to `limit` notes in the scopes after `after`, in (repo, path) order, each with its blob
 * id; `ids` limits a repository to those notes. The page is read as paths and blob ids first;
 * the text comes from `texts` when kept, else from a second statement for the blob ids not
 * kept (then kept), or from `long` for long notes: after the first searches, a page copies
 * no text out of the index thread. With `contentPattern`, only notes whose stored text
 * matches that Postgres regex (see NoteIndex.scanNotes), checked in the database.
 */
async function scanPage(
  sql: SqlClient,
  long: LongContents,
  texts: NoteTexts,
  scopes: readonly Scope[],
  ids: ReadonlyMap<string, readonly number[]>,
  after: ScanPosition | null,
  limit: number,
  contentPattern?: string,
  keptRows?: ReadonlyMap<string, readonly ScanRow[] | null>,
): Promise<ScannedNote[]> {
  let rows = contentPattern === undefined && keptRows !== undefined ? pageOfKeptRows(scopes, keptRows, after, limit) : null;
  if (rows === null) {
    const params: unknown[] = [];
    const conditions = [scopeClause(scopes, params, (repo) => ids.get(repo)).sql];
    if (after) conditions.push(`(repo, path) > ($${params.push(after.repo)}, $${params.push(after.path)})`);
    // Checked in the database, so the notes it leaves out are never read out of it.
    if (contentPattern !== undefined) conditions.push(`content ~ $${params.push(contentPattern)}`);
    // octet_length reads the stored size only; no text is copied here.
    rows = (
      await sql.query<{ repo: string; path: string; oid: string; id: number; bytes: number }>(
        `SELECT repo, path, oid, id, octet_length(content) AS bytes
         FROM notes WHERE ${conditions.join(' AND ')} ORDER BY ${BY_PATH} LIMIT $${params.push(limit)}`,
        params,
      )
    ).rows;
  }
  // The kept texts are taken before the others are read: keeping those may push these out.
  const kept = rows.map((row) => (row.bytes <= LONG_CONTENT_BYTES ? texts.get(row.oid) : undefined));
  const fetched = await texts.fetch(
    sql,
    rows.filter((row, i) => row.bytes <= LONG_CONTENT_BYTES && kept[i] === undefined),
  );
  const notes: ScannedNote[] = [];
  for (const [i, row] of rows.entries()) {
    if (row.bytes > LONG_CONTENT_BYTES) {
      notes.push({ repo: row.repo, path: row.path, oid: row.oid, content: await long.read(sql, row) });
      continue;
    }
    const text = kept[i];
    if (text !== undefined) {
      notes.push({ repo: row.repo, path: row.path, oid: row.oid, content: text });
      continue;
    }
    // Changed between the two statements: its text as it is now, under its blob id now;
    // deleted (or its id another note's): left out, as if the page had been read after.
    const now = fetched.get(`${row.repo}\0${row.id}`);
    if (now !== undefined && now.path === row.path) notes.push({ repo: row.repo, path: row.path, oid: now.oid, content: now.content });
  }
  return notes;
}

/** A note as a scan page lists it before its text: its id, path, blob id and size in bytes (`octet_length`). */
export interface ScanRow {
  id: number;
  path: string;
  oid: string;
  bytes: number;
}

/** The bound of the kept candidates' scan rows (by repository, query and index state), in bytes (README "Memory"). */
export const CANDIDATE_ROWS_CACHE_BYTES = 8 * 1024 * 1024;

/** Candidates beyond this many are never kept as rows: their pages are read one statement each. */
const CANDIDATE_ROWS_MAX = 20_000;

/**
 * The scan rows of a search's candidates, by repository, query and index state, in path
 * order: a scan that reads several pages of one candidate list (find_references counting
 * every line, the pages of a search) reads the rows once, and each page is then taken out of
 * them, not with a statement that filters the whole list again. Bounded to
 * {@link CANDIDATE_ROWS_CACHE_BYTES}; a change of the index gives a new state, and the rows
 * are read again.
 */
class CandidateRows {
  private readonly kept = byteCache<string, { state: string; rows: readonly ScanRow[] }>({
    maxBytes: CANDIDATE_ROWS_CACHE_BYTES,
    sizeOf: (entry, key) =>
      64 + 2 * (key.length + entry.state.length) + entry.rows.reduce((sum, row) => sum + 48 + 2 * (row.path.length + row.oid.length), 0),
  });

  /** The rows kept for `key` at `state`, or null. */
  get(key: string, state: string): readonly ScanRow[] | null {
    const entry = this.kept.get(key);
    return entry !== undefined && entry.state === state ? entry.rows : null;
  }

  /**
   * Reads the rows of notes `ids` of `repo` in path order (the index's C collation) and keeps
   * them under `key` at `state`, the state read before the ids were: rows read while the
   * index moves are kept under the older state, which no later call asks for.
   */
  async read(sql: SqlClient, key: string, state: string, repo: string, ids: readonly number[]): Promise<readonly ScanRow[]> {
    const rows = (
      await sql.query<ScanRow>(
        'SELECT id, path, oid, octet_length(content) AS bytes FROM notes WHERE repo = $1 AND id = ANY($2::int[]) ORDER BY path',
        [repo, [...ids]],
      )
    ).rows;
    this.kept.set(key, { state, rows });
    return rows;
  }
}

/**
 * The page `scanPage` would read, taken out of each repository's kept rows: the notes after
 * `after` (in the index's order: repository, then path, both by their UTF-8 bytes as the C
 * collation orders them) within `scopes`, at most `limit`. Null when a repository of the
 * scopes has no kept rows (the page is then read from the database).
 */
function pageOfKeptRows(
  scopes: readonly Scope[],
  keptRows: ReadonlyMap<string, readonly ScanRow[] | null>,
  after: ScanPosition | null,
  limit: number,
): Array<ScanRow & { repo: string }> | null {
  const repos = [...new Set(scopes.map((scope) => scope.repo))].sort(compareBytes);
  if (!repos.every((repo) => keptRows.get(repo))) return null;
  const page: Array<ScanRow & { repo: string }> = [];
  for (const repo of repos) {
    if (after !== null && compareBytes(repo, after.repo) < 0) continue;
    const rows = keptRows.get(repo)!;
    const mine = scopes.filter((scope) => scope.repo === repo);
    let i = after !== null && after.repo === repo ? firstAfter(rows, after.path) : 0;
    for (; i < rows.length && page.length < limit; i++) {
      const row = rows[i]!;
      if (mine.some((scope) => inScope(scope, row.path))) page.push({ repo, ...row });
    }
    if (page.length === limit) break;
  }
  return page;
}

/** The index of the first row whose path comes after `path` (rows in C collation order). */
function firstAfter(rows: readonly ScanRow[], path: string): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compareBytes(rows[mid]!.path, path) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether `path` is within `scope`, as {@link scopeClause} tests it. */
function inScope(scope: Scope, path: string): boolean {
  if (scope.file !== undefined) return path === scope.file;
  return scope.prefixes.some((prefix) => prefix === '' || path.startsWith(prefix));
}

/** Orders two strings as Postgres's C collation does: by their UTF-8 bytes (code point order). */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The {@link NoteText} of a scanned note, without its blob id. */
function plainNote(note: ScannedNote): NoteText {
  return { repo: note.repo, path: note.path, content: note.content };
}

/** A note's text as {@link NoteTexts.fetch} read it, with its path and blob id at that moment. */
interface FetchedText {
  path: string;
  oid: string;
  content: string;
}

/** A note of a scan page: {@link NoteText} with the blob id its content is. */
interface ScannedNote extends NoteText {
  oid: string;
}

/** The bound of {@link NoteTexts}: notes' texts and their folded forms kept, in bytes (README "Memory"). */
export const NOTE_TEXTS_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The texts of notes (up to {@link LONG_CONTENT_BYTES}), by blob id, and their
 * {@link searchFold} forms once asked for: a search or find_references reads every candidate
 * note's text, and copying and decoding it out of PGlite for each statement kept the index
 * thread busy (bench/RESULTS.md, "Many clients"). A blob id names one content, so an entry is
 * never stale: a changed note has a new blob id, and its text is read again. Bounded to
 * {@link NOTE_TEXTS_CACHE_BYTES} together, each string counted at 2 bytes a character (V8's
 * most); the least recently used goes first.
 */
export class NoteTexts {
  private readonly texts: ReturnType<typeof byteCache<string, string>>;

  private readonly folded: ReturnType<typeof byteCache<string, string>>;

  constructor(maxBytes: number = NOTE_TEXTS_CACHE_BYTES) {
    // Half for the texts, half for the folded forms: a search folds every text it reads.
    this.texts = byteCache<string, string>({ maxBytes: maxBytes / 2, sizeOf: (text) => 16 + 2 * text.length });
    this.folded = byteCache<string, string>({ maxBytes: maxBytes / 2, sizeOf: (text) => 16 + 2 * text.length });
  }

  /** Whether the text of blob `oid` is kept (not marking it used). */
  has(oid: string): boolean {
    return this.texts.has(oid);
  }

  /** The kept text of blob `oid`, or undefined. */
  get(oid: string): string | undefined {
    return this.texts.get(oid);
  }

  /** {@link searchFold} of `content`, the text of blob `oid`: kept, or folded now and kept. */
  fold(oid: string, content: string): string {
    let folded = this.folded.get(oid);
    if (folded === undefined) this.folded.set(oid, (folded = searchFold(content)));
    return folded;
  }

  /** The bytes the kept texts and folded forms count for together (at most the bound). */
  get calculatedSize(): number {
    return this.texts.calculatedSize + this.folded.calculatedSize;
  }

  /**
   * Reads the texts of these notes from the index with one statement per repository, keeps
   * each under the blob id the row has now, and gives them by `repo\0id`.
   */
  async fetch(sql: SqlClient, notes: ReadonlyArray<{ repo: string; id: number }>): Promise<Map<string, FetchedText>> {
    const byRepo = new Map<string, number[]>();
    for (const note of notes) {
      let list = byRepo.get(note.repo);
      if (!list) byRepo.set(note.repo, (list = []));
      list.push(note.id);
    }
    const found = new Map<string, FetchedText>();
    for (const [repo, ids] of byRepo) {
      const rows = (
        await sql.query<{ id: number; path: string; oid: string; content: string }>(
          `SELECT id, path, oid, ${wholeText(sql, 'content')} AS content FROM notes WHERE repo = $1 AND id = ANY($2::int[])`,
          [repo, ids],
        )
      ).rows;
      for (const row of rows) {
        found.set(`${repo}\0${row.id}`, { path: row.path, oid: row.oid, content: row.content });
        if (row.content.length <= LONG_CONTENT_BYTES) this.texts.set(row.oid, row.content);
      }
    }
    return found;
  }
}

/**
 * `WHERE` text for scopes: `(repo = $a AND (starts_with(path, $b) OR …)) OR …`, params
 * appended; `idsOf(repo)`, where given, limits a repository to those note ids.
 */
function scopeClause(
  scopes: readonly Scope[],
  params: unknown[],
  idsOf?: (repo: string) => readonly number[] | undefined,
): { sql: string; params: unknown[] } {
  const parts = scopes.map((scope) => {
    const ids = idsOf?.(scope.repo);
    const repo = `repo = $${params.push(scope.repo)}${ids ? ` AND id = ANY($${params.push(ids)}::int[])` : ''}`;
    if (scope.file !== undefined) return `(${repo} AND path = $${params.push(scope.file)})`;
    if (scope.prefixes.length === 0) return 'FALSE';
    if (scope.prefixes.includes('')) return `(${repo})`;
    return `(${repo} AND (${scope.prefixes.map((prefix) => `starts_with(path, $${params.push(prefix)})`).join(' OR ')}))`;
  });
  return { sql: parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`, params };
}

function toIndexedNote(row: NoteDbRow): IndexedNote {
  return {
    repo: row.repo,
    path: row.path,
    oid: row.oid,
    size: row.size,
    content: row.content,
    totalLines: row.total_lines,
    title: row.title,
    type: row.type,
    summary: row.summary,
    frontmatter: row.frontmatter,
    frontmatterError: row.frontmatter_error,
    headings: row.headings,
    tags: row.tags,
    grades: row.grades,
  };
}

function toIndexedLink(row: LinkDbRow): IndexedLink {
  return {
    source: row.source,
    line: row.line,
    kind: row.kind,
    raw: row.raw,
    target: row.target,
    subpath: row.subpath,
    alias: row.alias,
    start: row.start_offset,
    end: row.end_offset,
    inFrontmatter: row.in_frontmatter,
    resolved: row.resolved,
  };
}
