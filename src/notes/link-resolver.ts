// Which file a link points at, resolved the way Obsidian resolves it (getFirstLinkpathDest).
import type { Link } from './links.ts';

/**
 * Resolves links against every file path of one repository. Built once (O(files)), then
 * O(1) per link apart from ranking the few files that share a name.
 *
 * The rule, for a link written in the note at `fromPath` (Obsidian's `getFirstLinkpathDest`):
 * 1. `target` `''` (`[[#Heading]]`, `[t](#x)`) is the linking note itself.
 * 2. A Markdown link, or a link starting with `./` or `../`, is first tried relative to the
 *    linking note's folder: the path as written, then with `.md` added.
 * 3. A link with a folder part (`[[projects/Plan]]`, `/Plan`) is tried from the repository
 *    root (a leading `/` is ignored): as written, then with `.md`.
 * 4. Otherwise, and for every bare name (`[[Plan]]`), by name: every file whose name is the link's last segment (with `.md` added
 *    for a note, as written for an attachment such as `diagram.png`) and whose path ends with
 *    the link's folder part (`[[b/Plan]]` matches `a/b/Plan.md`). Among several: the one in
 *    the linking note's own folder, else the shortest path, else the first alphabetically.
 * Each step matches exact case first, then ignoring case (Obsidian is case-insensitive on
 * every platform); paths are compared NFC-normalised. Returns null when nothing matches.
 */
export class LinkResolver {
  private readonly exact = new Map<string, string>();
  private readonly folded = new Map<string, string[]>();
  private readonly byName = new Map<string, string[]>();
  private readonly folders = new Map<string, string>();
  private readonly foldedFolders = new Map<string, string[]>();

  /** Paths whose NFC form is another path's already here (rare): kept to take its place when that one is deleted. */
  private readonly shadowed = new Map<string, string[]>();
  /** Per folder (NFC): how many files lie below it; counted on the first {@link delete}. */
  private folderCounts: Map<string, number> | null = null;

  /** `paths`: every file of the repository, relative to its root, `/`-separated. */
  constructor(paths: Iterable<string>) {
    for (const path of paths) this.add(path);
  }

  /**
   * A resolver for the same paths with each key of `moves` replaced by its value (a move:
   * old path → new path): it answers as {@link delete} of every old path and {@link add} of
   * every new one make it, without this one changing. O(paths) copies and no normalisation, much
   * cheaper than building one from the moved list (move_note needs both, before and after).
   */
  withMoves(moves: ReadonlyMap<string, string>): LinkResolver {
    const copy = new LinkResolver([]);
    for (const [key, path] of this.exact) copy.exact.set(key, path);
    for (const [from, to] of [
      [this.folded, copy.folded],
      [this.byName, copy.byName],
      [this.foldedFolders, copy.foldedFolders],
      [this.shadowed, copy.shadowed],
    ] as const)
      for (const [key, list] of from) to.set(key, [...list]);
    for (const [key, folder] of this.folders) copy.folders.set(key, folder);
    copy.folderCounts = this.folderCounts === null ? null : new Map(this.folderCounts);
    for (const old of moves.keys()) copy.delete(old);
    for (const next of moves.values()) copy.add(next);
    return copy;
  }

