// The hosted RepoHost: the repositories of a GitHub App's installation, read from bare mirrors, written with the person's token.
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { KeyedQueue } from '../../keyed-queue.ts';
import { repoNotFound } from '../../repo-not-found.ts';
import { VaultError } from '../../vault-error.ts';
import { blobId } from '../git/blob-id.ts';
import { headCommit } from '../git/head-commit.ts';
import { runGit } from '../git/run-git.ts';
import type { RepoHistory } from '../history.ts';
import { assertWellFormedChange, refuseClash } from '../local/local-commit.ts';
import { LocalRepoHost } from '../local/local-repo-host.ts';
import { lookAtPaths } from '../local/path-look.ts';
import type {
  BlobFile,
  Change,
  CommitLine,
  CommitResult,
  ConflictDescription,
  FileEntry,
  FileTimes,
  FolderEntry,
  LinkOnPath,
  RepoHost,
  RepoInfo,
  Snapshot,
} from '../repo-host.ts';
import { commitOnBranch, type BranchFileChanges } from './commit-on-branch.ts';
import { pushFirstCommit } from './first-commit.ts';
import type { GitHubApi } from './github-api.ts';
import { githubFailure, GitHubUnavailable, statusOf } from './github-failure.ts';
import { GitHubMirrors } from './github-mirrors.ts';
import { InstallationRepos, type InstallationRepo } from './installation-repos.ts';

/** What {@link GitHubRepoHost} is built from. */
export interface GitHubRepoHostOptions {
  api: GitHubApi;
  /** The instance's data folder; mirrors live in `<dataDir>/mirrors`. */
  dataDir: string;
  /** Where fetch failures in the background are reported; default: nowhere. */
  log?: Logger;
  /** How long a listing of the installation's repositories is used without a reload, ms; default 15 minutes. */
  listingTtlMs?: number;
}

/**
 * RepoHost over a GitHub App's installation (DESIGN.md "Ports and adapters", hosted column;
 * issue 11). Which repositories: the installation's (installation-repos.ts). Every read
 * (snapshots, blobs, files, folders, history, blame) is the local adapter's own code on a bare
 * mirror per repository (github-mirrors.ts; a LocalRepoHost over the mirrors' folder), so the
 * two adapters answer alike by construction. A mirror is fetched at start, on {@link refresh}
 * (a push webhook), when {@link head} finds GitHub's branch elsewhere, and around each commit.
 *
 * Writes go to GitHub with the person's own token (`change.credential`), so GitHub checks their
 * rights and names them as the author: GraphQL `createCommitOnBranch` with `expectedHeadOid`
 * (commit-on-branch.ts): one commit, atomic, compare-and-swap on the branch built in, signed
 * by GitHub. An empty repository has no branch to append to: its first commit is made in the
 * mirror and pushed with the person's token, not forced (first-commit.ts). The mirror is
 * fetched before the answer, so the next read sees the commit.
 */
export class GitHubRepoHost implements RepoHost {
  private readonly api: GitHubApi;
  private readonly repos: InstallationRepos;
  private readonly mirrors: GitHubMirrors;
  /** The local adapter over the mirrors' folder: every read is its. */
  private readonly local: LocalRepoHost;
  private readonly commitQueues = new KeyedQueue();
  private readonly log: Logger;

  constructor(options: GitHubRepoHostOptions) {
    this.api = options.api;
    this.log = options.log ?? pino({ level: 'silent' });
    this.repos = new InstallationRepos(options.api, options.listingTtlMs);
    this.mirrors = new GitHubMirrors({
      dir: join(options.dataDir, 'mirrors'),
      webUrl: options.api.webUrl,
      token: async () => (await options.api.installationToken()).token,
    });
    this.local = new LocalRepoHost({ reposDir: this.mirrors.dir, log: this.log });
  }

