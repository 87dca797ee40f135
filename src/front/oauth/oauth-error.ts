// The authorization server's refusals: one error class with the code OAuth names (RFC 6749
// §4.1.2.1 and §5.2, RFC 7591 §3.2.2, RFC 8707 §2), turned into an HTTP answer in one place.

/**
 * The error codes the authorization server answers with:
 * - RFC 6749 §5.2 (token endpoint) and §4.1.2.1 (authorization endpoint): `invalid_request`,
 *   `invalid_client`, `invalid_grant`, `unauthorized_client`, `unsupported_grant_type`,
 *   `unsupported_response_type`, `invalid_scope`, `access_denied`, `server_error`,
 *   `temporarily_unavailable`;
 * - RFC 7591 §3.2.2 (registration): `invalid_redirect_uri`, `invalid_client_metadata`;
 * - RFC 8707 §2 (resource indicators): `invalid_target`.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_target';

/** A refusal by the authorization server: `code` as OAuth names it, and a description that says how to succeed. */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  readonly code: OAuthErrorCode;
  /** The `error_description`: what was wrong and how to succeed (ASCII printable, RFC 6749 §5.2). */
  readonly description: string;

  constructor(code: OAuthErrorCode, description: string, options?: { cause?: unknown }) {
    super(description, options);
    this.code = code;
    this.description = description;
  }

  /** The HTTP status of this refusal at the token or registration endpoint (RFC 6749 §5.2: 400, or 401 for `invalid_client`). */
  get status(): number {
    if (this.code === 'invalid_client') return 401;
    if (this.code === 'server_error') return 500;
    if (this.code === 'temporarily_unavailable') return 503;
    return 400;
  }

  /** The JSON body `{ error, error_description }` (RFC 6749 §5.2). */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

/** Whether `error` is an {@link OAuthError}, optionally of one `code`. */
export function isOAuthError(error: unknown, code?: OAuthErrorCode): error is OAuthError {
  return error instanceof OAuthError && (code === undefined || error.code === code);
}

/**
 * The JSON answer of a token or registration endpoint refusal (RFC 6749 §5.2): the status of
 * the error, `Cache-Control: no-store`, and `WWW-Authenticate: Basic` for `invalid_client`
 * when the client authenticated with a header.
 */
export function oauthErrorResponse(error: OAuthError, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(error.toJSON()), {
    status: error.status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache', ...headers },
  });
}