  /**
   * Adds one file path (O(depth)): the resolver then answers as one built with it among its
   * paths. A path already there is ignored; one whose NFC form another path already has is
   * kept aside until that one is deleted (as the constructor keeps the first).
   */
  add(path: string): void {
    const key = path.normalize('NFC');
    const holder = this.exact.get(key);
    if (holder !== undefined) {
      const aside = this.shadowed.get(key);
      if (holder !== path && !aside?.includes(path)) push(this.shadowed, key, path);
      return;
    }
    this.exact.set(key, path);
    push(this.folded, key.toLowerCase(), path);
    push(this.byName, baseName(key).toLowerCase(), path);
    // '/' never combines with what stands around it: the folders of an NFC path are NFC too.
    const isNfc = key === path;
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const folder = path.slice(0, slash);
      const folderKey = isNfc ? folder : folder.normalize('NFC');
      if (this.folderCounts !== null) this.folderCounts.set(folderKey, (this.folderCounts.get(folderKey) ?? 0) + 1);
      else if (this.folders.has(folderKey)) break;
      if (this.folders.has(folderKey)) continue;
      this.folders.set(folderKey, folder);
      push(this.foldedFolders, folderKey.toLowerCase(), folder);
    }
  }

  /**
   * Removes one file path (O(depth) plus the few paths sharing its name): the resolver then
   * answers as one built without it. A path not there is ignored; a folder left with no file
   * is no longer one (resolveFolder).
   */
  delete(path: string): void {
    const key = path.normalize('NFC');
    const holder = this.exact.get(key);
    if (holder !== path) {
      const aside = this.shadowed.get(key);
      if (aside !== undefined) pull(this.shadowed, key, path);
      return;
    }
    const counts = this.countFolders();
    this.exact.delete(key);
    pull(this.folded, key.toLowerCase(), path);
    pull(this.byName, baseName(key).toLowerCase(), path);
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const folderKey = path.slice(0, slash).normalize('NFC');
      const left = (counts.get(folderKey) ?? 1) - 1;
      if (left > 0) {
        counts.set(folderKey, left);
        continue;
      }
      counts.delete(folderKey);
      const folder = this.folders.get(folderKey);
      this.folders.delete(folderKey);
      if (folder !== undefined) pull(this.foldedFolders, folderKey.toLowerCase(), folder);
    }
    const next = this.shadowed.get(key)?.[0];
    if (next !== undefined) {
      pull(this.shadowed, key, next);
      this.add(next);
    }
  }

  /** The files below each folder, counted once from the paths held (kept up by add and delete from then on). */
  private countFolders(): Map<string, number> {
    if (this.folderCounts !== null) return this.folderCounts;
    const counts = new Map<string, number>();
    for (const [key, path] of this.exact) {
      const isNfc = key === path;
      for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
        const folderKey = isNfc ? path.slice(0, slash) : path.slice(0, slash).normalize('NFC');
        counts.set(folderKey, (counts.get(folderKey) ?? 0) + 1);
      }
    }
    this.folderCounts = counts;
    return counts;
  }

  /**
   * True when this resolver answers exactly as `new LinkResolver(paths)` would: it holds the
   * same set of paths, each already in NFC (a path in another form, or two spellings of one
   * path, could make the answer depend on the order the paths came in, so those answer false).
   * O(paths) lookups, no normalisation: much cheaper than building one (move_note reuses the
   * resolver its last move left, when the repository's paths are what that move made them).
   */
  holdsExactly(paths: readonly string[]): boolean {
    if (this.shadowed.size > 0 || this.exact.size !== paths.length) return false;
    for (const path of paths) if (this.exact.get(path) !== path) return false;
    return true;
  }

  /** True when `path` is one of the repository's files (exact, NFC-normalised). */
  has(path: string): boolean {
    return this.exact.has(path.normalize('NFC'));
  }

  /**
   * The file `link` points at from the note at `fromPath`, or null (see the class rule).
   * A Markdown image (`kind: 'embed'` with a `raw` that does not start with `![[`) is a
   * Markdown link for rule 2; pass `raw` (a whole {@link Link} does) to have it treated so.
   */
  resolve(link: Pick<Link, 'kind' | 'target'> & { raw?: string }, fromPath: string): string | null {
    const markdownSyntax = link.kind === 'markdown' || (link.kind === 'embed' && link.raw !== undefined && !link.raw.startsWith('![['));
    return this.resolveTarget(link.target, fromPath, markdownSyntax);
  }

  /**
   * The same as {@link resolve} for a bare link path (`relativeFirst`: try the linking
   * note's folder first, as for Markdown links). Also serves `find_references`' "a note may
   * be named without .md".
   */
  resolveTarget(target: string, fromPath: string, relativeFirst = false): string | null {
    if (target === '') return fromPath;
    const wanted = target.normalize('NFC');
    const folder = folderOf(fromPath.normalize('NFC'));
    if (relativeFirst || wanted.startsWith('./') || wanted.startsWith('../')) {
      const joined = joinRelative(folder, wanted);
      if (joined !== null) {
        const found = this.lookupPath(joined);
        if (found !== null) return found;
      }
      if (wanted.startsWith('./') || wanted.startsWith('../')) return null;
    }
    const fromRoot = wanted.replace(/^\/+/, '');
    if (fromRoot.includes('/') || wanted.startsWith('/')) {
      const direct = this.lookupPath(fromRoot);
      if (direct !== null) return direct;
    }
    return this.lookupByName(fromRoot, folder);
  }

  /**
   * The folder a Markdown link's `target` names from the note at `fromPath`, or null: the
   * GitHub convention of documentation repositories (`[template](templates/nygard/)`), with or
   * without the trailing slash; relative to the note's folder first (`./`, `../` only so), then
   * from the root (a leading `/` always so). A folder is one that holds a file (Git has no
   * empty folders); `''` (`/`, or `..` back to the root) is the root. Exact case first, then
   * ignoring case, as for files. Call it when {@link resolveTarget} found no file.
   */
  resolveFolder(target: string, fromPath: string): string | null {
    if (target === '') return null;
    const wanted = target.normalize('NFC').replace(/\/+$/, '');
    const tries: string[] = [];
    if (!target.startsWith('/')) {
      const joined = joinRelative(folderOf(fromPath.normalize('NFC')), wanted);
      if (joined !== null) tries.push(joined);
    }
    if (!wanted.startsWith('./') && !wanted.startsWith('../')) tries.push(wanted.replace(/^\/+/, ''));
    for (const path of tries) {
      if (path === '') return '';
      const exact = this.folders.get(path);
      if (exact !== undefined) return exact;
    }
    for (const path of tries) {
      const folded = this.foldedFolders.get(path.toLowerCase());
      if (folded !== undefined) return pickFirst(folded);
    }
    return null;
  }

  /**
   * The shortest wiki-link target that resolves from `fromPath` to `path` (Obsidian's
   * "shortest path when possible"): the file name (without `.md` for a note) when that
   * resolves to `path`, else the whole path (without `.md` for a note).
   */
  shortestTarget(path: string, fromPath: string): string {
    const withoutMd = path.endsWith('.md') ? path.slice(0, -3) : path;
    const name = baseName(withoutMd);
    return this.resolveTarget(name, fromPath) === path ? name : withoutMd;
  }

  private lookupPath(path: string): string | null {
    for (const candidate of [path, `${path}.md`]) {
      const exact = this.exact.get(candidate);
      if (exact !== undefined) return exact;
    }
    for (const candidate of [path, `${path}.md`]) {
      const folded = this.folded.get(candidate.toLowerCase());
      if (folded !== undefined) return pickFirst(folded);
    }
    return null;
  }

  private lookupByName(path: string, fromFolder: string): string | null {
    const name = baseName(path);
    if (name === '') return null;
    const suffixes = [path, `${path}.md`];
    const candidates = [...(this.byName.get(name.toLowerCase()) ?? []), ...(this.byName.get(`${name}.md`.toLowerCase()) ?? [])];
    if (candidates.length === 0) return null;
    const endsWith = (file: string, suffix: string) => file === suffix || file.endsWith(`/${suffix}`);
    const exact = candidates.filter((file) => suffixes.some((suffix) => endsWith(file.normalize('NFC'), suffix)));
    if (exact.length > 0) return rank(exact, fromFolder);
    const lower = suffixes.map((suffix) => suffix.toLowerCase());
    const folded = candidates.filter((file) => lower.some((suffix) => endsWith(file.normalize('NFC').toLowerCase(), suffix)));
    return folded.length > 0 ? rank(folded, fromFolder) : null;
  }
}

/** The folder of a path, `''` at the root. */
function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `folder` + a relative `target`, with `.` and `..` applied; null when it climbs above the root. */
function joinRelative(folder: string, target: string): string | null {
  const parts = folder === '' ? [] : folder.split('/');
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(segment);
    }
  }
  return parts.join('/');
}

function rank(files: string[], fromFolder: string): string {
  const local = files.filter((file) => folderOf(file.normalize('NFC')) === fromFolder);
  return pickFirst(local.length > 0 ? local : files);
}

/** The shortest path, then the first alphabetically (code-unit order, stable across runs). */
function pickFirst(files: string[]): string {
  let best = files[0]!;
  for (const file of files) {
    if (file.length < best.length || (file.length === best.length && file < best)) best = file;
  }
  return best;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Takes `value` out of the list at `key`, and the key out of `map` when its list is left empty. */
function pull(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) return;
  const at = list.indexOf(value);
  if (at !== -1) list.splice(at, 1);
  if (list.length === 0) map.delete(key);
}
