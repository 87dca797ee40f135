// The configuration cache: each repository's parsed `.vault/`, read again only when its files change.
import { defaultVaultConfig, loadVaultConfig } from '../config/load-vault-config.ts';
import type { VaultConfig } from '../config/vault-config.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import type { FailureReports } from './failure-reports.ts';

/** A repository's configuration, and the key of the `.vault/` files it was read from (null: never read). */
interface Entry {
  config: VaultConfig;
  key: string | null;
}

/**
 * The installation's `.vault/` configuration per repository, read through the installation's
 * own host. Reading never fails: a `.vault/` that cannot be read keeps the configuration
 * last read (or the defaults) and is reported once (key `<repo>/.vault`).
 */
export class VaultConfigs {
  private readonly entries = new Map<string, Entry>();

  private readonly host: RepoHost;
  private readonly reports: FailureReports;

  constructor(host: RepoHost, reports: FailureReports) {
    this.host = host;
    this.reports = reports;
  }

  /** The configuration last read for `repo`; null when it never was. */
  get(repo: string): VaultConfig | null {
    return this.entries.get(repo)?.config ?? null;
  }

  /** Reads `repo`'s `.vault/` when its files changed since the last read, and answers it; never throws. */
  async load(repo: string): Promise<VaultConfig> {
    const entry = this.entries.get(repo);
    try {
      const read = await readVaultConfig(this.host, repo, entry ? { config: entry.config, key: entry.key ?? '' } : null);
      this.entries.set(repo, read);
      return read.config;
    } catch (error) {
      this.reports.report(`${repo}/.vault`, `reading .vault/ of ${repo} failed`, error);
      const defaults = entry?.config ?? defaultVaultConfig();
      this.entries.set(repo, { config: defaults, key: entry?.key ?? null });
      return defaults;
    }
  }

  /** Drops what is known of `repo` (it left the installation). */
  forget(repo: string): void {
    this.entries.delete(repo);
  }
}

/**
 * One repository's `.vault/` configuration, read through the host from its current state:
 * the configuration and a key naming the `.vault/` files and their blob ids. When `known`
 * has the same key, its configuration is returned without reading the files again.
 * Throws what the host throws (e.g. VaultError `repo_not_found`); a configuration that does
 * not parse is not an error (loadVaultConfig falls back to the defaults and says why).
 */
export async function readVaultConfig(
  host: RepoHost,
  repo: string,
  known: { config: VaultConfig; key: string } | null = null,
): Promise<{ config: VaultConfig; key: string }> {
  const snapshot = await host.snapshot(repo);
  const vaultFiles = snapshot.files.filter((file) => file.path.startsWith('.vault/'));
  const key = vaultFiles.map((file) => `${file.path}\0${file.oid}`).join('\n');
  if (known !== null && known.key === key) return known;
  const config = await loadVaultConfig(
    async (path) => (await host.readFile(repo, path))?.toString('utf8') ?? null,
    vaultFiles.map((file) => file.path),
  );
  return { config, key };
}
