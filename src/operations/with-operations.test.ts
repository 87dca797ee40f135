// The operations in front of a real MCP handler on a real HTTP listener: probes, metrics, request
// ids in the answer and in the pino lines of the request, and every MCP call counted by outcome.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer, type McpHttpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capturedLog } from '../../test/support/captured-log.ts';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { toolError, toolResult } from '../instance/tool-result.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { VaultError } from '../vault-error.ts';
import { listenOperations, type OperationsListener } from './listen-operations.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { databaseCheck } from './readiness.ts';
import { currentRequestContext } from './request-context.ts';
import { withOperations, type OperationsHandler } from './with-operations.ts';

const toolNames = ['echo', 'refuse', 'explode', 'slow'];

/** An MCP server with tools that answer, refuse, fail and take their time, each logging one line, as the instance's tools do. */
function mcpServer(log: ReturnType<typeof capturedLog>['log']): McpServer {
  const server = new McpServer({ name: 'ops-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tool = (name: string, run: () => Promise<Record<string, unknown>>) =>
    server.registerTool(name, { description: name, inputSchema: z.object({}) }, async () => {
      log.info({ event: 'tool_ran', tool: name }, `${name} ran`);
      try {
        return toolResult(await run());
      } catch (error) {
        return toolError(error, log, { tool: name, durationMs: 0 });
      }
    });
  tool('echo', async () => ({ requestId: currentRequestContext()?.requestId ?? null }));
  tool('refuse', async () => {
    throw new VaultError('note_not_found', 'No note a.md in handbook; list_notes shows the notes.');
  });
  tool('explode', async () => {
    throw new Error('the index is on fire');
  });
  tool('slow', () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 3000)));
  return server;
}

/** The value of the counter series with these labels, 0 when absent. */
async function count(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name)!;
  const { values } = await metric.get();
  return values
    .filter((value) => Object.entries(labels).every(([key, expected]) => String(value.labels[key]) === expected))
    .reduce((sum, value) => sum + value.value, 0);
}

