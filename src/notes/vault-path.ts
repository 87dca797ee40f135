// Paths inside a repository: normalised once at the edge, refused when they could escape it.
import { byteCache } from '../byte-cache.ts';
import { VaultError } from '../vault-error.ts';

/** What a path names, for the wording of refusals and whether the root or a trailing "/" is allowed. */
export type PathKind = 'note' | 'folder' | 'file';

const CONTROL = /[\u0000-\u001f\u007f]/;
const LINE_BREAK = /[\r\n]/;
/** A percent-escape of path syntax: `.` `/` `\` `%` (double encoding) or a control character. */
const ENCODED_SYNTAX = /%(?:2e|2f|5c|25|[01][0-9a-f]|7f)/i;
const DRIVE = /^[A-Za-z]:/;

/**
 * Normalises a path that names something new, or that is compared by name only (a path a
 * write tool creates, a folder in settings; DESIGN.md "The repository model"): NFC, relative
 * to the repository, `/`-separated, repeated `/` collapsed; for `'folder'` a trailing `/` is
 * dropped and `''` (or `'/'`) is the root. Returns the normalised path. A path naming a file
 * or folder that exists is read with {@link existingPathForms} instead, which keeps it exact.
 *
 * Throws VaultError `invalid_path` for an empty path (except a folder), an absolute path
 * (`/x`, `C:x`), a backslash, a tab, a line break or another control character (a new name
 * may not hold one), a `.` or `..` segment, a percent-escape of path syntax (`%2e`, `%2f`,
 * `%5c`, `%25`, `%00`…, so `%2e%2e/` cannot smuggle a traversal past a decoder later), or a
 * note/file path ending in `/`; and `hidden_path` when any segment starts with `.` (spec:
 * "Hidden paths stay closed").
 */
export function normalizeVaultPath(input: string, what: PathKind = 'note'): string {
  const path = typeof input === 'string' ? input.normalize('NFC').trim() : input;
  if (typeof path === 'string' && CONTROL.test(path)) {
    pathRefusal(
      input,
      what,
    )(
      `contains a control character (a tab, a line break or another), which the name of a ${what} the tools create or move may not hold. Choose a name without it`,
    );
  }
  return checkedPath(input, path, what);
}

/**
 * The spellings to look for when a caller names a file or folder that exists, or existed
 * (paths in and out are exact Unicode): first the path exactly as given (no
 * Unicode normalisation, tabs and other control characters kept, since Git holds them and the
 * tools list them), then, when it differs, the same without surrounding white space. Both are
 * `/`-separated with repeated `/` collapsed; for `'folder'` a trailing `/` is dropped and `''`
 * is the root (then the only form). The caller matches them against the paths there are:
 * exactly first, then ignoring Unicode normalisation (`src/instance/tools/existing-path.ts`).
 *
 * Throws as {@link normalizeVaultPath} does, checked on the path without surrounding white
 * space, except that of the control characters only NUL is refused (Git cannot hold it).
 * With `lineBreaks: 'refuse'` a CR or LF is refused too, with invalid_path naming `tool`:
 * for the tools that reach files through Git's line-based protocols.
 */
export function existingPathForms(
  input: string,
  what: PathKind = 'note',
  options: { lineBreaks?: 'allow' | 'refuse'; tool?: string } = {},
): string[] {
  const refuse = pathRefusal(input, what);
  if (typeof input !== 'string') refuse('is not text');
  if (input.includes('\u0000')) refuse('contains a NUL character, which no file name can hold');
  if (options.lineBreaks === 'refuse' && LINE_BREAK.test(input)) {
    const tool = options.tool ?? 'this tool';
    throw new VaultError(
      'invalid_path',
      `The ${what} path ${JSON.stringify(input)} contains a line break. read_note, list_notes and search_history take such a name, but ${tool} reaches files through Git's line-based protocols and cannot; rename the file outside these tools to use ${tool} on it.`,
      { path: input },
    );
  }
  const trimmed = checkedPath(input, input.trim(), what);
  if (trimmed === '') return [''];
  const exact = input
    .split('/')
    .filter((segment) => segment !== '')
    .join('/');
  return exact === trimmed ? [trimmed] : [exact, trimmed];
}

/** The refusal of a caller's path: `invalid_path`, saying why and how a good path looks. */
function pathRefusal(input: string, what: PathKind): (why: string) => never {
  const example = what === 'folder' ? 'projects/apollo' : 'projects/apollo/plan.md';
  return (why: string): never => {
    throw new VaultError(
      'invalid_path',
      `The ${what} path ${JSON.stringify(input)} ${why}. Give a path relative to the repository root, with "/" between folders, for example "${example}".`,
      { path: input },
    );
  };
}

