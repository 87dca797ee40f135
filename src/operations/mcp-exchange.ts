// What an MCP request asked (its JSON-RPC method and tool) and how its answer ended, read from
// the HTTP exchange itself, so the same measurement works in the front (which answers some
// requests and forwards the rest) and in the instance, over JSON answers and SSE streams.
import type { McpErrorReason, McpOutcome } from './metrics.ts';

/**
 * The JSON-RPC methods a client sends a server in MCP (2025-03-26 to 2026-07-28); any other
 * method is labelled `other`, so a caller cannot make up new series.
 */
const knownMethods: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'tasks/get',
  'tasks/list',
  'tasks/result',
  'tasks/cancel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
]);

/** The labels of an MCP request: its method (`batch`, `response` or `other` when not one request) and tool (empty but for `tools/call`). */
export interface McpRequestLabels {
  method: string;
  tool: string;
}

/**
 * The labels of an MCP request body (parsed JSON), or null when it is not JSON-RPC. A tool
 * that `toolNames` does not hold is labelled `other`; a client's answer to a server request
 * (a result without a method) is `response`.
 */
export function mcpRequestLabels(body: unknown, toolNames: ReadonlySet<string>): McpRequestLabels | null {
  if (Array.isArray(body)) return body.length > 0 ? { method: 'batch', tool: '' } : null;
  if (typeof body !== 'object' || body === null || (body as { jsonrpc?: unknown }).jsonrpc !== '2.0') return null;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (typeof method !== 'string') return { method: 'response', tool: '' };
  if (!knownMethods.has(method)) return { method: 'other', tool: '' };
  if (method !== 'tools/call') return { method, tool: '' };
  const name = typeof params === 'object' && params !== null ? (params as { name?: unknown }).name : undefined;
  return { method, tool: typeof name === 'string' && toolNames.has(name) ? name : 'other' };
}

/** How an answer ended: its outcome and, for an error, why. */
export interface AnswerEnd {
  outcome: McpOutcome;
  errorReason?: McpErrorReason;
}

/** The most an answer's single JSON message may take to be read for its outcome, in characters; a larger one counts by its status. */
const maxMessageChars = 8 * 1024 * 1024;

/**
 * Passes `response`'s body through unchanged while reading it, and calls `onEnd` once when it
 * ends: with the outcome of the first JSON-RPC answer in it (a JSON body, or an SSE stream's
 * `data:` messages), `cancelled` when the client stops reading, `error` (`stream_failed`) when
 * the stream breaks. An SSE stream that ends without the answer a request (`expectsAnswer`)
 * waits for was `cancelled` when `signal` (the request's) was aborted (the SDK ends the stream
 * when the client goes away), else it broke off. Returns the body to answer with (null when
 * the response has none; then `onEnd` has been called already). `outcome`, when given, is the
 * answer's as its handler knows it (a status still decides first): the body is not read for it.
 */
export function observeAnswer(
  response: Response,
  options: { expectsAnswer: boolean; signal?: AbortSignal; outcome?: AnswerEnd },
  onEnd: (end: AnswerEnd) => void,
): ReadableStream<Uint8Array> | null {
  const byStatus = statusOutcome(response.status);
  const contentType = response.headers.get('content-type') ?? '';
  const isStream = contentType.includes('text/event-stream');
  const known = options.outcome;
  const reader: AnswerReader | null =
    known !== undefined
      ? { take: () => {}, answer: () => known }
      : isStream
        ? sseReader()
        : contentType.includes('application/json')
          ? jsonReader()
          : null;
  let ended = false;
  const end = (how: 'done' | 'failed' | 'cancelled') => {
    if (ended) return;
    ended = true;
    if (how === 'cancelled') return onEnd({ outcome: 'cancelled' });
    if (how === 'failed') return onEnd({ outcome: 'error', errorReason: 'stream_failed' });
    // The status decides first: a 5xx or 401 is that, whatever its body says; a refused
    // request (400, 406, 415, …) without a JSON-RPC error in it is still a refusal.
    onEnd(byStatus ?? reader?.answer() ?? unanswered());
  };
  const unanswered = (): AnswerEnd => {
    if (response.status >= 400) return { outcome: 'rpc_error' };
    if (!isStream || !options.expectsAnswer) return { outcome: 'ok' };
    return options.signal?.aborted ? { outcome: 'cancelled' } : { outcome: 'error', errorReason: 'stream_failed' };
  };
  if (response.body === null) {
    end('done');
    return null;
  }
  const source = response.body.getReader();
  const decoder = new TextDecoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await source.read();
          if (done) {
            reader?.take(decoder.decode());
            end('done');
            controller.close();
            return;
          }
          if (reader && known === undefined && byStatus === null) reader.take(decoder.decode(value, { stream: true }));
          controller.enqueue(value);
        } catch (error) {
          end('failed');
          controller.error(error);
        }
      },
      async cancel(reason) {
        end('cancelled');
        await source.cancel(reason);
      },
      // Read only as the client reads: reading ahead would see the end of an answer the client
      // never took, and count it as answered.
    },
    { highWaterMark: 0 },
  );
}

