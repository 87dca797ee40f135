// STUB (replaced by the cimd branch): a client's metadata, checked (RFC 7591 §2).
import { OAuthError } from './oauth-error.ts';

/** A client's metadata, checked (RFC 7591 §2). */
export interface ClientMetadata {
  client_id: string | null;
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  scope: string | null;
  software_id: string | null;
  software_version: string | null;
}

/** Parses and checks client metadata; throws OAuthError (invalid_redirect_uri, invalid_client_metadata). */
export function parseClientMetadata(input: unknown, via: 'registration' | 'document'): ClientMetadata {
  const value = (input ?? {}) as Record<string, unknown>;
  const redirectUris = value.redirect_uris;
  if (!Array.isArray(redirectUris) || redirectUris.length === 0 || !redirectUris.every((uri) => typeof uri === 'string')) {
    throw new OAuthError('invalid_redirect_uri', 'Give redirect_uris: a list of at least one URI.');
  }
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : null);
  return {
    client_id: via === 'document' ? text('client_id') : null,
    client_name: text('client_name'),
    client_uri: text('client_uri'),
    logo_uri: text('logo_uri'),
    redirect_uris: redirectUris as string[],
    grant_types: Array.isArray(value.grant_types) ? (value.grant_types as string[]) : ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: text('scope'),
    software_id: text('software_id'),
    software_version: text('software_version'),
  };
}

/** Whether a redirect URI points at this computer (http on a loopback host). */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** Whether `requested` is one of `registered`, compared exactly. */
export function redirectUriMatches(registered: string[], requested: string): boolean {
  return registered.includes(requested);
}
