// The running installation: its repositories, their index and `.vault/` configuration, kept
// up to date with changes made outside the server, and the ToolContext each call gets. Its
// parts: index-updates.ts (the indexing loop), vault-configs.ts (the configuration cache),
// caller-contexts.ts (each call's context, with the host bound to the caller).
import { InProcessQueue } from '../jobs/in-process-queue.ts';
import type { Queue } from '../jobs/queue.ts';
import { createNoteIndex, type NoteIndex } from '../note-index/note-index.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { sqlLastLooks } from '../note-index/sql-store.ts';
import type { Changes } from '../repo-host/changes.ts';
import type { Access } from '../repo-host/person.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import { CallerContexts } from './caller-contexts.ts';
import { FailureReports } from './failure-reports.ts';
import { indexUnavailable } from './index-unavailable-error.ts';
import { IndexUpdates, type IndexProgress } from './index-updates.ts';
import type { Logger } from './log.ts';
import type { RepoChoice, ToolContext, Vault } from './tool.ts';
import { VaultConfigs } from './vault-configs.ts';

export type { IndexProgress } from './index-updates.ts';

/** Options for {@link Installation.open}. */
export interface InstallationOptions {
  /** The installation's name: the last segment of its address, e.g. `acme`. */
  name: string;
  /** The installation's own repository access: indexing and listing use it; each call gets it bound to its caller. */
  host: RepoHost;
  /** The index database, already migrated. */
  sql: SqlClient;
  /** Where the installation says what it does: index updates, failures (see log.ts). */
  log: Logger;
  /** What tells the installation that a repository moved (locally the poll of repo-host/local/changes-poll.ts); absent: nothing does, and reads start checks. */
  changes?: Changes;
  /** Where index updates run as jobs; absent: an in-process queue of its own. One queue per installation. */
  queue?: Queue;
  /** The time budget of one call's matching of note text, in milliseconds (ToolContext `matchBudgetMs`). */
  matchBudgetMs?: number;
}

/**
 * One installation as the instance runs it (DESIGN.md "The parts"): a RepoHost, the notes
 * index over every repository, and each repository's parsed `.vault/`.
 * - Startup: the repositories are listed and their `.vault/` read first (enough for
 *   `initialize` and `tools/list`), then indexed; {@link ready} settles when that is done and
 *   tool contexts wait for it.
 * - Reads answer from the index as it is: the Changes source (locally a poll comparing each
 *   repository's fingerprint about once a second) sends the index update job when something
 *   may have moved, so an edit in an editor or a `git pull` is seen within two seconds. Only
 *   after the installation's own commit does {@link refresh} wait, so a write is seen by the
 *   very next read.
 */
export class Installation {
  readonly index: NoteIndex;
  private readonly reports: FailureReports;
  private readonly configs: VaultConfigs;
  private readonly updates: IndexUpdates;
  private readonly contexts: CallerContexts;
  /** The startup: listing (repositories and `.vault/` read), then indexing (null until started). */
  private listing: Promise<void> | null = null;
  private startup: Promise<void> | null = null;
  private listening = false;
  private closed = false;

  readonly name: string;
  readonly host: RepoHost;
  readonly sql: SqlClient;
  private readonly log: Logger;
  private readonly changes: Changes | null;

  private constructor(
    name: string,
    host: RepoHost,
    sql: SqlClient,
    log: Logger,
    changes: Changes | null,
    queue: Queue,
    matchBudgetMs: number | undefined,
  ) {
    this.name = name;
    this.host = host;
    this.sql = sql;
    this.log = log;
    this.changes = changes;
    this.index = createNoteIndex(sql);
    this.reports = new FailureReports(log);
    this.configs = new VaultConfigs(host, this.reports);
    this.updates = new IndexUpdates({ host, sql, queue, configs: this.configs, reports: this.reports, log });
    this.contexts = new CallerContexts({
      host,
      index: this.index,
      log,
      ...(matchBudgetMs !== undefined ? { matchBudgetMs } : {}),
      refresh: (repo) => this.refresh(repo),
      onCommitted: (repo, change, commit) => this.updates.noteCommitted(repo, change, commit),
      // The Store's last looks, kept in the installation's own database (locally the Store's too).
      lastLooks: { store: sqlLastLooks(sql), installation: name },
    });
  }

  /** Creates the installation; nothing is indexed until {@link start}. */
  static open(options: InstallationOptions): Installation {
    return new Installation(
      options.name,
      options.host,
      options.sql,
      options.log,
      options.changes ?? null,
      options.queue ?? new InProcessQueue(),
      options.matchBudgetMs,
    );
  }

  /**
   * Lists the repositories, reads each one's `.vault/`, indexes every repository (a full build
   * the first time, then only what changed); then, unless `poll` is false, starts listening
   * to the Changes source. Resolves when all of it is done; rejects when the repositories
   * cannot be listed. A repository that fails to index is logged and kept, so the others still serve.
   */
  async start(options: { onProgress?: IndexProgress; poll?: boolean } = {}): Promise<void> {
    this.begin(options);
    await this.startup;
  }

