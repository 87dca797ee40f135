// The front's way to an instance in another process (DESIGN.md "How one call travels", step 5;
// issue 13 "The front"): every MCP request that the catalogue does not answer goes over HTTP
// to the installation's instance, with the person's token unchanged, and the answer (JSON or
// an SSE stream) is streamed back as it comes.
import type { Logger } from 'pino';
import type { Forward } from '../http-front.ts';
import { InstanceEndedEarly, type InstanceKey, type InstanceLocator } from './instance-locator.ts';

/** What {@link httpForward} needs. */
export interface HttpForwardOptions {
  installation: InstanceKey;
  instances: InstanceLocator;
  log?: Logger;
  /** What a refused request is told to wait, in seconds (`Retry-After`); default 5. */
  retryAfterSeconds?: number;
}

/**
 * The request headers an instance gets: the MCP ones (`MCP-Protocol-Version`, `Mcp-Session-Id`,
 * `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, …), the token, what the body is and what answer is
 * accepted, and a request's id for the logs. Not `Origin` and not `Host`: the front checked
 * those, and the instance is reached at its own host.
 */
const forwardedRequestHeaders = new Set(['authorization', 'content-type', 'accept', 'last-event-id', 'x-request-id', 'traceparent']);

/** Response headers that describe one hop, not the answer (RFC 9110 §7.6.1), and those the body's re-streaming makes wrong. */
const hopHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'content-encoding',
]);

/**
 * A {@link Forward} to `installation`'s instance: the request's method, the headers above and
 * its body go to `<instance origin>/<name>`, and the instance's status, headers and body come
 * back as they stream (an SSE answer event by event); a client that goes away aborts the
 * request to the instance. The instance is found (and woken) through `instances`. When it
 * cannot be reached (not started in time, ended twice while starting, or the connection refused
 * twice: a refused connection is told to the locator, which starts another, and tried once
 * more; an instance that ended while starting is started once more), the answer
 * is 503 with `Retry-After` and a JSON-RPC error saying so; nothing was sent to it then.
 * When the connection fails after the request may have reached it (the instance stopped while
 * answering), the answer is 502 without `Retry-After`, saying that the call may have taken
 * effect and to look before sending it again (a write sent twice would be made twice).
 */
export function httpForward(options: HttpForwardOptions): Forward {
  const { installation, instances, log } = options;
  const retryAfter = String(options.retryAfterSeconds ?? 5);
  return async (request) => {
    const headers = new Headers();
    for (const [name, value] of request.headers) {
      if (forwardedRequestHeaders.has(name) || name.startsWith('mcp-')) headers.set(name, value);
    }
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    for (let attempt = 1; ; attempt++) {
      let origin: URL;
      try {
        origin = await instances.locate(installation);
      } catch (error) {
        // An instance that ended while starting took nothing: one more is started for the request.
        if (error instanceof InstanceEndedEarly && attempt === 1) {
          log?.warn(
            { event: 'instance_ended_early', installation: installation.name, err: error },
            `the instance of ${installation.name} ended while starting; starting another`,
          );
          continue;
        }
        log?.warn(
          { event: 'instance_unavailable', installation: installation.name, err: error },
          `the instance of ${installation.name} could not be started`,
        );
        return unavailable(installation.name, retryAfter);
      }
      let answer: Response;
      try {
        answer = await fetch(new URL(`/${installation.name}`, origin), {
          method: request.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          redirect: 'manual',
          signal: request.signal,
        });
      } catch (error) {
        if (request.signal.aborted) return new Response(null, { status: 499 });
        // A refused connection sent nothing: the instance is gone (it exited when idle), so a
        // new one may take the request. Any other failure may have reached it: not sent again.
        if (connectionRefused(error) && attempt === 1) {
          instances.unreachable(installation, origin);
          continue;
        }
        log?.warn(
          { event: 'instance_unreachable', installation: installation.name, err: error },
          `the instance of ${installation.name} could not be reached`,
        );
        if (connectionRefused(error)) {
          instances.unreachable(installation, origin);
          return unavailable(installation.name, retryAfter);
        }
        // The request may have reached the instance (it stopped while answering): a write may
        // have landed, so the client is not invited to send it again blindly.
        return outcomeUnknown(installation.name);
      }
      const answerHeaders = new Headers();
      for (const [name, value] of answer.headers) if (!hopHeaders.has(name)) answerHeaders.append(name, value);
      return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answerHeaders });
    }
  };
}

/** Whether `error` (from `fetch`) is a connection the other side refused: nothing was sent. */
function connectionRefused(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === 'ECONNREFUSED') return true;
  }
  return false;
}

/** 503 with `Retry-After` and a JSON-RPC error (code -32000, as the SDK's own transport errors) saying the instance cannot be reached. */
function unavailable(name: string, retryAfter: string): Response {
  const message = `The server of ${name} cannot be reached right now (it may be starting); try again in ${retryAfter} seconds.`;
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
  });
}

/**
 * 502 and a JSON-RPC error (code -32000) for a request the instance may have taken before it
 * stopped answering: whether a write landed is unknown, so the message says to look first.
 */
function outcomeUnknown(name: string): Response {
  const message = `The server of ${name} stopped while answering; the call may or may not have taken effect. Before sending a write again, look whether it landed (read_note or note_history).`;
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status: 502,
    headers: { 'content-type': 'application/json' },
  });
}
