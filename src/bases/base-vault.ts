// The files a base is evaluated over, as plain data, and their values in the Bases language.
import { dateFromJs, parseDateText } from './base-dates.ts';
import { type BaseValue, NULL, list, str, num, date } from './base-value.ts';

/** A link of a note, as written (`target`, the path part) and where it resolves (`path`, or null). */
export interface BaseLinkRef {
  target: string;
  path: string | null;
}

/**
 * One file a base can show, independent of where it came from (the index builds these).
 * - `path`: relative to the repository root, `/`-separated.
 * - `frontmatter`: the parsed YAML properties; null for a file that is not a note or has none.
 * - `tags`: frontmatter and inline tags, nested ones as `a/b`, without `#`.
 * - `links`: wiki-links and Markdown links of the body and wiki-links of the frontmatter;
 *   `embeds`: `![[…]]` embeds; both in file order.
 * - `size`: bytes. `ctime`/`mtime`: created and modified (Git: first and last commit), or null.
 */
export interface BaseNote {
  path: string;
  frontmatter: Record<string, unknown> | null;
  tags: readonly string[];
  links: readonly BaseLinkRef[];
  embeds: readonly BaseLinkRef[];
  size: number;
  ctime: Date | null;
  mtime: Date | null;
}

/**
 * What an evaluation needs besides the `.base` file: every file the person may see (the
 * rows), how a link written in a file resolves (Obsidian's rule; `fromPath` is the linking
 * file), and optionally the vault's property types (`.obsidian/types.json` `types`:
 * `text`, `multitext`, `number`, `checkbox`, `date`, `datetime`, `tags`, `aliases`).
 */
export interface BaseVaultInput {
  notes: readonly BaseNote[];
  resolveLink(target: string, fromPath: string): string | null;
  propertyTypes?: Readonly<Record<string, string>>;
  /**
   * The lookup by path and the backlinks of exactly `notes`, when the caller keeps them
   * between evaluations over the same rows (a pool thread, per index state); else each
   * evaluation builds its own.
   */
  index?: BaseNotesIndex;
}

/**
 * The files of one evaluation looked up by path, and their backlinks (built on first use):
 * a function of the rows alone, so evaluations over the same rows can share one.
 */
export class BaseNotesIndex {
  readonly notes: readonly BaseNote[];
  private readonly byPath = new Map<string, BaseNote>();
  private backlinkIndex: Map<string, readonly string[]> | null = null;

  constructor(notes: readonly BaseNote[]) {
    this.notes = notes;
    for (const note of notes) this.byPath.set(note.path, note);
  }

  /** The file at `path`, or undefined when it is not one of the rows. */
  get(path: string): BaseNote | undefined {
    return this.byPath.get(path);
  }

  /** The paths of the rows that link to or embed `path`, each once, in path order. */
  backlinks(path: string): readonly string[] {
    if (this.backlinkIndex === null) {
      const index = new Map<string, Set<string>>();
      for (const note of this.notes) {
        for (const ref of [...note.links, ...note.embeds]) {
          if (ref.path === null || ref.path === note.path) continue;
          let sources = index.get(ref.path);
          if (sources === undefined) index.set(ref.path, (sources = new Set()));
          sources.add(note.path);
        }
      }
      this.backlinkIndex = new Map([...index].map(([target, sources]) => [target, [...sources].sort()]));
    }
    return this.backlinkIndex.get(path) ?? [];
  }

  /**
   * A rough size of what this index adds to the rows in V8's heap, in bytes: a map slot per
   * row and, once built, a slot and an array entry per backlink.
   */
  get estimatedBytes(): number {
    let bytes = 64 + 48 * this.notes.length;
    for (const sources of this.backlinkIndex?.values() ?? []) bytes += 48 + 8 * sources.length;
    return bytes;
  }
}

const TEXT_TYPES = new Set(['text', 'multitext', 'tags', 'aliases']);
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Splits the inside of `[[…]]` into its path part and display text (`target#sub|alias`). */
export function parseWikiText(inner: string): { target: string; display: string | null } {
  const pipe = inner.indexOf('|');
  const pathPart = (pipe === -1 ? inner : inner.slice(0, pipe)).trim();
  const display = pipe === -1 ? null : inner.slice(pipe + 1).trim();
  const hash = pathPart.indexOf('#');
  return { target: hash === -1 ? pathPart : pathPart.slice(0, hash), display };
}

/**
 * The repository's files for one evaluation: lookup by path, lazily built backlinks, and
 * frontmatter turned into values once per file and property.
 */
export class BaseVault {
  readonly notes: readonly BaseNote[];
  private readonly index: BaseNotesIndex;
  /** Files that are not rows but can be looked up (the context file `this`). */
  private readonly extra = new Map<string, BaseNote>();
  private readonly propertyCache = new Map<string, Map<string, BaseValue>>();
  private readonly resolveCache = new Map<string, string | null>();

  /** `extra`: files that are not rows but can be looked up (the context file `this`). */
  private readonly input: BaseVaultInput;

  constructor(input: BaseVaultInput, extra: readonly BaseNote[] = []) {
    this.input = input;
    this.notes = input.notes;
    this.index = input.index ?? new BaseNotesIndex(input.notes);
    for (const note of extra) this.extra.set(note.path, note);
  }

  /** The file at `path` (a row first, else an extra file), or undefined. */
  get(path: string): BaseNote | undefined {
    return this.index.get(path) ?? this.extra.get(path);
  }

