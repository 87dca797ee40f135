// A real ToolContext for handler tests: Git repositories in a folder (LocalRepoHost), a
// fresh index database, each repository's `.vault/` loaded, the index synced on refresh.
import { loadVaultConfig } from '../../src/config/load-vault-config.ts';
import type { ToolContext, Vault } from '../../src/instance/tool.ts';
import { syncRepo } from '../../src/note-index/indexer.ts';
import { createNoteIndex } from '../../src/note-index/note-index.ts';
import type { SqlClient } from '../../src/note-index/sql-client.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import { openTestDatabase } from './test-database.ts';
import { silentLogger } from '../../src/instance/log.ts';

/** A ToolContext over the repositories in `reposDir`, with what it needs closed by `close()`. */
export interface TestToolContext extends ToolContext {
  sql: SqlClient;
  close(): Promise<void>;
}

/**
 * Builds the context: every repository of `reposDir` indexed and configured; `readable`
 * limits which ones the person can read (default: all), as `access.read` and `vaults` do
 * in the server. `refresh(repo)` syncs the index and reloads `.vault/` when the host's
 * fingerprint moved. `matchBudgetMs` sets ToolContext `matchBudgetMs` (default: the tools'
 * own): a test of what a search finds, not of its budget, gives it room on a loaded machine.
 */
export async function openToolContext(
  reposDir: string,
  options: { readable?: readonly string[]; matchBudgetMs?: number } = {},
): Promise<TestToolContext> {
  const host = new LocalRepoHost({ reposDir });
  const sql = await openTestDatabase();
  const names = (await host.listRepos())
    .map((repo) => repo.name)
    .filter((name) => options.readable === undefined || options.readable.includes(name));
  const vaults = new Map<string, Vault>();
  const fingerprints = new Map<string, string>();
  const refresh = async (repo: string) => {
    // Cheap when nothing changed, as the server's refresh is.
    const fingerprint = await host.fingerprint(repo);
    if (fingerprints.get(repo) === fingerprint) return;
    const result = await syncRepo(sql, host, repo);
    fingerprints.set(repo, result.fingerprint);
    const snapshot = await host.snapshot(repo);
    const config = await loadVaultConfig(
      async (path) => (await host.readFile(repo, path))?.toString('utf8') ?? null,
      snapshot.files.map((file) => file.path),
    );
    vaults.set(repo, { name: repo, head: result.head, config, canWrite: true });
  };
  for (const name of names) await refresh(name);
  const person = { login: 'tester', name: 'Test Person', email: 'tester@example.com' };
  return {
    access: { person, read: new Set(names), write: new Set(names) },
    vaults,
    index: createNoteIndex(sql),
    host,
    clientName: 'test',
    refresh: async (repo) => {
      if (vaults.has(repo)) await refresh(repo);
    },
    log: silentLogger(),
    ...(options.matchBudgetMs !== undefined ? { matchBudgetMs: options.matchBudgetMs } : {}),
    sql,
    close: async () => {
      await host.close();
      await sql.close();
    },
  };
}
