// The GitHub App adapter assembled from its configuration: the repository side and the sign-in side over one set of clients.
import type { Logger } from 'pino';
import { GitHubApi } from './github-api.ts';
import {
  resolveAppCredentials,
  resolveGitHubAppConfig,
  type GitHubAppConfig,
  type GitHubAppCredentials,
  type ResolvedGitHubAppConfig,
} from './github-app-config.ts';
import { GitHubRepoHost } from './github-repo-host.ts';
import { GitHubSignIn } from './github-sign-in.ts';

/** One GitHub App's adapter: `host` (RepoHost), `signIn` (SignIn), the clients they share and the configuration with its defaults. */
export interface GitHubApp {
  config: ResolvedGitHubAppConfig;
  api: GitHubApi;
  host: GitHubRepoHost;
  signIn: GitHubSignIn;
}

/**
 * Builds the GitHub App adapter (issue 11) for a composition root: checks `config` (throws an
 * Error naming the setting to fix) and makes the clients, the repository side and the sign-in
 * side. Nothing is asked of GitHub yet: call `host.start()` to list the installation's
 * repositories and fetch the mirrors, and `host.close()` at the end.
 */
export function createGitHubApp(config: GitHubAppConfig, options: { log?: Logger } = {}): GitHubApp {
  const resolved = resolveGitHubAppConfig(config);
  const api = new GitHubApi(resolved, options.log);
  return {
    config: resolved,
    api,
    host: new GitHubRepoHost({ api, dataDir: resolved.dataDir, log: options.log }),
    signIn: new GitHubSignIn(api),
  };
}

/** The App's clients in a process that serves many installations (the hosted front): as the App, and a sign-in per installation. */
export interface GitHubAppClients {
  config: ResolvedGitHubAppConfig;
  /** As the App only (its installation calls throw: there is no one installation). */
  api: GitHubApi;
  /** A new sign-in against installation `installationId` (GitHub's `/user/installations/{id}/repositories`), with its own 15-minute cache. */
  signInFor(installationId: number): GitHubSignIn;
}

/**
 * The App's clients without an installation or mirrors (issue 13, the front): checks `config`
 * (throws an Error naming the setting to fix); nothing is asked of GitHub yet.
 */
export function createGitHubAppClients(config: GitHubAppCredentials, options: { log?: Logger } = {}): GitHubAppClients {
  const resolved = resolveAppCredentials(config);
  return {
    config: resolved,
    api: new GitHubApi(resolved, options.log),
    signInFor: (installationId) => new GitHubSignIn(new GitHubApi({ ...resolved, installationId }, options.log)),
  };
}
