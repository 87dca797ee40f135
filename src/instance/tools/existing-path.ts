// Which existing file or folder a caller's path names. Paths in and out are exact Unicode, as
// Git holds them: a path is looked up exactly as given first, then ignoring Unicode
// normalisation (a name stored decomposed, as macOS writes it, is found from either form).
// Only readable files count (isReadable): a hidden or closed file, or a symbolic link to one,
// is looked up exactly like a path where nothing is, so no answer tells the two apart.
import { existingPathForms, isReadable, type PathKind } from '../../notes/vault-path.ts';
import { sharedStateKey } from '../../repo-host/caller-repo-host.ts';
import type { RepoHistory } from '../../repo-host/history.ts';
import type { RepoHost } from '../../repo-host/repo-host.ts';

/** The files of a repository now, and the folders holding them, by exact spelling. */
interface Listing {
  files: ReadonlySet<string>;
  folders: ReadonlySet<string>;
  /** NFC form → the existing spellings with that form (files and folders apart); built on first use. */
  nfc?: Map<string, string[]>;
}

/** What a path may name: a file, or a file or a folder (one holding files). */
type Wanted = 'file' | 'file or folder';

const listings = new WeakMap<object, Map<string, { fingerprint: string; listing: Listing }>>();

/**
 * The readable files of `repo` now (work-tree changes included, as the host's snapshot has
 * them; isReadable with the open `folders`) and their folders; kept per host, repository and
 * open folders until the host's fingerprint moves, so asking again costs one fingerprint check.
 */
async function listingOf(host: RepoHost, repo: string, open: readonly string[]): Promise<Listing> {
  let byRepo = listings.get(sharedStateKey(host));
  if (byRepo === undefined) listings.set(sharedStateKey(host), (byRepo = new Map()));
  const key = `${repo}\0${JSON.stringify(open)}`;
  const fingerprint = await host.fingerprint(repo);
  const cached = byRepo.get(key);
  if (cached !== undefined && cached.fingerprint === fingerprint) return cached.listing;
  const snapshot = await host.snapshot(repo);
  const files = new Set(snapshot.files.filter((file) => isReadable(file, open)).map((file) => file.path));
  const folders = new Set<string>();
  for (const file of files) {
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) folders.add(file.slice(0, slash));
  }
  const listing: Listing = { files, folders };
  byRepo.set(key, { fingerprint: snapshot.fingerprint, listing });
  return listing;
}

/** The existing spellings whose NFC form is `path`'s. */
function sameUpToNormalisation(listing: Listing, path: string, wanted: Wanted): string[] {
  if (listing.nfc === undefined) {
    const nfc = new Map<string, string[]>();
    const add = (key: string, spelling: string) => {
      const list = nfc.get(key);
      if (list === undefined) nfc.set(key, [spelling]);
      else list.push(spelling);
    };
    for (const file of listing.files) add(`f:${file.normalize('NFC')}`, file);
    for (const folder of listing.folders) add(`d:${folder.normalize('NFC')}`, folder);
    listing.nfc = nfc;
  }
  const key = path.normalize('NFC');
  return [...(listing.nfc.get(`f:${key}`) ?? []), ...(wanted === 'file' ? [] : (listing.nfc.get(`d:${key}`) ?? []))];
}

/**
 * The existing spelling that `candidates` (in order of preference) name: the first candidate
 * that exists exactly; else the first whose Unicode normalisation matches exactly one existing
 * path (two that differ only in normalisation are left to the exact spelling). Null when none.
 */
function pickSpelling(listing: Listing, candidates: readonly string[], wanted: Wanted): string | null {
  const exists = (path: string) => listing.files.has(path) || (wanted === 'file or folder' && listing.folders.has(path));
  for (const candidate of candidates) if (exists(candidate)) return candidate;
  for (const candidate of candidates) {
    const found = sameUpToNormalisation(listing, candidate, wanted);
    if (found.length === 1) return found[0]!;
  }
  return null;
}

