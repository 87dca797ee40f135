// The front's sign-in settings (issue 12), read once here from the environment: the secrets
// its sealed tokens are derived from (composition roots are the only readers, CONVENTIONS.md 5).
import { minimumSecretBytes } from '../tokens/token-sealer.ts';
import { frontSecretVariable } from './names.ts';

/** The variable holding the front's secret(s): base64url, at least 32 bytes each, comma-separated, the newest first. */
export { frontSecretVariable } from './names.ts';

/** Sign-in through the front's OAuth authorization server. */
export interface OAuthSettings {
  /**
   * The secrets (base64url, at least 32 bytes each) the sealed tokens, codes and cookies are
   * derived from: the first seals, every one opens, so a new secret is put first and the old
   * one dropped once its tokens have expired (8 hours for access tokens, about 6 months for
   * refresh tokens).
   */
  secrets: string[];
  /**
   * Accept Client ID Metadata Documents on loopback addresses (never private ones): for tests
   * and the hosted demo on one machine only; never on a public server (SSRF).
   */
  allowLoopbackClientMetadata?: boolean;
  /** Certificates (PEM) trusted for fetching metadata documents instead of the bundled roots: a test's own authority. */
  clientMetadataCa?: string;
}

/**
 * The sign-in settings from `env` ({@link frontSecretVariable}); undefined when it is unset
 * (the server then takes GitHub user tokens as bearer tokens). Throws an Error saying how to
 * make a secret when one is malformed or too short.
 */
export function readOAuthSettings(env: NodeJS.ProcessEnv = process.env): OAuthSettings | undefined {
  const value = env[frontSecretVariable]?.trim();
  if (value === undefined || value === '') return undefined;
  const secrets = value.split(',').map((secret) => secret.trim());
  frontSecrets(secrets);
  return { secrets };
}

/**
 * The bytes of each secret. Throws an Error naming {@link frontSecretVariable} when one is not
 * base64url or has fewer than 32 bytes, with the command that makes a good one.
 */
export function frontSecrets(secrets: readonly string[]): Uint8Array[] {
  if (secrets.length === 0) throw new Error(`Give the front a secret in ${frontSecretVariable}: ${howToMake}.`);
  return secrets.map((secret, at) => {
    const which = secrets.length > 1 ? `Secret ${at + 1} of ${frontSecretVariable}` : `${frontSecretVariable}`;
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(secret)) throw new Error(`${which} is not base64url; ${howToMake}.`);
    const bytes = Buffer.from(secret, 'base64url');
    if (bytes.byteLength < minimumSecretBytes)
      throw new Error(`${which} has ${bytes.byteLength} bytes; it needs at least ${minimumSecretBytes}: ${howToMake}.`);
    return new Uint8Array(bytes);
  });
}

const howToMake = `make one with \`node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"\``;
