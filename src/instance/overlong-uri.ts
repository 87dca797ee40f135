// A `resources/read` whose URI is longer than any note's: answered here, before the SDK, whose
// resource-template matching throws on a URI of a million characters (an "Internal server
// error" for the caller) instead of finding no match.
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/** The longest URI `resources/read` looks up, in characters: a path of 4,096 bytes, each percent-encoded, and room to spare. */
export const MAX_RESOURCE_URI = 16_384;

/**
 * The answer to `request` when it is one `resources/read` (a JSON-RPC request in a `POST`) whose
 * `uri` is longer than {@link MAX_RESOURCE_URI}: a JSON-RPC error, "Resource not found", saying
 * the limit (HTTP 200, as the SDK answers a resource it does not have). Null for everything
 * else; only a body that could hold such a URI (its `content-length` over the limit) is read.
 */
export async function overlongResourceUri(request: Request): Promise<Response | null> {
  if (request.method !== 'POST' || Number(request.headers.get('content-length') ?? 0) <= MAX_RESOURCE_URI) return null;
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { method, id, params } = body as { method?: unknown; id?: unknown; params?: { uri?: unknown } };
  if (method !== 'resources/read' || typeof params?.uri !== 'string' || params.uri.length <= MAX_RESOURCE_URI) return null;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  return Response.json({
    jsonrpc: '2.0',
    id,
    error: {
      code: ProtocolErrorCode.ResourceNotFound,
      message: `Resource not found: a URI of ${params.uri.length} characters names no note (a note's URI holds at most ${MAX_RESOURCE_URI}). resources/list gives them.`,
    },
  });
}
