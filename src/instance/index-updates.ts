// The indexing loop: each repository's index and `.vault/` brought up to date by one job on
// the queue, sent by whichever trigger fires (the startup, a change notice, an own commit, a read).
import { applyCommittedFiles, removeRepo, syncRepo } from '../note-index/indexer.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import type { Queue } from '../jobs/queue.ts';
import type { ChangeNotice } from '../repo-host/changes.ts';
import { contentAfter, type Change, type RepoHost } from '../repo-host/repo-host.ts';
import { isVaultError } from '../vault-error.ts';
import type { FailureReports } from './failure-reports.ts';
import type { Logger } from './log.ts';
import type { VaultConfigs } from './vault-configs.ts';

/** Progress of the startup indexing: the repository and its files done out of total. */
export type IndexProgress = (repo: string, done: number, total: number) => void;

/** What {@link IndexUpdates} works with. */
export interface IndexUpdatesOptions {
  /** The installation's own host (never a caller's). */
  host: RepoHost;
  sql: SqlClient;
  /** Where the index update runs, as the job `index` keyed by repository; one queue per installation. */
  queue: Queue;
  configs: VaultConfigs;
  reports: FailureReports;
  log: Logger;
}

/** What the installation knows about one repository. */
interface RepoState {
  name: string;
  /** The host's fingerprint the index and config were last brought up to date with. */
  fingerprint: string | null;
  head: string | null;
  /** When the fingerprint was last compared, in ms since the epoch; 0 forces the next check. */
  checkedAt: number;
  /** Counts commits made through the installation. */
  commits: number;
  /** The value of `commits` the last finished check started with: below `commits`, an own write is not in the index yet. */
  seenCommits: number;
  /** Own commits not in the index yet, oldest first, with their files: put straight into the index by the next refresh. */
  pending: CommittedChange[];
  /** Whether an update job runs for it now. */
  updating: boolean;
}

/** A commit made through the installation: the new head and the files it wrote or deleted (a moved one with its old path). */
interface CommittedChange {
  head: string;
  files: Array<{ path: string; content: Buffer | null; from?: string }>;
}

/** The queue's name of the index update job. */
const indexJob = 'index';
/** Without change notices, a read starts a check in the background at most this often per repository. */
const recheckIntervalMs = 1000;

/**
 * Keeps the index and each repository's `.vault/` up to date. The index update of one
 * repository is the job `index` (compare the host's fingerprint; when it moved, sync the
 * index and reread `.vault/`); the queue runs one per repository at a time, and a burst of
 * triggers shares one next run. Triggers: the startup ({@link indexAll}), change notices
 * ({@link onNotice}), an own commit not yet in the index ({@link refresh}), and, without
 * notices, a read at most once a second per repository.
 */
export class IndexUpdates {
  private readonly repos = new Map<string, RepoState>();
  /** Repositories a relist found, being indexed before they are listed (never listed with an empty index). */
  private readonly arriving = new Map<string, RepoState>();
  private readonly runs = new Set<Promise<void>>();
  /** The startup's progress callback while the startup indexes. */
  private progress: IndexProgress | undefined;
  private relistDue = false;
  private closed = false;
  /** Whether change notices arrive (then reads never start checks). */
  listening = false;

  private readonly options: IndexUpdatesOptions;

  constructor(options: IndexUpdatesOptions) {
    this.options = options;
    options.queue.work(indexJob, (repo) => this.update(repo));
  }

  /** The listed repositories, sorted by name. */
  names(): string[] {
    return [...this.repos.keys()].sort();
  }

  /** The head commit the index of `repo` was last brought to (or it was listed at); undefined for an unknown name. */
  head(repo: string): string | null | undefined {
    return this.repos.get(repo)?.head;
  }

  /** Lists a repository found at startup, not indexed yet. */
  add(repo: string, head: string | null): void {
    this.repos.set(repo, newRepoState(repo, head));
  }

  /** The startup's indexing: every listed repository, one after the other, reporting to `onProgress`. */
  async indexAll(onProgress?: IndexProgress): Promise<void> {
    this.progress = onProgress;
    try {
      for (const name of this.names()) {
        if (this.closed) return;
        await this.send(name);
      }
    } finally {
      this.progress = undefined;
    }
  }

  /**
   * Makes one repository's index and configuration as fresh as a call needs them:
   * - after an own commit that no finished check has taken in yet, or with `force`: runs the
   *   update job (or joins the next run) and resolves when the index has it; an own commit
   *   goes straight in from its files first, when the index can take it so;
   * - otherwise resolves at once: change notices keep the index fresh. Without them
   *   ({@link listening} false), an update is started in the background at most once a second.
   * An unknown name is ignored: the tools answer it. Never rejects (a failed update is logged).
   */
  async refresh(repo: string, options: { force?: boolean } = {}): Promise<void> {
    const state = this.repos.get(repo);
    if (!state) return;
    if (!options.force && state.seenCommits === state.commits) {
      if (!this.listening && !state.updating && Date.now() - state.checkedAt >= recheckIntervalMs) void this.send(repo);
      return;
    }
    // Own commits go straight in; the indexer queues them behind any sync already running, so
    // a write never waits for a background check.
    if (!options.force && (await this.applyPending(state))) return;
    await this.send(repo);
  }

