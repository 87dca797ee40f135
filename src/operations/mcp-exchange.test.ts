// Reading an MCP exchange: the labels of a request, and the outcome of an answer however it is cut into chunks.
import { describe, expect, it } from 'vitest';
import { mcpRequestLabels, observeAnswer, type AnswerEnd } from './mcp-exchange.ts';

const tools = new Set(['read_note']);

describe('mcpRequestLabels', () => {
  it('names the method, and the tool of a tools/call, from a closed list', () => {
    const request = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 1, method, params });
    expect(mcpRequestLabels(request('tools/call', { name: 'read_note' }), tools)).toEqual({ method: 'tools/call', tool: 'read_note' });
    expect(mcpRequestLabels(request('tools/call', { name: 'made_up_1' }), tools)).toEqual({ method: 'tools/call', tool: 'other' });
    expect(mcpRequestLabels(request('tools/call'), tools)).toEqual({ method: 'tools/call', tool: 'other' });
    expect(mcpRequestLabels(request('tools/list'), tools)).toEqual({ method: 'tools/list', tool: '' });
    expect(mcpRequestLabels(request('x/made-up'), tools)).toEqual({ method: 'other', tool: '' });
    expect(mcpRequestLabels({ jsonrpc: '2.0', method: 'notifications/initialized' }, tools)).toEqual({
      method: 'notifications/initialized',
      tool: '',
    });
    expect(mcpRequestLabels({ jsonrpc: '2.0', id: 1, result: {} }, tools)).toEqual({ method: 'response', tool: '' });
    expect(mcpRequestLabels([request('ping')], tools)).toEqual({ method: 'batch', tool: '' });
    for (const body of [null, 'text', {}, { method: 'tools/list' }, []]) expect(mcpRequestLabels(body, tools)).toBeNull();
  });
});

/** A response whose body arrives in these chunks. */
function chunked(chunks: string[], init: ResponseInit & { contentType: string }): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: init.status ?? 200, headers: { 'content-type': init.contentType } });
}

/** Reads the observed body to its end, as a client does, and says how it ended and what the client got. */
async function observe(
  response: Response,
  options: Parameters<typeof observeAnswer>[1] = { expectsAnswer: true },
): Promise<{ end: AnswerEnd | undefined; text: string }> {
  let end: AnswerEnd | undefined;
  const body = observeAnswer(response, options, (ended) => (end = ended));
  const text = body ? await new Response(body).text() : '';
  return { end, text };
}

describe('observeAnswer', () => {
  const answer = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, result });
  const sse = (...messages: string[]) => messages.map((message) => `event: message\ndata: ${message}\n\n`).join('');

  it('passes the body through unchanged and reads the outcome of an SSE answer split anywhere', async () => {
    const stream = sse(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }),
      answer({ isError: true, content: [] }),
    );
    for (let cut = 1; cut < stream.length; cut++) {
      const { end, text } = await observe(chunked([stream.slice(0, cut), stream.slice(cut)], { contentType: 'text/event-stream' }));
      expect(text).toBe(stream);
      expect(end).toEqual({ outcome: 'refused' });
    }
    const crlf = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })}\r\n\r\ndata: ${answer({ content: [] })}\r\n\r\n`;
    for (let cut = 1; cut < crlf.length; cut++) {
      expect((await observe(chunked([crlf.slice(0, cut), crlf.slice(cut)], { contentType: 'text/event-stream' }))).end).toEqual({
        outcome: 'ok',
      });
    }
  });

  it('takes the outcome its handler knows without reading the body, a status still deciding first', async () => {
    const stream = sse(answer({ isError: true, content: [] }));
    const known = { expectsAnswer: true, outcome: { outcome: 'ok' as const } };
    const { end, text } = await observe(chunked([stream], { contentType: 'text/event-stream' }), known);
    expect(text).toBe(stream);
    expect(end).toEqual({ outcome: 'ok' });
    expect((await observe(chunked([stream], { contentType: 'text/event-stream', status: 503 }), known)).end).toMatchObject({
      outcome: 'error',
    });
  });

  it('tells a JSON answer, a JSON-RPC error, an internal error and a failed status apart', async () => {
    const json = (body: string, status = 200) =>
      observe(chunked([body.slice(0, 5), body.slice(5)], { contentType: 'application/json', status }));
    expect((await json(answer({ content: [] }))).end).toEqual({ outcome: 'ok' });
    expect((await json(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }))).end).toEqual({
      outcome: 'rpc_error',
    });
    expect((await json(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'oops' } }))).end).toEqual({
      outcome: 'error',
      errorReason: 'rpc_internal',
    });
    expect((await json('{"error":"x"}', 401)).end).toEqual({ outcome: 'unauthorized' });
    expect((await json(answer({ content: [] }), 503)).end).toEqual({ outcome: 'error', errorReason: 'http_5xx' });
    expect((await json('Not acceptable', 406)).end).toEqual({ outcome: 'rpc_error' });
    expect((await observe(new Response(null, { status: 202 }), { expectsAnswer: false })).end).toEqual({ outcome: 'ok' });
  });

  it('says a stream that ended without its answer broke off, and one that broke is an error', async () => {
    expect((await observe(chunked([': keep-alive\n\n'], { contentType: 'text/event-stream' }))).end).toEqual({
      outcome: 'error',
      errorReason: 'stream_failed',
    });
    let end: AnswerEnd | undefined;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('the instance went away'));
      },
    });
    const body = observeAnswer(
      new Response(broken, { headers: { 'content-type': 'text/event-stream' } }),
      { expectsAnswer: true },
      (e) => (end = e),
    );
    await expect(new Response(body).text()).rejects.toThrow('the instance went away');
    expect(end).toEqual({ outcome: 'error', errorReason: 'stream_failed' });
  });

  it('counts an answer the client stopped reading as cancelled', async () => {
    let end: AnswerEnd | undefined;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode(': keep-alive\n\n'));
      },
    });
    const body = observeAnswer(
      new Response(endless, { headers: { 'content-type': 'text/event-stream' } }),
      { expectsAnswer: true },
      (e) => (end = e),
    );
    const reader = body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(end).toEqual({ outcome: 'cancelled' });
  });
});
