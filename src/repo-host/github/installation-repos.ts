// The repositories of the App's installation, as GitHub lists them, kept until reloaded.
import type { GitHubApi } from './github-api.ts';
import { isVaultError } from '../../vault-error.ts';
import { githubFailure, statusOf } from './github-failure.ts';
import type { MirrorSource } from './github-mirrors.ts';

/** One repository of the installation: its name, `owner/name`, owner, default branch. */
export interface InstallationRepo extends MirrorSource {
  owner: string;
}

/** How long a listing is used before GitHub is asked again without a webhook saying so, ms (the spec's 15 minutes for access). */
export const LISTING_TTL_MS = 15 * 60_000;

/**
 * The installation's repositories (`GET /installation/repositories`, every page, as the
 * installation), by name. Kept {@link LISTING_TTL_MS}, or until {@link reload} (an
 * `installation` or `installation_repositories` webhook); concurrent asks share one listing,
 * and a failed listing is not kept. A suspended or uninstalled installation (GitHub refuses
 * its token: 403, 404) lists no repository. A name starting with `.` (such as `.github`) is left out:
 * it would be a hidden folder among the mirrors, which the local adapter's rules never serve.
 */
export class InstallationRepos {
  private listing: { at: number; repos: Promise<Map<string, InstallationRepo>> } | null = null;

  private readonly api: GitHubApi;
  private readonly ttlMs: number;

  constructor(api: GitHubApi, ttlMs = LISTING_TTL_MS) {
    this.api = api;
    this.ttlMs = ttlMs;
  }

  /** The repositories by name, from the kept listing when it is fresh. */
  all(): Promise<Map<string, InstallationRepo>> {
    if (this.listing === null || Date.now() - this.listing.at >= this.ttlMs) return this.reload();
    return this.listing.repos;
  }

  /** The repository named `name`, or undefined when the installation has none of that name. */
  async get(name: string): Promise<InstallationRepo | undefined> {
    return (await this.all()).get(name);
  }

  /** Asks GitHub again (every page); later calls of {@link all} get this listing. */
  reload(): Promise<Map<string, InstallationRepo>> {
    const repos = this.list();
    const listing = { at: Date.now(), repos };
    this.listing = listing;
    repos.catch(() => {
      if (this.listing === listing) this.listing = null;
    });
    return repos;
  }

  private async list(): Promise<Map<string, InstallationRepo>> {
    const octokit = await this.api.installation();
    let repositories;
    try {
      repositories = await octokit.paginate('GET /installation/repositories', { per_page: 100 });
    } catch (error) {
      const failure = githubFailure(error, "list the GitHub App installation's repositories");
      // Suspended (403: no token for it) or uninstalled (404): nothing is served until it is back.
      if (isVaultError(failure, 'forbidden') || statusOf(error) === 404) return new Map();
      throw failure;
    }
    const repos = new Map<string, InstallationRepo>();
    for (const repo of [...repositories].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (repo.name.startsWith('.')) continue;
      repos.set(repo.name, {
        name: repo.name,
        fullName: repo.full_name,
        owner: repo.owner.login,
        defaultBranch: repo.default_branch ?? 'main',
      });
    }
    return repos;
  }
}
