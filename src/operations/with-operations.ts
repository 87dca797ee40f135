// The operator's side of every process's HTTP face (issue 13, "Operating it"): `GET /healthz`,
// `GET /readyz` and `GET /metrics`, a request id on every request (in its log lines and its
// answer), and every MCP request counted and timed. Put in front of the front's or the
// instance's handler, or served alone on the worker's ops port (listen-operations.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { observeAnswer, mcpRequestLabels, type AnswerEnd } from './mcp-exchange.ts';
import type { Metrics } from './metrics.ts';
import { readinessChecker, type ReadinessCheck } from './readiness.ts';
import { requestIdFrom, requestIdHeader, runInRequestContext, currentRequestContext } from './request-context.ts';
import { operationsPaths } from './operations-paths.ts';

/**
 * The paths the operations answer before the process's own handler. Their first segments are
 * reserved: no installation may be named `healthz`, `readyz` or `metrics` (main/installation-name.ts).
 */
export { operationsPaths } from './operations-paths.ts';

/** A web-standard handler: one request in, its response out. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** What {@link withOperations} needs. */
export interface OperationsOptions {
  /** The process's metrics (metrics.ts `createMetrics`): MCP requests are recorded there, and `/metrics` answers them. */
  metrics: Metrics;
  /** What `/readyz` checks (readiness.ts, e.g. `databaseCheck(sql)`); none: ready while the process runs and is not shutting down. */
  readiness?: readonly ReadinessCheck[];
  /** Where failing readiness checks and requests are logged (the request's lines carry its id either way); default: nowhere. */
  log?: Logger;
  /**
   * The installation a request's URL is for, when the URL is an installation's MCP address
   * (`/<name>`), else undefined: it names the installation in the request's log lines, and
   * an MCP request (a JSON-RPC `POST`) there is counted and timed. The instance gives its one
   * name for its address; the front gives main/installation-name.ts `installationOfAddress`.
   * Absent: no request is measured as MCP.
   */
  installationOf?: (url: URL) => string | undefined;
  /** The tool names the registry has (`tools/call`'s `tool` label); any other name counts as `other`. */
  toolNames?: Iterable<string>;
  /** Whether `/metrics` is answered here (default true); false leaves the path to the process's handler (metrics on the ops port only). */
  serveMetrics?: boolean;
  /** When set, `/metrics` needs `Authorization: Bearer <metricsToken>` (401 otherwise): for metrics on a public listener. */
  metricsToken?: string;
}

/** The wrapped handler, and how to say the process is going away. */
export interface OperationsHandler {
  fetch: FetchHandler;
  /**
   * From now on `/readyz` answers 503 (`shutting_down`), so the platform stops sending new
   * requests while open ones finish: call it on SIGTERM, before closing the listener.
   */
  shutDown(): void;
}

/**
 * Wraps `handler` (null: nothing but the operations, as on the worker's ops port, where every
 * other path is 404):
 * - `GET /healthz`: `200 {"status":"alive"}` while the process runs (liveness);
 * - `GET /readyz`: `200 {"status":"ready",…}` when every readiness check passes, else `503
 *   {"status":"not_ready","failing":["database"],…}` naming the failing checks (the causes go
 *   to the log, never to the answer);
 * - `GET /metrics`: Prometheus's text format (unless `serveMetrics` is false);
 * - every other request runs in a request context (request-context.ts): its id is the
 *   caller's `X-Request-Id` when well-formed, else a new UUID; it is set on the request the
 *   handler sees (so a forward that passes headers on passes it too) and on the answer; and
 *   every log line written for it carries `requestId` and `installation`;
 * - a JSON-RPC `POST` to an installation's MCP address is recorded in `metrics` when its
 *   answer has ended (`404`s, an address no installation has, are not, so no one can make up
 *   series).
 * The operations paths answer `HEAD` too, and `405` to other methods; they skip the
 * handler's `Host` checks, as a platform's probe names the container's address.
 */
