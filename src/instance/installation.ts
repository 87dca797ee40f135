// The running installation: its repositories, their index and `.vault/` configuration, kept
// up to date with changes made outside the server, and the ToolContext each call gets.
import { defaultVaultConfig, loadVaultConfig } from '../config/load-vault-config.ts';
import type { VaultConfig } from '../config/vault-config.ts';
import { applyCommittedFiles, removeRepo, syncRepo } from '../note-index/indexer.ts';
import { createNoteIndex, type NoteIndex } from '../note-index/note-index.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { isVaultError, VaultError } from '../vault-error.ts';
import type { Access } from '../repo-host/person.ts';
import type { Change, CommitResult, FileChange, RepoHost } from '../repo-host/repo-host.ts';
import type { RepoChoice, ToolContext, Vault } from './tool.ts';
import type { Logger } from './log.ts';

/** Options for {@link Installation.open}. */
export interface InstallationOptions {
  /** The installation's name: the last segment of its address, e.g. `acme`. */
  name: string;
  host: RepoHost;
  /** The index database, already migrated. */
  sql: SqlClient;
  /** Where the installation says what it does: index updates, failures (see log.ts). */
  log: Logger;
  /** How often the background poll looks for outside changes, in milliseconds. Default 1000. */
  pollIntervalMs?: number;
  /** The time budget of one call's matching of note text, in milliseconds (ToolContext `matchBudgetMs`). */
  matchBudgetMs?: number;
}

/** Progress of the startup indexing: the repository and its files done out of total. */
export type IndexProgress = (repo: string, done: number, total: number) => void;

/** What the installation knows about one repository. */
interface RepoState {
  name: string;
  /** The host's fingerprint the index and config were last brought up to date with. */
  fingerprint: string | null;
  head: string | null;
  config: VaultConfig | null;
  /** The `.vault/` files (path and blob id) the config was read from: reread only when they change. */
  configKey: string | null;
  /** When the fingerprint was last compared, in ms since the epoch; 0 forces the next check. */
  checkedAt: number;
  /** Counts commits made through the installation. */
  commits: number;
  /** The value of `commits` the last finished check started with: below `commits`, an own write is not in the index yet. */
  seenCommits: number;
  /** Own commits not in the index yet, oldest first, with their files: put straight into the index by the next refresh. */
  pending: CommittedChange[];
  inflight: Promise<void> | null;
}

/** A commit made through the installation: the new head and the files it wrote or deleted. */
interface CommittedChange {
  head: string;
  files: FileChange[];
}

/** Without the background poll, a read starts a check in the background at most this often per repository. */
const recheckIntervalMs = 1000;
/** The background poll lists the repositories again every this many ticks. */
const relistEveryTicks = 5;

/**
 * VaultError `index_unavailable`, the answer to a tool call when the startup indexing failed
 * as a whole (the database would not open, the repositories folder went away): the message is
 * for the model, the `cause` is for the server's log.
 */
export function indexUnavailable(cause: unknown): VaultError {
  return new VaultError(
    'index_unavailable',
    'Major Vault could not build its index of the repositories, so no tool can answer yet. The cause is in the server’s log; ask whoever runs Major Vault to fix it and restart it.',
    undefined,
    { cause },
  );
}

/**
 * One installation as the instance runs it (DESIGN.md "The parts"): a RepoHost, the notes
 * index over every repository, and each repository's parsed `.vault/`.
 * - Startup: the repositories are listed and their `.vault/` read first (enough for
 *   `initialize` and `tools/list`), then indexed; {@link ready} settles when that is done and
 *   tool contexts wait for it.
 * - Reads answer from the index as it is: a background poll compares each repository's
 *   fingerprint about once a second and re-indexes when it moved, so an edit in an editor or
 *   a `git pull` is seen within two seconds. Only after the installation's own commit does
 *   {@link refresh} wait, so a write is seen by the very next read.
 */
export class Installation {
  readonly index: NoteIndex;
  /**
   * The host tools get: the installation's own, except that a successful commit marks its
   * repository for a fresh fingerprint check, so the next refresh never skips one's own write.
   */
  readonly toolHost: RepoHost;
  private readonly repos = new Map<string, RepoState>();
  private readonly log: Logger;
  private poll: ReturnType<typeof setInterval> | null = null;
  /** The startup: listing (repositories and `.vault/` read), then indexing (null until started). */
  private listing: Promise<void> | null = null;
  private startup: Promise<void> | null = null;
  private pollRunning = false;
  private ticks = 0;
  private relistDue = false;
  private closed = false;
  private readonly reported = new Set<string>();

