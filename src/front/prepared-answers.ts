// The front's answers to the catalogue's methods (`initialize`, `server/discover`, `tools/list`)
// kept as bytes (issue 13, "Hosted at scale": `tools/list` at the front in ≤ 5 ms). The MCP SDK
// answers a request of a given shape once; its answer is kept around the request's id, so the
// next request of that shape for the same catalogue is answered by putting its id in, with no
// server, transport or JSON serialisation per request.
import { randomUUID } from 'node:crypto';
import { noteAnsweredOk } from '../operations/request-context.ts';

/** A JSON-RPC message as the front parsed it from a request's body. */
export type JsonRpcBody = Record<string, unknown>;

/** The SDK's answer to a request shape, as bytes before and after the id (no id: `after` is null). */
interface PreparedAnswer {
  status: number;
  headers: ReadonlyArray<readonly [string, string]>;
  before: Buffer;
  after: Buffer | null;
  /** Whether the answer is one successful JSON-RPC result (the metrics need not read it). */
  ok: boolean;
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
    if (!hasId) return { status: response.status, headers: kept, before: bytes, after: null, ok: false };
    const at = bytes.indexOf(placeholder);
    if (at < 0 || bytes.indexOf(placeholder, at + placeholder.length) >= 0) return null;
    const ok = isOneResult(bytes.toString('utf8'), response.headers.get('content-type') ?? '');
    return { status: response.status, headers: kept, before: bytes.subarray(0, at), after: bytes.subarray(at + placeholder.length), ok };
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
      if (prepared.ok) noteAnsweredOk();
      const bytes =
        prepared.after === null ? prepared.before : Buffer.concat([prepared.before, Buffer.from(JSON.stringify(id)), prepared.after]);
      const headers = new Headers(prepared.headers as [string, string][]);
      if (bytes.length === 0) return new Response(null, { status: prepared.status, headers });
      headers.set('content-length', String(bytes.length));
      return new Response(bytes, { status: prepared.status, headers });
    },
  };
}

/**
 * Whether `text` (a JSON body, or an SSE stream of one event) is one JSON-RPC result that is not
 * a tool error: what the metrics would count as `ok`. Anything else, or unreadable, is false.
 */
function isOneResult(text: string, contentType: string): boolean {
  try {
    const json = contentType.includes('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice('data: '.length))
          .join('\n')
      : text;
    const message = JSON.parse(json) as { result?: { isError?: unknown }; error?: unknown } | null;
    return (
      typeof message === 'object' &&
      message !== null &&
      message.error === undefined &&
      typeof message.result === 'object' &&
      message.result?.isError !== true
    );
  } catch {
    return false;
  }
}
