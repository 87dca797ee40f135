// Where a read tool looks: the repositories of a call (one, or every readable one) and the
// paths inside them, limited to the open folders. Shared by the five read tools.
import { assertInFolders, isInFolders, normalizeVaultPath, type PathKind } from '../../notes/vault-path.ts';
import type { Scope } from '../../note-index/note-index.ts';
import { VaultError } from '../../vault-error.ts';
import type { ToolContext, Vault } from '../tool.ts';

/**
 * The readable repository named `repo`, after bringing its index up to date. Throws
 * VaultError `repo_not_found` naming the repositories there are: a repository the person
 * cannot read is answered exactly like one that does not exist (spec: "Who sees what").
 */
export async function lookupVault(ctx: ToolContext, repo: string): Promise<Vault> {
  const vault = ctx.vaults.get(repo);
  if (!vault) {
    const names = [...ctx.vaults.keys()].map((name) => `"${name}"`).join(', ');
    throw new VaultError(
      'repo_not_found',
      `There is no repository "${repo}" among those you can read. Use one of: ${names || '(none)'}.`,
      { repo, repos: [...ctx.vaults.keys()] },
    );
  }
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
 * `namedByPath` when the repository came from the path's first segment.
 * Paths are normalised (VaultError `invalid_path`/`hidden_path`); every index is refreshed.
 */
export async function callTargets(
  ctx: ToolContext,
  repo: string | undefined,
  path: string | undefined,
  kind: PathKind,
): Promise<{ across: boolean; namedByPath: boolean; targets: VaultTarget[] }> {
  if (repo !== undefined) {
    const vault = await lookupVault(ctx, repo);
    return { across: false, namedByPath: false, targets: [{ vault, path: path === undefined ? '' : normalizeVaultPath(path, kind) }] };
  }
  const normalized = path === undefined ? '' : normalizeVaultPath(path, 'folder');
  const first = normalized.split('/')[0] ?? '';
  const named = first === '' ? undefined : ctx.vaults.get(first);
  if (named) {
    await ctx.refresh(named.name);
    const rest = normalized.slice(first.length + 1);
    return { across: true, namedByPath: true, targets: [{ vault: named, path: rest === '' ? '' : normalizeVaultPath(rest, kind) }] };
  }
  const vaults = [...ctx.vaults.values()];
  await Promise.all(vaults.map((vault) => ctx.refresh(vault.name)));
  const inner = path === undefined || normalized === '' ? '' : normalizeVaultPath(path, kind);
  return { across: true, namedByPath: false, targets: vaults.map((vault) => ({ vault, path: inner })) };
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

/** A note's path as an answer names it: `<repo>/<path>` across repositories, else `path`. */
export function answerPath(repo: string, path: string, across: boolean): string {
  return across ? `${repo}/${path}` : path;
}
