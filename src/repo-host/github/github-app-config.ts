// What the GitHub App adapter is configured with: read in a composition root (src/main/), never here from the environment.

/**
 * A GitHub App as Major Vault uses it (issue 11, "The GitHub App adapter"): the App's
 * credentials, where GitHub answers (github.com, a GitHub Enterprise Server, or the stand-in)
 * and which installation serves the repositories. Built once in a composition root from the
 * environment or a settings file; the adapter only receives it.
 */
export interface GitHubAppConfig {
  /** The App's id (GitHub shows it on the App's settings page as "App ID"). */
  appId: number | string;
  /** The App's private key, PEM (PKCS#1 `BEGIN RSA PRIVATE KEY` as GitHub downloads it, or PKCS#8): signs the App's JWTs (RS256). */
  privateKey: string;
  /** The App's OAuth client id (`Iv1.…`), for the people's sign-in. */
  clientId: string;
  /** The App's OAuth client secret. */
  clientSecret: string;
  /** The secret GitHub signs webhook deliveries with (`X-Hub-Signature-256`). */
  webhookSecret: string;
  /**
   * REST base URL, without a final `/`: `https://api.github.com` (default), a GitHub
   * Enterprise Server's `https://HOST/api/v3`, or the stand-in's `apiUrl`. GraphQL is asked at
   * `https://api.github.com/graphql`, or `https://HOST/api/graphql` for an `/api/v3` base.
   */
  apiUrl?: string;
  /** Web (and Git smart HTTP) base URL, without a final `/`: `https://github.com` (default), `https://HOST`, or the stand-in's `origin`. */
  webUrl?: string;
  /** The installation whose repositories are served; absent: the App's installation on `owner`. */
  installationId?: number;
  /** The organisation or user the App is installed on, to find `installationId` when it is not given. */
  owner?: string;
  /** The instance's data folder: mirrors are kept in `<dataDir>/mirrors/`. */
  dataDir: string;
  /** How long one request to GitHub may take before it counts as failed, in ms; default 15,000. */
  requestTimeoutMs?: number;
}

/** The configuration with its defaults filled in and the URLs without a final `/`. */
export type ResolvedGitHubAppConfig = Required<Omit<GitHubAppConfig, 'installationId' | 'owner'>> &
  Pick<GitHubAppConfig, 'installationId' | 'owner'>;

/**
 * Fills in the defaults of {@link GitHubAppConfig} and checks what can be checked before the
 * first request: an id, a PEM key, one of `installationId` or `owner`, absolute http(s) URLs.
 * Throws an Error that names the setting to fix.
 */
export function resolveGitHubAppConfig(config: GitHubAppConfig): ResolvedGitHubAppConfig {
  const resolved = resolveAppCredentials(config);
  if (config.installationId === undefined && (config.owner ?? '') === '')
    throw new Error('GitHub App: give installationId, or owner (the organisation or user the App is installed on).');
  if (config.dataDir === '') throw new Error('GitHub App: give dataDir, the folder where the mirrors are kept.');
  return { ...config, apiUrl: resolved.apiUrl, webUrl: resolved.webUrl, requestTimeoutMs: resolved.requestTimeoutMs };
}

/** The App's settings without an installation or a data folder: for the clients of a process that serves many installations (the hosted front). */
export type GitHubAppCredentials = Omit<GitHubAppConfig, 'dataDir' | 'installationId' | 'owner'>;

/**
 * {@link resolveGitHubAppConfig} for the App alone (no installation, no mirrors): its
 * `installationId` and `owner` are absent and its `dataDir` empty. Throws an Error that names
 * the setting to fix.
 */
export function resolveAppCredentials(config: GitHubAppCredentials): ResolvedGitHubAppConfig {
  const apiUrl = baseUrl(config.apiUrl ?? 'https://api.github.com', 'apiUrl');
  const webUrl = baseUrl(config.webUrl ?? 'https://github.com', 'webUrl');
  if (String(config.appId).trim() === '') throw new Error('GitHub App: give the App id (appId), as its settings page shows it.');
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(config.privateKey))
    throw new Error('GitHub App: privateKey is not a PEM private key; give the .pem file GitHub generated for the App.');
  return {
    appId: config.appId,
    privateKey: config.privateKey,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    webhookSecret: config.webhookSecret,
    apiUrl,
    webUrl,
    dataDir: '',
    requestTimeoutMs: config.requestTimeoutMs ?? 15_000,
  };
}

function baseUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`GitHub App: ${name} "${value}" is not a URL; give e.g. https://github.com.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`GitHub App: ${name} must be an http(s) URL, not "${value}".`);
  return value.replace(/\/+$/, '');
}
