// The demo served over Streamable HTTP, driven by the SDK's own clients of both protocol
// eras: instructions, the tool list against the contract, every tool called, the checks in
// front of the endpoint, and sign-in with a users file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serviceInstructions } from '../../src/catalogue/instructions.ts';
import { demoTokens } from '../../src/demo/build-demo.ts';
import { allTools } from '../../src/tools/all-tools.ts';
import { runGit } from '../../src/repo-host/git/run-git.ts';
import { connectHttp, serveDemo, type ClientEra, type ServedDemo } from './demo-fixture.ts';
import { demoSpecialTools, readCalls, runCalls, writeCalls } from './demo-calls.ts';

const contract = JSON.parse(readFileSync(new URL('../fixtures/acme-tools-list.json', import.meta.url), 'utf8')) as {
  tools: Array<Record<string, unknown> & { name: string }>;
};
const registered = new Set(allTools.map((tool) => tool.name));
/** The contract's entries for the tools that exist, in the contract's order. */
const expectedTools = contract.tools.filter((tool) => registered.has(tool.name));
/** Every tool's name as listed to someone who reads both repositories: the basic tools, then the demo's special tools. */
const expectedNames = [...expectedTools.map((tool) => tool.name), ...demoSpecialTools];

const handbookInstructions = 'Quote a policy as it stands; never reword one in a summary.';
const projectsInstructions = 'Every decision names who made it and when.';
const acmeInstructions = `${serviceInstructions}\n\n## handbook\n\n${handbookInstructions}\n\n## projects\n\n${projectsInstructions}`;

/** A JSON-RPC request sent by hand (2025 style: no envelope), for what a client would hide. */
async function rpc(
  url: URL,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

/** The JSON-RPC result of a response that is JSON or a one-event SSE stream. */
async function resultOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : (text
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6) ?? '');
  const message = JSON.parse(json) as { result?: Record<string, unknown>; error?: unknown };
  if (!message.result) throw new Error(`no result: ${text}`);
  return message.result;
}

