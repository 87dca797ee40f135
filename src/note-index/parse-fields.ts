// Which frontmatter fields hold a note's type and summary: the two settings parsing depends on.
import { loadVaultConfig } from '../config/load-vault-config.ts';
import type { RepoHost, Snapshot } from '../repo-host/repo-host.ts';

/** The frontmatter fields a note's type and summary are read from (spec: "Settings"). */
export interface ParseFields {
  typeField: string;
  summaryField: string;
}

/**
 * `typeField` and `summaryField` of the repository's `.vault/` configuration, read with
 * loadVaultConfig when the snapshot has a `.vault/settings.jsonc`; the defaults (`type`,
 * `summary`) otherwise, or where the configuration is broken (it never throws).
 */
export async function readParseFields(host: RepoHost, repo: string, snapshot: Snapshot): Promise<ParseFields> {
  if (!snapshot.files.some((file) => file.path === '.vault/settings.jsonc')) return { typeField: 'type', summaryField: 'summary' };
  const config = await loadVaultConfig(
    async (path) => (await host.readFile(repo, path))?.toString('utf8') ?? null,
    snapshot.files.map((file) => file.path),
  );
  return { typeField: config.settings.typeField, summaryField: config.settings.summaryField };
}