  /** Where a link written in `fromPath` points, memoised. */
  resolve(target: string, fromPath: string): string | null {
    if (target === '') return fromPath;
    const key = `${fromPath}\u0000${target}`;
    let resolved = this.resolveCache.get(key);
    if (resolved === undefined) {
      resolved = this.input.resolveLink(target, fromPath);
      this.resolveCache.set(key, resolved);
    }
    return resolved;
  }

  /** A link value for text written in `fromPath`: `[[a|b]]`, a plain path or name, or a URL. */
  linkValue(text: string, fromPath: string, display: string | null = null): BaseValue {
    const trimmed = text.trim();
    const wiki = /^!?\[\[([^\]]*)\]\]$/.exec(trimmed);
    if (wiki !== null) {
      const parsed = parseWikiText(wiki[1]!);
      return {
        kind: 'link',
        target: parsed.target,
        display: display ?? parsed.display,
        path: this.resolve(parsed.target, fromPath),
        url: false,
      };
    }
    if (URL_SCHEME.test(trimmed)) return { kind: 'link', target: trimmed, display, path: null, url: true };
    const hash = trimmed.indexOf('#');
    const target = hash === -1 ? trimmed : trimmed.slice(0, hash);
    return { kind: 'link', target, display, path: this.resolve(target, fromPath), url: false };
  }

  /** A link value from a stored link of a note. */
  linkRefValue(ref: BaseLinkRef): BaseValue {
    return { kind: 'link', target: ref.target, display: null, path: ref.path, url: false };
  }

  /** The paths of the files that link to or embed `path`, each once, in path order. */
  backlinks(path: string): readonly string[] {
    return this.index.backlinks(path);
  }

  /**
   * A frontmatter property of the file at `path` as a value (note properties are only
   * available for notes): the exact key first, then ignoring case, as Obsidian's property
   * names are case-insensitive. Null when absent.
   */
  property(path: string, name: string): BaseValue {
    const note = this.get(path);
    if (note === undefined || note.frontmatter === null) return NULL;
    let cache = this.propertyCache.get(path);
    if (cache === undefined) this.propertyCache.set(path, (cache = new Map()));
    const cached = cache.get(name);
    if (cached !== undefined) return cached;
    let key: string | undefined = name;
    if (!Object.hasOwn(note.frontmatter, name)) {
      const lower = name.toLowerCase();
      key = Object.keys(note.frontmatter).find((candidate) => candidate.toLowerCase() === lower);
    }
    const value = key === undefined ? NULL : this.fromYaml(note.frontmatter[key], path, this.input.propertyTypes?.[key] ?? null);
    cache.set(name, value);
    return value;
  }

  /** Whether the file at `path` has the frontmatter property `name` (any value, even empty). */
  hasProperty(path: string, name: string): boolean {
    const frontmatter = this.get(path)?.frontmatter;
    if (frontmatter === undefined || frontmatter === null) return false;
    if (Object.hasOwn(frontmatter, name)) return true;
    const lower = name.toLowerCase();
    return Object.keys(frontmatter).some((key) => key.toLowerCase() === lower);
  }

  /** Every frontmatter property of the file at `path` as an object value (`file.properties`, `note`). */
  properties(path: string): BaseValue {
    const frontmatter = this.get(path)?.frontmatter;
    if (frontmatter === undefined || frontmatter === null) return { kind: 'object', entries: new Map() };
    return { kind: 'object', entries: new Map(Object.keys(frontmatter).map((key) => [key, this.property(path, key)])) };
  }

  /**
   * A YAML value as a Bases value: lists and mappings recursively; a string that is exactly
   * a wiki-link becomes a link ("Wikilinks in frontmatter properties are automatically
   * recognized as Link objects"); a string written as a date (`YYYY-MM-DD`, with an optional
   * time) becomes a date unless the vault types the property as text.
   */
  fromYaml(value: unknown, fromPath: string, type: string | null): BaseValue {
    if (value === null || value === undefined) return NULL;
    if (typeof value === 'boolean') return value ? { kind: 'boolean', value: true } : { kind: 'boolean', value: false };
    if (typeof value === 'number') return num(value);
    if (typeof value === 'bigint') return num(Number(value));
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? NULL : date(dateFromJs(value));
    if (typeof value === 'string') {
      if (/^\[\[[^\]]*\]\]$/.test(value.trim())) return this.linkValue(value, fromPath);
      if (type === null || !TEXT_TYPES.has(type)) {
        const parsed = parseDateText(value);
        if (parsed !== null) return date(parsed);
      }
      if (type === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return num(Number(value));
      return str(value);
    }
    if (Array.isArray(value)) return list(value.map((item) => this.fromYaml(item, fromPath, type)));
    if (typeof value === 'object') {
      return {
        kind: 'object',
        entries: new Map(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, this.fromYaml(item, fromPath, null)])),
      };
    }
    return str(String(value));
  }
}

/** The file name of a path (`Notes/Plan.md` → `Plan.md`). */
export function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The extension of a path without its dot (`md`), or `''`. */
export function fileExtension(path: string): string {
  const name = fileName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1);
}

/** The name without its extension (`Plan.md` → `Plan`). */
export function fileBasename(path: string): string {
  const name = fileName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? name : name.slice(0, dot);
}

/** The parent folder's path; the root is `/`, as Obsidian's root folder is. */
export function fileFolder(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '/' : path.slice(0, slash);
}
