// Carries a 2025-era HTTP client's name from `initialize` to its later calls without keeping
// a session: the name rides in the `Mcp-Session-Id` the client echoes on every request.

const prefix = 'mv1.';
const maxNameLength = 100;

/**
 * A session id holding the client's name (base64url, at most 100 characters of name), plus
 * randomness so two connections never share one. Visible ASCII only, as MCP requires.
 */
export function sessionIdFor(clientName: string): string {
  const name = Buffer.from(clientName.slice(0, maxNameLength), 'utf8').toString('base64url');
  return `${prefix}${name}.${crypto.randomUUID().replaceAll('-', '')}`;
}

/** The client name inside a session id made by {@link sessionIdFor}; null for any other value. */
export function clientNameFromSessionId(sessionId: string | null): string | null {
  if (!sessionId?.startsWith(prefix)) return null;
  const encoded = sessionId.slice(prefix.length).split('.')[0] ?? '';
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
  const name = Buffer.from(encoded, 'base64url').toString('utf8');
  return name === '' || name.length > maxNameLength || /[\u0000-\u001f\u007f]/.test(name) ? null : name;
}

/**
 * The `clientInfo.name` of a JSON-RPC `initialize` request body, or null when the body is
 * anything else (another method, a batch, a notification, not JSON).
 */
export function initializeClientName(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const message = body as { method?: unknown; params?: { clientInfo?: { name?: unknown } } };
  if (message.method !== 'initialize') return null;
  const name = message.params?.clientInfo?.name;
  return typeof name === 'string' && name !== '' ? name : null;
}