  /**
   * The same startup as {@link start}, but resolves as soon as the repositories are listed
   * and their `.vault/` read: {@link vaultsFor} answers from then on (enough for `initialize`
   * and `tools/list`), while indexing goes on; {@link ready} settles when it is done, and
   * {@link contextFor} waits for it. A failure of the whole startup is logged here.
   * Calling it (or `start`) again joins the first startup.
   */
  startInBackground(options: { onProgress?: IndexProgress; poll?: boolean } = {}): Promise<void> {
    if (this.begin(options))
      this.startup!.catch((error: unknown) => this.reports.report('startup', 'indexing the repositories failed', error));
    return this.listing!;
  }

  /** Starts the startup unless it runs already; true when this call started it. */
  private begin(options: { onProgress?: IndexProgress; poll?: boolean }): boolean {
    if (this.listing !== null) return false;
    const listing = this.listAtStartup();
    const startup = listing.then(async () => {
      await this.updates.indexAll(options.onProgress);
      if (options.poll !== false && !this.closed) this.listen();
    });
    // Whoever needs them awaits these (start, ready, vaultsFor); an unawaited failure is no crash.
    listing.catch(() => undefined);
    startup.catch(() => undefined);
    this.listing = listing;
    this.startup = startup;
    return true;
  }

  /**
   * Settles when the startup indexing is done: resolves (each repository indexed, or its
   * failure logged), or rejects with {@link indexUnavailable} when the startup failed
   * as a whole. Resolved at once when the installation was never started.
   */
  ready(): Promise<void> {
    if (this.startup === null) return Promise.resolve();
    return this.startup.catch((error: unknown) => {
      throw indexUnavailable(error);
    });
  }

  /** The repositories of the installation, sorted by name (all of them, not one person's). */
  repoNames(): string[] {
    return this.updates.names();
  }

  /**
   * Makes one repository's index and configuration as fresh as a call needs them:
   * - after a commit made through a tool's host that no finished update has taken in yet,
   *   or with `force`: resolves when the index has it, so a write is seen by the next read;
   * - otherwise resolves at once: the Changes source keeps the index fresh. Without it
   *   (none given, or `start({ poll: false })`), an update is started in the background at
   *   most once a second.
   * An unknown name is ignored: the tools answer it. Never rejects (a failed update is logged).
   */
  refresh(repo: string, options: { force?: boolean } = {}): Promise<void> {
    return this.updates.refresh(repo, options);
  }

  /**
   * The readable repositories of `access` as tools see them, sorted by name. A repository
   * the person cannot read is not in it at all (spec: "Who sees what"). During the startup
   * it waits for the listing only, not for the index.
   */
  async vaultsFor(access: Access): Promise<Map<string, Vault>> {
    if (this.listing !== null) await this.listing.catch(() => undefined);
    const vaults = new Map<string, Vault>();
    for (const name of this.repoNames()) {
      if (!access.read.has(name)) continue;
      const config = this.configs.get(name) ?? (await this.configs.load(name));
      vaults.set(name, { name, head: this.updates.head(name) ?? null, config, canWrite: access.write.has(name) });
    }
    return vaults;
  }

  /** The `repo` field's choices for these vaults: each name with its settings' summary. */
  static repoChoices(vaults: ReadonlyMap<string, Vault>): RepoChoice[] {
    return [...vaults.values()].map((vault) => ({ name: vault.name, summary: vault.config.settings.summary }));
  }

  /**
   * Everything one call's handler may use, for this person and MCP client, with the host
   * bound to the caller (see caller-contexts.ts). Waits for the startup indexing
   * ({@link ready}); rejects with {@link indexUnavailable} when it failed.
   */
  async contextFor(access: Access, clientName: string | null, vaults?: ReadonlyMap<string, Vault>): Promise<ToolContext> {
    await this.ready();
    return this.contexts.contextFor(access, clientName, vaults ?? (await this.vaultsFor(access)));
  }

  /** Stops listening for changes and waits for running work; the host and the database stay open (their owner closes them). */
  async close(): Promise<void> {
    this.closed = true;
    // No update starts from here on (the startup's indexing stops between repositories).
    const updates = this.updates.close();
    if (this.listening) await this.changes?.stop();
    this.listening = false;
    await Promise.allSettled([this.startup, updates]);
  }

  /** Starts the Changes source, whose notices trigger index updates. */
  private listen(): void {
    if (this.changes === null) return;
    this.listening = true;
    this.updates.listening = true;
    this.changes.start((notice) => this.updates.onNotice(notice));
  }

  /** The first step of the startup: every repository listed, with its `.vault/` read, not indexed yet. */
  private async listAtStartup(): Promise<void> {
    const infos = await this.host.listRepos();
    for (const info of infos) {
      if (this.closed) return;
      await this.configs.load(info.name);
      this.updates.add(info.name, info.head);
    }
  }
}
