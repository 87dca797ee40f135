// The RFC 9728 protected-resource document of one installation's address, and the 401
// challenge that points to it (MCP authorization: "Protected Resource Metadata Discovery").

/** The RFC 9728 document: what the resource is and where to get a token for it. */
export interface ProtectedResourceMetadata {
  /** The MCP address itself, e.g. `http://127.0.0.1:8787/acme`. */
  resource: string;
  /**
   * Authorization servers (RFC 8414 issuers) that issue tokens for it. Empty in the local
   * mode: tokens come from the users file, handed out by the administrator.
   */
  authorization_servers: string[];
  bearer_methods_supported: ['header'];
  resource_name: string;
}

/** Where the document of `resourceUrl` is served: the well-known prefix before its path (RFC 9728 §3.1). */
export function protectedResourceMetadataUrl(resourceUrl: URL): string {
  const path = resourceUrl.pathname === '/' ? '' : resourceUrl.pathname.replace(/\/$/, '');
  return `${resourceUrl.origin}/.well-known/oauth-protected-resource${path}`;
}

/** The document for an installation's address. */
export function protectedResourceMetadata(
  resourceUrl: URL,
  installationName: string,
  authorizationServers: string[] = [],
): ProtectedResourceMetadata {
  return {
    resource: resourceUrl.href,
    authorization_servers: authorizationServers,
    bearer_methods_supported: ['header'],
    resource_name: `Major Vault: ${installationName}`,
  };
}

/**
 * The `401` for a request without a valid bearer token (RFC 6750 §3, RFC 9728 §5.1):
 * `WWW-Authenticate: Bearer resource_metadata="…"`, with `error="invalid_token"` when a
 * token was sent but is not known. The body is the OAuth error JSON.
 */
export function unauthorizedResponse(resourceUrl: URL, tokenSent: boolean): Response {
  const parameters = [`resource_metadata="${protectedResourceMetadataUrl(resourceUrl)}"`];
  if (tokenSent) parameters.unshift('error="invalid_token"', 'error_description="The token is not known here."');
  const body = tokenSent
    ? { error: 'invalid_token', error_description: 'The token is not known here.' }
    : { error: 'invalid_request', error_description: 'This address needs a bearer token: send Authorization: Bearer <token>.' };
  return new Response(JSON.stringify(body), {
    status: 401,
    headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer ${parameters.join(', ')}` },
  });
}
