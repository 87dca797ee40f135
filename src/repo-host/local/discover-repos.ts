// Which folders of `reposDir` are repositories, and the name each is served as.
import { repoNotFound } from '../../repo-not-found.ts';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { runGit } from '../git/run-git.ts';
import { byCodeUnits, exists, isFile, isFolder, type LocalRepo } from './local-repo.ts';

/**
 * Finds the Git repositories directly inside `reposDir` (spec: "Repositories and paths"): a
 * folder is a repository when it has a `.git` (work tree) or is itself a bare repository, and
 * is served as its folder's name without a final `.git` (`handbook.git` as `handbook`); hidden
 * folders are left out, other folders are skipped and logged once (`folder_skipped`), and so is
 * `x.git` when a repository `x` is there too. What it found is remembered per folder until the
 * folder's layout changes; then `onForget` is told, so what others remember about it goes too.
 */
export class RepoDiscovery {
  /** The repositories found so far, by folder name. */
  private readonly repos = new Map<string, LocalRepo>();
  /** Folders logged as skipped (`folder\0reason`), so each is said once until it changes. */
  private readonly skipped = new Set<string>();

  private readonly reposDir: string;
  private readonly log: Logger;
  private readonly onForget: (repo: LocalRepo) => void;

  constructor(reposDir: string, log: Logger, onForget: (repo: LocalRepo) => void) {
    this.reposDir = reposDir;
    this.log = log;
    this.onForget = onForget;
  }

  /**
   * The repositories in `reposDir`, sorted by name (see the class): a folder that is not a Git
   * repository is skipped, and so is `x.git` when the folder `x` is a repository too (the
   * name is `x`'s); each skipped folder is logged once (`folder_skipped`, with `folder` and
   * `reason`: `not_a_repository` or `name_taken`).
   */
  async list(): Promise<LocalRepo[]> {
    const entries = await readdir(this.reposDir, { withFileTypes: true });
    const folders = entries
      .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink()))
      .map((entry) => entry.name)
      .sort(byCodeUnits);
    const found = await Promise.all(folders.map((folder) => this.detect(folder)));
    const byName = new Map<string, LocalRepo>();
    const skipped = new Set<string>();
    const skip = (folder: string, reason: 'not_a_repository' | 'name_taken', message: string) => {
      const key = `${folder}\0${reason}`;
      skipped.add(key);
      if (!this.skipped.has(key)) this.log.info({ event: 'folder_skipped', folder, reason }, message);
    };
    folders.forEach((folder, i) => {
      const repo = found[i]!;
      if (repo === null)
        return skip(
          folder,
          'not_a_repository',
          `skipped the folder ${folder}: it is not a Git repository (no .git in it, and not a bare repository)`,
        );
      const other = byName.get(repo.name);
      // The folder named exactly the name wins over `name.git`, whichever was read first.
      if (other === undefined || (other.folder !== repo.name && repo.folder === repo.name)) {
        if (other !== undefined) skip(other.folder, 'name_taken', nameTakenMessage(other.folder, repo.name));
        byName.set(repo.name, repo);
      } else {
        skip(folder, 'name_taken', nameTakenMessage(folder, repo.name));
      }
    });
    this.skipped.clear();
    for (const key of skipped) this.skipped.add(key);
    return [...byName.values()].sort((a, b) => byCodeUnits(a.name, b.name));
  }

  /** Every repository folder of `reposDir` with a work tree, unfiltered by name clashes (for recovery at start). */
  async workTrees(): Promise<LocalRepo[]> {
    const entries = await readdir(this.reposDir, { withFileTypes: true });
    const repos: LocalRepo[] = [];
    for (const entry of entries) {
      const repo = await this.detect(entry.name);
      if (repo !== null && repo.workTree !== null) repos.push(repo);
    }
    return repos;
  }

  /** The repository served as `name`; VaultError `repo_not_found` when there is none. */
  async repo(name: string): Promise<LocalRepo> {
    const repo = await this.named(name);
    if (repo === null) throw repoNotFound(name);
    return repo;
  }

  /**
   * The repository served as `name`, by the rule of {@link list}: the folder `name` when
   * it is a repository, else the folder `name.git` when that is one; null otherwise.
   */
  private async named(name: string): Promise<LocalRepo | null> {
    const plain = await this.detect(name);
    if (plain !== null && plain.name === name) return plain;
    const suffixed = await this.detect(`${name}.git`);
    return suffixed !== null && suffixed.name === name ? suffixed : null;
  }

  /** The repository in the folder `folder`, or null when that folder is not a Git repository. */
  private async detect(folder: string): Promise<LocalRepo | null> {
    if (folder === '' || folder.startsWith('.') || /[/\\\0]/.test(folder)) return null;
    const name = repoNameOf(folder);
    const cached = this.repos.get(folder);
    const dir = join(this.reposDir, folder);
    const dotGit = await lstat(join(dir, '.git')).catch(() => null);
    if (cached !== undefined && (cached.workTree !== null) === (dotGit !== null) && (await exists(cached.gitDir))) return cached;
    if (cached !== undefined) this.forget(cached);
    let repo: LocalRepo | null = null;
    try {
      if (dotGit !== null) {
        const gitDir = dotGit.isDirectory()
          ? join(dir, '.git')
          : (await runGit(['rev-parse', '--absolute-git-dir'], { cwd: dir })).stdout.toString('utf8').trim();
        repo = { name, folder, gitDir, workTree: dir, realWorkTree: await realpath(dir), realGitDir: await realpath(gitDir) };
      } else if ((await isFile(join(dir, 'HEAD'))) && (await isFolder(join(dir, 'objects'))) && (await isFolder(join(dir, 'refs')))) {
        repo = { name, folder, gitDir: dir, workTree: null, realWorkTree: null, realGitDir: await realpath(dir) };
      }
    } catch {
      repo = null;
    }
    if (repo !== null) this.repos.set(folder, repo);
    return repo;
  }

  /** Drops what is remembered about a repository that went away or changed its layout. */
  private forget(repo: LocalRepo): void {
    this.repos.delete(repo.folder);
    this.onForget(repo);
  }
}

/**
 * The name a repository folder is served as: the folder's name without a final `.git`, as Git
 * names bare repositories (`handbook.git` is `handbook`); any other folder by its own name.
 */
export function repoNameOf(folder: string): string {
  return folder.length > '.git'.length && folder.endsWith('.git') ? folder.slice(0, -'.git'.length) : folder;
}

function nameTakenMessage(folder: string, name: string): string {
  return `skipped the folder ${folder}: it would be served as "${name}", which the folder ${name} already is; rename one of them`;
}
