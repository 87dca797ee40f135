// Fetching Client ID Metadata Documents: real HTTP servers on 127.0.0.1 (with allowLoopback), and
// the SSRF refusals, which are decided before any connection (no traffic leaves loopback).
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { clientMetadataDocuments, isClientIdUrl } from './client-id-metadata-document.ts';
import { isOAuthError, type OAuthError } from './oauth-error.ts';
import { capturedLog } from '../../../test/support/captured-log.ts';

/** A server on 127.0.0.1 that counts its requests; closed after each test. */
interface TestServer {
  origin: string;
  requests: number;
  server: http.Server;
}

const servers: TestServer[] = [];
afterEach(async () => {
  for (const { server } of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (request: http.IncomingMessage, response: http.ServerResponse, origin: string) => void): Promise<TestServer> {
  const state: TestServer = { origin: '', requests: 0, server: http.createServer() };
  state.server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    state.requests++;
    handler(request, response, state.origin);
  });
  state.server.listen(0, '127.0.0.1');
  await once(state.server, 'listening');
  state.origin = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  servers.push(state);
  return state;
}

/** Answers every request with the document `body(clientId)` and `headers`. */
function document(body: (clientId: string) => unknown, headers: Record<string, string> = {}) {
  return (request: http.IncomingMessage, response: http.ServerResponse, origin: string) => {
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body(`${origin}${request.url}`)));
  };
}

