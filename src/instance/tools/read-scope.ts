// Where a read tool looks: the repositories of a call (one, or every readable one) and the
// paths inside them, limited to the open folders. Shared by the five read tools.
import { assertInFolders, existingPathForms, isInFolders, type PathKind } from '../../notes/vault-path.ts';
import type { NoteIndex, Scope } from '../../note-index/note-index.ts';
import { repoNotFound } from '../../repo-not-found.ts';
import { VaultError } from '../../vault-error.ts';
import type { ToolContext, Vault } from '../tool.ts';
import { existingPath } from './existing-path.ts';

/**
 * The readable repository named `repo`, after bringing its index up to date. Throws
 * VaultError `repo_not_found` naming the repositories there are: a repository the person
 * cannot read is answered exactly like one that does not exist (spec: "Who sees what").
 */
export async function lookupVault(ctx: ToolContext, repo: string): Promise<Vault> {
  const vault = ctx.vaults.get(repo);
  if (!vault) throw repoNotFound(repo, [...ctx.vaults.keys()]);
  await ctx.refresh(repo);
  return vault;
}

/** One repository of a call and the path inside it the caller named (`''`: none, or the root). */
export interface VaultTarget {
  vault: Vault;
  path: string;
}

/**
 * The repositories a call works in. With `repo`: that one. Without: every readable one,
 * unless `path` starts with a readable repository's name, as answers across repositories
 * name notes (`handbook/onboarding`): then that repository and the rest of the path.
 * `across` is true when `repo` was left out: answers then name notes `<repo>/<path>`;
 * `namedByPath` when the repository came from the path's first segment. With `repo`, a path
 * written `<repo>/<path>` is read as `<path>` when only that exists.
 * Paths are exact Unicode: each target's path is the spelling its repository holds (exactly
 * as given first, then ignoring Unicode normalisation; a note also with `.md`), or the path as
 * given when nothing there has it (existingPath). Refusals as existingPathForms (VaultError
 * `invalid_path`/`hidden_path`); every index is refreshed.
 */
export async function callTargets(
  ctx: ToolContext,
  repo: string | undefined,
  path: string | undefined,
  kind: PathKind,
): Promise<{ across: boolean; namedByPath: boolean; targets: VaultTarget[] }> {
  const inVault = async (vault: Vault, given: string, options: { repo?: string }) =>
    (await existingPath(ctx.host, vault.name, given, kind, { ...options, folders: vault.config.settings.folders })).path;
  if (repo !== undefined) {
    const vault = await lookupVault(ctx, repo);
    return {
      across: false,
      namedByPath: false,
      targets: [{ vault, path: path === undefined ? '' : await inVault(vault, path, { repo: vault.name }) }],
    };
  }
  const forms = path === undefined ? [''] : existingPathForms(path, 'folder');
  const normalized = forms[forms.length - 1]!;
  const first = normalized.split('/')[0] ?? '';
  const named = first === '' ? undefined : ctx.vaults.get(first);
  if (named) {
    await ctx.refresh(named.name);
    const exact = forms[0]!.startsWith(`${first}/`) ? forms[0]! : normalized;
    const rest = exact.slice(first.length + 1);
    return { across: true, namedByPath: true, targets: [{ vault: named, path: rest === '' ? '' : await inVault(named, rest, {}) }] };
  }
  const vaults = [...ctx.vaults.values()];
  await Promise.all(vaults.map((vault) => ctx.refresh(vault.name)));
  if (path === undefined || normalized === '')
    return { across: true, namedByPath: false, targets: vaults.map((vault) => ({ vault, path: '' })) };
  const targets = await Promise.all(vaults.map(async (vault) => ({ vault, path: await inVault(vault, path, {}) })));
  return { across: true, namedByPath: false, targets };
}

/** The open folders of a repository as path prefixes: `''` for everything, else `folder/`. */
export function openPrefixes(vault: Vault): string[] {
  const folders = vault.config.settings.folders;
  if (folders.length === 0) return [''];
  return folders.map((folder) => folder.replace(/^\/+/, '').replace(/\/+$/, '')).map((folder) => (folder === '' ? '' : `${folder}/`));
}