export function withOperations(handler: FetchHandler | null, options: OperationsOptions): OperationsHandler {
  const { metrics } = options;
  const checkReadiness = readinessChecker(options.readiness ?? [], options.log);
  const toolNames: ReadonlySet<string> = new Set(options.toolNames ?? []);
  const serveMetrics = options.serveMetrics ?? true;
  const metricsTokenDigest = options.metricsToken === undefined ? undefined : sha256(options.metricsToken);
  let shuttingDown = false;

  async function operations(request: Request, path: string): Promise<Response | null> {
    if (path === operationsPaths.health) return methodIsRead(request) ?? json(200, { status: 'alive' }, request);
    if (path === operationsPaths.ready) {
      const refused = methodIsRead(request);
      if (refused) return refused;
      const report = await checkReadiness();
      const failing = report.checks.filter((check) => !check.ok).map((check) => check.name);
      if (shuttingDown) failing.push('shutting_down');
      const checks = Object.fromEntries(report.checks.map(({ name, ...result }) => [name, result]));
      return failing.length === 0
        ? json(200, { status: 'ready', checks }, request)
        : json(503, { status: 'not_ready', failing, checks }, request);
    }
    if (path === operationsPaths.metrics && serveMetrics) {
      const refused = methodIsRead(request);
      if (refused) return refused;
      if (metricsTokenDigest && !bearerMatches(request.headers.get('authorization'), metricsTokenDigest)) {
        return new Response('The metrics need Authorization: Bearer <the metrics token>.\n', {
          status: 401,
          headers: { 'www-authenticate': 'Bearer', 'content-type': 'text/plain; charset=utf-8' },
        });
      }
      const { contentType, body } = await metrics.exposition();
      return new Response(request.method === 'HEAD' ? null : body, {
        headers: { 'content-type': contentType, 'cache-control': 'no-store' },
      });
    }
    return null;
  }

  async function serve(request: Request, url: URL, installation: string | undefined): Promise<Response> {
    const started = performance.now();
    const context = currentRequestContext()!;
    const labels =
      installation !== undefined && request.method === 'POST'
        ? mcpRequestLabels(
            await request
              .clone()
              .json()
              .catch(() => null),
            toolNames,
          )
        : null;
    const record = (end: AnswerEnd) => {
      if (!labels || installation === undefined) return;
      // A tool that failed inside is answered like a refusal; the context knows better.
      const failed = context.toolFailed && end.outcome === 'refused';
      metrics.recordMcpRequest({
        installation,
        ...labels,
        outcome: failed ? 'error' : end.outcome,
        errorReason: failed ? 'tool_failed' : end.errorReason,
        seconds: (performance.now() - started) / 1000,
      });
    };
    let response: Response;
    try {
      response = handler ? await handler(request) : notFound();
    } catch (error) {
      record({ outcome: 'error', errorReason: 'exception' });
      throw error;
    }
    options.log?.debug(
      {
        event: 'request',
        method: request.method,
        path: url.pathname,
        status: response.status,
        durationMs: Math.round(performance.now() - started),
      },
      `${request.method} ${url.pathname} ${response.status}`,
    );
    const headers = new Headers(response.headers);
    headers.set(requestIdHeader, context.requestId);
    const expectsAnswer = labels !== null && labels.method !== 'response' && !labels.method.startsWith('notifications/');
    const body =
      labels && response.status !== 404
        ? observeAnswer(
            response,
            { expectsAnswer, signal: request.signal, ...(context.answeredOk ? { outcome: { outcome: 'ok' as const } } : {}) },
            record,
          )
        : response.body;
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  }

  return {
    async fetch(request) {
      const url = new URL(request.url);
      const requestId = requestIdFrom(request.headers.get(requestIdHeader));
      const answered = await operations(request, url.pathname);
      if (answered) {
        answered.headers.set(requestIdHeader, requestId);
        return answered;
      }
      const installation = options.installationOf?.(url);
      const headers = new Headers(request.headers);
      headers.set(requestIdHeader, requestId);
      return runInRequestContext({ requestId, installation }, () => serve(new Request(request, { headers }), url, installation));
    },
    shutDown() {
      shuttingDown = true;
    },
  };
}

/** Null for `GET`/`HEAD`; else the 405 answer. */
function methodIsRead(request: Request): Response | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  return new Response('Method not allowed: use GET or HEAD.\n', {
    status: 405,
    headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' },
  });
}

function json(status: number, value: unknown, request: Request): Response {
  return new Response(request.method === 'HEAD' ? null : `${JSON.stringify(value)}\n`, {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

function notFound(): Response {
  return new Response(`Not found. This listener answers ${Object.values(operationsPaths).join(', ')}.\n`, {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Whether `authorization` is `Bearer <token>` with the token whose SHA-256 is `digest`, compared in constant time. */
function bearerMatches(authorization: string | null, digest: Buffer): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  return match !== null && timingSafeEqual(sha256(match[1]!), digest);
}