async function connect(url: URL, era: '2026-07-28' | '2025-11-25', headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client(
    { name: 'ops-test', version: '1.0.0' },
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : { supportedProtocolVersions: [era] },
  );
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

describe.each(['sse', 'json'] as const)('withOperations in front of an MCP handler answering %s', (responseMode) => {
  const captured = capturedLog();
  let sql: SqlClient;
  let metrics: Metrics;
  let mcp: McpHttpHandler;
  let operations: OperationsHandler;
  let listener: OperationsListener;
  let address: URL;

  beforeAll(async () => {
    sql = await openTestDatabase();
    metrics = createMetrics({ component: 'instance', defaultMetrics: false });
    mcp = createMcpHandler(() => mcpServer(captured.log), { responseMode, keepAliveMs: 0 });
    operations = withOperations((request) => mcp.fetch(request), {
      metrics,
      readiness: [databaseCheck(sql)],
      log: captured.log,
      installationOf: (url) => (url.pathname === '/acme' ? 'acme' : undefined),
      toolNames,
    });
    listener = await listenOperations(operations, { port: 0, hostname: '127.0.0.1' });
    address = new URL('/acme', listener.origin);
  });
  afterAll(async () => {
    await listener?.close();
    await mcp?.close();
    await sql?.close();
  });

  it('answers the probes and the metrics, with a request id, on every method they take', async () => {
    const health = await fetch(new URL('/healthz', listener.origin));
    expect([health.status, await health.json()]).toEqual([200, { status: 'alive' }]);
    expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const ready = await fetch(new URL('/readyz', listener.origin), { headers: { 'x-request-id': 'probe-1' } });
    expect(ready.status).toBe(200);
    expect(ready.headers.get('x-request-id')).toBe('probe-1');
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: { ok: true, durationMs: expect.any(Number) as number } } });
    const head = await fetch(new URL('/readyz', listener.origin), { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    const post = await fetch(new URL('/healthz', listener.origin), { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const scrape = await fetch(new URL('/metrics', listener.origin));
    expect(scrape.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await scrape.text()).toContain('# TYPE major_vault_mcp_requests_total counter');
  });

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    it(`counts every call by method, tool and outcome, and names the request in its answer and its log lines (${era})`, async () => {
      const before = async (labels: Record<string, string>) => count(metrics, 'major_vault_mcp_requests_total', labels);
      const ok = await before({ method: 'tools/call', tool: 'echo', outcome: 'ok' });
      const refused = await before({ method: 'tools/call', tool: 'refuse', outcome: 'refused' });
      const failed = await before({ method: 'tools/call', tool: 'explode', outcome: 'error' });
      const listed = await before({ method: 'tools/list', tool: '', outcome: 'ok' });
      const other = await before({ method: 'tools/call', tool: 'other' });
      const toolFailures = await count(metrics, 'major_vault_mcp_errors_total', { tool: 'explode', reason: 'tool_failed' });
      captured.lines.length = 0;

      const requestId = `call-${era}`;
      const client = await connect(address, era, { 'x-request-id': requestId });
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(toolNames);
        const echoed = await client.callTool({ name: 'echo', arguments: {} });
        expect(echoed.structuredContent).toEqual({ requestId });
        expect((await client.callTool({ name: 'refuse', arguments: {} })).isError).toBe(true);
        expect((await client.callTool({ name: 'explode', arguments: {} })).isError).toBe(true);
        await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).resolves.toMatchObject({ isError: true });
      } catch (error) {
        // A JSON-RPC error for the unknown tool is an acceptable answer too.
        if (!(error instanceof Error) || !/no_such_tool/.test(error.message)) throw error;
      } finally {
        await client.close();
      }

      expect(await before({ installation: 'acme', method: 'tools/call', tool: 'echo', outcome: 'ok' })).toBe(ok + 1);
      expect(await before({ method: 'tools/call', tool: 'refuse', outcome: 'refused' })).toBe(refused + 1);
      expect(await before({ method: 'tools/call', tool: 'explode', outcome: 'error' })).toBe(failed + 1);
      expect(await count(metrics, 'major_vault_mcp_errors_total', { tool: 'explode', reason: 'tool_failed' })).toBe(toolFailures + 1);
      expect(await before({ method: 'tools/list', tool: '', outcome: 'ok' })).toBe(listed + 1);
      expect(await before({ method: 'tools/call', tool: 'other' })).toBe(other + 1);
      expect(await count(metrics, 'major_vault_mcp_request_duration_seconds', {})).toBeGreaterThan(0);

      // Every line written while the calls ran names the request and the installation.
      const toolLines = captured.events('tool_ran');
      expect(toolLines.map((line) => line['tool'])).toEqual(['echo', 'refuse', 'explode']);
      for (const line of [...toolLines, ...captured.events('call_refused'), ...captured.events('call_failed')]) {
        expect(line).toMatchObject({ requestId, installation: 'acme' });
      }
      expect(captured.events('call_failed')).toHaveLength(1);
    });
  }

  it('sets the id on the request the handler sees, takes only a well-formed one, and answers it', async () => {
    const seen: Array<string | null> = [];
    const inner = withOperations(
      async (request) => {
        seen.push(request.headers.get('x-request-id'));
        return new Response('forwarded', { headers: { 'x-request-id': 'the-instance-said-otherwise' } });
      },
      { metrics },
    );
    const own = await listenOperations(inner, { port: 0, hostname: '127.0.0.1' });
    try {
      const given = await fetch(new URL('/anything', own.origin), { headers: { 'x-request-id': 'from-the-proxy' } });
      expect(given.headers.get('x-request-id')).toBe('from-the-proxy');
      const malformed = await fetch(new URL('/anything', own.origin), { headers: { 'x-request-id': 'not well formed' } });
      const fresh = malformed.headers.get('x-request-id')!;
      expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen).toEqual(['from-the-proxy', fresh]);
      expect(await given.text()).toBe('forwarded');
    } finally {
      await own.close();
    }
  });

  it('counts a call whose client went away as cancelled', async () => {
    const cancelled = await count(metrics, 'major_vault_mcp_requests_total', { tool: 'slow', outcome: 'cancelled' });
    const abort = new AbortController();
    // A 2025 stateless tool call as a client sends it; the client stops reading after the headers.
    const answer = fetch(address, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } }),
    });
    setTimeout(() => abort.abort(), 300);
    await expect(answer.then((response) => response.text())).rejects.toThrow();
    await expect
      .poll(() => count(metrics, 'major_vault_mcp_requests_total', { tool: 'slow', outcome: 'cancelled' }), { timeout: 5000 })
      .toBe(cancelled + 1);
  });
});

