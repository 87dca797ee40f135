// Paths inside a repository: normalised once at the edge, refused when they could escape it.
import { VaultError } from '../vault-error.ts';

/** What a path names, for the wording of refusals and whether the root or a trailing "/" is allowed. */
export type PathKind = 'note' | 'folder' | 'file';

const CONTROL = /[\u0000-\u001f\u007f]/;
/** A percent-escape of path syntax: `.` `/` `\` `%` (double encoding) or a control character. */
const ENCODED_SYNTAX = /%(?:2e|2f|5c|25|[01][0-9a-f]|7f)/i;
const DRIVE = /^[A-Za-z]:/;

/**
 * Normalises a path given by a caller (DESIGN.md "The repository model"): NFC, relative to
 * the repository, `/`-separated, repeated `/` collapsed; for `'folder'` a trailing `/` is
 * dropped and `''` (or `'/'`) is the root. Returns the normalised path.
 *
 * Throws VaultError `invalid_path` for an empty path (except a folder), an absolute path
 * (`/x`, `C:x`), a backslash, NUL or another control character, a `.` or `..` segment, a
 * percent-escape of path syntax (`%2e`, `%2f`, `%5c`, `%25`, `%00`…, so `%2e%2e/` cannot
 * smuggle a traversal past a decoder later), or a note/file path ending in `/`; and
 * `hidden_path` when any segment starts with `.` (spec: "Hidden paths stay closed").
 */
export function normalizeVaultPath(input: string, what: PathKind = 'note'): string {
  const example = what === 'folder' ? 'projects/apollo' : 'projects/apollo/plan.md';
  const refuse = (why: string): never => {
    throw new VaultError(
      'invalid_path',
      `The ${what} path ${JSON.stringify(input)} ${why}. Give a path relative to the repository root, with "/" between folders, for example "${example}".`,
      { path: input },
    );
  };
  if (typeof input !== 'string') refuse('is not text');
  let path = input.normalize('NFC').trim();
  if (path.includes('\u0000') || CONTROL.test(path)) refuse('contains a control character');
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

/** True when any segment of `path` (already `/`-separated) starts with a dot. */
export function isHiddenPath(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('.'));
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
 * Throws VaultError `outside_folders` when `path` is not in the open `folders`; the message
 * names them, so the caller can choose a path inside (spec: "the refusal names the open folders").
 */
export function assertInFolders(path: string, folders: readonly string[]): void {
  if (isInFolders(path, folders)) return;
  const open = folders.map((folder) => `"${folder}"`).join(', ');
  throw new VaultError(
    'outside_folders',
    `The path ${JSON.stringify(path)} is outside the folders this repository opens to the tools: ${open}. Choose a path inside one of them.`,
    { path, folders: [...folders] },
  );
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

const patternCache = new Map<string, RegExp>();

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
