// The local RepoHost: Git repositories side by side in one folder, bare or with a work tree.
import { pino, type Logger } from 'pino';
import type { UsersFile } from '../../config/users-file.ts';
import type { RepoHistory } from '../history.ts';
import type { Access, Person } from '../person.ts';
import type { Change, CommitResult, FileEntry, RepoHost, RepoInfo, Snapshot } from '../repo-host.ts';
import type { Mirror } from '../git/mirror.ts';
import { CommitAuthors } from './commit-author.ts';
import { CommitGraphKeeper } from './commit-graph.ts';
import { CommitRecovery } from './commit-recovery.ts';
import { RepoDiscovery } from './discover-repos.ts';
import { LocalCommits } from './local-commit.ts';
import { blobSizes, readBlobs, readFileEntry } from './local-reads.ts';
import { ObjectFormats, type LocalRepo } from './local-repo.ts';
import { LocalSignIn } from './local-sign-in.ts';
import { LocalSnapshots } from './local-snapshot.ts';
import { assertRepoPath } from './repo-path.ts';
import type { BlobFile, CommitLine, ConflictDescription, FileTimes, FolderEntry, LinkOnPath } from '../repo-host.ts';
import { headCommit } from '../git/head-commit.ts';
import { KeptCatFiles } from '../git/kept-cat-file.ts';
import { commitsTouching, describeConflict, lastCommit } from './commit-log.ts';
import { fileSizes, fileTimes } from './file-times.ts';
import { currentFiles, filesAt } from './files-at.ts';
import { folderEntries } from './folder-entries.ts';
import { foldsCase } from './folds-case.ts';
import { linksOnPaths } from './links-on-paths.ts';

/** Options of {@link LocalRepoHost}. */
export interface LocalRepoHostOptions {
  /** The folder whose direct sub-folders are the repositories. */
  reposDir: string;
  /** People, tokens and rights; absent or null: one person reads and writes everything. */
  users?: UsersFile | null;
  /** That one person when there is no users file; default: git's user.name/user.email, else "Major Vault user". */
  as?: Person | null;
  /** Told, one sentence each, what recovery from a crashed server's commit did (see interrupted-commit.ts); default: nothing. */
  onRecovery?: (sentence: string) => void;
  /** Where the folders that are not served are reported (`folder_skipped`); default: nowhere. */
  log?: Logger;
}

/**
 * RepoHost over the Git repositories directly inside `reposDir` (spec: "Repositories and
 * paths"; DESIGN.md "Ports and adapters"). Composes one part per job: which folders are
 * repositories (discover-repos.ts), sign-in over the users file (local-sign-in.ts),
 * snapshots and fingerprints (local-snapshot.ts), reads (local-reads.ts), commits
 * (local-commit.ts), and recovery from a crashed server's commit (commit-recovery.ts).
 * In a work tree the current state is what the person's editor shows, uncommitted edits
 * included, and a commit is written back into the work tree and its index. Commits are made
 * with plumbing on a temporary index and land with `update-ref NEW OLD` (compare-and-swap).
 */
export class LocalRepoHost implements RepoHost {
  /** The sign-in side (authenticate, requiresToken); the methods of the same names delegate to it. */
  readonly signIn: LocalSignIn;
  private readonly discovery: RepoDiscovery;
  private readonly formats = new ObjectFormats();
  private readonly recovery: CommitRecovery;
  private readonly snapshots: LocalSnapshots;
  private readonly commits: LocalCommits;
  /** Keeps each repository's commit-graph current for the history tools' walks. */
  private readonly commitGraphs = new CommitGraphKeeper();
  /** One `cat-file --batch` kept running per repository for reads of blobs and of files at a commit. */
  private readonly keptObjects = new KeptCatFiles();
  private readonly objects = (gitDir: string, names: readonly string[]) => this.keptObjects.objects(gitDir, names);

  constructor(options: LocalRepoHostOptions) {
    this.recovery = new CommitRecovery(this.formats, options.onRecovery ?? (() => undefined));
    this.snapshots = new LocalSnapshots(this.formats, this.recovery);
    this.discovery = new RepoDiscovery(options.reposDir, options.log ?? pino({ level: 'silent' }), (repo) => this.snapshots.forget(repo));
    this.signIn = new LocalSignIn({
      users: options.users ?? null,
      as: options.as ?? null,
      repoNames: async () => (await this.listRepos()).map((repo) => repo.name),
    });
    this.commits = new LocalCommits({
      repoNamed: (name) => this.repo(name),
      formats: this.formats,
      recovery: this.recovery,
      authors: new CommitAuthors(this.signIn),
      snapshots: this.snapshots,
      objects: this.objects,
    });
  }

  get requiresToken(): boolean {
    return this.signIn.requiresToken;
  }

  /**
   * Recovers every repository with a work tree from a commit a crashed server left unfinished
   * (see recoverInterruptedCommit); run at start. Each read, the poll and each write also look
   * first (see CommitRecovery.ifNeeded), so a server that crashes while this one runs is
   * recovered from too. Resolves once done; a repository whose recovery fails is reported
   * through `onRecovery` and tried again by its next write, which refuses until then.
   */
  async recoverInterruptedCommits(): Promise<void> {
    for (const repo of await this.discovery.workTrees()) {
      await this.recovery.ifNeeded(repo); // a failure is reported; the next write tries again
    }
  }

