// The running installation: its repositories, their index and `.vault/` configuration, kept
// up to date with changes made outside the server, and the ToolContext each call gets.
import { defaultVaultConfig, loadVaultConfig } from '../config/load-vault-config.ts';
import type { VaultConfig } from '../config/vault-config.ts';
import { removeRepo, syncRepo } from '../note-index/indexer.ts';
import { createNoteIndex, type NoteIndex } from '../note-index/note-index.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { isVaultError } from '../vault-error.ts';
import type { Access } from '../repo-host/person.ts';
import type { Change, CommitResult, RepoHost } from '../repo-host/repo-host.ts';
import type { RepoChoice, ToolContext, Vault } from './tool.ts';
import { stderrLog, type Log } from './log.ts';

/** Options for {@link Installation.open}. */
export interface InstallationOptions {
  /** The installation's name: the last segment of its address, e.g. `acme`. */
  name: string;
  host: RepoHost;
  /** The index database, already migrated. */
  sql: SqlClient;
  log?: Log;
  /** How often the background poll looks for outside changes, in milliseconds. Default 1000. */
  pollIntervalMs?: number;
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
  /** Counts commits made through the installation; a check that saw it change keeps `checkedAt` 0. */
  commits: number;
  inflight: Promise<void> | null;
}

/** The fingerprint is compared at most this often per repository on the read path. */
const recheckIntervalMs = 1000;
/** The background poll lists the repositories again every this many ticks. */
const relistEveryTicks = 5;

/**
 * One installation as the instance runs it (DESIGN.md "The parts"): a RepoHost, the notes
 * index over every repository, and each repository's parsed `.vault/`. Reads go through
 * {@link refresh}, which compares the host's fingerprint at most once a second and re-indexes
 * when it moved; a background poll does the same about once a second, so an edit in an
 * editor or a `git pull` is seen within two seconds.
 */
export class Installation {
  readonly index: NoteIndex;
  /**
   * The host tools get: the installation's own, except that a successful commit marks its
   * repository for a fresh fingerprint check, so the next refresh never skips one's own write.
   */
  readonly toolHost: RepoHost;
  private readonly repos = new Map<string, RepoState>();
  private readonly log: Log;
  private poll: ReturnType<typeof setInterval> | null = null;
  private pollRunning = false;
  private ticks = 0;
  private relistDue = false;
  private closed = false;
  private readonly reported = new Set<string>();

  private constructor(
    readonly name: string,
    readonly host: RepoHost,
    readonly sql: SqlClient,
    log: Log,
    private readonly pollIntervalMs: number,
  ) {
    this.log = log;
    this.index = createNoteIndex(sql);
    this.toolHost = withCommitHook(host, (repo) => this.markStale(repo));
  }

  /** Creates the installation; nothing is indexed until {@link start}. */
  static open(options: InstallationOptions): Installation {
    return new Installation(options.name, options.host, options.sql, options.log ?? stderrLog, options.pollIntervalMs ?? 1000);
  }

  /**
   * Indexes every repository (a full build the first time, then only what changed) and
   * reads its configuration; then, unless `poll` is false, starts the background poll.
   * A repository that fails to index is logged and kept, so the others still serve.
   */
  async start(options: { onProgress?: IndexProgress; poll?: boolean } = {}): Promise<void> {
    await this.relist(options.onProgress);
    if (options.poll !== false) this.startPoll();
  }

  /** The repositories of the installation, sorted by name (all of them, not one person's). */
  repoNames(): string[] {
    return [...this.repos.keys()].sort();
  }

  /**
   * Brings one repository's index and configuration up to date with its current state.
   * Cheap when nothing changed: the fingerprint is compared at most once a second
   * (`force` compares it now). An unknown name is ignored: the tools answer it.
   */
  async refresh(repo: string, options: { force?: boolean } = {}): Promise<void> {
    const state = this.repos.get(repo);
    if (!state) return;
    // A check already running may have read the fingerprint before a change; wait for it,
    // then decide afresh (a commit in between marked the repository stale).
    if (state.inflight) await state.inflight;
    if (!options.force && Date.now() - state.checkedAt < recheckIntervalMs) return;
    state.inflight ??= this.check(state).finally(() => {
      state.inflight = null;
    });
    return state.inflight;
  }

  /**
   * The readable repositories of `access` as tools see them, sorted by name. A repository
   * the person cannot read is not in it at all (spec: "Who sees what").
   */
  async vaultsFor(access: Access): Promise<Map<string, Vault>> {
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

  /** Everything one call's handler may use, for this person and MCP client. */
  async contextFor(access: Access, clientName: string | null, vaults?: ReadonlyMap<string, Vault>): Promise<ToolContext> {
    return {
      access,
      vaults: vaults ?? (await this.vaultsFor(access)),
      index: this.index,
      host: this.toolHost,
      clientName,
      refresh: (repo) => this.refresh(repo),
    };
  }

  /** Stops the poll and waits for running work; the host and the database stay open (their owner closes them). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    await Promise.allSettled([...this.repos.values()].map((state) => state.inflight));
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
      const state: RepoState = { name: info.name, fingerprint: null, head: info.head, config: null, configKey: null, checkedAt: 0, commits: 0, inflight: null };
      // Listed only once indexed: a repository never appears with an empty index.
      await this.check(state, onProgress);
      if (!this.closed) this.repos.set(info.name, state);
    }
  }

  /** Compares the fingerprint and, when it moved, re-indexes and rereads `.vault/`. */
  private async check(state: RepoState, onProgress?: IndexProgress): Promise<void> {
    const commitsBefore = state.commits;
    const startedAt = Date.now();
    try {
      const fingerprint = await this.host.fingerprint(state.name);
      state.checkedAt = state.commits === commitsBefore ? startedAt : 0;
      if (fingerprint === state.fingerprint) return;
      const progress = onProgress ? (done: number, total: number) => onProgress(state.name, done, total) : undefined;
      const result = await syncRepo(this.sql, this.host, state.name, progress ? { onProgress: progress } : {});
      state.head = result.head;
      await this.loadConfig(state);
      state.fingerprint = result.fingerprint;
      this.reported.delete(state.name);
    } catch (error) {
      state.checkedAt = startedAt;
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
      const snapshot = await this.host.snapshot(state.name);
      const vaultFiles = snapshot.files.filter((file) => file.path.startsWith('.vault/'));
      const key = vaultFiles.map((file) => `${file.path}\0${file.oid}`).join('\n');
      if (state.config && key === state.configKey) return state.config;
      const config = await loadVaultConfig(
        async (path) => (await this.host.readFile(state.name, path))?.toString('utf8') ?? null,
        vaultFiles.map((file) => file.path),
      );
      state.config = config;
      state.configKey = key;
      return config;
    } catch (error) {
      this.reportOnce(`${state.name}/.vault`, `reading .vault/ of ${state.name} failed`, error);
      const defaults = state.config ?? defaultVaultConfig();
      state.config = defaults;
      return defaults;
    }
  }

  private markStale(repo: string): void {
    const state = this.repos.get(repo);
    if (!state) return;
    state.commits += 1;
    state.checkedAt = 0;
  }

  private reportOnce(key: string, message: string, error: unknown): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.log(message, error);
  }
}

/** `host` with `onCommitted(repo)` called after every successful commit. */
function withCommitHook(host: RepoHost, onCommitted: (repo: string) => void): RepoHost {
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
    async commit(repo: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
      const result = await host.commit(repo, change, preparedFrom);
      if (result.ok) onCommitted(repo);
      return result;
    },
    close: () => host.close(),
  };
}
