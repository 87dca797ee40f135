// The front answers the handshake and the list of tools from the catalogue alone (DESIGN.md
// "How one call travels", step 4), and forwards every other call with the checked caller.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { catalogueFor } from '../catalogue/catalogue.ts';
import type { Access } from '../repo-host/person.ts';
import type { SignIn } from '../repo-host/sign-in.ts';
import { allTools } from '../tools/all-tools.ts';
import { VaultError } from '../vault-error.ts';
import { connectHttp } from '../../test/e2e/demo-fixture.ts';
import { createFront, createRoutingFront, listenFront, type Caller, type ListeningFront } from './http-front.ts';

const person = { login: 'ada', name: 'Ada', email: 'ada@example.com' };
const access: Access = { person, read: new Set(['handbook']), write: new Set(['handbook']) };
/** One person, no token needed: the local adapter's sign-in without a users file. */
const signIn: SignIn = { requiresToken: false, authenticate: async () => access };

describe('the front', () => {
  const forwarded: Array<{ method: unknown; caller: Caller }> = [];
  let listening: ListeningFront;

  beforeAll(async () => {
    const front = createFront({
      name: 'acme',
      signIn,
      allowedHostnames: [],
      catalogue: async (caller) =>
        catalogueFor(
          allTools,
          [...caller.read].map((name) => ({ name, summary: 'The handbook.', instructions: 'Cite the page.' })),
        ),
      forward: async (request, caller) => {
        const body = (await request.json()) as { method?: unknown; id?: unknown };
        forwarded.push({ method: body.method, caller });
        return Response.json({
          jsonrpc: '2.0',
          id: body.id,
          result: { resultType: 'complete', content: [{ type: 'text', text: 'from the instance' }], isError: true },
        });
      },
    });
    listening = await listenFront(front, { port: 0, hostname: '127.0.0.1', log: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await listening?.close();
  });

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`answers initialize and tools/list from the catalogue, and forwards a tool call (${era})`, async () => {
      forwarded.length = 0;
      const client: Client = await connectHttp(new URL('/acme', listening.origin), era, { name: 'front-test' });
      try {
        expect(client.getInstructions()).toContain('## handbook');
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(allTools.map((tool) => tool.name));
        expect(JSON.stringify(tools[0]!.inputSchema)).toContain('handbook');
        expect(forwarded).toEqual([]);

        const result = await client.callTool({ name: 'read_note', arguments: { repo: 'handbook', path: 'a.md' } });
        expect(result.content).toEqual([{ type: 'text', text: 'from the instance' }]);
        expect(forwarded.map((call) => call.method)).toEqual(['tools/call']);
        expect(forwarded[0]!.caller.access.person.login).toBe('ada');
      } finally {
        await client.close();
      }
    });
  }
});

