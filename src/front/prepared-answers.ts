// The front's answers to the catalogue's methods (`initialize`, `server/discover`, `tools/list`)
// kept as bytes (issue 13, "Hosted at scale": `tools/list` at the front in ≤ 5 ms). The MCP SDK
// answers a request of a given shape once; its answer is kept around the request's id, so the
// next request of that shape for the same catalogue is answered by putting its id in, with no
// server, transport or JSON serialisation per request.
import { randomUUID } from 'node:crypto';

/** A JSON-RPC message as the front parsed it from a request's body. */
export type JsonRpcBody = Record<string, unknown>;

/** The SDK's answer to a request shape, as bytes before and after the id (no id: `after` is null). */
interface PreparedAnswer {
  status: number;
  headers: ReadonlyArray<readonly [string, string]>;
  before: Buffer;
  after: Buffer | null;
}

/**
 * The request headers the SDK's MCP handler reads for a `POST` (its era classification, the
 * `Accept` and `Content-Type` checks, the protocol version check): part of a request's shape.
 * `Mcp-Session-Id` is not: the catalogue's handler is stateless and never reads it.
 */
const shapeHeaders = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

/** How many request shapes are kept per catalogue answer (clients differ in headers and `initialize` params); the oldest is dropped. */
const shapesPerCatalogue = 8;

/** Answers the catalogue's methods from prepared bytes; see {@link preparedAnswers}. */
export interface PreparedAnswers {
  /**
   * The answer to `request` (a `POST` whose parsed JSON body is `body`) for `catalogue`: the
   * SDK's answer (`viaSdk`) to a request of the same shape, prepared the first time and kept
   * as long as `catalogue` (by identity) is, with `body.id` put in. A request whose answer
   * cannot be prepared (an error answer, an id neither string nor number) goes to `viaSdk`.
   */
  answer(request: Request, body: JsonRpcBody, catalogue: object, viaSdk: (request: Request) => Promise<Response>): Promise<Response>;
}

/**
 * Prepared answers, per catalogue object (a WeakMap: dropped with the catalogue). A shape is the
 * request's {@link shapeHeaders} and its body without the id; two requests of one shape get the
 * same answer from the SDK but for the id (a stateless server per request that says what the
 * catalogue says), so the prepared bytes are byte for byte what the SDK would send.
 */
export function preparedAnswers(): PreparedAnswers {
  const byCatalogue = new WeakMap<object, Map<string, PreparedAnswer | null>>();
  // An id no client sends: the SDK's answer is asked with it, then cut around it.
  const placeholder = Buffer.from(JSON.stringify(`major-vault-prepared-${randomUUID()}`));
  const placeholderId = JSON.parse(placeholder.toString('utf8')) as string;

  async function prepare(request: Request, rest: JsonRpcBody, hasId: boolean, viaSdk: (request: Request) => Promise<Response>) {
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    const asked = new Request(request.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(hasId ? { ...rest, id: placeholderId } : rest),
    });
    const response = await viaSdk(asked);
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200 && response.status !== 202) return null;
    const kept = [...response.headers].filter(([name]) => name !== 'content-length');
    if (!hasId) return { status: response.status, headers: kept, before: bytes, after: null };
    const at = bytes.indexOf(placeholder);
    if (at < 0 || bytes.indexOf(placeholder, at + placeholder.length) >= 0) return null;
    return { status: response.status, headers: kept, before: bytes.subarray(0, at), after: bytes.subarray(at + placeholder.length) };
  }

  return {
    async answer(request, body, catalogue, viaSdk) {
      const { id, ...rest } = body;
      const hasId = id !== undefined;
      if (request.method !== 'POST' || (hasId && typeof id !== 'string' && typeof id !== 'number')) return viaSdk(request);
      const key = JSON.stringify([hasId, ...shapeHeaders.map((name) => request.headers.get(name)), rest]);
      let shapes = byCatalogue.get(catalogue);
      if (shapes === undefined) byCatalogue.set(catalogue, (shapes = new Map()));
      let prepared = shapes.get(key);
      if (prepared === undefined) {
        prepared = await prepare(request, rest, hasId, viaSdk);
        shapes.set(key, prepared);
        while (shapes.size > shapesPerCatalogue) shapes.delete(shapes.keys().next().value!);
      }
      if (prepared === null) return viaSdk(request);
      const bytes =
        prepared.after === null ? prepared.before : Buffer.concat([prepared.before, Buffer.from(JSON.stringify(id)), prepared.after]);
      const headers = new Headers(prepared.headers as [string, string][]);
      if (bytes.length === 0) return new Response(null, { status: prepared.status, headers });
      headers.set('content-length', String(bytes.length));
      return new Response(bytes, { status: prepared.status, headers });
    },
  };
}