  /**
   * Lists the installation's repositories and brings every mirror up to date (making the
   * missing ones), four at a time; a repository whose fetch fails is logged and fetched again
   * when it is next read. Throws when the installation cannot be listed at all.
   */
  async start(): Promise<void> {
    const repos = [...(await this.repos.reload()).values()];
    let next = 0;
    const worker = async () => {
      while (next < repos.length) {
        const repo = repos[next++]!;
        await this.mirrors.fetch(repo).catch((error: unknown) => {
          this.log.warn({ event: 'mirror_fetch_failed', repo: repo.name, err: error }, `could not fetch the mirror of ${repo.fullName}`);
        });
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }

  /**
   * Fetches the mirror of `repo` from GitHub (after a `push` webhook): resolves once a fetch
   * started after this call has finished. A repository the kept listing does not know is looked
   * for in a new listing first (a webhook may name one just added). Throws VaultError
   * `repo_not_found` when the installation has no such repository, GitHubUnavailable when git
   * could not fetch.
   */
  async refresh(repo: string): Promise<void> {
    let source = await this.repos.get(repo);
    if (source === undefined) source = (await this.repos.reload()).get(repo);
    if (source === undefined) throw repoNotFound(repo);
    await this.mirrors.fetch(source);
  }

  /**
   * Asks GitHub again for the installation's repositories (an `installation` or
   * `installation_repositories` webhook): a repository that left is no longer served, and its
   * mirror is deleted (all of them when the App was uninstalled; none while the installation
   * is suspended, which serves nothing until it is back); one that came is fetched. Returns the
   * new list.
   */
  async reloadRepos(): Promise<RepoInfo[]> {
    const before = new Set((await this.repos.all().catch(() => new Map<string, InstallationRepo>())).keys());
    const after = await this.repos.reload();
    const state = after.size === 0 ? await this.api.installationState() : 'active';
    if (state !== 'suspended') for (const name of before) if (!after.has(name)) await this.mirrors.remove(name);
    for (const [name, repo] of after) {
      if (before.has(name)) continue;
      await this.mirrors.fetch(repo).catch((error: unknown) => {
        this.log.warn({ event: 'mirror_fetch_failed', repo: name, err: error }, `could not fetch the mirror of ${repo.fullName}`);
      });
    }
    return this.listRepos();
  }

  async listRepos(): Promise<RepoInfo[]> {
    const repos = [...(await this.repos.all()).values()];
    return Promise.all(
      repos.map(async (repo) => {
        await this.mirrors.ensure(repo);
        return { name: repo.name, defaultBranch: repo.defaultBranch, head: await headCommit(this.mirrors.gitDir(repo.name)) };
      }),
    );
  }

  async history(repo: string): Promise<RepoHistory> {
    return this.local.history(await this.mirrored(repo));
  }

  async snapshot(repo: string): Promise<Snapshot> {
    return this.local.snapshot(await this.mirrored(repo));
  }

  async fingerprint(repo: string): Promise<string> {
    return this.local.fingerprint(await this.mirrored(repo));
  }

  async readBlobs(repo: string, oids: readonly string[]): Promise<Buffer[]> {
    return this.local.readBlobs(await this.mirrored(repo), oids);
  }

  async readFile(repo: string, path: string): Promise<Buffer | null> {
    return this.local.readFile(await this.mirrored(repo), path);
  }

  async readFileEntry(repo: string, path: string): Promise<FileEntry | null> {
    return this.local.readFileEntry(await this.mirrored(repo), path);
  }

  async blobSizes(repo: string, oids: readonly string[]): Promise<Map<string, number>> {
    return this.local.blobSizes(await this.mirrored(repo), oids);
  }

  /**
   * The commit GitHub's default branch points at now (`GET /repos/{owner}/{repo}/git/ref/heads/{branch}`,
   * as the installation); null for an empty repository. When the mirror is elsewhere it is
   * fetched first, so reads at the answer find it: a write is never prepared on a stale mirror.
   */
  async head(repo: string): Promise<string | null> {
    const source = await this.source(repo);
    await this.mirrors.ensure(source);
    const upstream = await this.upstreamHead(source);
    if (upstream !== (await headCommit(this.mirrors.gitDir(repo)))) await this.mirrors.fetch(source);
    return upstream;
  }

  async currentFiles(repo: string, head: string | null, paths: readonly string[]): Promise<Map<string, BlobFile | null>> {
    return this.local.currentFiles(await this.mirrored(repo), head, paths);
  }

  async filesAt(repo: string, commit: string | null, paths: readonly string[]): Promise<Map<string, BlobFile>> {
    return this.local.filesAt(await this.mirrored(repo), commit, paths);
  }

  /** False: the current state is always the default branch's tree. */
  async keepsUncommittedChanges(repo: string): Promise<boolean> {
    await this.source(repo);
    return false;
  }

  /** False, as for a bare local repository: a listing kept until the branch moves is cheaper than reading paths one by one. */
  async pathReadsAreCheap(repo: string): Promise<boolean> {
    await this.source(repo);
    return false;
  }

  async folderEntries(repo: string, head: string | null, folder: string): Promise<FolderEntry[]> {
    return this.local.folderEntries(await this.mirrored(repo), head, folder);
  }

  async foldsCase(repo: string): Promise<boolean> {
    return this.local.foldsCase(await this.mirrored(repo));
  }

  async linksOnPaths(repo: string, head: string | null, paths: readonly string[]): Promise<Map<string, LinkOnPath>> {
    return this.local.linksOnPaths(await this.mirrored(repo), head, paths);
  }

  async lastCommit(repo: string, at: string, path: string): Promise<string | null> {
    return this.local.lastCommit(await this.mirrored(repo), at, path);
  }

  async describeConflict(repo: string, from: string, to: string, paths: readonly string[]): Promise<ConflictDescription> {
    return this.local.describeConflict(await this.mirrored(repo), from, to, paths);
  }

  async commitsTouching(repo: string, from: string | null, to: string, path: string): Promise<CommitLine[]> {
    return this.local.commitsTouching(await this.mirrored(repo), from, to, path);
  }

  async fileTimes(repo: string, at: string): Promise<Map<string, FileTimes>> {
    return this.local.fileTimes(await this.mirrored(repo), at);
  }

  async fileSizes(repo: string, at: string): Promise<Map<string, number>> {
    return this.local.fileSizes(await this.mirrored(repo), at);
  }

  /**
   * Commits `change` on the default branch with the person's token (`change.credential`;
   * VaultError `unauthorized` when there is none), one at a time per repository in this
   * process; GitHub's compare-and-swap (`expectedHeadOid`) decides. See the class and
   * {@link commitOnBranch}. A change that changes nothing makes no commit. The mirror is
   * fetched after a commit (so the answer's commit is readable) and after a refusal (so the
   * conflict's head is).
   */
  commit(repo: string, change: Change, _preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
    return this.commitQueues.run(repo, () => this.commitNow(repo, change));
  }

  /** Waits for the commits and fetches under way, and stops the local reads' background work. */
  async close(): Promise<void> {
    await Promise.allSettled([this.commitQueues.settled(), this.mirrors.settled()]);
    await this.local.close();
  }

  private async commitNow(repo: string, change: Change): Promise<CommitResult> {
    const source = await this.source(repo);
    assertWellFormedChange(change);
    const credential = change.credential ?? null;
    if (credential === null || credential === '')
      throw new VaultError(
        'unauthorized',
        `Writing to "${repo}" on GitHub needs your own GitHub sign-in, and this call carries none, so nothing was written. Sign in to Major Vault with GitHub and try again.`,
        { repo },
      );
    await this.mirrors.ensure(source);
    const gitDir = this.mirrors.gitDir(repo);
    const parent = change.parent;
    // The mirror must hold the parent to see what the change does to it.
    if (parent !== null && !(await hasCommit(gitDir, parent))) await this.mirrors.fetch(source);

    const paths = change.files.map((file) => file.path);
    const look = await lookAtPaths(gitDir, parent, paths, { index: false });
    for (const file of change.files) {
      const entry = look.entries.get(file.path);
      const blockedBy = look.blocked.get(file.path);
      if (file.content !== null && blockedBy !== undefined) refuseClash(file.path, `"${blockedBy}" is a file, not a folder`);
      if (entry?.mode === '040000') refuseClash(file.path, 'it is a folder');
      if (entry?.mode === '160000') refuseClash(file.path, 'it is a submodule (another repository inside this one)');
    }
    // Exactly one commit or nothing: what the parent already has is left out, and a change
    // left with nothing makes no commit (when the branch is still at the parent).
    const changed = change.files.filter((file) => {
      const entry = look.entries.get(file.path);
      if (file.content === null) return entry !== undefined;
      // GitHub keeps a file's mode; only its content counts.
      return entry === undefined || entry.oid !== blobId(file.content);
    });
    const person = this.api.asPerson(credential);

    if (changed.length === 0) {
      const head = await this.upstreamHead(source);
      if (head === parent && parent !== null) return { ok: true, commit: parent };
      if (head !== parent) return this.headMoved(source);
      throw new VaultError(
        'bad_arguments',
        `The change writes nothing into the empty repository "${repo}"; give at least one file with content.`,
      );
    }

    if (parent === null) {
      // An empty repository: createCommitOnBranch appends to a branch, and there is none yet.
      const upstream = await this.upstreamBranch(source);
      if (upstream === 'present') return this.headMoved(source);
      // Not empty, only without that branch (renamed or deleted meanwhile): a first commit
      // would start a new history beside the real one.
      if (upstream === 'missing') {
        throw new VaultError(
          'conflict',
          `The branch "${source.defaultBranch}" of "${repo}" is not on GitHub any more (renamed or deleted), so nothing was written. Try again in a few minutes, once Major Vault has the repository's new default branch.`,
          { repo },
        );
      }
      const written = changed.flatMap((file) => (file.content === null ? [] : [{ path: file.path, content: file.content }]));
      let first;
      try {
        first = await pushFirstCommit({
          gitDir,
          webUrl: this.api.webUrl,
          fullName: source.fullName,
          branch: source.defaultBranch,
          files: written,
          author: change.author,
          message: change.message,
          credential,
        });
      } catch (error) {
        throw await this.refusalOf(source, credential, error);
      }
      if (!first.ok) return this.headMoved(source);
      await this.fetchAfterCommit(source, first.commit);
      return { ok: true, commit: first.commit };
    }

    const fileChanges: BranchFileChanges = {
      additions: changed.flatMap((file) => (file.content === null ? [] : [{ path: file.path, contents: file.content.toString('base64') }])),
      deletions: changed.flatMap((file) => (file.content === null ? [{ path: file.path }] : [])),
    };
    let outcome;
    try {
      outcome = await commitOnBranch(person, {
        fullName: source.fullName,
        branch: source.defaultBranch,
        expectedHeadOid: parent,
        fileChanges,
        message: change.message,
      });
    } catch (error) {
      // A timeout or a 5xx leaves it open whether GitHub made the commit: look before answering.
      if (error instanceof GitHubUnavailable && (error.status === undefined || error.status >= 500)) {
        const landed = await this.landedAnyway(source, parent, change.message).catch(() => null);
        if (landed !== null) return { ok: true, commit: landed };
      }
      throw error;
    }
    if (!outcome.ok) return this.headMoved(source);
    await this.fetchAfterCommit(source, outcome.commit);
    return { ok: true, commit: outcome.commit };
  }

  /** The conflict answer after a refused compare-and-swap: the mirror fetched, and its head (what the caller reads next). */
  private async headMoved(source: InstallationRepo): Promise<CommitResult> {
    await this.mirrors.fetch(source);
    return { ok: false, conflict: 'head_moved', head: await headCommit(this.mirrors.gitDir(source.name)) };
  }

  /**
   * Fetches the mirror until it holds `commit` (twice at most): the answer must not name a
   * commit the next read cannot find. A fetch that keeps failing is logged, not thrown: the
   * commit is on GitHub, and the next fetch brings it.
   */
  private async fetchAfterCommit(source: InstallationRepo, commit: string): Promise<void> {
    const gitDir = this.mirrors.gitDir(source.name);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.mirrors.fetch(source);
        if (await hasCommit(gitDir, commit)) return;
      } catch (error) {
        this.log.warn({ event: 'mirror_fetch_failed', repo: source.name, err: error }, `could not fetch ${source.fullName} after a commit`);
      }
    }
  }

