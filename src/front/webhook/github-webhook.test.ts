// The webhook endpoint: signatures, replays, bodies and events, through the front as GitHub reaches it.
import { request as httpRequest } from 'node:http';
import { Webhooks } from '@octokit/webhooks';
import { pino } from 'pino';
import { describe, expect, test } from 'vitest';
import { createFront, listenFront } from '../http-front.ts';
import { githubWebhook, githubWebhookPath, type DeliveryOutcome, type WebhookDelivery } from './github-webhook.ts';

const secret = 'the webhook secret';

/** GitHub's signature of `body` with `key`, by Octokit's own signer. */
const sign = (key: string, body: string) => new Webhooks({ secret: key }).sign(body);

/** A front with the webhook route whose receiver records what it got and answers `outcome`. */
function frontWithWebhook(outcome: (delivery: WebhookDelivery) => DeliveryOutcome = () => ({ kind: 'accepted' })) {
  const received: WebhookDelivery[] = [];
  const webhook = githubWebhook({
    secret,
    log: pino({ level: 'silent' }),
    receive: (delivery) => {
      received.push(delivery);
      return outcome(delivery);
    },
  });
  const front = createFront({
    name: 'acme',
    signIn: { requiresToken: true, authenticate: async () => null },
    catalogue: async () => {
      throw new Error('no MCP in these tests');
    },
    forward: async () => new Response(null, { status: 500 }),
    allowedHostnames: [],
    webhook,
  });
  return { front, received };
}

async function deliver(
  front: { fetch(request: Request): Promise<Response> },
  options: { body?: string; id?: string; event?: string | null; signature?: string | null; host?: string } = {},
): Promise<Response> {
  const body = options.body ?? JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
  const headers: Record<string, string> = { 'content-type': 'application/json', host: options.host ?? 'vault.example.com' };
  const signature = options.signature === undefined ? await sign(secret, body) : options.signature;
  if (signature !== null) headers['x-hub-signature-256'] = signature;
  if (options.event !== null) headers['x-github-event'] = options.event ?? 'ping';
  headers['x-github-delivery'] = options.id ?? crypto.randomUUID();
  return front.fetch(new Request(`https://vault.example.com${githubWebhookPath}`, { method: 'POST', headers, body }));
}

describe('the GitHub webhook endpoint', () => {
  test('hands a signed delivery to the receiver and answers 202, whatever the Host', async () => {
    const { front, received } = frontWithWebhook();
    const response = await deliver(front, { event: 'push', id: 'd-1', body: '{"ref":"refs/heads/main"}' });
    expect(response.status).toBe(202);
    expect(received).toEqual([{ id: 'd-1', event: 'push', payload: { ref: 'refs/heads/main' } }]);
  });

  test('answers 401 and does nothing for a missing, malformed or wrong signature', async () => {
    const { front, received } = frontWithWebhook();
    const body = '{"ref":"refs/heads/main"}';
    for (const signature of [null, 'sha256=00', 'nonsense', await sign('another secret', body), `sha1=${'0'.repeat(40)}`]) {
      const response = await deliver(front, { event: 'push', id: 'same', body, signature });
      expect(response.status).toBe(401);
      expect(await response.text()).toContain('X-Hub-Signature-256');
    }
    expect(received).toEqual([]);
    // The refused id was not remembered: the genuine delivery with that id still counts.
    expect((await deliver(front, { event: 'push', id: 'same', body })).status).toBe(202);
    expect(received).toHaveLength(1);
  });

  test('acknowledges a delivery seen before and ignores it', async () => {
    const { front, received } = frontWithWebhook();
    expect((await deliver(front, { id: 'again' })).status).toBe(202);
    const replay = await deliver(front, { id: 'again' });
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain('handled already');
    expect(received).toHaveLength(1);
  });

  test('answers 400 for a body that is no JSON object or a delivery without its headers', async () => {
    const { front, received } = frontWithWebhook();
    expect((await deliver(front, { body: 'payload=%7B%7D' })).status).toBe(400);
    expect((await deliver(front, { body: '[1,2]' })).status).toBe(400);
    expect((await deliver(front, { event: null })).status).toBe(400);
    expect(received).toEqual([]);
  });

  test('passes on what the receiver says: ignored 200, refused 400 (and refused ids count again)', async () => {
    const { front } = frontWithWebhook((delivery) =>
      delivery.event === 'star' ? { kind: 'ignored', reason: 'nothing to do for star' } : { kind: 'refused', reason: 'no repository' },
    );
    const ignored = await deliver(front, { event: 'star' });
    expect(ignored.status).toBe(200);
    expect(await ignored.text()).toContain('nothing to do for star');
    expect((await deliver(front, { event: 'push', id: 'r' })).status).toBe(400);
    expect((await deliver(front, { event: 'push', id: 'r' })).status).toBe(400);
  });

  test('answers 500 when the receiver throws, and 405 to anything but POST', async () => {
    const { front } = frontWithWebhook(() => {
      throw new Error('broken');
    });
    expect((await deliver(front)).status).toBe(500);
    const get = await front.fetch(new Request(`https://vault.example.com${githubWebhookPath}`));
    expect(get.status).toBe(405);
  });
});

describe('the GitHub webhook endpoint on a listening front', () => {
  test('answers an unsigned delivery 401 before reading its body, so unsigned floods cost no memory', async () => {
    const { front, received } = frontWithWebhook();
    const listening = await listenFront(front, { port: 0, hostname: '127.0.0.1', log: pino({ level: 'silent' }) });
    try {
      // Declares 20 MB and sends a few bytes only: an answer that waited for the body would never come.
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(new URL(githubWebhookPath, listening.origin), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(20 * 1024 * 1024), 'x-github-event': 'push' },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
          request.destroy();
        });
        request.on('error', reject);
        request.write('{"ref":');
      });
      expect(status).toBe(401);
      expect(received).toEqual([]);
    } finally {
      await listening.close();
    }
  });

  test('takes a signed delivery larger than an MCP request may be (GitHub sends up to 25 MB)', async () => {
    const { front, received } = frontWithWebhook();
    const listening = await listenFront(front, { port: 0, hostname: '127.0.0.1', log: pino({ level: 'silent' }) });
    try {
      const body = JSON.stringify({ ref: 'refs/heads/main', padding: 'x'.repeat(5 * 1024 * 1024) });
      const response = await fetch(new URL(githubWebhookPath, listening.origin), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'push',
          'x-github-delivery': 'd-large',
          'x-hub-signature-256': await sign(secret, body),
        },
        body,
      });
      expect(response.status).toBe(202);
      expect(received.map((delivery) => delivery.id)).toEqual(['d-large']);
      // The MCP address keeps its own limit.
      const mcp = await fetch(new URL('/acme', listening.origin), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
      expect(mcp.status).toBe(413);
    } finally {
      await listening.close();
    }
  });
});
