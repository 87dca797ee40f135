// The Octokit clients of one GitHub App: as the App (JWT), as its installation, and as a person.
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import type { Logger } from 'pino';
import { githubFailure, statusOf } from './github-failure.ts';
import type { ResolvedGitHubAppConfig } from './github-app-config.ts';

/** An installation access token and when it expires (ISO 8601), as auth-app hands it out. */
export interface InstallationToken {
  token: string;
  expiresAt: string;
}

/**
 * The clients the adapter talks to GitHub with, all Octokit (`@octokit/rest`, GraphQL through
 * `octokit.graphql`), all with `baseUrl` = the configured `apiUrl` and a request timeout:
 * - `app`: authenticated as the App (a JWT signed RS256 with its private key), to find the installation;
 * - `installation()`: as the installation (`@octokit/auth-app` makes the token from the JWT,
 *   caches it and makes a new one before it expires), for the repository list and the mirrors;
 * - `asPerson(token)`: with a person's own GitHub user token, for sign-in and their writes.
 */
export class GitHubApi {
  readonly apiUrl: string;
  readonly webUrl: string;
  private readonly app: Octokit;
  private installationClient: Promise<{ id: number; octokit: Octokit }> | null = null;

  private readonly config: ResolvedGitHubAppConfig;
  private readonly log?: Logger;

  constructor(config: ResolvedGitHubAppConfig, log?: Logger) {
    this.config = config;
    this.log = log;
    this.apiUrl = config.apiUrl;
    this.webUrl = config.webUrl;
    this.app = new Octokit({
      ...this.common(),
      authStrategy: createAppAuth,
      auth: { appId: config.appId, privateKey: config.privateKey },
    });
  }

  /** The installation's id: configured, or asked of GitHub once (`GET /orgs/{org}/installation`, then `/users/{username}/installation`). */
  async installationId(): Promise<number> {
    return (await this.installationClientOnce()).id;
  }

  /** An Octokit acting as the installation (installation access tokens, refreshed before they expire). */
  async installation(): Promise<Octokit> {
    return (await this.installationClientOnce()).octokit;
  }

  /** A current installation access token (for Git over HTTP): cached by auth-app, new before expiry. */
  async installationToken(): Promise<InstallationToken> {
    const octokit = await this.installation();
    try {
      const auth = (await octokit.auth({ type: 'installation' })) as InstallationToken;
      return { token: auth.token, expiresAt: auth.expiresAt };
    } catch (error) {
      throw githubFailure(error, 'get an installation access token for the GitHub App');
    }
  }

  /**
   * Whether the installation is there and working (`GET /app/installations/{installation_id}`,
   * as the App): `active`, `suspended` (its owner suspended it: no token is given out) or
   * `deleted` (404: uninstalled).
   */
  async installationState(): Promise<'active' | 'suspended' | 'deleted'> {
    const id = await this.installationId();
    try {
      const { data } = await this.app.request('GET /app/installations/{installation_id}', { installation_id: id });
      return data.suspended_at ? 'suspended' : 'active';
    } catch (error) {
      if (statusOf(error) === 404) return 'deleted';
      throw githubFailure(error, "look at the GitHub App's installation");
    }
  }

  /**
   * Any installation of the App, as GitHub describes it to the App (`GET
   * /app/installations/{installation_id}`): the account it is installed on and whether it is
   * suspended; null when GitHub has no such installation (404). For the setup redirect, whose
   * `installation_id` anyone can write into a URL (GitHub Docs, "About the setup URL").
   * Throws {@link githubFailure}'s error when GitHub cannot be asked.
   */
  async appInstallation(installationId: number): Promise<{ account: string | null; suspended: boolean } | null> {
    try {
      const { data } = await this.app.request('GET /app/installations/{installation_id}', { installation_id: installationId });
      const account = data.account && 'login' in data.account ? data.account.login : (data.account?.slug ?? null);
      return { account, suspended: Boolean(data.suspended_at) };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw githubFailure(error, 'look at an installation of the GitHub App');
    }
  }

  /** An Octokit acting as the person whose GitHub user token this is. Made per call: nothing of the token is kept here. */
  asPerson(token: string): Octokit {
    return new Octokit({ ...this.common(), auth: token });
  }

  private installationClientOnce(): Promise<{ id: number; octokit: Octokit }> {
    if (this.installationClient === null) {
      const made = this.makeInstallationClient();
      this.installationClient = made;
      // A failure (GitHub down at start) is not kept: the next call asks again.
      made.catch(() => {
        if (this.installationClient === made) this.installationClient = null;
      });
    }
    return this.installationClient;
  }

  private async makeInstallationClient(): Promise<{ id: number; octokit: Octokit }> {
    if (this.config.installationId === undefined && this.config.owner === undefined) {
      throw new Error('These GitHub clients act as the App only: they name no installation (give installationId or owner).');
    }
    const id = this.config.installationId ?? (await this.findInstallation(this.config.owner!));
    const octokit = new Octokit({
      ...this.common(),
      authStrategy: createAppAuth,
      auth: { appId: this.config.appId, privateKey: this.config.privateKey, installationId: id },
    });
    return { id, octokit };
  }

  private async findInstallation(owner: string): Promise<number> {
    try {
      return (await this.app.request('GET /orgs/{org}/installation', { org: owner })).data.id;
    } catch (error) {
      if (statusOf(error) !== 404) throw githubFailure(error, `find the GitHub App's installation on "${owner}"`);
    }
    try {
      return (await this.app.request('GET /users/{username}/installation', { username: owner })).data.id;
    } catch (error) {
      if (statusOf(error) === 404)
        throw new Error(
          `The GitHub App is not installed on "${owner}" (neither an organisation's nor a user's installation was found). Install it there, or set installationId.`,
          { cause: error },
        );
      throw githubFailure(error, `find the GitHub App's installation on "${owner}"`);
    }
  }

  /** What every client shares: the base URL, a fetch with a timeout, and logs at debug level only (failures are reported by the caller). */
  private common() {
    const log = this.log;
    return {
      baseUrl: this.config.apiUrl,
      userAgent: 'major-vault',
      request: { fetch: fetchWithTimeout(this.config.requestTimeoutMs) },
      log: {
        debug: (message: string) => log?.debug(message),
        info: (message: string) => log?.debug(message),
        warn: (message: string) => log?.warn(message),
        error: (message: string) => log?.debug(message),
      },
    };
  }
}

/** Thrown by {@link fetchWithTimeout} when GitHub took longer than allowed. */
export class GitHubTimeout extends Error {
  readonly ms: number;

  constructor(ms: number) {
    super(`GitHub did not answer within ${ms / 1000} s`);
    this.ms = ms;
    this.name = 'GitHubTimeout';
  }
}

/**
 * `fetch` that gives up after `ms` (the whole exchange, body included), throwing
 * {@link GitHubTimeout}; Octokit's own requests have no timeout of their own.
 */
export function fetchWithTimeout(ms: number): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      const response = await fetch(input, { ...init, signal });
      // Read the body within the same time limit, so a stalled body fails too.
      const body = await response.arrayBuffer();
      const copy = new Response(response.status === 204 || response.status === 205 || response.status === 304 ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      // Octokit's paginate reads `response.url` (new URL(url)) after a list with `total_count`;
      // a Response built by hand has an empty one, which throws "Invalid URL".
      Object.defineProperty(copy, 'url', { value: response.url });
      return copy;
    } catch (error) {
      if (timeout.aborted) throw new GitHubTimeout(ms);
      throw error;
    }
  };
}
