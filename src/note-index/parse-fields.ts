// The settings indexing depends on: which frontmatter fields hold a note's type and summary, and
// which folders are open (only readable files are indexed).
import { loadVaultConfig } from '../config/load-vault-config.ts';
import type { RepoHost, Snapshot } from '../repo-host/repo-host.ts';

/**
 * The frontmatter fields a note's type and summary are read from (spec: "Settings"), and the
 * open `folders` (as VaultSettings holds them), which decide what is indexed (isReadable).
 */
export interface ParseFields {
  typeField: string;
  summaryField: string;
  folders: readonly string[];
}

/**
 * The key of what parsing and indexing depend on, stored with the index: when it changes
 * (another field, other open folders), every file is looked at again.
 */
export function parseKeyOf(version: number, fields: ParseFields): string {
  return `${version}\n${fields.typeField}\n${fields.summaryField}\n${JSON.stringify(fields.folders)}`;
}

/**
 * `typeField`, `summaryField` and `folders` of the repository's `.vault/` configuration, read
 * with loadVaultConfig when the snapshot has a `.vault/settings.jsonc`; the defaults (`type`,
 * `summary`, `["/"]`) otherwise, or where the configuration is broken (it never throws).
 */
export async function readParseFields(host: RepoHost, repo: string, snapshot: Snapshot): Promise<ParseFields> {
  if (!snapshot.files.some((file) => file.path === '.vault/settings.jsonc'))
    return { typeField: 'type', summaryField: 'summary', folders: ['/'] };
  const config = await loadVaultConfig(
    async (path) => (await host.readFile(repo, path))?.toString('utf8') ?? null,
    snapshot.files.map((file) => file.path),
  );
  return { typeField: config.settings.typeField, summaryField: config.settings.summaryField, folders: config.settings.folders };
}
