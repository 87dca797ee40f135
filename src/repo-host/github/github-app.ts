// The GitHub App adapter assembled from its configuration: the repository side and the sign-in side over one set of clients.
import type { Logger } from 'pino';
import { GitHubApi } from './github-api.ts';
import { resolveGitHubAppConfig, type GitHubAppConfig, type ResolvedGitHubAppConfig } from './github-app-config.ts';
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
