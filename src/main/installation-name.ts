// The one rule for an installation's name, the path of its address (`/<name>`): `serve`,
// `serve-github` and the operator's `installation on` all check names with it.
import { githubSetupPath, githubWebhookPath, oauthPaths } from '../front/front-paths.ts';
import { operationsPaths } from '../operations/operations-paths.ts';

/** Starts with a letter or digit, then letters, digits, `.`, `_` and `-`: one URL path segment that needs no escaping. */
const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The first path segments the front answers itself (`/oauth/…`, `/webhooks/github`,
 * `/github/setup`, `/.well-known/…`, and every process's `/healthz`, `/readyz` and
 * `/metrics`), lower-cased: an installation there would be shadowed by, or be confused with,
 * the server's own routes.
 */
export const reservedInstallationNames: ReadonlySet<string> = new Set(
  [
    ...Object.values(oauthPaths),
    githubWebhookPath,
    githubSetupPath,
    '/.well-known/oauth-protected-resource',
    ...Object.values(operationsPaths),
  ].map((path) => path.split('/')[1]!.toLowerCase()),
);

/** Whether `name` can be an installation's name: {@link namePattern}, and not a reserved first segment (compared without case). */
export function isInstallationName(name: string): boolean {
  return namePattern.test(name) && !reservedInstallationNames.has(name.toLowerCase());
}

/** `name` when it can be an installation's name; else throws an Error stating the rule and how to give another. */
export function checkInstallationName(name: string): string {
  if (!isInstallationName(name)) {
    const reserved = [...reservedInstallationNames].filter((segment) => namePattern.test(segment));
    throw new Error(
      `The installation name ${JSON.stringify(name)} cannot be an address; give another with --name: it starts with a letter or digit, ` +
        `then has only letters, digits, ".", "_" and "-", and is not one of the server's own paths (${reserved.join(', ')}).`,
    );
  }
  return name;
}

/**
 * The installation a URL's path is the MCP address of (`/<name>`, with or without a final
 * `/`), when that segment can be an installation's name; else undefined. Whether such an
 * installation is switched on is for the front to say: this only reads the path (for the
 * request's log lines and metrics, operations/with-operations.ts `installationOf`).
 */
export function installationOfAddress(url: URL): string | undefined {
  const match = /^\/([^/]+)\/?$/.exec(url.pathname);
  return match && isInstallationName(match[1]!) ? match[1] : undefined;
}
