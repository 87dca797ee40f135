// One of the modules that read the environment: the GitHub App's settings (MAJOR_VAULT_GITHUB_*), parsed once.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { GitHubAppConfig } from '../repo-host/github/github-app-config.ts';

const positiveInteger = z.string().regex(/^[1-9][0-9]*$/, 'a positive whole number');
const required = z.string().trim().min(1, 'required');

/** The environment variables of the GitHub App adapter, as text. */
const GitHubAppEnv = z
  .object({
    MAJOR_VAULT_GITHUB_APP_ID: positiveInteger,
    MAJOR_VAULT_GITHUB_PRIVATE_KEY: z.string().optional(),
    MAJOR_VAULT_GITHUB_PRIVATE_KEY_FILE: z.string().optional(),
    MAJOR_VAULT_GITHUB_CLIENT_ID: required,
    MAJOR_VAULT_GITHUB_CLIENT_SECRET: required,
    MAJOR_VAULT_GITHUB_WEBHOOK_SECRET: required,
    MAJOR_VAULT_GITHUB_API_URL: z.string().url().optional(),
    MAJOR_VAULT_GITHUB_WEB_URL: z.string().url().optional(),
    MAJOR_VAULT_GITHUB_INSTALLATION_ID: positiveInteger.optional(),
    MAJOR_VAULT_GITHUB_OWNER: z.string().optional(),
  })
  .refine((env) => env.MAJOR_VAULT_GITHUB_PRIVATE_KEY || env.MAJOR_VAULT_GITHUB_PRIVATE_KEY_FILE, {
    message: 'give MAJOR_VAULT_GITHUB_PRIVATE_KEY (the PEM text) or MAJOR_VAULT_GITHUB_PRIVATE_KEY_FILE (its path)',
  })
  .refine((env) => env.MAJOR_VAULT_GITHUB_INSTALLATION_ID || env.MAJOR_VAULT_GITHUB_OWNER, {
    message: 'give MAJOR_VAULT_GITHUB_INSTALLATION_ID, or MAJOR_VAULT_GITHUB_OWNER (the organisation or user the App is installed on)',
  });

/**
 * The GitHub App's configuration from `env` (README "Running on GitHub"):
 * `MAJOR_VAULT_GITHUB_APP_ID`, `MAJOR_VAULT_GITHUB_PRIVATE_KEY` (PEM text, `\n` escapes
 * allowed) or `MAJOR_VAULT_GITHUB_PRIVATE_KEY_FILE`, `MAJOR_VAULT_GITHUB_CLIENT_ID`,
 * `MAJOR_VAULT_GITHUB_CLIENT_SECRET`, `MAJOR_VAULT_GITHUB_WEBHOOK_SECRET`, optionally
 * `MAJOR_VAULT_GITHUB_API_URL` and `MAJOR_VAULT_GITHUB_WEB_URL` (a GitHub Enterprise Server:
 * `https://HOST/api/v3` and `https://HOST`), and `MAJOR_VAULT_GITHUB_INSTALLATION_ID` or
 * `MAJOR_VAULT_GITHUB_OWNER`; mirrors go in `dataDir`. Throws an Error listing every variable
 * that is missing or wrong.
 */
export function gitHubAppConfigFromEnv(env: NodeJS.ProcessEnv, dataDir: string): GitHubAppConfig {
  const parsed = GitHubAppEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    );
    throw new Error(`The GitHub App is not configured: ${problems.join('; ')}.`);
  }
  const value = parsed.data;
  const privateKey =
    value.MAJOR_VAULT_GITHUB_PRIVATE_KEY !== undefined && value.MAJOR_VAULT_GITHUB_PRIVATE_KEY !== ''
      ? value.MAJOR_VAULT_GITHUB_PRIVATE_KEY.replace(/\\n/g, '\n')
      : readFileSync(value.MAJOR_VAULT_GITHUB_PRIVATE_KEY_FILE!, 'utf8');
  return {
    appId: Number(value.MAJOR_VAULT_GITHUB_APP_ID),
    privateKey,
    clientId: value.MAJOR_VAULT_GITHUB_CLIENT_ID,
    clientSecret: value.MAJOR_VAULT_GITHUB_CLIENT_SECRET,
    webhookSecret: value.MAJOR_VAULT_GITHUB_WEBHOOK_SECRET,
    ...(value.MAJOR_VAULT_GITHUB_API_URL !== undefined ? { apiUrl: value.MAJOR_VAULT_GITHUB_API_URL } : {}),
    ...(value.MAJOR_VAULT_GITHUB_WEB_URL !== undefined ? { webUrl: value.MAJOR_VAULT_GITHUB_WEB_URL } : {}),
    ...(value.MAJOR_VAULT_GITHUB_INSTALLATION_ID !== undefined ? { installationId: Number(value.MAJOR_VAULT_GITHUB_INSTALLATION_ID) } : {}),
    ...(value.MAJOR_VAULT_GITHUB_OWNER ? { owner: value.MAJOR_VAULT_GITHUB_OWNER } : {}),
    dataDir,
  };
}
