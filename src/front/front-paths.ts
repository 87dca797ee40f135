// The paths the hosted front answers, in a module of their own: the installation names'
// check (main/installation-name.ts) reserves their first segments, and loading it must not
// load the front itself (a local `stdio` start never serves these).

/** The paths the OAuth authorization server answers (oauth/authorization-server.ts). */
export const oauthPaths = {
  metadata: '/.well-known/oauth-authorization-server',
  register: '/oauth/register',
  authorize: '/oauth/authorize',
  callback: '/oauth/callback',
  token: '/oauth/token',
} as const;

/** Where the App's Setup URL points: `<public url>/github/setup` (github-setup-route.ts). */
export const githubSetupPath = '/github/setup';

/** Where GitHub delivers by default: the App's "Webhook URL" is `<origin>/webhooks/github` (webhook/github-webhook.ts). */
export const githubWebhookPath = '/webhooks/github';
