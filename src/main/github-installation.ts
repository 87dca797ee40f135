// The Installation over a GitHub App's mirrors, as serve-github and the hosted instance open
// it: the index migrated, the Installation opened with the process's Changes source, and its
// startup begun (repositories listed and `.vault/` read before this resolves; indexing behind).
import { Installation, type IndexProgress } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import type { Queue } from '../jobs/queue.ts';
import { migrate } from '../note-index/migrate.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import type { Changes } from '../repo-host/changes.ts';
import type { GitHubRepoHost } from '../repo-host/github/github-repo-host.ts';

/** What {@link startGitHubInstallation} opens. */
export interface GitHubInstallationOptions {
  name: string;
  /** The App's host, started (its repositories listed, the mirrors fetched). */
  host: GitHubRepoHost;
  /** The installation's index database (migrated here). */
  sql: SqlClient;
  /** serve-github: GitHub's webhooks; the hosted instance: the poll of its database's index heads. */
  changes: Changes;
  queue: Queue;
  log: Logger;
  onProgress?: IndexProgress;
  matchBudgetMs?: number;
}

/**
 * Migrates `sql`, opens the Installation and starts it in the background (see the module
 * header); resolves once `initialize` and `tools/list` can be answered. On failure the
 * Installation is closed (the host and the database stay open: their owner closes them).
 */
export async function startGitHubInstallation(options: GitHubInstallationOptions): Promise<Installation> {
  let installation: Installation | null = null;
  try {
    await migrate(options.sql);
    installation = Installation.open({
      name: options.name,
      host: options.host,
      sql: options.sql,
      log: options.log,
      changes: options.changes,
      queue: options.queue,
      ...(options.matchBudgetMs !== undefined ? { matchBudgetMs: options.matchBudgetMs } : {}),
    });
    await installation.startInBackground(options.onProgress ? { onProgress: options.onProgress } : {});
    return installation;
  } catch (error) {
    await installation?.close();
    throw error;
  }
}
