// The readable repositories of a caller, read straight from the host, before any index exists.
import { defaultVaultConfig } from '../config/load-vault-config.ts';
import type { Access } from '../repo-host/person.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import type { Vault } from './tool.ts';
import { readVaultConfig } from './vault-configs.ts';

/**
 * The readable repositories of `access` as tools see them, read straight from the host
 * (no index, no Installation): what `initialize` and `tools/list` need while an installation
 * is still being opened. A `.vault/` that cannot be read counts as absent (defaults).
 */
export async function readVaults(host: RepoHost, access: Access): Promise<Map<string, Vault>> {
  const infos = (await host.listRepos()).filter((info) => access.read.has(info.name));
  const configs = await Promise.all(
    infos.map((info) =>
      readVaultConfig(host, info.name).then(
        (read) => read.config,
        () => defaultVaultConfig(),
      ),
    ),
  );
  return new Map(
    infos.map((info, i) => [info.name, { name: info.name, head: info.head, config: configs[i]!, canWrite: access.write.has(info.name) }]),
  );
}
