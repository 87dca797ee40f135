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

/**
 * {@link readVaults} for every caller of a server that is starting: every repository and its
 * `.vault/` are read once, from this call on (so the first request finds them read or
 * nearly), and each caller gets the readable ones with their own write rights. For the few
 * seconds until the installation opens; a failed read is tried again on the next call.
 */
export function readVaultsOnce(host: RepoHost): (access: Access) => Promise<Map<string, Vault>> {
  const readAll = async () => {
    const infos = await host.listRepos();
    const configs = await Promise.all(
      infos.map((info) =>
        readVaultConfig(host, info.name).then(
          (read) => read.config,
          () => defaultVaultConfig(),
        ),
      ),
    );
    return infos.map((info, i) => ({ name: info.name, head: info.head, config: configs[i]! }));
  };
  let all = readAll();
  all.catch(() => undefined);
  return async (access) => {
    const repos = await all.catch((error: unknown) => {
      all = readAll();
      all.catch(() => undefined);
      throw error;
    });
    return new Map(
      repos.filter((repo) => access.read.has(repo.name)).map((repo) => [repo.name, { ...repo, canWrite: access.write.has(repo.name) }]),
    );
  };
}