  /**
   * After a commit whose answer was lost (a timeout, a 5xx): the branch's new head when it is a
   * commit on top of `parent` with exactly `message` (ours, as far as can be told), else null.
   */
  private async landedAnyway(source: InstallationRepo, parent: string, message: string): Promise<string | null> {
    const head = await this.upstreamHead(source);
    if (head === null || head === parent) return null;
    await this.mirrors.fetch(source);
    const gitDir = this.mirrors.gitDir(source.name);
    const out = await runGit(['log', '-1', '--format=%P%x00%B', head], { gitDir });
    const [parents = '', body = ''] = out.stdout.toString('utf8').split('\0');
    return parents.trim() === parent && body.trim() === message.trim() ? head : null;
  }

  /**
   * Why git could not push with the person's token, asked of GitHub (`GET /repos/{owner}/{repo}`
   * as them): VaultError `unauthorized` when GitHub no longer accepts the token, `forbidden`
   * when they cannot see the repository or may not push to it; else `failure` itself.
   */
  private async refusalOf(source: InstallationRepo, credential: string, failure: unknown): Promise<unknown> {
    let push: boolean | undefined;
    try {
      const { data } = await this.api.asPerson(credential).request('GET /repos/{owner}/{repo}', { owner: source.owner, repo: source.name });
      push = data.permissions?.push;
    } catch (error) {
      const status = statusOf(error);
      if (status === 401) return githubFailure(error, `write to "${source.fullName}"`);
      if (status === 404) push = false;
      else return failure;
    }
    if (push === false)
      return new VaultError(
        'forbidden',
        `GitHub did not let you write to "${source.fullName}", so nothing was written. Ask an admin of the repository for write access.`,
        { repo: source.name },
        { cause: failure },
      );
    return failure;
  }

