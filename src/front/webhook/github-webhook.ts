// The front's endpoint for GitHub's webhook deliveries (issue 11 "Webhooks"; GitHub Docs
// "Validating webhook deliveries" and "Best practices for using webhooks"): the signature
// checked in constant time, each delivery handled once, the answer given at once (GitHub
// gives up after 10 seconds) while the work it causes runs behind it.
import { Webhooks } from '@octokit/webhooks';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { githubWebhookPath } from '../front-paths.ts';

/** One delivery as GitHub sent it, its signature checked: `X-GitHub-Delivery`, `X-GitHub-Event`, and the JSON body. */
export interface WebhookDelivery {
  id: string;
  /** The event's name, e.g. `push`, `installation`. */
  event: string;
  /** The parsed JSON body, not yet checked against the event's shape (the receiver does that). */
  payload: unknown;
}

/**
 * What the receiver made of a delivery, decided without waiting for the work it causes:
 * `accepted` (work queued: 202), `ignored` (an event or action it has nothing to do for, or
 * another installation's: 200), `refused` (a known event whose body lacks what it needs: 400,
 * with `reason`).
 */
export type DeliveryOutcome = { kind: 'accepted' } | { kind: 'ignored'; reason: string } | { kind: 'refused'; reason: string };

/**
 * Takes a delivery in and says what becomes of it (see {@link DeliveryOutcome}) without waiting
 * for the work; it may wait to queue it (a durable queue), so a delivery answered 202 is queued.
 */
export type DeliveryReceiver = (delivery: WebhookDelivery) => DeliveryOutcome | Promise<DeliveryOutcome>;

/** A route of the front that is not MCP: its path and the handler of every request to it. */
export interface WebhookRoute {
  /** e.g. `/webhooks/github` */
  path: string;
  /** The largest body the route takes, in bytes (the HTTP server buffers up to this much for it). */
  maxBodyBytes: number;
  handle(request: Request): Promise<Response>;
}

/** Options of {@link githubWebhook}. */
export interface GitHubWebhookOptions {
  /** The GitHub App's webhook secret (the App's settings, "Webhook secret"). */
  secret: string;
  receive: DeliveryReceiver;
  log: Logger;
  /** The route's path; default {@link githubWebhookPath}. */
  path?: string;
  /** How many delivery ids are remembered; default 100,000 (more than a day's deliveries of a busy installation). */
  rememberedDeliveries?: number;
}

/** Where GitHub delivers by default: the App's "Webhook URL" is `<origin>/webhooks/github`. */
export { githubWebhookPath } from '../front-paths.ts';

/** GitHub caps a webhook payload at 25 MB and does not deliver a larger one; a larger body is no delivery of GitHub's. */
const maxBodyBytes = 25 * 1024 * 1024;

/** How long a delivery id is remembered: GitHub redelivers only on request, for deliveries of the past 3 days. */
const rememberMs = 3 * 24 * 60 * 60 * 1000;

/**
 * The endpoint for GitHub's deliveries (`POST` only; anything else 405):
 * - `X-Hub-Signature-256` missing or not the HMAC-SHA256 of the body with the secret (compared
 *   in constant time by `@octokit/webhooks`): 401, nothing done, nothing remembered;
 * - no `X-GitHub-Event` or `X-GitHub-Delivery`, or a body that is not a JSON object: 400;
 * - a delivery id seen before (a redelivery or a replay): 200, ignored;
 * - otherwise the receiver's outcome: 202 accepted, 200 ignored, 400 refused; a receiver that
 *   throws: 500, logged, the id not remembered (so a redelivery is tried again).
 *
 * Delivery ids are remembered in this process only (an LRU of {@link
 * GitHubWebhookOptions.rememberedDeliveries} ids, each for 3 days); once the front runs as
 * several processes, a hosted Store will keep them across processes and restarts.
 */
export function githubWebhook(options: GitHubWebhookOptions): WebhookRoute {
  const webhooks = new Webhooks({ secret: options.secret });
  const seen = new LRUCache<string, true>({ max: options.rememberedDeliveries ?? 100_000, ttl: rememberMs });
  const { log } = options;

  async function handle(request: Request): Promise<Response> {
    if (request.method !== 'POST') return text(405, 'GitHub webhook deliveries are POST requests.', { allow: 'POST' });
    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > maxBodyBytes) return text(413, 'A webhook delivery is at most 25 MB.');
    const body = await request.text();
    if (Buffer.byteLength(body) > maxBodyBytes) return text(413, 'A webhook delivery is at most 25 MB.');

    const signature = request.headers.get('x-hub-signature-256');
    if (signature === null || !(await verified(webhooks, body, signature))) {
      log.warn({ event: 'webhook_refused', delivery: request.headers.get('x-github-delivery') }, 'a webhook delivery with a bad signature');
      return text(
        401,
        'The X-Hub-Signature-256 header is missing or does not match the body: sign deliveries with the webhook secret Major Vault is configured with.',
      );
    }
    const id = request.headers.get('x-github-delivery');
    const event = request.headers.get('x-github-event');
    if (!id || !event) return text(400, 'A delivery needs the headers X-GitHub-Delivery and X-GitHub-Event.');
    if (seen.has(id)) return text(200, `Delivery ${id} was handled already; ignored.`);
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return text(400, 'The body is not JSON: set the App webhook\'s content type to "application/json".');
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return text(400, 'The body is not a JSON object.');

    let outcome: DeliveryOutcome;
    try {
      outcome = await options.receive({ id, event, payload });
    } catch (error) {
      log.error({ err: error, event: 'webhook_failed', delivery: id, name: event }, 'handling a webhook delivery failed');
      return text(500, 'The delivery could not be handled; redeliver it later.');
    }
    if (outcome.kind === 'refused') return text(400, outcome.reason);
    seen.set(id, true);
    log.debug({ event: 'webhook', delivery: id, name: event, outcome: outcome.kind }, `webhook ${event}: ${outcome.kind}`);
    if (outcome.kind === 'ignored') return text(200, `Ignored: ${outcome.reason}`);
    return text(202, 'Accepted.');
  }

  return { path: options.path ?? githubWebhookPath, maxBodyBytes, handle };
}

/** Whether `signature` is the body's `sha256=` HMAC; false (not a throw) for a malformed header. */
async function verified(webhooks: Webhooks, body: string, signature: string): Promise<boolean> {
  try {
    return await webhooks.verify(body, signature);
  } catch {
    return false;
  }
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}