/** Options of {@link callerSpellings}. */
export interface SpellingOptions {
  /**
   * The repository the call names: a path written `<repo>/<path>`, as answers across
   * repositories name files, is also read as `<path>` (after the path as given).
   */
  repo?: string;
  /** `'refuse'`: a line break in the path is refused naming `tool` (see existingPathForms). */
  lineBreaks?: 'allow' | 'refuse';
  tool?: string;
  /** Also look for each spelling with `.md` added; the default for a `'note'`. */
  noteSuffix?: boolean;
}

/** Options of {@link existingPath}: those of {@link callerSpellings}, and the open folders. */
export interface ExistingPathOptions extends SpellingOptions {
  /** The repository's open folders (`folders` of its settings): only readable files are found. */
  folders: readonly string[];
}

/**
 * The readings of a caller's path, each a list of spellings to try in order: the path as
 * given (exactly, then without surrounding white space) and, with `options.repo` when the
 * path starts with `<repo>/`, the rest of it. Refuses as {@link existingPathForms} does.
 */
export function callerSpellings(given: string, what: PathKind, options: SpellingOptions = {}): string[][] {
  const forms = existingPathForms(given, what, options);
  const readings = [forms];
  const prefix = options.repo === undefined ? null : `${options.repo}/`;
  if (prefix !== null) {
    const rest = forms.filter((form) => form.startsWith(prefix) && form.length > prefix.length).map((form) => form.slice(prefix.length));
    if (rest.length > 0) readings.push(rest);
  }
  return readings;
}

/**
 * Whether `repo` has a top-level folder named `name` holding a readable file (isReadable with
 * the open `folders`; its name compared exactly, then ignoring Unicode normalisation).
 */
async function hasTopFolder(host: RepoHost, repo: string, name: string, folders: readonly string[]): Promise<boolean> {
  const listing = await listingOf(host, repo, folders);
  return listing.folders.has(name) || sameUpToNormalisation(listing, name, 'file or folder').some((path) => listing.folders.has(path));
}

/**
 * The one rule for a path a caller writes `<repo>/<path>`, as answers across repositories name
 * files (README "Listing, searching and the history"): when `given` (without surrounding white
 * space) starts with `<repo>/` and the repository has no top-level folder named `repo` (one
 * holding a readable file; see isReadable with `folders`), it means the rest of it; where such
 * a folder exists, it is taken as written. Any other path is returned as given. For a NEW path
 * (create_note's `path`, move_note's `to`), before it is checked and normalised; existing
 * paths follow the same rule through {@link existingPath}. One listing of the repository
 * (kept until its fingerprint moves), only for a path with the prefix.
 */
export async function withoutRepoPrefix(host: RepoHost, repo: string, given: string, folders: readonly string[]): Promise<string> {
  const prefix = `${repo}/`;
  const text = given.trim();
  if (!text.startsWith(prefix) || text.length === prefix.length) return given;
  return (await hasTopFolder(host, repo, repo, folders)) ? given : text.slice(prefix.length);
}

/**
 * The reading of a caller's path to look up in `repo`, by {@link callerSpellings} and the rule
 * of {@link withoutRepoPrefix}: the `<repo>/<path>` reading (the rest) when the path has the
 * prefix and the repository has no top-level folder of that name, else the path as given.
 */
async function callerReading(host: RepoHost, repo: string, given: string, what: PathKind, options: ExistingPathOptions): Promise<string[]> {
  const readings = callerSpellings(given, what, options);
  if (readings.length === 1 || options.repo === undefined) return readings[0]!;
  return (await hasTopFolder(host, repo, options.repo, options.folders)) ? readings[0]! : readings[1]!;
}

/** The spellings of a reading to look up: with `noteSuffix`, each one also with `.md`. */
export function withNoteSuffix(reading: readonly string[], noteSuffix: boolean): string[] {
  return noteSuffix ? reading.flatMap((form) => (form.endsWith('.md') ? [form] : [form, `${form}.md`])) : [...reading];
}