  /** The head of the default branch on GitHub, asked as the installation; null when the repository is empty. */
  /**
   * Whether the default branch is on GitHub: `present`, `empty` (the repository has no commit
   * at all: 409 "Git Repository is empty."), or `missing` (it has commits, but not that branch).
   */
  private async upstreamBranch(source: InstallationRepo): Promise<'present' | 'empty' | 'missing'> {
    if ((await this.upstreamHead(source)) !== null) return 'present';
    const octokit = await this.api.installation();
    try {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/matching-refs/{ref}', {
        owner: source.owner,
        repo: source.name,
        ref: 'heads/',
      });
      return data.length === 0 ? 'empty' : 'missing';
    } catch (error) {
      if (statusOf(error) === 409) return 'empty';
      throw githubFailure(error, `list the branches of "${source.fullName}"`);
    }
  }

  private async upstreamHead(source: InstallationRepo): Promise<string | null> {
    const octokit = await this.api.installation();
    try {
      const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', {
        owner: source.owner,
        repo: source.name,
        ref: `heads/${source.defaultBranch}`,
      });
      return data.object.sha;
    } catch (error) {
      // 409 "Git Repository is empty."; 404: no such branch (yet).
      const status = statusOf(error);
      if (status === 409 || status === 404) return null;
      throw githubFailure(error, `read the head of "${source.fullName}"`);
    }
  }

  /** The installation's repository `name`; VaultError `repo_not_found` when it has none. */
  private async source(name: string): Promise<InstallationRepo> {
    const repo = await this.repos.get(name);
    if (repo === undefined) throw repoNotFound(name);
    return repo;
  }

  /** The name of a repository of the installation whose mirror exists (made now when missing), for the local reads. */
  private async mirrored(name: string): Promise<string> {
    await this.mirrors.ensure(await this.source(name));
    return name;
  }
}

/** Whether `gitDir` holds the commit `oid`. */
async function hasCommit(gitDir: string, oid: string): Promise<boolean> {
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(oid)) return false;
  const out = await runGit(['cat-file', '-e', `${oid}^{commit}`], { gitDir, okCodes: [0, 1, 128] });
  return out.code === 0;
}
