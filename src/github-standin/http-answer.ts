// How the stand-in answers over HTTP: GitHub's REST headers, JSON bodies and error shapes.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** GitHub's documentation link in REST error bodies. */
export const REST_DOCS = 'https://docs.github.com/rest';

/** The message GitHub answers for each error status when nothing more specific is said. */
export const STATUS_MESSAGES: Record<number, string> = {
  400: 'Problems parsing JSON',
  401: 'Bad credentials',
  403: 'Resource not accessible by integration',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  422: 'Validation Failed',
  500: 'Server Error',
  502: 'Server Error',
  503: 'Service Unavailable',
  504: 'We couldn\u2019t respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists.',
};

/** GitHub's error body for `status`: `{message, documentation_url, status}` (422 adds `errors`). */
export function errorBody(status: number, message?: string, errors?: unknown[]): Record<string, unknown> {
  const body: Record<string, unknown> = { message: message ?? STATUS_MESSAGES[status] ?? 'Server Error' };
  if (status === 422) body.errors = errors ?? [{ resource: 'Repository', code: 'custom', message: body.message }];
  body.documentation_url = REST_DOCS;
  body.status = String(status);
  return body;
}

/** Per-process rate-limit bookkeeping, reported in `x-ratelimit-*` headers (never enforced). */
const rateLimit = { used: 0, reset: Math.floor(Date.now() / 1000) + 3600 };

/**
 * The headers GitHub puts on every REST and GraphQL answer, as Octokit reads them:
 * `x-ratelimit-limit/remaining/reset/used/resource`, `x-github-request-id`, `x-github-media-type`.
 */
export function githubHeaders(resource: 'core' | 'graphql' = 'core'): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  if (now >= rateLimit.reset) Object.assign(rateLimit, { used: 0, reset: now + 3600 });
  rateLimit.used += 1;
  const limit = resource === 'graphql' ? 5000 : 15000;
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(Math.max(0, limit - rateLimit.used)),
    'x-ratelimit-reset': String(rateLimit.reset),
    'x-ratelimit-used': String(rateLimit.used),
    'x-ratelimit-resource': resource,
    'x-github-request-id': `${randomBytes(2).toString('hex').toUpperCase()}:${randomBytes(3).toString('hex').toUpperCase()}:${randomBytes(4).toString('hex').toUpperCase()}`,
    'x-github-media-type': 'github.v3; format=json',
    'x-github-api-version-selected': '2022-11-28',
  };
}

/** Sends `body` as JSON with GitHub's headers; a null body with 204 sends nothing. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  resource: 'core' | 'graphql' = 'core',
): void {
  const all: Record<string, string> = { ...githubHeaders(resource), ...headers };
  if (status === 204 || body === null) {
    res.writeHead(status, all);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...all });
  res.end(text);
}

/** Sends GitHub's error body for `status`. */
export function sendError(res: ServerResponse, status: number, message?: string, errors?: unknown[]): void {
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Basic realm="GitHub"' } : {};
  sendJson(res, status, errorBody(status, message, errors), headers);
}

/** The request body as a Buffer (capped at 64 MiB). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > 64 * 1024 * 1024) throw new Error('The request body is larger than 64 MiB.');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** A JSON or form-encoded body as a flat record; undefined when it does not parse. */
export function parseBody(req: IncomingMessage, body: Buffer): Record<string, unknown> | undefined {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const text = body.toString('utf8');
  if (text.trim() === '') return {};
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