  private constructor(
    readonly name: string,
    readonly host: RepoHost,
    readonly sql: SqlClient,
    log: Logger,
    private readonly pollIntervalMs: number,
    private readonly matchBudgetMs: number | undefined,
  ) {
    this.log = log;
    this.index = createNoteIndex(sql);
    this.toolHost = withCommitHook(host, (repo, change, commit) => this.markCommitted(repo, change, commit));
  }

  /** Creates the installation; nothing is indexed until {@link start}. */
  static open(options: InstallationOptions): Installation {
    return new Installation(options.name, options.host, options.sql, options.log, options.pollIntervalMs ?? 1000, options.matchBudgetMs);
  }

  /**
   * Lists the repositories, reads each one's `.vault/`, indexes every repository (a full build
   * the first time, then only what changed); then, unless `poll` is false, starts the
   * background poll. Resolves when all of it is done; rejects when the repositories cannot be
   * listed. A repository that fails to index is logged and kept, so the others still serve.
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
    if (this.begin(options)) this.startup!.catch((error: unknown) => this.reportOnce('startup', 'indexing the repositories failed', error));
    return this.listing!;
  }

  /** Starts the startup unless it runs already; true when this call started it. */
  private begin(options: { onProgress?: IndexProgress; poll?: boolean }): boolean {
    if (this.listing !== null) return false;
    const listing = this.listAtStartup();
    const startup = listing.then(async () => {
      await this.indexAtStartup(options.onProgress);
      if (options.poll !== false && !this.closed) this.startPoll();
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
    return [...this.repos.keys()].sort();
  }

  /**
   * Makes one repository's index and configuration as fresh as a call needs them:
   * - after a commit made through {@link toolHost} that no finished check has taken in yet,
   *   or with `force`: compares the fingerprint now (re-indexing when it moved) and resolves
   *   when the index has it, so a write is seen by the next read;
   * - otherwise resolves at once: the background poll keeps the index fresh. Without the poll
   *   (`start({ poll: false })`), a check is started in the background at most once a second.
   * An unknown name is ignored: the tools answer it. Never rejects (a failed check is logged).
   */
  async refresh(repo: string, options: { force?: boolean } = {}): Promise<void> {
    const state = this.repos.get(repo);
    if (!state) return;
    if (!options.force && state.seenCommits === state.commits) {
      if (this.poll === null && state.inflight === null && Date.now() - state.checkedAt >= recheckIntervalMs) void this.runCheck(state);
      return;
    }
    // Own commits go straight in; the indexer queues them behind any sync already running, so
    // a write never waits for a background check.
    if (!options.force && (await this.applyPending(state))) return;
    // A check already running may have read the fingerprint before the change; wait for it,
    // then decide afresh.
    while (state.inflight) await state.inflight;
    if (!options.force && state.seenCommits === state.commits) return;
    await this.runCheck(state);
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
      const state = this.repos.get(name)!;
      const config = state.config ?? (await this.loadConfig(state));
      vaults.set(name, { name, head: state.head, config, canWrite: access.write.has(name) });
    }
    return vaults;
  }

  /** The `repo` field's choices for these vaults: each name with its settings' summary. */
  static repoChoices(vaults: ReadonlyMap<string, Vault>): RepoChoice[] {
    return [...vaults.values()].map((vault) => ({ name: vault.name, summary: vault.config.settings.summary }));
  }

  /**
   * Everything one call's handler may use, for this person and MCP client. Waits for the
   * startup indexing ({@link ready}); rejects with {@link indexUnavailable} when it failed.
   */
  async contextFor(access: Access, clientName: string | null, vaults?: ReadonlyMap<string, Vault>): Promise<ToolContext> {
    await this.ready();
    return {
      access,
      vaults: vaults ?? (await this.vaultsFor(access)),
      index: this.index,
      host: this.toolHost,
      clientName,
      refresh: (repo) => this.refresh(repo),
      log: this.log,
      ...(this.matchBudgetMs !== undefined ? { matchBudgetMs: this.matchBudgetMs } : {}),
    };
  }

  /** Stops the poll and waits for running work; the host and the database stay open (their owner closes them). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    await Promise.allSettled([this.startup, ...[...this.repos.values()].map((state) => state.inflight)]);
  }

  /** The first step of the startup: every repository listed, with its `.vault/` read, not indexed yet. */
  private async listAtStartup(): Promise<void> {
    const infos = await this.host.listRepos();
    for (const info of infos) {
      if (this.closed) return;
      const state = newRepoState(info.name, info.head);
      await this.loadConfig(state);
      this.repos.set(info.name, state);
    }
  }

  /** The second step: each listed repository indexed, one after the other. */
  private async indexAtStartup(onProgress?: IndexProgress): Promise<void> {
    for (const name of this.repoNames()) {
      const state = this.repos.get(name);
      if (this.closed) return;
      if (state) await this.runCheck(state, onProgress);
    }
  }

  /**
   * Puts the installation's own commits that the index lacks straight into it, from the files
   * each commit wrote (no snapshot, no comparison of every file), in commit order: the indexer
   * runs them one after the other in the same queue as its syncs. True when every pending
   * commit went in; false when the index could not take them that way (never indexed, other
   * parse fields, a sync got there first), and the caller then runs a full check. The stored
   * fingerprint is cleared, so the poll compares once more (and finds nothing left to do).
   */
  private async applyPending(state: RepoState): Promise<boolean> {
    const commitsBefore = state.commits;
    const pending = state.pending.splice(0);
    if (pending.length === 0 || state.config === null) return false;
    const fields = { typeField: state.config.settings.typeField, summaryField: state.config.settings.summaryField, folders: state.config.settings.folders };
    try {
      for (const commit of pending) {
        if (!(await applyCommittedFiles(this.sql, state.name, { head: commit.head, fields, files: commit.files }))) return false;
      }
    } catch (error) {
      this.reportOnce(state.name, `indexing a commit to ${state.name} failed`, error);
      return false;
    }
    state.head = pending[pending.length - 1]!.head;
    state.fingerprint = null;
    state.seenCommits = Math.max(state.seenCommits, commitsBefore);
    return true;
  }

  /** Runs one check of a repository, as the one in flight (callers that need it wait for it). */
  private runCheck(state: RepoState, onProgress?: IndexProgress): Promise<void> {
    const check = this.check(state, onProgress).finally(() => {
      if (state.inflight === check) state.inflight = null;
    });
    state.inflight = check;
    return check;
  }

  private startPoll(): void {
    this.poll = setInterval(() => void this.tick(), this.pollIntervalMs);
    this.poll.unref();
  }

  private async tick(): Promise<void> {
    if (this.pollRunning || this.closed) return;
    this.pollRunning = true;
    try {
      this.ticks += 1;
      if (this.relistDue || this.ticks % relistEveryTicks === 0) {
        this.relistDue = false;
        await this.relist();
      }
      for (const name of this.repoNames()) {
        if (this.closed) break;
        await this.refresh(name, { force: true });
      }
    } catch (error) {
      this.reportOnce('poll', 'looking for changes failed', error);
    } finally {
      this.pollRunning = false;
    }
  }

  /** Lists the host's repositories: indexes the new ones, drops the gone ones from the index. */
  private async relist(onProgress?: IndexProgress): Promise<void> {
    const infos = await this.host.listRepos();
    const present = new Set(infos.map((info) => info.name));
    for (const name of [...this.repos.keys()]) {
      if (present.has(name)) continue;
      this.repos.delete(name);
      await removeRepo(this.sql, name);
    }
    for (const info of infos) {
      if (this.repos.has(info.name)) continue;
      const state = newRepoState(info.name, info.head);
      // Listed only once indexed: a repository never appears with an empty index.
      await this.check(state, onProgress);
      if (!this.closed) this.repos.set(info.name, state);
    }
  }

  /**
   * Compares the fingerprint and, when it moved, re-indexes and rereads `.vault/`. Never
   * throws: a failure is logged once, and the commits it started with count as seen either
   * way (the poll retries, since the fingerprint still differs).
   */
  private async check(state: RepoState, onProgress?: IndexProgress): Promise<void> {
    const commitsBefore = state.commits;
    const startedAt = Date.now();
    try {
      await this.compareAndSync(state, onProgress);
    } finally {
      state.checkedAt = startedAt;
      state.seenCommits = Math.max(state.seenCommits, commitsBefore);
    }
  }

  private async compareAndSync(state: RepoState, onProgress?: IndexProgress): Promise<void> {
    try {
      const fingerprint = await this.host.fingerprint(state.name);
      if (fingerprint === state.fingerprint) return;
      const startedAt = performance.now();
      const progress = onProgress ? (done: number, total: number) => onProgress(state.name, done, total) : undefined;
      const result = await syncRepo(this.sql, this.host, state.name, progress ? { onProgress: progress } : {});
      state.head = result.head;
      await this.loadConfig(state);
      state.fingerprint = result.fingerprint;
      this.reported.delete(state.name);
      if (result.changed > 0 || result.removed > 0) {
        this.log.info(
          { event: 'index_updated', repo: state.name, head: result.head, changed: result.changed, removed: result.removed, durationMs: Math.round(performance.now() - startedAt) },
          `indexed ${result.changed} changed and ${result.removed} removed files of ${state.name}`,
        );
      }
    } catch (error) {
      // The repository went away: the next tick lists the repositories again and drops it.
      if (isVaultError(error, 'repo_not_found')) {
        this.relistDue = true;
        return;
      }
      // Keep serving what the index has; say so once per repository until it recovers.
      this.reportOnce(state.name, `indexing the repository ${state.name} failed`, error);
    }
  }

  /** Reads `.vault/` when its files changed since the last read; never throws. */
  private async loadConfig(state: RepoState): Promise<VaultConfig> {
    try {
      const read = await readVaultConfig(this.host, state.name, state.config ? { config: state.config, key: state.configKey ?? '' } : null);
      state.config = read.config;
      state.configKey = read.key;
      return read.config;
    } catch (error) {
      this.reportOnce(`${state.name}/.vault`, `reading .vault/ of ${state.name} failed`, error);
      const defaults = state.config ?? defaultVaultConfig();
      state.config = defaults;
      return defaults;
    }
  }


  private markCommitted(repo: string, change: Change, commit: string): void {
    const state = this.repos.get(repo);
    if (!state) return;
    state.commits += 1;
    // The index holds notes as read_note shows them: in a work tree, with the person's uncommitted text.
    const files = change.files.map((file) => (file.content === null || file.workTreeContent === undefined ? file : { path: file.path, content: file.workTreeContent }));
    state.pending.push({ head: commit, files });
  }

  private reportOnce(key: string, message: string, error: unknown): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.log.error({ err: error }, message);
  }
}

