// The readable repositories of a caller, read straight from the host, before any index exists.
import { defaultVaultConfig, loadVaultConfig } from '../config/load-vault-config.ts';
import type { VaultConfig } from '../config/vault-config.ts';
import type { Access } from '../repo-host/person.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import type { Vault } from './tool.ts';
import { readVaultConfig } from './vault-configs.ts';

/**
 * The readable repositories of `access` as tools see them, read straight from the host
 * (no index, no Installation): what `initialize` and `tools/list` need while an installation
 * is still being opened. A `.vault/` that cannot be read counts as absent (defaults). Its
 * files are found with the host's `pathsUnder` where it has one (no whole snapshot: the
 * first answers of a start need only `.vault/`), else in a snapshot; the same configuration either way.
 */
export async function readVaults(host: RepoHost, access: Access): Promise<Map<string, Vault>> {
  const infos = (await host.listRepos()).filter((info) => access.read.has(info.name));
  const configs = await Promise.all(
    infos.map((info) =>
      (host.pathsUnder ? readVaultFolder(host, info.name) : readVaultConfig(host, info.name).then((read) => read.config)).catch(() =>
        defaultVaultConfig(),
      ),
    ),
  );
  return new Map(
    infos.map((info, i) => [info.name, { name: info.name, head: info.head, config: configs[i]!, canWrite: access.write.has(info.name) }]),
  );
}

/** The configuration of `repo`'s `.vault/`, its files found with `host.pathsUnder` and read as readVaultConfig reads them. */
async function readVaultFolder(host: RepoHost, repo: string): Promise<VaultConfig> {
  const paths = await host.pathsUnder!(repo, '.vault');
  return loadVaultConfig(async (path) => (await host.readFile(repo, path))?.toString('utf8') ?? null, paths);
}
