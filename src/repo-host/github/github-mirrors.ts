// One bare mirror per repository of the installation, fetched over Git's smart HTTP with an installation token.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { KeyedQueue } from '../../keyed-queue.ts';
import { GitError, runGit } from '../git/run-git.ts';
import { GitHubUnavailable } from './github-failure.ts';

/** What a mirror is fetched from: the repository's name (its mirror's name), `owner/name`, and its default branch. */
export interface MirrorSource {
  name: string;
  fullName: string;
  defaultBranch: string;
}

/** What {@link GitHubMirrors} needs. */
export interface GitHubMirrorsOptions {
  /** The folder of the mirrors: `<dataDir>/mirrors`. */
  dir: string;
  /** Web base URL: repositories are fetched from `<webUrl>/<owner>/<name>.git`. */
  webUrl: string;
  /** A current installation access token (read access to the contents of every repository of the installation). */
  token: () => Promise<string>;
  /** How long one fetch into an existing mirror may take, in ms; default two minutes (a first clone gets ten). */
  fetchTimeoutMs?: number;
  /**
   * How long a fetch into an existing mirror may receive nothing before Git gives up, in
   * seconds (Git's `http.lowSpeedTime` at 1 byte a second); default 20. A first clone gets 120,
   * since a large repository's pack can take that long to start.
   */
  stallSeconds?: number;
}

/**
 * The bare mirrors of the installation's repositories, `<dir>/<name>.git` (the local adapter's
 * naming: a bare folder `x.git` is served as `x`, so the reads of repo-host/local work on them
 * unchanged). A mirror is made by `git init --bare` in a hidden temporary folder, a first fetch
 * and a rename, so a half-made mirror is never seen. Every fetch takes all branches with
 * `+refs/heads/*:refs/heads/*` and `--prune` (a forced push rewrites the mirror's branch too,
 * a deleted branch goes), and points HEAD at the default branch.
 *
 * The token travels only in the environment of the `git` process (`GIT_CONFIG_COUNT`, an
 * `http.<webUrl>/.extraHeader` of `Authorization: Basic base64(x-access-token:TOKEN)`): never
 * in the remote URL, the mirror's config or a command line other processes can read.
 *
 * Fetches of one repository run one at a time; asking while one runs queues a single next
 * fetch that every caller asking meanwhile shares (a burst of pushes costs two fetches).
 */
export class GitHubMirrors {
  private readonly queue = new KeyedQueue();
  /** Per repository: the fetch queued and not started yet, shared by whoever asks before it starts. */
  private readonly pending = new Map<string, Promise<void>>();
  private readonly timeoutMs: number;
  private readonly stallSeconds: number;

  private readonly options: GitHubMirrorsOptions;

  constructor(options: GitHubMirrorsOptions) {
    this.options = options;
    this.timeoutMs = options.fetchTimeoutMs ?? 2 * 60_000;
    this.stallSeconds = options.stallSeconds ?? 20;
  }

  /** The folder that holds the mirrors (a LocalRepoHost's `reposDir`). */
  get dir(): string {
    return this.options.dir;
  }

  /** The mirror's Git folder. */
  gitDir(name: string): string {
    return join(this.options.dir, `${name}.git`);
  }

  /** Whether the mirror has been made. */
  async has(name: string): Promise<boolean> {
    return (await stat(join(this.gitDir(name), 'HEAD')).catch(() => null)) !== null;
  }

  /** Makes the mirror when there is none yet (one fetch); resolves at once when it exists. */
  async ensure(source: MirrorSource): Promise<void> {
    if (!(await this.has(source.name))) await this.fetch(source);
  }

  /**
   * Brings the mirror up to date with GitHub (making it first when absent): resolves once a
   * fetch that started after this call has finished. Throws {@link GitHubUnavailable} when
   * git could not fetch (GitHub down, the repository gone, the token refused).
   */
  fetch(source: MirrorSource): Promise<void> {
    const pending = this.pending.get(source.name);
    if (pending !== undefined) return pending;
    const next = this.queue.run(source.name, () => {
      if (this.pending.get(source.name) === next) this.pending.delete(source.name);
      return this.fetchNow(source);
    });
    this.pending.set(source.name, next);
    return next;
  }

  /** Deletes the mirror of a repository that left the installation (after its fetches have finished). */
  remove(name: string): Promise<void> {
    return this.queue.run(name, () => rm(this.gitDir(name), { recursive: true, force: true }));
  }

  /** Resolves once every fetch under way or queued has settled. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  private async fetchNow(source: MirrorSource): Promise<void> {
    const gitDir = this.gitDir(source.name);
    if (await this.has(source.name)) {
      await this.fetchInto(gitDir, source, false);
      return;
    }
    await mkdir(this.options.dir, { recursive: true });
    const temporary = join(this.options.dir, `.${source.name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await runGit(['init', '--bare', '--quiet', temporary]);
      // The mirror's own reflogs are of no use; they would only grow.
      await runGit(['config', 'core.logAllRefUpdates', 'false'], { gitDir: temporary });
      await this.fetchInto(temporary, source, true);
      await rename(temporary, gitDir);
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  }

  /**
   * One fetch. A connection that hangs is given up on: after {@link stallSeconds} with nothing
   * received (Git's low-speed limit), or after the fetch's time limit; a first clone gets more
   * of both. Until then every write and fetch of the repository waits behind it.
   */
  private async fetchInto(gitDir: string, source: MirrorSource, first: boolean): Promise<void> {
    const url = repositoryUrl(this.options.webUrl, source.fullName);
    const token = await this.options.token();
    try {
      await runGit(
        ['fetch', '--quiet', '--prune', '--no-tags', '--update-head-ok', '--no-write-fetch-head', url, '+refs/heads/*:refs/heads/*'],
        {
          gitDir,
          timeoutMs: first ? Math.max(this.timeoutMs, 10 * 60_000) : this.timeoutMs,
          env: {
            ...gitAuthEnv(this.options.webUrl, token),
            GIT_HTTP_LOW_SPEED_LIMIT: '1',
            GIT_HTTP_LOW_SPEED_TIME: String(first ? Math.max(this.stallSeconds, 120) : this.stallSeconds),
          },
        },
      );
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      const said = error.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
      throw new GitHubUnavailable(
        `Could not fetch the repository "${source.fullName}" from GitHub: ${said || 'git failed'}. Try again in a minute.`,
        undefined,
        {
          cause: error,
        },
      );
    }
    const ref = `refs/heads/${source.defaultBranch}`;
    const head = await runGit(['symbolic-ref', '-q', 'HEAD'], { gitDir, okCodes: [0, 1] });
    if (head.stdout.toString('utf8').trim() !== ref) await runGit(['symbolic-ref', 'HEAD', ref], { gitDir });
  }
}

/** Where Git reaches `owner/name` on GitHub: `<webUrl>/<owner>/<name>.git`. */
export function repositoryUrl(webUrl: string, fullName: string): string {
  return `${webUrl}/${fullName}.git`;
}

/**
 * The environment that makes `git` send `token` to GitHub (`webUrl` and below only) as
 * `Authorization: Basic base64(x-access-token:TOKEN)`, through `GIT_CONFIG_COUNT` (git 2.31+):
 * never in a URL, a config file or the command line; no credential helper is asked or fed.
 */
export function gitAuthEnv(webUrl: string, token: string): Record<string, string> {
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: `http.${webUrl}/.extraHeader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
    GIT_CONFIG_KEY_1: 'credential.helper',
    GIT_CONFIG_VALUE_1: '',
  };
}