describe('withOperations on its own port, as the worker serves it', () => {
  it('answers the probes and the metrics, 404 elsewhere, and 503 naming what fails or that it shuts down', async () => {
    const { log, events } = capturedLog();
    const metrics = createMetrics({ component: 'worker', defaultMetrics: false });
    metrics.observeQueues(async () => [{ queue: 'index-repo', depth: 2, oldestAgeSeconds: 4 }]);
    let queueUp = true;
    const operations = withOperations(null, {
      metrics,
      log,
      readiness: [
        {
          name: 'queue',
          check: async () => {
            if (!queueUp) throw new Error('connect ECONNREFUSED 10.1.2.3:5432');
          },
        },
      ],
    });
    const listener = await listenOperations(operations, { port: 0, hostname: '127.0.0.1' });
    try {
      const scrape = await (await fetch(new URL('/metrics', listener.origin))).text();
      expect(scrape).toContain('major_vault_job_queue_depth{queue="index-repo",component="worker"} 2');
      expect(scrape).toContain('major_vault_job_queue_oldest_age_seconds{queue="index-repo",component="worker"} 4');
      expect((await fetch(new URL('/acme', listener.origin))).status).toBe(404);

      queueUp = false;
      const down = await fetch(new URL('/readyz', listener.origin));
      const body = await down.text();
      expect(down.status).toBe(503);
      expect(JSON.parse(body)).toEqual({
        status: 'not_ready',
        failing: ['queue'],
        checks: { queue: { ok: false, durationMs: expect.any(Number) as number, failure: 'failed' } },
      });
      // The cause is the operator's, in the log: never in an answer a probe may show anyone.
      expect(body).not.toContain('10.1.2.3');
      expect(events('readiness_failed')[0]).toMatchObject({ check: 'queue', err: { message: 'connect ECONNREFUSED 10.1.2.3:5432' } });

      queueUp = true;
      expect((await fetch(new URL('/readyz', listener.origin))).status).toBe(200);
      operations.shutDown();
      const leaving = await fetch(new URL('/readyz', listener.origin));
      expect([leaving.status, ((await leaving.json()) as { failing: string[] }).failing]).toEqual([503, ['shutting_down']]);
      expect((await fetch(new URL('/healthz', listener.origin))).status).toBe(200);
    } finally {
      await listener.close();
    }
  });

  it('asks for the metrics token when one is set, and leaves /metrics to the handler when told to', async () => {
    const metrics = createMetrics({ component: 'front', defaultMetrics: false });
    const guarded = await listenOperations(withOperations(null, { metrics, metricsToken: 'scrape-secret' }), {
      port: 0,
      hostname: '127.0.0.1',
    });
    const hidden = await listenOperations(
      withOperations(async () => new Response('the front’s own 404', { status: 404 }), { metrics, serveMetrics: false }),
      { port: 0, hostname: '127.0.0.1' },
    );
    try {
      const url = new URL('/metrics', guarded.origin);
      const refused = await fetch(url);
      expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: 'Bearer scrape-secret' } })).status).toBe(200);
      const passed = await fetch(new URL('/metrics', hidden.origin));
      expect([passed.status, await passed.text()]).toEqual([404, 'the front’s own 404']);
    } finally {
      await guarded.close();
      await hidden.close();
    }
  });

  it('does not count MCP requests to an address no installation has', async () => {
    const metrics = createMetrics({ component: 'front', defaultMetrics: false });
    const listener = await listenOperations(
      withOperations(async () => new Response('Not found.', { status: 404 }), {
        metrics,
        installationOf: (url) => url.pathname.slice(1),
        toolNames,
      }),
      { port: 0, hostname: '127.0.0.1' },
    );
    try {
      const answer = await fetch(new URL('/made-up-name', listener.origin), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } }),
      });
      expect(answer.status).toBe(404);
      await answer.text();
      expect(await count(metrics, 'major_vault_mcp_requests_total', {})).toBe(0);
    } finally {
      await listener.close();
    }
  });
});