  /** Takes in a commit a tool made through the installation's host: the next refresh puts it into the index. */
  noteCommitted(repo: string, change: Change, commit: string): void {
    const state = this.repos.get(repo);
    if (!state) return;
    state.commits += 1;
    // The index holds notes as read_note shows them: in a work tree, with the person's uncommitted text.
    const files = change.files.map((file) => ({
      path: file.path,
      content: contentAfter(file),
      ...(file.from !== undefined ? { from: file.from } : {}),
    }));
    state.pending.push({ head: commit, files });
  }

  /**
   * Handles a notice of the Changes port: `listed` lists the repositories again (indexing new
   * ones, dropping gone ones); `moved` updates the repository named, or every one. Never
   * rejects: a failure is logged once (key `poll`).
   */
  async onNotice(notice: ChangeNotice): Promise<void> {
    if (this.closed) return;
    try {
      if (notice.kind === 'listed' || this.relistDue) {
        this.relistDue = false;
        await this.relist();
      }
      if (notice.kind !== 'moved') return;
      for (const name of notice.repo === null ? this.names() : [notice.repo]) {
        if (this.closed) break;
        await this.refresh(name, { force: true });
      }
    } catch (error) {
      this.options.reports.report('poll', 'looking for changes failed', error);
    }
  }

  /** Starts no more updates and waits for the ones running. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.runs]);
  }

  /** Sends the update job of `repo` and keeps its run until it ends, for {@link close}. */
  private send(repo: string): Promise<void> {
    const run = this.options.queue.send(indexJob, repo);
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run)).catch(() => undefined);
    return run;
  }

  /** The job: one update of `repo`. */
  private async update(repo: string): Promise<void> {
    const state = this.repos.get(repo) ?? this.arriving.get(repo);
    if (!state || this.closed) return;
    state.updating = true;
    try {
      await this.check(state);
    } finally {
      state.updating = false;
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
    const config = this.options.configs.get(state.name);
    if (pending.length === 0 || config === null) return false;
    const fields = { typeField: config.settings.typeField, summaryField: config.settings.summaryField, folders: config.settings.folders };
    try {
      for (const commit of pending) {
        if (!(await applyCommittedFiles(this.options.sql, state.name, { head: commit.head, fields, files: commit.files }))) return false;
      }
    } catch (error) {
      this.options.reports.report(state.name, `indexing a commit to ${state.name} failed`, error);
      return false;
    }
    state.head = pending[pending.length - 1]!.head;
    state.fingerprint = null;
    state.seenCommits = Math.max(state.seenCommits, commitsBefore);
    return true;
  }

  /** Lists the host's repositories: indexes the new ones, drops the gone ones from the index. */
  private async relist(): Promise<void> {
    const infos = await this.options.host.listRepos();
    const present = new Set(infos.map((info) => info.name));
    for (const name of [...this.repos.keys()]) {
      if (present.has(name)) continue;
      // Its rows go first: once a repository is no longer listed, nothing of it is left to find.
      await removeRepo(this.options.sql, name);
      this.repos.delete(name);
      this.options.configs.forget(name);
    }
    for (const info of infos) {
      if (this.repos.has(info.name)) continue;
      const state = newRepoState(info.name, info.head);
      this.arriving.set(info.name, state);
      try {
        await this.send(info.name);
      } finally {
        this.arriving.delete(info.name);
      }
      if (!this.closed) this.repos.set(info.name, state);
    }
  }

  /**
   * Compares the fingerprint and, when it moved, re-indexes and rereads `.vault/`. Never
   * throws: a failure is logged once, and the commits it started with count as seen either
   * way (the poll retries, since the fingerprint still differs).
   */
  private async check(state: RepoState): Promise<void> {
    const commitsBefore = state.commits;
    const startedAt = Date.now();
    try {
      await this.compareAndSync(state);
    } finally {
      state.checkedAt = startedAt;
      state.seenCommits = Math.max(state.seenCommits, commitsBefore);
    }
  }

  private async compareAndSync(state: RepoState): Promise<void> {
    const { host, sql, configs, reports, log } = this.options;
    try {
      const fingerprint = await host.fingerprint(state.name);
      if (fingerprint === state.fingerprint) return;
      const startedAt = performance.now();
      const onProgress = this.progress;
      const progress = onProgress ? (done: number, total: number) => onProgress(state.name, done, total) : undefined;
      const result = await syncRepo(sql, host, state.name, progress ? { onProgress: progress } : {});
      state.head = result.head;
      await configs.load(state.name);
      state.fingerprint = result.fingerprint;
      reports.recovered(state.name);
      if (result.changed > 0 || result.removed > 0) {
        log.info(
          {
            event: 'index_updated',
            repo: state.name,
            head: result.head,
            changed: result.changed,
            removed: result.removed,
            durationMs: Math.round(performance.now() - startedAt),
          },
          `indexed ${result.changed} changed and ${result.removed} removed files of ${state.name}`,
        );
      }
    } catch (error) {
      // The repository went away: the next notice lists the repositories again and drops it.
      if (isVaultError(error, 'repo_not_found')) {
        this.relistDue = true;
        return;
      }
      // Keep serving what the index has; say so once per repository until it recovers.
      reports.report(state.name, `indexing the repository ${state.name} failed`, error);
    }
  }
}

function newRepoState(name: string, head: string | null): RepoState {
  return { name, fingerprint: null, head, checkedAt: 0, commits: 0, seenCommits: 0, pending: [], updating: false };
}