/**
 * The path in `repo` that a caller's `given` path names, for a tool that reads (or changes)
 * something that exists: its reading (the path as given, or without a `<repo>/` prefix by the
 * rule of {@link withoutRepoPrefix}) when that names an existing file (or, for a `'folder'`, a
 * file or folder), its spelling as the repository holds it,
 * exact before Unicode-normalisation-insensitive; a `'note'` (or with `noteSuffix`) is also
 * found with `.md` added.
 * Only readable files count (isReadable with `options.folders`): a hidden or closed file, or a
 * symbolic link to one, is not found, so the answer is the same as where nothing is.
 * `found: false` and that reading (its first spelling, without `.md` added) when nothing
 * exists there, for the tool's own answer (a history, or a refusal naming closest paths).
 * `''` (a folder's root) is returned as is. Where the host reads one file cheaply
 * (`host.pathReadsAreCheap`: locally, a work tree), a file is first looked for by reading each
 * spelling exactly (`host.readFileEntry`); the repository's listing (its snapshot, kept until
 * the host's fingerprint moves) is made only when none is there, and is what is used elsewhere.
 */
export async function existingPath(
  host: RepoHost,
  repo: string,
  given: string,
  what: PathKind,
  options: ExistingPathOptions,
): Promise<{ path: string; found: boolean }> {
  const readings = [await callerReading(host, repo, given, what, options)];
  const asGiven = readings[0]![0]!;
  if (asGiven === '') return { path: '', found: true };
  const suffix = options.noteSuffix ?? what === 'note';
  // A path almost always names a file exactly: where reading one file is cheap (locally, from
  // a work tree's disk) that answers without listing the repository. (Elsewhere the listing,
  // kept until the branch moves, is cheaper than a read per spelling.)
  if (await host.pathReadsAreCheap(repo)) {
    for (const reading of readings) {
      for (const spelling of withNoteSuffix(reading, suffix)) {
        if (!isReadable({ path: spelling }, options.folders)) continue;
        const entry = await host.readFileEntry(repo, spelling).catch(() => null);
        if (entry !== null && isReadable({ path: spelling, target: entry.target }, options.folders)) return { path: spelling, found: true };
      }
    }
  }
  const listing = await listingOf(host, repo, options.folders);
  const wanted: Wanted = what === 'folder' ? 'file or folder' : 'file';
  for (const reading of readings) {
    const found = pickSpelling(listing, withNoteSuffix(reading, suffix), wanted);
    if (found !== null) return { path: found, found: true };
  }
  return { path: asGiven, found: false };
}

/**
 * The path note_history looks at for a caller's `given` path in `repo`, whose history is
 * `history`: a file there now, found as {@link existingPath} finds a note (so `.base` and
 * other files are taken as given, and `.md` is added only when the path as given has no
 * file); else the first spelling that some commit changed (as given, then with `.md`, the
 * `<repo>/` prefix dropped by the rule of {@link withoutRepoPrefix}; only readable spellings, and only commits where the path was a
 * file, not a symbolic link); else, for the refusal, that path, with `.md` when its
 * name has no extension: so a hidden or closed file, or a link, is named exactly as a path
 * where nothing ever was. One `git log` per spelling tried, only when nothing has the path
 * now. A line break in the path is refused (VaultError `invalid_path`).
 */
export async function historyPath(
  host: RepoHost,
  history: RepoHistory,
  repo: string,
  given: string,
  folders: readonly string[],
): Promise<string> {
  const options: ExistingPathOptions = { repo, lineBreaks: 'refuse', tool: 'note_history', folders };
  const now = await existingPath(host, repo, given, 'note', options);
  if (now.found) return now.path;
  for (const spelling of withNoteSuffix(await callerReading(host, repo, given, 'note', options), true))
    if (isReadable({ path: spelling }, folders) && (await history.hasFileHistory(spelling))) return spelling;
  // Nothing anywhere: a name with an extension (.base, .canvas) is named as given, any other with .md.
  return /\.[^./]+$/.test(now.path) ? now.path : `${now.path}.md`;
}