const goodDocument = (clientId: string) => ({
  client_id: clientId,
  client_name: 'Example MCP Client',
  client_uri: 'https://app.example/',
  redirect_uris: ['http://127.0.0.1/callback', 'http://localhost/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
});

async function refusal(promise: Promise<unknown>, code: OAuthError['code'] = 'invalid_client'): Promise<OAuthError> {
  try {
    await promise;
  } catch (error) {
    if (isOAuthError(error)) {
      expect(error.code).toBe(code);
      expect(error.description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
      return error;
    }
    throw error;
  }
  throw new Error('expected an OAuthError, got none');
}

describe('isClientIdUrl', () => {
  test.each([
    ['https://app.example/client.json', true],
    ['https://app.example:8443/oauth/client-metadata.json', true],
    ['https://app.example/client?version=2', true],
    ['https://app.example', false],
    ['https://app.example/', false],
    ['https://app.example/?x=1', false],
    ['http://app.example/client.json', false],
    ['http://127.0.0.1:8080/client.json', false],
    ['https://app.example/client.json#me', false],
    ['https://me@app.example/client.json', false],
    ['https://me:pw@app.example/client.json', false],
    ['https://app.example/a/../client.json', false],
    ['https://app.example/./client.json', false],
    ['https://app.example/a/%2e%2E/client.json', false],
    ['https://app.example/a/.%2e/client.json', false],
    ['https://app.example/client json', false],
    ['ftp://app.example/client.json', false],
    ['my-registered-client-id', false],
    ['', false],
  ])('%s: %s', (clientId, expected) => {
    expect(isClientIdUrl(clientId)).toBe(expected);
  });

  test('http: on loopback only with allowLoopback', () => {
    expect(isClientIdUrl('http://127.0.0.1:8080/client.json', { allowLoopback: true })).toBe(true);
    expect(isClientIdUrl('http://localhost:8080/client.json', { allowLoopback: true })).toBe(true);
    expect(isClientIdUrl('http://[::1]:8080/client.json', { allowLoopback: true })).toBe(true);
    expect(isClientIdUrl('http://10.0.0.1/client.json', { allowLoopback: true })).toBe(false);
    expect(isClientIdUrl('http://app.example/client.json', { allowLoopback: true })).toBe(false);
  });
});

describe('clientMetadataDocuments against a real server', () => {
  test('names a failed connection by its kind only, and logs the detail at debug', async () => {
    const captured = capturedLog();
    const documents = clientMetadataDocuments({ allowLoopback: true, failureTtlMs: 0, log: captured.log });
    // Nothing listens on port 1 of the loopback interface.
    const refused = await refusal(documents.fetch('http://127.0.0.1:1/client.json'));
    expect(refused.description).toContain('could not be fetched: the connection failed.');
    expect(refused.description).not.toMatch(/ECONN|127\.0\.0\.1:1\b[^/]/);
    const overflow = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-big': 'a'.repeat(16_000) });
      response.end('{}');
    });
    const invalid = await refusal(documents.fetch(`${overflow.origin}/client.json`));
    expect(invalid.description).toContain('the answer was not valid HTTP');
    expect(invalid.description).not.toContain('Header overflow');
    expect(captured.lines.filter((line) => line['level'] === 20).map((line) => JSON.stringify(line['err']))).toEqual([
      expect.stringContaining('ECONNREFUSED'),
      expect.stringMatching(/overflow/i),
    ]);
  });

  test('fetches at most maxConcurrentFetches documents at once; beyond, temporarily_unavailable', async () => {
    const held: http.ServerResponse[] = [];
    let holding = true;
    const server = await serve((_request, response) => {
      if (holding) return void held.push(response);
      response.writeHead(404);
      response.end();
    });
    const documents = clientMetadataDocuments({ allowLoopback: true, failureTtlMs: 0 });
    const pending = Array.from({ length: 8 }, (_, index) =>
      documents.fetch(`${server.origin}/client.json?${index}`).catch((error: unknown) => error),
    );
    while (held.length < 8) await new Promise((resolve) => setTimeout(resolve, 10));
    const ninth = await refusal(documents.fetch(`${server.origin}/client.json?9`), 'temporarily_unavailable');
    expect(ninth.description).toContain('try again');
    holding = false;
    for (const response of held) {
      response.writeHead(404);
      response.end();
    }
    await Promise.all(pending);
    expect((await refusal(documents.fetch(`${server.origin}/client.json?9`))).description).toContain('answered HTTP 404');
  });

  test('accepts a document with many redirect URIs: its client_id is its URL, small whatever the document holds', async () => {
    const uris = Array.from({ length: 20 }, (_, index) => `http://127.0.0.1/callback/${index}/${'a'.repeat(150)}`);
    const server = await serve(document((clientId) => ({ ...goodDocument(clientId), redirect_uris: uris })));
    const clientId = `${server.origin}/oauth/client.json`;
    const metadata = await clientMetadataDocuments({ allowLoopback: true }).fetch(clientId);
    expect(metadata.redirect_uris).toEqual(uris);
  });

  test('fetches and checks a good document', async () => {
    const server = await serve(document(goodDocument));
    const clientId = `${server.origin}/oauth/client.json`;
    const metadata = await clientMetadataDocuments({ allowLoopback: true }).fetch(clientId);
    expect(metadata).toEqual({
      client_id: clientId,
      client_name: 'Example MCP Client',
      client_uri: 'https://app.example/',
      logo_uri: null,
      redirect_uris: ['http://127.0.0.1/callback', 'http://localhost/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: null,
      software_id: null,
      software_version: null,
    });
  });

  test('resolves a host name and connects to its vetted address (localhost, with the Host header kept)', async () => {
    let host: string | undefined;
    const server = await serve((request, response, origin) => {
      host = request.headers.host;
      document(goodDocument)(request, response, origin.replace('127.0.0.1', 'localhost'));
    });
    const clientId = `${server.origin.replace('127.0.0.1', 'localhost')}/client.json`;
    const metadata = await clientMetadataDocuments({ allowLoopback: true }).fetch(clientId);
    expect(metadata.client_id).toBe(clientId);
    expect(host).toBe(new URL(clientId).host);
  });

  test('accepts application/*+json and a charset', async () => {
    const server = await serve(document(goodDocument, { 'content-type': 'application/client-metadata+json; charset=utf-8' }));
    const metadata = await clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`);
    expect(metadata.client_name).toBe('Example MCP Client');
  });

  test('refuses a document whose client_id differs from its URL', async () => {
    const server = await serve(document((clientId) => ({ ...goodDocument(clientId), client_id: `${clientId}/` })));
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('must be the URL of the document itself');
    expect(error.description).toContain(`'${server.origin}/client.json/'`);
  });

  test('refuses a document whose client_id is another client', async () => {
    const server = await serve(document((clientId) => ({ ...goodDocument(clientId), client_id: 'https://claude.ai/oauth/mcp.json' })));
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain("names the client_id 'https://claude.ai/oauth/mcp.json'");
  });

  test('refuses a document that breaks the metadata rules, and says which', async () => {
    const server = await serve(
      document((clientId) => ({
        ...goodDocument(clientId),
        redirect_uris: ['javascript:alert(1)'],
        token_endpoint_auth_method: 'client_secret_post',
      })),
    );
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('is not accepted');
    expect(error.description).toContain('scheme javascript:');
    expect(error.description).toContain('client_secret_post needs a shared secret');
  });

  test('refuses what is not JSON', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"client_id": ');
    });
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('is not valid JSON');
  });

  test('refuses a 10 MB answer as soon as it passes the limit, closing the connection', async () => {
    let written = 0;
    let finished = false;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.on('close', () => closed());
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const write = () => {
        while (written < 10 * 1024 * 1024) {
          if (response.destroyed) return;
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', write);
        }
        response.end(() => (finished = true));
      };
      write();
    });
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('is larger than 5120 bytes');
    await connectionClosed;
    expect(finished).toBe(false);
    expect(written).toBeLessThan(10 * 1024 * 1024);
  });

  test('refuses a Content-Length over the limit without reading the body', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      response.on('close', () => closed());
      response.write('{"client_id": "');
      // The rest never comes: only a refusal on the header can end this fetch before the timeout.
    });
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true, timeoutMs: 60_000 }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('is larger than 5120 bytes');
    await connectionClosed;
  });

  test('honours a smaller maxBytes', async () => {
    const server = await serve(document(goodDocument));
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true, maxBytes: 100 }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('is larger than 100 bytes');
  });

  test('gives up on a slow server', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"client_id": ');
      // …and nothing more.
    });
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true, timeoutMs: 200 }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('did not answer within 0.2 s');
  });

  test('gives up on a server that never sends headers', async () => {
    const server = await serve(() => {});
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true, timeoutMs: 200 }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('did not answer within 0.2 s');
  });

  test('does not follow a redirect', async () => {
    const target = await serve(document(goodDocument));
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: `${target.origin}/client.json` });
      response.end();
    });
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain(`answered with a redirect (HTTP 302 to '${target.origin}/client.json')`);
    expect(error.description).toContain('redirects are not followed');
    expect(target.requests).toBe(0);
  });

  test('refuses an error status', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{}');
    });
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('answered HTTP 404');
  });

  test.each(['text/html', 'text/plain', 'application/javascript', 'application/jsonp', ''])('refuses the content type %j', async (type) => {
    const server = await serve((request, response, origin) => {
      response.writeHead(200, type === '' ? {} : { 'content-type': type });
      response.end(JSON.stringify(goodDocument(`${origin}${request.url}`)));
    });
    const error = await refusal(clientMetadataDocuments({ allowLoopback: true }).fetch(`${server.origin}/client.json`));
    expect(error.description).toContain('it must be application/json');
  });

  describe('caching', () => {
    test('a second fetch is served from the cache', async () => {
      const server = await serve(document(goodDocument, { 'cache-control': 'public, max-age=600' }));
      const documents = clientMetadataDocuments({ allowLoopback: true });
      const first = await documents.fetch(`${server.origin}/client.json`);
      const second = await documents.fetch(`${server.origin}/client.json`);
      expect(second).toEqual(first);
      expect(server.requests).toBe(1);
    });

    test('without caching headers the default lifetime applies', async () => {
      const server = await serve(document(goodDocument));
      const documents = clientMetadataDocuments({ allowLoopback: true });
      await documents.fetch(`${server.origin}/client.json`);
      await documents.fetch(`${server.origin}/client.json`);
      expect(server.requests).toBe(1);
    });

    test.each(['no-store', 'no-cache', 'max-age=0', 'private, no-store, max-age=600'])(
      'Cache-Control %j: fetched every time',
      async (cacheControl) => {
        const server = await serve(document(goodDocument, { 'cache-control': cacheControl }));
        const documents = clientMetadataDocuments({ allowLoopback: true });
        await documents.fetch(`${server.origin}/client.json`);
        await documents.fetch(`${server.origin}/client.json`);
        expect(server.requests).toBe(2);
      },
    );

    test('an Expires in the past is not cached', async () => {
      const server = await serve(document(goodDocument, { expires: 'Thu, 01 Jan 1970 00:00:00 GMT' }));
      const documents = clientMetadataDocuments({ allowLoopback: true });
      await documents.fetch(`${server.origin}/client.json`);
      await documents.fetch(`${server.origin}/client.json`);
      expect(server.requests).toBe(2);
    });

    test('concurrent fetches of one URL share one request', async () => {
      const server = await serve(document(goodDocument, { 'cache-control': 'no-store' }));
      const documents = clientMetadataDocuments({ allowLoopback: true });
      await Promise.all([1, 2, 3].map(() => documents.fetch(`${server.origin}/client.json`)));
      expect(server.requests).toBe(1);
    });

    test('a failed fetch is answered from memory for a while, so a hostile URL cannot make the server fetch in a loop', async () => {
      const server = await serve((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<h1>hello</h1>');
      });
      const documents = clientMetadataDocuments({ allowLoopback: true });
      const first = await refusal(documents.fetch(`${server.origin}/client.json`));
      const second = await refusal(documents.fetch(`${server.origin}/client.json`));
      expect(first.description).toContain('kept 30 s before the URL is fetched again');
      expect(second.description).toBe(first.description);
      expect(server.requests).toBe(1);
    });

    test('with failureTtlMs 0 a failed fetch is tried again', async () => {
      const server = await serve((_request, response) => {
        response.writeHead(500);
        response.end();
      });
      const documents = clientMetadataDocuments({ allowLoopback: true, failureTtlMs: 0 });
      const first = await refusal(documents.fetch(`${server.origin}/client.json`));
      expect(first.description).not.toContain('kept');
      await refusal(documents.fetch(`${server.origin}/client.json`));
      expect(server.requests).toBe(2);
    });

    test('maxEntries bounds the cache', async () => {
      const server = await serve(document(goodDocument, { 'cache-control': 'max-age=600' }));
      const documents = clientMetadataDocuments({ allowLoopback: true, maxEntries: 1 });
      await documents.fetch(`${server.origin}/a.json`);
      await documents.fetch(`${server.origin}/b.json`);
      await documents.fetch(`${server.origin}/a.json`);
      expect(server.requests).toBe(3);
    });
  });
});

describe('SSRF: refused before any connection', () => {
  // No server listens for these, and none is needed: each is refused from the URL or from
  // the resolved address, before a socket is opened. Nothing is sent beyond loopback.
  const documents = clientMetadataDocuments();

  test.each([
    ['http://127.0.0.1/client.json', 'must use https:'],
    ['http://app.example/client.json', 'must use https:'],
    ['https://localhost/client.json', "host 'localhost' resolves to"],
    ['https://10.0.0.1/client.json', '10.0.0.1 is a private address'],
    ['https://172.16.5.4/client.json', 'is a private address'],
    ['https://192.168.0.1/client.json', 'is a private address'],
    ['https://127.0.0.1/client.json', '127.0.0.1 is a loopback address'],
    ['https://127.1/client.json', '127.0.0.1 is a loopback address'],
    ['https://2130706433/client.json', '127.0.0.1 is a loopback address'],
    ['https://0x7f000001/client.json', '127.0.0.1 is a loopback address'],
    ['https://[::1]/client.json', '::1 is a loopback address'],
    ['https://[::ffff:127.0.0.1]/client.json', 'is a form of 127.0.0.1, a loopback address'],
    ['https://[::ffff:10.1.2.3]/client.json', 'is a form of 10.1.2.3, a private address'],
    ['https://[64:ff9b::a9fe:a9fe]/client.json', 'is a form of 169.254.169.254, a link-local address'],
    ['https://[2002:c0a8:0101::1]/client.json', 'is a form of 192.168.1.1, a private address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['https://[fe80::1]/client.json', 'is a link-local address'],
    ['https://[fd00:ec2::254]/client.json', 'is a unique-local (private) address'],
    ['https://100.64.0.1/client.json', 'is a carrier-grade NAT address'],
    ['https://0.0.0.0/client.json', 'is the unspecified address'],
    ['https://[::]/client.json', 'is the unspecified address'],
    ['https://255.255.255.255/client.json', 'is the broadcast address'],
    ['https://224.0.0.1/client.json', 'is a multicast address'],
    ['https://192.0.2.10/client.json', 'is a reserved or documentation address'],
    ['https://198.18.0.1/client.json', 'is a reserved or documentation address'],
    ['https://[2001:db8::1]/client.json', 'is a reserved or documentation address'],
  ])('%s', async (clientId, says) => {
    const error = await refusal(documents.fetch(clientId));
    expect(error.description).toContain(says);
    if (!says.startsWith('must use')) expect(error.description).toContain('fetched only from public addresses');
  });

  test('allowLoopback admits loopback, nothing else', async () => {
    const loopbackOnly = clientMetadataDocuments({ allowLoopback: true });
    for (const clientId of ['https://10.0.0.1/client.json', 'https://169.254.169.254/latest/meta-data', 'https://[fd00::1]/client.json'])
      expect((await refusal(loopbackOnly.fetch(clientId))).description).toContain('fetched only from public addresses');
    expect((await refusal(loopbackOnly.fetch('http://10.0.0.1/client.json'))).description).toContain('must use https:');
  });

  test('a URL that is not a client id URL is refused with the rule it breaks', async () => {
    const error = await refusal(documents.fetch('https://app.example/a/../client.json'));
    expect(error.description).toContain('must not contain . or .. path segments');
    expect((await refusal(documents.fetch('https://app.example'))).description).toContain('must have a path');
    expect((await refusal(documents.fetch('https://u@app.example/c.json'))).description).toContain('user name or password');
    expect((await refusal(documents.fetch('https://app.example/c.json#x'))).description).toContain('fragment');
  });
});