  /** The repositories in `reposDir`, by name (see RepoDiscovery.list), each with its default branch and head. */
  async listRepos(): Promise<RepoInfo[]> {
    const repos = await this.discovery.list();
    return Promise.all(
      repos.map(async (repo) => {
        const { ref, head } = await this.snapshots.branchOf(repo);
        return { name: repo.name, defaultBranch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref, head };
      }),
    );
  }

  authenticate(token: string | undefined): Promise<Access | null> {
    return this.signIn.authenticate(token);
  }

  /** Starts reading what the first sign-in needs (LocalSignIn.readAhead): for a server, before its first request. */
  signInAhead(): void {
    this.signIn.readAhead();
  }

  async mirror(repoName: string): Promise<Mirror> {
    const repo = await this.repo(repoName);
    await this.recovery.ifNeeded(repo);
    this.commitGraphs.refresh(repo.gitDir);
    return { gitDir: repo.gitDir, workTree: repo.workTree };
  }

  /** The history of a repository (RepoHost `history`): the `git` program on its mirror. */
  async history(repoName: string): Promise<RepoHistory> {
    // The history's modules (blame, log, pickaxe) load with the first history read, not with every start.
    const [{ gitRepoHistory }, mirror] = await Promise.all([import('../git/history/git-repo-history.ts'), this.mirror(repoName)]);
    return gitRepoHistory(mirror);
  }

  async snapshot(repoName: string): Promise<Snapshot> {
    const repo = await this.repo(repoName);
    this.commitGraphs.refresh(repo.gitDir);
    return this.snapshots.snapshot(repo);
  }

  async pathsUnder(repoName: string, folder: string): Promise<string[]> {
    return this.snapshots.pathsUnder(await this.repo(repoName), folder);
  }

  async fingerprint(repoName: string): Promise<string> {
    return this.snapshots.fingerprint(await this.repo(repoName));
  }

  async readBlobs(repoName: string, oids: readonly string[]): Promise<Buffer[]> {
    const repo = await this.repo(repoName);
    return readBlobs(repo, oids, this.formats, (oid) => this.snapshots.workTreePath(repo.name, oid), this.objects);
  }

  async blobSizes(repoName: string, oids: readonly string[]): Promise<Map<string, number>> {
    return blobSizes(await this.repo(repoName), oids);
  }

  async readFile(repoName: string, path: string): Promise<Buffer | null> {
    return (await this.readFileEntry(repoName, path))?.content ?? null;
  }

  /** In a bare repository a symbolic link is no file (as in the snapshot), so no entry has a `target`. */
  async readFileEntry(repoName: string, path: string): Promise<FileEntry | null> {
    const repo = await this.repo(repoName);
    assertRepoPath(path);
    await this.recovery.ifNeeded(repo);
    return readFileEntry(repo, path);
  }

  commit(repoName: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
    return this.commits.commit(repoName, change, preparedFrom);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.commits.settled(), this.commitGraphs.close()]);
    this.snapshots.close();
    this.keptObjects.close();
  }

  private repo(name: string): Promise<LocalRepo> {
    return this.discovery.repo(name);
  }

  // Reads for the write flow and the tools: each delegates to the file that holds it.

  async head(repoName: string): Promise<string | null> {
    return headCommit((await this.mirror(repoName)).gitDir);
  }

  async currentFiles(repoName: string, head: string | null, paths: readonly string[]): Promise<Map<string, BlobFile | null>> {
    return currentFiles(await this.mirror(repoName), head, paths, (path) => this.readFile(repoName, path), this.objects);
  }

  async filesAt(repoName: string, commit: string | null, paths: readonly string[]): Promise<Map<string, BlobFile>> {
    return filesAt((await this.mirror(repoName)).gitDir, commit, paths, this.objects);
  }

  async keepsUncommittedChanges(repoName: string): Promise<boolean> {
    return (await this.mirror(repoName)).workTree !== null;
  }

  async pathReadsAreCheap(repoName: string): Promise<boolean> {
    return (await this.mirror(repoName)).workTree !== null;
  }

  async folderEntries(repoName: string, head: string | null, folder: string): Promise<FolderEntry[]> {
    return folderEntries(await this.mirror(repoName), head, folder);
  }

  async foldsCase(repoName: string): Promise<boolean> {
    return foldsCase(await this.mirror(repoName));
  }

  async linksOnPaths(repoName: string, head: string | null, paths: readonly string[]): Promise<Map<string, LinkOnPath>> {
    return linksOnPaths(await this.mirror(repoName), head, paths);
  }

  async lastCommit(repoName: string, at: string, path: string): Promise<string | null> {
    return lastCommit((await this.mirror(repoName)).gitDir, at, path);
  }

  async describeConflict(repoName: string, from: string, to: string, paths: readonly string[]): Promise<ConflictDescription> {
    return describeConflict((await this.mirror(repoName)).gitDir, from, to, paths);
  }

  async commitsTouching(repoName: string, from: string | null, to: string, path: string): Promise<CommitLine[]> {
    return commitsTouching((await this.mirror(repoName)).gitDir, from, to, path);
  }

  async fileTimes(repoName: string, at: string): Promise<Map<string, FileTimes>> {
    return fileTimes((await this.mirror(repoName)).gitDir, at);
  }

  async fileSizes(repoName: string, at: string): Promise<Map<string, number>> {
    return fileSizes((await this.mirror(repoName)).gitDir, at);
  }
}