/**
 * One repository's `.vault/` configuration, read through the host from its current state:
 * the configuration and a key naming the `.vault/` files and their blob ids. When `known`
 * has the same key, its configuration is returned without reading the files again.
 * Throws what the host throws (e.g. VaultError `repo_not_found`); a configuration that does
 * not parse is not an error (loadVaultConfig falls back to the defaults and says why).
 */
export async function readVaultConfig(host: RepoHost, repo: string, known: { config: VaultConfig; key: string } | null = null): Promise<{ config: VaultConfig; key: string }> {
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

/**
 * The readable repositories of `access` as tools see them, read straight from the host
 * (no index, no Installation): what `initialize` and `tools/list` need while an installation
 * is still being opened. A `.vault/` that cannot be read counts as absent (defaults).
 */
export async function readVaults(host: RepoHost, access: Access): Promise<Map<string, Vault>> {
  const infos = (await host.listRepos()).filter((info) => access.read.has(info.name));
  const configs = await Promise.all(infos.map((info) => readVaultConfig(host, info.name).then((read) => read.config, () => defaultVaultConfig())));
  return new Map(infos.map((info, i) => [info.name, { name: info.name, head: info.head, config: configs[i]!, canWrite: access.write.has(info.name) }]));
}

function newRepoState(name: string, head: string | null): RepoState {
  return { name, fingerprint: null, head, config: null, configKey: null, checkedAt: 0, commits: 0, seenCommits: 0, pending: [], inflight: null };
}

/** `host` with `onCommitted(repo, change, commit)` called after every successful commit. */
function withCommitHook(host: RepoHost, onCommitted: (repo: string, change: Change, commit: string) => void): RepoHost {
  return {
    get requiresToken() {
      return host.requiresToken;
    },
    listRepos: () => host.listRepos(),
    authenticate: (token) => host.authenticate(token),
    mirror: (repo) => host.mirror(repo),
    snapshot: (repo) => host.snapshot(repo),
    fingerprint: (repo) => host.fingerprint(repo),
    readBlobs: (repo, oids) => host.readBlobs(repo, oids),
    readFile: (repo, path) => host.readFile(repo, path),
    readFileEntry: (repo, path) => host.readFileEntry(repo, path),
    async commit(repo: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
      const result = await host.commit(repo, change, preparedFrom);
      if (result.ok) onCommitted(repo, change, result.commit);
      return result;
    },
    close: () => host.close(),
  };
}
