// Names and defaults the command line's help shows, kept apart from the modules that use them,
// so `major-vault --help` and each command load only what that command runs.

/** The GitHub stand-in's port in the hosted demos (`demo --hosted`, `demo --processes`): the one after the demo's 8787. */
export const defaultGitHubPort = 8788;

/** The environment variable naming the queue's database when it is not the front's (DATABASE_URL). */
export const queueDatabaseVariable = 'MAJOR_VAULT_QUEUE_DATABASE_URL';

/**
 * The environment variables of the GitHub App's settings (github-settings.ts reads them),
 * named here for the help text.
 */
export const githubEnvironment = {
  appId: 'MAJOR_VAULT_GITHUB_APP_ID',
  privateKey: 'MAJOR_VAULT_GITHUB_PRIVATE_KEY',
  privateKeyFile: 'MAJOR_VAULT_GITHUB_PRIVATE_KEY_FILE',
  clientId: 'MAJOR_VAULT_GITHUB_CLIENT_ID',
  clientSecret: 'MAJOR_VAULT_GITHUB_CLIENT_SECRET',
  webhookSecret: 'MAJOR_VAULT_GITHUB_WEBHOOK_SECRET',
  apiUrl: 'MAJOR_VAULT_GITHUB_API_URL',
  webUrl: 'MAJOR_VAULT_GITHUB_WEB_URL',
  installationId: 'MAJOR_VAULT_GITHUB_INSTALLATION_ID',
  owner: 'MAJOR_VAULT_GITHUB_OWNER',
} as const;

/** The environment variable of the front's secret (oauth-settings.ts reads it), named here for the help text. */
export const frontSecretVariable = 'MAJOR_VAULT_FRONT_SECRET';