describe('the front when the host cannot say who is calling', () => {
  test('answers 503 with what failed and when to retry, not an internal error', async () => {
    const front = createFront({
      name: 'acme',
      signIn: {
        requiresToken: true,
        authenticate: async () => {
          throw new VaultError('host_unavailable', 'Could not check your GitHub sign-in: GitHub answered 502. Try again in a minute.');
        },
      },
      allowedHostnames: [],
      catalogue: async () => catalogueFor(allTools, []),
      forward: async () => new Response(null, { status: 500 }),
    });
    const response = await front.fetch(
      new Request('http://127.0.0.1/acme', {
        method: 'POST',
        headers: {
          host: '127.0.0.1',
          authorization: 'Bearer ghu_someone',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Could not check your GitHub sign-in: GitHub answered 502. Try again in a minute.' },
      id: null,
    });
  });
});

describe('the front behind a TLS proxy', () => {
  const tokenSignIn: SignIn = { requiresToken: true, authenticate: async () => null };

  test('answers a request on the public host with addresses on the public origin', async () => {
    const front = createFront({
      name: 'acme',
      signIn: tokenSignIn,
      allowedHostnames: ['vault.acme.example'],
      publicOrigin: new URL('https://vault.acme.example'),
      catalogue: async () => catalogueFor(allTools, []),
      forward: async () => new Response(null, { status: 500 }),
    });
    // The proxy speaks plain HTTP to the front, so the request's own URL says http:.
    const onPublic = await front.fetch(
      new Request('http://vault.acme.example/.well-known/oauth-protected-resource/acme', { headers: { host: 'vault.acme.example' } }),
    );
    expect(((await onPublic.json()) as { resource: string }).resource).toBe('https://vault.acme.example/acme');
    const challenge = await front.fetch(
      new Request('http://vault.acme.example/acme', { method: 'POST', body: '{}', headers: { host: 'vault.acme.example' } }),
    );
    expect(challenge.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://vault.acme.example/.well-known/oauth-protected-resource/acme"',
    );
    // Reached directly on loopback, the front names its own origin.
    const direct = await front.fetch(
      new Request('http://127.0.0.1:8787/.well-known/oauth-protected-resource/acme', { headers: { host: '127.0.0.1:8787' } }),
    );
    expect(((await direct.json()) as { resource: string }).resource).toBe('http://127.0.0.1:8787/acme');
    await front.close();
  });

  test('answers a CORS preflight on the protected-resource metadata: any origin, GET, and the headers asked for', async () => {
    const front = createFront({
      name: 'acme',
      signIn: tokenSignIn,
      allowedHostnames: ['vault.acme.example'],
      publicOrigin: new URL('https://vault.acme.example'),
      catalogue: async () => catalogueFor(allTools, []),
      forward: async () => new Response(null, { status: 500 }),
    });
    const preflight = await front.fetch(
      new Request('http://vault.acme.example/.well-known/oauth-protected-resource/acme', {
        method: 'OPTIONS',
        headers: {
          host: 'vault.acme.example',
          origin: 'https://inspector.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'MCP-Protocol-Version, X-Custom',
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version, x-custom');
    // Without requested headers, mcp-protocol-version is still allowed.
    const bare = await front.fetch(
      new Request('http://vault.acme.example/.well-known/oauth-protected-resource/acme', {
        method: 'OPTIONS',
        headers: { host: 'vault.acme.example', origin: 'https://inspector.example' },
      }),
    );
    expect(bare.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
    const post = await front.fetch(
      new Request('http://vault.acme.example/.well-known/oauth-protected-resource/acme', {
        method: 'POST',
        headers: { host: 'vault.acme.example' },
      }),
    );
    expect(post.status).toBe(405);
    await front.close();
  });
});

describe('a front routing many installations', () => {
  /** Each installation knows its own token only, as a sealed token's audience makes it. */
  const signInFor = (token: string, read: string): SignIn => ({
    requiresToken: true,
    authenticate: async (given) => (given === token ? { person, read: new Set([read]), write: new Set() } : null),
  });
  const forwarded: string[] = [];
  /** When acme's catalogue answers were sent, in the order of the events around them. */
  const events: string[] = [];
  const addresses = new Map(
    [
      { name: 'acme', token: 'acme-token', repo: 'handbook', stored: true },
      { name: 'globex', token: 'globex-token', repo: 'wiki', stored: false },
    ].map(({ name, token, repo, stored }) => [
      name,
      {
        name,
        signIn: signInFor(token, repo),
        // globex has nothing in the catalogue store yet: its handshake goes to the instance.
        catalogue: async (caller: Access) =>
          stored
            ? catalogueFor(
                allTools,
                [...caller.read].map((read) => ({ name: read, summary: null, instructions: null })),
              )
            : null,
        forward: async (request: Request) => {
          const body = (await request.json()) as { method?: string; id?: unknown };
          forwarded.push(`${name} ${body.method}`);
          return Response.json({ jsonrpc: '2.0', id: body.id, result: { tools: [] } });
        },
        catalogueAnswered: () => events.push(`${name} answered`),
      },
    ]),
  );
  const front = createRoutingFront({ addressFor: (name) => addresses.get(name) ?? null, allowedHostnames: [] });
  const post = (path: string, token: string, method: string) =>
    front.fetch(
      new Request(`http://127.0.0.1${path}`, {
        method: 'POST',
        headers: {
          host: '127.0.0.1',
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
      }),
    );
  afterAll(() => front.close());

  test("answers each address with its own catalogue, and refuses one installation's token at the other", async () => {
    const listed = await post('/acme', 'acme-token', 'tools/list');
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('handbook');
    expect((await post('/globex', 'acme-token', 'tools/list')).status).toBe(401);
    // Known at acme a moment ago (kept a few seconds), still refused at globex.
    expect((await post('/acme', 'globex-token', 'tools/list')).status).toBe(401);
  });

  test('says a catalogue answer was sent only once its body was read, and never for a forwarded call', async () => {
    await new Promise((resolve) => setImmediate(resolve)); // what the tests before sent
    events.length = 0;
    const listed = await post('/acme', 'acme-token', 'tools/list');
    await new Promise((resolve) => setImmediate(resolve));
    events.push('body read');
    expect(await listed.text()).toContain('handbook');
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['body read', 'acme answered']);

    events.length = 0;
    await (await post('/acme', 'acme-token', 'tools/call')).text();
    await (await post('/globex', 'globex-token', 'tools/list')).text();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
  });

  test('forwards the handshake of an installation whose catalogue is not stored yet', async () => {
    forwarded.length = 0;
    const answer = await post('/globex', 'globex-token', 'tools/list');
    expect(answer.status).toBe(200);
    expect(forwarded).toEqual(['globex tools/list']);
  });

  test('answers 404 for a name it does not serve, and for / with no one installation to send a browser to', async () => {
    const unknown = await post('/initech', 'acme-token', 'tools/list');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('http://127.0.0.1/<name>');
    expect((await front.fetch(new Request('http://127.0.0.1/', { headers: { host: '127.0.0.1' } }))).status).toBe(404);
    const metadata = await front.fetch(
      new Request('http://127.0.0.1/.well-known/oauth-protected-resource/globex', { headers: { host: '127.0.0.1' } }),
    );
    expect(((await metadata.json()) as { resource: string }).resource).toBe('http://127.0.0.1/globex');
  });
});

describe('closing a listening front', () => {
  let arrived: () => void = () => {};
  /** Resolves once the next request reached the front. */
  const arrival = () => new Promise<void>((resolve) => (arrived = resolve));
  /** A front whose every answer takes `ms` milliseconds. */
  const slow = (ms: number) => ({
    fetch: () => {
      arrived();
      return new Promise<Response>((resolve) => setTimeout(() => resolve(new Response('done')), ms));
    },
    forgetAccess: () => {},
    maxBodyBytes: () => undefined,
    close: async () => {},
  });

  test('lets a call in progress finish within the drain, and takes no new connection', async () => {
    const listening = await listenFront(slow(500), { port: 0, hostname: '127.0.0.1', log: pino({ level: 'silent' }) });
    const reached = arrival();
    const inProgress = fetch(new URL('/acme', listening.origin), { method: 'POST', body: '{}' });
    await reached;
    const closed = listening.close({ drainMs: 5000 });
    const answer = await inProgress;
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('done');
    await closed;
    await expect(fetch(new URL('/acme', listening.origin), { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  test('ends a call that outlasts the drain', async () => {
    const listening = await listenFront(slow(60_000), { port: 0, hostname: '127.0.0.1', log: pino({ level: 'silent' }) });
    const reached = arrival();
    const inProgress = fetch(new URL('/acme', listening.origin), { method: 'POST', body: '{}' });
    await reached;
    const started = Date.now();
    await listening.close({ drainMs: 200 });
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(inProgress).rejects.toThrow();
  });
});
