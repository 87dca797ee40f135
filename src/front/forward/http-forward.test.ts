// The HTTP forward to an instance: what goes over, what comes back (an SSE stream as it is
// written), and a 503 that says so when the instance cannot be reached.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Caller } from '../http-front.ts';
import { httpForward } from './http-forward.ts';
import { InstanceEndedEarly, type InstanceKey, type InstanceLocator } from './instance-locator.ts';

const caller: Caller = {
  access: { person: { login: 'ada', name: 'Ada', email: 'ada@example.com' }, read: new Set(), write: new Set() },
  token: 't',
  clientName: null,
};
const installation: InstanceKey = { id: 1, name: 'acme' };

/** An origin where nothing listens: a port taken, then let go. */
async function closedOrigin(): Promise<URL> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return new URL(`http://127.0.0.1:${port}`);
}

/** A locator answering `origins` in turn, recording what it was told. */
function locator(origins: URL[]): InstanceLocator & { unreachableSeen: string[] } {
  const unreachableSeen: string[] = [];
  let next = 0;
  return {
    unreachableSeen,
    locate: async () => origins[Math.min(next++, origins.length - 1)]!,
    unreachable: (_, origin) => void unreachableSeen.push(origin.href),
    close: async () => undefined,
  };
}

describe('httpForward', () => {
  let server: Server;
  let origin: URL;
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
        response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
        response.write('event: message\ndata: {"first":true}\n\n');
        // The second event only after the first reached the front.
        setTimeout(() => response.end('event: message\ndata: {"second":true}\n\n'), 200);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('sends the method, the MCP headers, the token and the body, and streams the answer back', async () => {
    const forward = httpForward({ installation, instances: locator([origin]) });
    const answer = await forward(
      new Request('http://front.example/acme', {
        method: 'POST',
        headers: {
          authorization: 'Bearer sealed',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'mcp-session-id': 'abc',
          origin: 'https://page.example',
          cookie: 'x=1',
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
      }),
      caller,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(answer.headers.get('mcp-session-id')).toBe('s1');
    const reader = answer.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"first":true');
    expect(first).not.toContain('second');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toContain('"second":true');

    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/acme');
    expect(request.body).toBe('{"jsonrpc":"2.0","id":1,"method":"tools/call"}');
    expect(request.headers['authorization']).toBe('Bearer sealed');
    expect(request.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(request.headers['mcp-session-id']).toBe('abc');
    expect(request.headers['origin']).toBeUndefined();
    expect(request.headers['cookie']).toBeUndefined();
    expect(request.headers['host']).toBe(origin.host);
  });

  test('a refused connection is told to the locator and sent once more, to the instance started next', async () => {
    const gone = await closedOrigin();
    const instances = locator([gone, origin]);
    const answer = await httpForward({ installation, instances })(
      new Request('http://front.example/acme', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }),
      caller,
    );
    expect(answer.status).toBe(200);
    await answer.text();
    expect(instances.unreachableSeen).toEqual([gone.href]);
  });

  test('an instance that cannot be reached or started is a 503 with Retry-After and a JSON-RPC error', async () => {
    const gone = await closedOrigin();
    const refused = await httpForward({ installation, instances: locator([gone]) })(
      new Request('http://front.example/acme', { method: 'POST', body: '{}' }),
      caller,
    );
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'The server of acme cannot be reached right now (it may be starting); try again in 5 seconds.' },
      id: null,
    });
    const failing: InstanceLocator = {
      locate: async () => {
        throw new Error('no room');
      },
      unreachable: () => undefined,
      close: async () => undefined,
    };
    const notStarted = await httpForward({ installation, instances: failing })(
      new Request('http://front.example/acme', { method: 'POST', body: '{}' }),
      caller,
    );
    expect(notStarted.status).toBe(503);
  });

  test('an instance that ended while starting is started once more for the request; twice is a 503', async () => {
    const endingTimes = (times: number): InstanceLocator & { asked: number } => {
      const instances = {
        asked: 0,
        locate: async () => {
          instances.asked += 1;
          if (instances.asked <= times) throw new InstanceEndedEarly('The instance of acme stopped before it listened (exit code 13).');
          return origin;
        },
        unreachable: () => undefined,
        close: async () => undefined,
      };
      return instances;
    };
    const post = () =>
      new Request('http://front.example/acme', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    const once = endingTimes(1);
    const answer = await httpForward({ installation, instances: once })(post(), caller);
    expect(answer.status).toBe(200);
    await answer.text();
    expect(once.asked).toBe(2);
    const twice = endingTimes(2);
    const refused = await httpForward({ installation, instances: twice })(post(), caller);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(twice.asked).toBe(2);
  });

  test('an instance that stops after taking the request is a 502 saying the call may have landed, not sent again', async () => {
    let taken = 0;
    // Takes the request, then drops the connection without answering (a process killed mid-write).
    const dying = createServer((request) => {
      taken += 1;
      request.on('data', () => undefined);
      request.on('end', () => request.socket.destroy());
    });
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await httpForward({
        installation,
        instances: locator([new URL(`http://127.0.0.1:${(dying.address() as AddressInfo).port}`)]),
      })(new Request('http://front.example/acme', { method: 'POST', body: '{"method":"tools/call"}' }), caller);
      expect(answer.status).toBe(502);
      expect(answer.headers.get('retry-after')).toBeNull();
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/may or may not have taken effect/);
      expect(taken).toBe(1);
    } finally {
      await new Promise<void>((resolve) => dying.close(() => resolve()));
    }
  });
});
