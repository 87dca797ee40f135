// The front's prepared answers to the handshake and the list of tools: byte for byte what the
// MCP SDK answers for the same request, with each request's own id, for clients of both eras.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { StreamableHTTPClientTransport, Client } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { pino } from 'pino';
import { answerToolsListFrom, catalogueMcpServer } from '../catalogue/catalogue-server.ts';
import { catalogueFor, type Catalogue } from '../catalogue/catalogue.ts';
import type { Access } from '../repo-host/person.ts';
import { createMetrics } from '../operations/metrics.ts';
import { withOperations } from '../operations/with-operations.ts';
import { allTools } from '../tools/all-tools.ts';
import { createFront, listenFront, type Front, type ListeningFront } from './http-front.ts';

const person = { login: 'ada', name: 'Ada', email: 'ada@example.com' };
const handbook = { name: 'handbook', summary: 'The handbook.', instructions: 'Cite the page.' };
const plans = { name: 'plans', summary: null, instructions: 'Plans are drafts.' };

/** One request the front answered from the catalogue, as sent and as answered. */
interface Exchange {
  method: string;
  headers: Headers;
  body: string;
  status: number;
  contentType: string | null;
  answer: string;
}

describe('prepared answers', () => {
  let front: Front;
  let listening: ListeningFront;
  /** What the caller reads now: changing it changes the catalogue the front answers from. */
  let read = ['handbook'];
  const exchanges: Exchange[] = [];

  beforeAll(async () => {
    front = createFront({
      name: 'acme',
      signIn: { requiresToken: false, authenticate: async (): Promise<Access> => ({ person, read: new Set(read), write: new Set() }) },
      allowedHostnames: [],
      catalogue: async (access) =>
        catalogueFor(
          allTools,
          [handbook, plans].filter((repo) => access.read.has(repo.name)),
        ),
      forward: async () => new Response('not forwarded here', { status: 500 }),
    });
    listening = await listenFront(front, { port: 0, hostname: '127.0.0.1', log: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await listening?.close();
  });

  /** A fetch that records each catalogue request and its answer. */
  const recording = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    const body = typeof init?.body === 'string' ? init.body : '';
    const method = body === '' ? '' : String((JSON.parse(body) as { method?: unknown }).method);
    if (!['initialize', 'tools/list', 'server/discover'].includes(method)) return response;
    const answer = await response.text();
    exchanges.push({
      method,
      headers: new Headers(init?.headers),
      body,
      status: response.status,
      contentType: response.headers.get('content-type'),
      answer,
    });
    return new Response(answer, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** What the SDK's own stateless handler answers to `exchange`'s request for `catalogue`. */
  const sdkAnswer = async (exchange: Exchange, catalogue: Catalogue) => {
    const handler = createMcpHandler(() => {
      const server = catalogueMcpServer(catalogue);
      answerToolsListFrom(server, catalogue);
      return server;
    });
    const response = await handler.fetch(
      new Request(new URL('/acme', listening.origin), { method: 'POST', headers: exchange.headers, body: exchange.body }),
    );
    const answer = { status: response.status, contentType: response.headers.get('content-type'), answer: await response.text() };
    await handler.close();
    return answer;
  };

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`answers as the SDK does, with each request's id (${era})`, async () => {
      exchanges.length = 0;
      read = ['handbook'];
      for (let session = 0; session < 2; session++) {
        const client = new Client(
          { name: `prepared-${era}`, version: '1.0.0' },
          era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : { supportedProtocolVersions: [era] },
        );
        await client.connect(new StreamableHTTPClientTransport(new URL('/acme', listening.origin), { fetch: recording }));
        expect(client.getInstructions()).toContain('Cite the page.');
        for (let list = 0; list < 2; list++) {
          const { tools } = await client.listTools();
          expect(JSON.stringify(tools)).toContain('handbook');
          expect(JSON.stringify(tools)).not.toContain('plans');
        }
        await client.close();
      }
      // Two sessions (a 2026-07-28 client keeps the list for its ttlMs within one): prepared, then answered from the prepared bytes.
      expect(exchanges.filter((exchange) => exchange.method === 'tools/list').length).toBeGreaterThanOrEqual(2);
      const catalogue = catalogueFor(allTools, [handbook]);
      for (const exchange of exchanges) {
        expect({ status: exchange.status, contentType: exchange.contentType, answer: exchange.answer }).toEqual(
          await sdkAnswer(exchange, catalogue),
        );
      }
    });
  }

  test('answers another catalogue when the caller reads other repositories, and any id as the SDK does', async () => {
    const post = async (id: unknown) => {
      const response = await fetch(new URL('/acme', listening.origin), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }),
      });
      return { status: response.status, text: await response.text() };
    };
    read = ['handbook'];
    const before = await post(7);
    expect(before.text).toContain('"id":7');
    expect(before.text).not.toContain('plans');
    read = ['handbook', 'plans'];
    // Who the caller is, kept a few seconds, is asked again: their new rights give another catalogue.
    front.forgetAccess();
    for (const id of ['a"b\nc', 8, 0]) {
      const answer = await post(id);
      expect(answer.status).toBe(200);
      const data = answer.text.split('\n').find((line) => line.startsWith('data: '))!;
      expect(JSON.parse(data.slice('data: '.length))).toMatchObject({ id, result: { tools: expect.any(Array) } });
      expect(answer.text).toContain('plans');
    }
    // An id the SDK refuses is refused as it refuses it.
    const refused = await post({ not: 'an id' });
    expect(refused.status).toBe(400);
  });
  test('counts a prepared answer in the metrics as the answer it is', async () => {
    const metrics = createMetrics({ component: 'front', defaultMetrics: false });
    const operations = withOperations((request) => front.fetch(request), { metrics, installationOf: () => 'acme' });
    const post = (id: number, method: string) =>
      operations.fetch(
        new Request(new URL('/acme', listening.origin), {
          method: 'POST',
          headers: {
            host: listening.origin.host,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }),
        }),
      );
    for (let id = 1; id <= 3; id++) expect(await (await post(id, 'tools/list')).text()).toContain(`"id":${id}`);
    // A method the catalogue's server does not know: a JSON-RPC error, counted as one.
    expect(await (await post(4, 'server/discover')).text()).toContain('"error"');
    const counted = async (outcome: string, method: string) => {
      const { values } = await metrics.registry.getSingleMetric('major_vault_mcp_requests_total')!.get();
      return values
        .filter((value) => value.labels['outcome'] === outcome && value.labels['method'] === method)
        .reduce((sum, value) => sum + value.value, 0);
    };
    expect(await counted('ok', 'tools/list')).toBe(3);
    expect(await counted('rpc_error', 'server/discover')).toBe(1);
  });
});