/** The checks both readings share, on `path` (the caller's `input`, prepared): the clean path, or a refusal. */
function checkedPath(input: string, path: string, what: PathKind): string {
  const refuse = pathRefusal(input, what);
  if (typeof path !== 'string') refuse('is not text');
  if (path.includes('\u0000')) refuse('contains a control character');
  if (path.includes('\\')) refuse('contains a backslash');
  if (ENCODED_SYNTAX.test(path)) refuse('contains a percent-encoded ".", "/", "\\", "%" or control character');
  if (path.startsWith('/') && !(what === 'folder' && /^\/+$/.test(path))) refuse('is absolute');
  if (DRIVE.test(path)) refuse('is absolute');
  if (what === 'folder') path = path.replace(/\/+$/, '');
  else if (path.endsWith('/')) refuse(`ends in "/", which names a folder, not a ${what}`);
  if (path === '') {
    if (what === 'folder') return '';
    refuse('is empty');
  }
  const segments = path.split('/').filter((segment) => segment !== '');
  for (const segment of segments) {
    if (segment === '.' || segment === '..') refuse(`contains a "${segment}" segment`);
  }
  const hidden = segments.find((segment) => segment.startsWith('.'));
  if (hidden !== undefined) {
    throw new VaultError(
      'hidden_path',
      `The ${what} path ${JSON.stringify(input)} goes through "${hidden}", and files and folders whose name starts with a dot are closed to every tool. Choose a path without such a segment.`,
      { path: input },
    );
  }
  return segments.join('/');
}

/**
 * True when any segment of `path` (already `/`-separated) starts with a dot. Without splitting:
 * a move asks it of every path of the repository, three times.
 */
export function isHiddenPath(path: string): boolean {
  return path.startsWith('.') || path.includes('/.');
}

/**
 * True when `path` (a normalised file or folder path) lies in one of the open `folders`
 * (spec: "The folders that belong to the vault"). Each folder ends in `/`; `/` alone, or an
 * empty list, opens everything. A folder path is in a folder it equals: `active` is in `active/`.
 */
export function isInFolders(path: string, folders: readonly string[]): boolean {
  if (folders.length === 0) return true;
  const clean = path.replace(/\/+$/, '');
  return folders.some((folder) => {
    const prefix = folder.replace(/^\/+/, '').replace(/\/+$/, '');
    return prefix === '' || clean === prefix || clean.startsWith(`${prefix}/`);
  });
}

/**
 * The one rule of what a tool may read (spec: "The folders that belong to the vault"): a
 * path that is not hidden and lies in the open `folders`; and a file reached through a
 * symbolic link (`target`: the repository path it is read from, the link's final
 * destination) only when that path may be read too. A link that leads out of the repository
 * never reaches here: the host reads it as absent. Everything else reads as absent, exactly
 * like a path where nothing is: the index holds only readable files, and a caller's path is
 * looked up only among them.
 */
export function isReadable(file: { path: string; target?: string | undefined }, folders: readonly string[]): boolean {
  const open = (path: string) => !isHiddenPath(path) && isInFolders(path, folders);
  return open(file.path) && (file.target === undefined || open(file.target));
}

/**
 * Throws VaultError `outside_folders` when `path` is not in the open `folders`; the message
 * names them, so the caller can choose a path inside (spec: "the refusal names the open folders").
 */
export function assertInFolders(path: string, folders: readonly string[]): void {
  if (isInFolders(path, folders)) return;
  if (foldersClosed(folders)) {
    throw new VaultError(
      'outside_folders',
      `No folder of this repository is open to the tools: its .vault/settings.jsonc does not say which (it does not parse, or its folders are not a list of folders), and a broken setting opens nothing rather than everything. Ask its admin to fix the file; tree at the repository's root says what is wrong.`,
      { path, folders: [] },
    );
  }
  const open = folders.map((folder) => `"${folder}"`).join(', ');
  throw new VaultError(
    'outside_folders',
    `The path ${JSON.stringify(path)} is outside the folders this repository opens to the tools: ${open}. Choose a path inside one of them.`,
    { path, folders: [...folders] },
  );
}

/**
 * The folders of a repository whose `folders` setting cannot be read (settings.jsonc does not
 * parse, or `folders` is not a list naming a usable folder): one hidden folder, which no tool
 * ever reads, so every path is closed. A broken setting opens nothing: falling back to the
 * default (`/`, everything) would open to every reader what the setting kept closed.
 */
export const CLOSED_FOLDERS: readonly string[] = Object.freeze(['.vault/']);

/** Whether `folders` is {@link CLOSED_FOLDERS}: nothing open. */
export function foldersClosed(folders: readonly string[]): boolean {
  return folders.length === 1 && folders[0] === CLOSED_FOLDERS[0];
}

/**
 * True when `path` matches an entry of `exempt` (spec: settings `exempt`, "Paths no type
 * rule applies to"): an entry ending in `/` matches everything below that folder; otherwise
 * the entry matches the whole path, where `*` stands for any characters except `/` and `**`
 * for any characters including `/`. Every `README.md` is exempt as well (spec: "Folders").
 */
export function isExempt(path: string, exempt: readonly string[]): boolean {
  if (path === 'README.md' || path.endsWith('/README.md')) return true;
  return exempt.some((entry) => exemptPattern(entry).test(path));
}

/** The bound of the compiled `exempt` patterns kept, in bytes, estimated from each entry's length (README "Memory"). */
export const EXEMPT_PATTERNS_CACHE_BYTES = 256 * 1024;
const patternCache = byteCache<string, RegExp>({
  maxBytes: EXEMPT_PATTERNS_CACHE_BYTES,
  sizeOf: (_pattern, entry) => 512 + 16 * entry.length,
});

function exemptPattern(entry: string): RegExp {
  let pattern = patternCache.get(entry);
  if (pattern) return pattern;
  const clean = entry.replace(/^\/+/, '');
  const folder = clean.endsWith('/') || clean === '';
  const body = clean
    .replace(/\/+$/, '')
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  pattern = new RegExp(folder ? (body === '' ? '^' : `^${body}/`) : `^${body}$`, 'u');
  patternCache.set(entry, pattern);
  return pattern;
}
