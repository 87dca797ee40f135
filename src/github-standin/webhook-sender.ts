// The App's webhook deliveries: signed as GitHub signs them, sent one at a time, recorded, never retried.
import { createHmac, randomUUID } from 'node:crypto';
import { Webhooks } from '@octokit/webhooks';
import type { StandinDelivery } from './standin-api.ts';

/** GitHub gives a receiver 10 seconds to answer (docs: "Handling failed webhook deliveries"). */
const DELIVERY_TIMEOUT_MS = 10_000;

/** A recorded delivery with the exact body sent, so a redelivery sends the same bytes. */
interface DeliveryRecord extends StandinDelivery {
  body: string;
}

/**
 * Sends the App's webhooks to the configured URL in order, each awaited (10 s timeout), with
 * GitHub's headers: `X-GitHub-Event`, `X-GitHub-Delivery` (a UUID), `X-GitHub-Hook-ID`,
 * `X-GitHub-Hook-Installation-Target-Type/ID`, `X-Hub-Signature-256` (HMAC-SHA256 of the body
 * with the webhook secret, via `@octokit/webhooks`) and the legacy `X-Hub-Signature` (SHA-1).
 */
export class WebhookSender {
  private readonly records: DeliveryRecord[] = [];
  private tail: Promise<void> = Promise.resolve();
  private readonly signer: Webhooks;
  private readonly hookId = 471_000_001;

  private readonly secret: string;
  private readonly appId: number;
  private url: string | null;

  constructor(secret: string, appId: number, url: string | null) {
    this.secret = secret;
    this.appId = appId;
    this.url = url;
    this.signer = new Webhooks({ secret });
  }

  /** Where the next deliveries go; null records them without sending. */
  setUrl(url: string | null): void {
    this.url = url;
  }

  /** Records and sends one event; resolves once the delivery was attempted (never rejects). */
  send(event: string, payload: Record<string, unknown>): Promise<void> {
    const record: DeliveryRecord = {
      id: randomUUID(),
      event,
      action: typeof payload.action === 'string' ? payload.action : null,
      payload,
      status: null,
      body: JSON.stringify(payload),
    };
    this.records.push(record);
    return this.enqueue(record);
  }

  /** Sends a recorded delivery again with the same id and body; rejects when the id is unknown. */
  redeliver(id: string): Promise<void> {
    const record = this.records.find((candidate) => candidate.id === id);
    if (!record) return Promise.reject(new Error(`No webhook delivery has the id ${id}; deliveries() lists the ids.`));
    return this.enqueue(record);
  }

  /** Every delivery so far, oldest first (copies without the raw body). */
  deliveries(): StandinDelivery[] {
    return this.records.map(({ body: _body, ...delivery }) => ({ ...delivery }));
  }

  /** Resolves when every delivery queued so far was attempted. */
  idle(): Promise<void> {
    return this.tail;
  }

  private enqueue(record: DeliveryRecord): Promise<void> {
    const attempt = this.tail.then(() => this.deliver(record));
    this.tail = attempt;
    return attempt;
  }

  private async deliver(record: DeliveryRecord): Promise<void> {
    const url = this.url;
    if (!url) {
      record.status = null;
      return;
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/standin',
      'x-github-event': record.event,
      'x-github-delivery': record.id,
      'x-github-hook-id': String(this.hookId),
      'x-github-hook-installation-target-type': 'integration',
      'x-github-hook-installation-target-id': String(this.appId),
      'x-hub-signature-256': await this.signer.sign(record.body),
      'x-hub-signature': `sha1=${createHmac('sha1', this.secret).update(record.body).digest('hex')}`,
    };
    try {
      const response = await fetch(url, { method: 'POST', headers, body: record.body, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
      await response.arrayBuffer().catch(() => undefined);
      record.status = response.status;
    } catch {
      record.status = null;
    }
  }
}