describe('the demo over HTTP', () => {
  let demo: ServedDemo;
  beforeAll(async () => {
    demo = await serveDemo();
  });
  afterAll(async () => {
    await demo?.close();
  });

  test('tools/list is the contract, entry by entry, for every basic tool, then the special tools', async () => {
    const result = await resultOf(await rpc(demo.url, 'tools/list'));
    const tools = result['tools'] as Array<Record<string, unknown> & { name: string }>;
    expect(tools.map((tool) => tool.name)).toEqual(expectedNames);
    for (const [i, expected] of expectedTools.entries()) expect(tools[i], `tools/list entry ${expected.name}`).toStrictEqual(expected);
  });

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    describe(`a ${era} client`, () => {
      test('is told the instructions and lists the tools', async () => {
        const client = await connectHttp(demo.url, era);
        try {
          expect(client.getProtocolEra()).toBe(era === '2026-07-28' ? 'modern' : 'legacy');
          expect(client.getInstructions()).toBe(acmeInstructions);
          const { tools } = await client.listTools();
          expect(tools.map((tool) => tool.name)).toEqual(expectedNames);
        } finally {
          await client.close();
        }
      });

      test('calls each read tool with each parameter', async () => {
        const client = await connectHttp(demo.url, era);
        try {
          const called = await runCalls(client, readCalls, registered);
          expect(new Set(called)).toEqual(new Set(readCalls.map((call) => call.tool).filter((tool) => registered.has(tool))));
        } finally {
          await client.close();
        }
      });
    });
  }

  test('list results carry ttlMs and cacheScope "private" (2026-07-28)', async () => {
    const client = await connectHttp(demo.url, '2026-07-28');
    try {
      const listed = (await client.listTools(undefined, { cacheMode: 'bypass' })) as { ttlMs?: number; cacheScope?: string };
      expect(listed.ttlMs).toBeGreaterThan(0);
      expect(listed.cacheScope).toBe('private');
    } finally {
      await client.close();
    }
  });

  for (const era of ['2025-06-18', '2025-03-26'] as const satisfies readonly ClientEra[]) {
    test(`a ${era} client initializes and lists the tools`, async () => {
      const client = await connectHttp(demo.url, era);
      try {
        expect(client.getInstructions()).toBe(acmeInstructions);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(expectedNames);
      } finally {
        await client.close();
      }
    });
  }

  test('the write tools commit, each with the client named in the commit', async () => {
    const client = await connectHttp(demo.url, '2026-07-28', { name: 'e2e-writer' });
    try {
      const called = await runCalls(client, writeCalls, registered);
      for (const repo of ['handbook', 'projects']) {
        const subjects = (await runGit(['log', '--format=%s'], { cwd: join(demo.layout.reposDir, repo) })).stdout.toString('utf8');
        const ours = subjects.split('\n').filter((subject) => subject.includes('via e2e-writer'));
        expect(ours.length, `commits by the server in ${repo}`).toBe(
          called.filter((tool) => writeCalls.find((call) => call.tool === tool && (call.args as { repo: string }).repo === repo)).length,
        );
      }
    } finally {
      await client.close();
    }
  });

  test('a browser opening the address gets the page that says how to connect', async () => {
    const response = await fetch(demo.url, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const page = await response.text();
    expect(page).toContain(demo.url.href);
    expect(page).toContain(`claude mcp add --transport http acme ${demo.url.href}`);
    expect(page).not.toContain('projects');
  });

  test('a request naming another host (DNS rebinding) is refused', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        demo.url,
        {
          method: 'POST',
          headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
    expect(status).toBe(403);
  });

  test('a request from a page of another origin is refused; a loopback origin is not', async () => {
    expect((await rpc(demo.url, 'tools/list', {}, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await rpc(demo.url, 'tools/list', {}, { origin: 'http://localhost:5173' })).status).toBe(200);
  });

  test('a page on a loopback origin may read the answers (CORS); a preflight is answered', async () => {
    const preflight = await fetch(demo.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
    const answer = await rpc(demo.url, 'tools/list', {}, { origin: 'http://localhost:6274' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect((await fetch(demo.url, { method: 'OPTIONS', headers: { origin: 'http://evil.example' } })).status).toBe(403);
  });

  test('an unknown path says where the MCP address is', async () => {
    const response = await fetch(new URL('/elsewhere', demo.url));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(demo.url.href);
  });
});

describe('the demo with a users file', () => {
  let demo: ServedDemo;
  beforeAll(async () => {
    demo = await serveDemo({ users: true });
  });
  afterAll(async () => {
    await demo?.close();
  });

  test('a request without a token gets 401 pointing to the protected-resource document', async () => {
    const response = await rpc(demo.url, 'tools/list');
    expect(response.status).toBe(401);
    const metadataUrl = `${demo.url.origin}/.well-known/oauth-protected-resource/acme`;
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: demo.url.href,
      authorization_servers: [],
      bearer_methods_supported: ['header'],
      resource_name: 'Major Vault: acme',
    });
  });

  test('an unknown token gets 401 invalid_token', async () => {
    const response = await rpc(demo.url, 'tools/list', {}, { authorization: 'Bearer not-a-token' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token".*resource_metadata="/);
  });

  test('an SDK client without a token cannot connect', async () => {
    await expect(connectHttp(demo.url, '2025-11-25')).rejects.toThrow();
  });

  test('a person who reads everything sees both repositories', async () => {
    const client = await connectHttp(demo.url, '2026-07-28', { token: demoTokens.maya });
    try {
      expect(client.getInstructions()).toBe(acmeInstructions);
    } finally {
      await client.close();
    }
  });

  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    test(`a repository a person cannot read appears nowhere (${era})`, async () => {
      const client = await connectHttp(demo.url, era, { token: demoTokens.tom });
      try {
        expect(client.getInstructions()).toBe(`${serviceInstructions}\n\n## handbook\n\n${handbookInstructions}`);
        const { tools } = await client.listTools();
        // ("projects/apollo/plan.md" in descriptions is an example path, not the repository.)
        expect(JSON.stringify(tools)).not.toMatch(/"const":"projects"|One folder per project/);
        for (const tool of tools) {
          const repo = (tool.inputSchema.properties as Record<string, { anyOf?: Array<{ const: string }> }>)['repo'];
          expect(repo?.anyOf?.map((choice) => choice.const)).toEqual(['handbook']);
        }
        const listed = new Set(tools.map((tool) => tool.name));
        // Answers across repositories hold nothing of projects.
        for (const call of [
          { name: 'tree', arguments: {} },
          { name: 'list_notes', arguments: {} },
          { name: 'search_notes', arguments: { query: 'decision' } },
          { name: 'search_history', arguments: { text: 'launch' } },
        ]) {
          if (!listed.has(call.name)) continue;
          const result = await client.callTool(call);
          expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
          expect(JSON.stringify(result)).not.toMatch(/"repo":"projects"|projects\/|One folder per project|active\/launch|pick-a-date/);
        }
        // Naming it is answered exactly like naming a repository that does not exist.
        if (listed.has('read_note')) {
          const unreadable = await client.callTool({ name: 'read_note', arguments: { repo: 'projects', path: 'active/launch/plan.md' } });
          const missing = await client.callTool({ name: 'read_note', arguments: { repo: 'nowhere', path: 'active/launch/plan.md' } });
          expect(unreadable.isError).toBe(true);
          const text = (result: typeof unreadable) => (result.content as Array<{ text: string }>)[0]!.text;
          expect(text(unreadable).replaceAll('projects', 'X')).toBe(text(missing).replaceAll('nowhere', 'X'));
        }
      } finally {
        await client.close();
      }
    });
  }
});