/**
 * The scope of a folder (`''`: the root) in a repository, within its open folders: the
 * folder itself when it is open, else the open folders below it. `strict`: a folder with no
 * open part throws VaultError `outside_folders` naming the open folders; otherwise it gives
 * an empty scope (a search across repositories skips that one).
 */
export function folderScope(vault: Vault, folder: string, strict: boolean): Scope {
  const open = openPrefixes(vault);
  if (folder === '' || isInFolders(folder, vault.config.settings.folders)) {
    return { repo: vault.name, prefixes: folder === '' ? open : [`${folder}/`] };
  }
  const below = open.filter((prefix) => prefix.startsWith(`${folder}/`));
  if (below.length === 0 && strict) assertInFolders(folder, vault.config.settings.folders);
  return { repo: vault.name, prefixes: below };
}

/**
 * The scopes that can match something: those with a file or a prefix. A query gets only
 * these, so a repository where the folder is closed costs nothing (and an index query never
 * sees a scope that matches nothing).
 */
export function liveScopes(scopes: readonly Scope[]): Scope[] {
  return scopes.filter((scope) => scope.file !== undefined || scope.prefixes.length > 0);
}

/** A note's path as an answer names it: `<repo>/<path>` across repositories, else `path`. */
export function answerPath(repo: string, path: string, across: boolean): string {
  return across ? `${repo}/${path}` : path;
}

/**
 * Refuses a folder that names nothing to look in, so an empty answer always means an
 * existing folder without notes. Only targets with a path are checked; one target holding
 * the folder (a file below it, of any kind) is enough. Throws VaultError `bad_arguments`
 * when the path is a file ("…is a note, not a folder", naming its folder), else
 * `note_not_found` naming up to five existing folders closest by name, or pointing at tree.
 * Paths in messages are named as answers name them (`<repo>/<path>` when `across`).
 */
export async function assertFolderExists(
  index: NoteIndex,
  targets: readonly VaultTarget[],
  across: boolean,
  accepts: 'folder' | 'folder or file' = 'folder',
): Promise<void> {
  const asked = targets.filter((target) => target.path !== '');
  if (asked.length === 0 || asked.length < targets.length) return;
  // Only files in the open folders count: a closed folder is no folder to an answer.
  const listings = await Promise.all(
    asked.map(async (target) => ({
      ...target,
      files: (await index.filePaths(target.vault.name)).filter((file) => isInFolders(file, target.vault.config.settings.folders)),
    })),
  );
  if (listings.some(({ path, files }) => files.some((file) => file.startsWith(`${path}/`)))) return;

  for (const { vault, path, files } of accepts === 'folder' ? listings : []) {
    const file = files.includes(path) ? path : !path.endsWith('.md') && files.includes(`${path}.md`) ? `${path}.md` : null;
    if (file === null) continue;
    const shown = answerPath(vault.name, path, across);
    const parent = file.includes('/') ? answerPath(vault.name, file.slice(0, file.lastIndexOf('/')), across) : across ? vault.name : '';
    const giveParent = parent === '' ? 'or leave the folder out for the whole repository' : `or give its folder "${parent}"`;
    const isNote = (await index.getNote(vault.name, file)) !== null;
    throw new VaultError(
      'bad_arguments',
      isNote
        ? `"${shown}" is a note${file === path ? '' : ` (${answerPath(vault.name, file, across)})`}, not a folder: read it with read_note, ${giveParent}.`
        : `"${shown}" is a file, not a folder: give its folder instead, ${giveParent.replace(/^or /, '')}.`,
      { path: shown, file: answerPath(vault.name, file, across) },
    );
  }

  // A path that looks like a file's, where files are accepted, is compared with the notes first.
  const likeFile = accepts === 'folder or file' && /\.[A-Za-z0-9]+$/.test(asked[0]!.path);
  const notes = likeFile
    ? listings.flatMap(({ vault, path, files }) =>
        closestPaths(files, path, vault.config.settings.folders).map((file) => answerPath(vault.name, file, across)),
      )
    : [];
  const folders = listings
    .flatMap(({ vault, path, files }) =>
      closestFolders(files, path, vault.config.settings.folders).map((found) => ({
        ...found,
        shown: answerPath(vault.name, found.path, across),
      })),
    )
    .sort((a, b) => a.rank - b.rank || a.shown.length - b.shown.length)
    .map((found) => found.shown);
  const closest = [...notes, ...folders].slice(0, 5);
  const where = across && asked.length > 1 ? 'any repository you can read' : asked[0]!.vault.name;
  const shown = across && asked.length === 1 ? answerPath(asked[0]!.vault.name, asked[0]!.path, true) : asked[0]!.path;
  throw new VaultError(
    'note_not_found',
    closest.length > 0
      ? `There is no ${accepts} "${shown}" in ${where}. The closest by name: ${closest.map((path) => `"${path}"`).join(', ')}. Or use tree to see the folders there are.`
      : `There is no ${accepts} "${shown}" in ${where}. Use tree to see the folders there are.`,
    { path: shown, closest },
  );
}