/** The outcome a status alone decides (401/403, 5xx), else null: the body decides. */
function statusOutcome(status: number): AnswerEnd | null {
  if (status === 401 || status === 403) return { outcome: 'unauthorized' };
  if (status >= 500) return { outcome: 'error', errorReason: 'http_5xx' };
  return null;
}

/** Reads text as it comes and says the outcome of the first JSON-RPC answer found in it (undefined: none seen). */
interface AnswerReader {
  take(text: string): void;
  answer(): AnswerEnd | undefined;
}

/** A JSON body: one message or a batch, read whole (up to {@link maxMessageChars}). */
function jsonReader(): AnswerReader {
  let text = '';
  let tooLarge = false;
  return {
    take(chunk) {
      if (tooLarge) return;
      text += chunk;
      if (text.length > maxMessageChars) {
        tooLarge = true;
        text = '';
      }
    },
    answer() {
      if (tooLarge || text === '') return undefined;
      try {
        return messageOutcome(JSON.parse(text));
      } catch {
        return undefined;
      }
    },
  };
}

/** An SSE stream: events split at blank lines, each event's `data:` lines one JSON message (WHATWG HTML, "Server-sent events"). */
function sseReader(): AnswerReader {
  let pending = '';
  let found: AnswerEnd | undefined;
  return {
    take(chunk) {
      if (found) return;
      // A boundary may straddle the chunks: look from 3 characters before the new text.
      let from = Math.max(0, pending.length - 3);
      pending += chunk;
      for (;;) {
        const boundary = eventBoundary(pending, from);
        if (!boundary) break;
        const event = pending.slice(0, boundary.index);
        pending = pending.slice(boundary.index + boundary.length);
        from = 0;
        const data = event
          .split(/\r\n|\n|\r/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
          .join('\n');
        if (data === '') continue;
        try {
          found = messageOutcome(JSON.parse(data));
        } catch {
          continue;
        }
        if (found) return;
      }
      if (pending.length > maxMessageChars) pending = '';
    },
    answer: () => found,
  };
}

/**
 * The first blank line (`\r\n\r\n`, `\n\n` or `\r\r`: the end of an SSE event) in `text` at or
 * after `from`, else null. With `indexOf`, not a regular expression: an answer of tens of
 * kilobytes (`tools/list`) is scanned on every MCP request.
 */
function eventBoundary(text: string, from: number): { index: number; length: number } | null {
  let best: { index: number; length: number } | null = null;
  for (const separator of ['\r\n\r\n', '\n\n', '\r\r']) {
    const index = text.indexOf(separator, from);
    if (index >= 0 && (best === null || index < best.index)) best = { index, length: separator.length };
  }
  return best;
}

/** The outcome a JSON-RPC answer says (the first answer of a batch), or undefined for a message that is none (a notification). */
function messageOutcome(message: unknown): AnswerEnd | undefined {
  if (Array.isArray(message)) {
    for (const item of message) {
      const outcome = messageOutcome(item);
      if (outcome) return outcome;
    }
    return undefined;
  }
  if (typeof message !== 'object' || message === null || !('id' in message)) return undefined;
  const { error, result } = message as { error?: { code?: unknown }; result?: { isError?: unknown } };
  if (error !== undefined) return error?.code === -32603 ? { outcome: 'error', errorReason: 'rpc_internal' } : { outcome: 'rpc_error' };
  if (result === undefined) return undefined;
  return result?.isError === true ? { outcome: 'refused' } : { outcome: 'ok' };
}