/**
 * The existing folders (`a/b/`, every folder holding one of `files` in the open `folders`)
 * whose name looks like `folder`'s, best first by `rank`: 0 the same name ignoring case,
 * 1 one name containing the other, 2 at most a couple of letters apart, 3 the same parent.
 */
export function closestFolders(
  files: readonly string[],
  folder: string,
  folders: readonly string[],
): Array<{ path: string; rank: number }> {
  const known = new Set<string>();
  for (const file of files) {
    if (!isInFolders(file, folders)) continue;
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) known.add(file.slice(0, slash + 1));
  }
  const nameOf = (path: string) =>
    path
      .replace(/\/$/, '')
      .slice(path.replace(/\/$/, '').lastIndexOf('/') + 1)
      .toLowerCase();
  const parentOf = (path: string) => path.replace(/\/$/, '').slice(0, path.replace(/\/$/, '').lastIndexOf('/') + 1);
  const wanted = nameOf(folder);
  const ranked: Array<{ path: string; rank: number }> = [];
  for (const path of known) {
    const name = nameOf(path);
    const rank =
      name === wanted
        ? 0
        : Math.min(name.length, wanted.length) >= 3 && (name.includes(wanted) || wanted.includes(name))
          ? 1
          : editDistance(name, wanted, 2) <= (wanted.length >= 5 ? 2 : 1)
            ? 2
            : parentOf(path) === parentOf(folder) && parentOf(folder) !== ''
              ? 3
              : 4;
    if (rank < 4) ranked.push({ path, rank });
  }
  return ranked.sort((a, b) => a.rank - b.rank || a.path.length - b.path.length).slice(0, 5);
}

/** Levenshtein distance of `a` and `b`, or `limit + 1` as soon as it is known to exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to five note paths that look like `path`: the same file name first, then names containing it, then the same folder. */
export function closestPaths(paths: readonly string[], path: string, folders: readonly string[]): string[] {
  const name = (p: string) =>
    p
      .slice(p.lastIndexOf('/') + 1)
      .toLowerCase()
      .replace(/\.md$/, '');
  const folder = (p: string) => p.slice(0, p.lastIndexOf('/') + 1);
  const wanted = name(path);
  const open = paths.filter((p) => isInFolders(p, folders));
  const ranked = open
    .map((p) => {
      const n = name(p);
      const rank =
        n === wanted ? 0 : wanted.length >= 3 && (n.includes(wanted) || wanted.includes(n)) ? 1 : folder(p) === folder(path) ? 2 : 3;
      return { p, rank };
    })
    .filter((entry) => entry.rank < 3)
    .sort((a, b) => a.rank - b.rank || a.p.length - b.p.length);
  return ranked.slice(0, 5).map((entry) => entry.p);
}
