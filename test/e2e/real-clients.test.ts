// Real MCP clients signing in through the front (issue 12, "Done when"): mcp-remote (dynamic
// client registration), the SDK's own client (a Client ID Metadata Document served over HTTPS)
// and the MCP Inspector CLI, each against the GitHub stand-in and serve-github with sign-in.
// The person is played by the scripted browser (test/support/oauth-browser.ts): it approves the
// consent page and signs in on the stand-in's GitHub page, as given by each client's own
// authorization URL. Each client lists tools, reads, writes as itself (or is refused a write it
// may not make), refreshes and keeps working, and its token is refused once it no longer holds.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientBinding } from '../../src/front/oauth/client-binding.ts';
import { TokenSealer } from '../../src/tokens/token-sealer.ts';
import { tempDir } from '../support/git-fixture.ts';
import { OAuthBrowser } from '../support/oauth-browser.ts';
import { ScriptedOAuthClient, connectWithSignIn } from '../support/scripted-oauth-client.ts';
import { call, gitIn, refusal, startGitHubE2e, type GitHubE2e } from './github-fixture.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The project's Node 22 (the `node` package): mcp-remote and the Inspector need it. */
const node22 = join(root, 'node_modules/.bin/node');
const browserCommand = join(root, 'test/support/oauth-browser.sh');
const tls = join(root, 'test/fixtures/tls');
/** Where scripts/inspector-signin.sh installs the Inspector (it is not a project dependency). */
const inspectorDir = process.env['MV_INSPECTOR_DIR'] ?? '/tmp/mv-inspector';
const inspector = join(inspectorDir, 'node_modules/.bin/mcp-inspector');
/** Without the Inspector its test is skipped, its title saying why. */
const inspectorInstalled = existsSync(inspector);

const secret = randomBytes(32).toString('base64url');
/** The front's sealer (same secret): to see whose GitHub token a client holds and to forge an expired token. */
const sealer = new TokenSealer([Buffer.from(secret, 'base64url')]);

/** A free TCP port on 127.0.0.1, for a client's OAuth callback. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The HTTP status of a `tools/list` request to `url` with `bearer`, as a client would send it. */
async function mcpStatus(url: URL, bearer: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await response.body?.cancel();
  return response.status;
}

/** The JSON lines of the scripted browser's log: one per sign-in it ran. */
function browserRuns(logFile: string): Array<{ callback?: string; error?: string }> {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { callback?: string; error?: string });
}

/** The repositories the tools' `repo` parameter offers, from a tools/list answer. */
function repoChoices(tools: unknown): string[] {
  return [...JSON.stringify(tools).matchAll(/"const":"([^"]+)"/g)].map((match) => match[1]!).filter((v, i, all) => all.indexOf(v) === i);
}

describe('real clients sign in through the front', () => {
  let e2e: GitHubE2e;
  let address: URL;
  const dir = tempDir('mv-real-clients-');
  let documents: HttpsServer;
  let documentOrigin: string;

  beforeAll(async () => {
    e2e = await startGitHubE2e({
      oauth: { secrets: [secret], allowLoopbackClientMetadata: true, clientMetadataCa: readFileSync(join(tls, 'ca.pem'), 'utf8') },
    });
    address = e2e.server.url;
    // Client ID Metadata Documents over HTTPS on loopback, with the test's own certificate.
    documents = createHttpsServer(
      { cert: readFileSync(join(tls, 'localhost-cert.pem')), key: readFileSync(join(tls, 'localhost-key.pem')) },
      (request, response) => {
        const url = new URL(request.url ?? '/', documentOrigin);
        const document = {
          client_id: url.href,
          client_name: 'Major Vault e2e (metadata document)',
          client_uri: documentOrigin,
          redirect_uris: ['http://127.0.0.1:33418/oauth/callback'],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        };
        if (url.pathname !== '/clients/e2e.json') return void response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(document));
      },
    );
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    documentOrigin = `https://localhost:${(documents.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise((resolve) => documents?.close(resolve));
    await e2e?.close();
    dir.cleanup();
  });

  /** The commit at the head of the stand-in's handbook: its id, author (`Name <email>`) and subject. */
  const handbookHead = () => {
    const [id, author, subject] = gitIn(e2e.standin.gitDir('acme', 'handbook'), ['log', '-1', '--format=%H%n%an <%ae>%n%s']).split('\n');
    return { id, author, subject };
  };

  it('mcp-remote registers itself, signs bob in, reads, is refused a write, refreshes, and is refused once revoked', async () => {
    const home = join(dir.path, 'mcp-remote');
    const configDir = join(home, 'config');
    const browserLog = join(home, 'browser.log');
    const port = await freePort();
    let stderr = '';
    /** mcp-remote as an assistant runs it: a stdio server proxying to the address, signing in with the browser. */
    const start = async (): Promise<Client> => {
      const transport = new StdioClientTransport({
        command: node22,
        args: [join(root, 'node_modules/mcp-remote/dist/proxy.js'), address.href, String(port), '--host', '127.0.0.1', '--debug'],
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: home,
          MCP_REMOTE_CONFIG_DIR: configDir,
          BROWSER: browserCommand,
          OAUTH_BROWSER_LOGIN: 'bob',
          OAUTH_BROWSER_LOG: browserLog,
        },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const client = new Client({ name: 'real-clients-e2e', version: '1.0.0' });
      await client.connect(transport);
      return client;
    };
    const tokensFile = () => {
      const store = join(configDir, 'mcp-remote-v1');
      const name = readdirSync(store).find((file) => file.endsWith('_tokens.json'));
      if (name === undefined) throw new Error(`mcp-remote kept no tokens in ${store}:\n${stderr.slice(-3000)}`);
      return join(store, name);
    };
    const storedTokens = () => JSON.parse(readFileSync(tokensFile(), 'utf8')) as Record<string, unknown> & { access_token: string };

    let client = await start();
    try {
      // One sign-in, through consent and the stand-in's GitHub page, as bob.
      const runs = browserRuns(browserLog);
      expect(runs, stderr.slice(-3000)).toHaveLength(1);
      expect(runs[0]!.error).toBeUndefined();
      expect(new URL(runs[0]!.callback!).port).toBe(String(port));
      const first = storedTokens();
      const inside = await sealer.open<{ upstream: string; client: string }>('access', first.access_token);
      expect(inside?.audience).toBe(address.href);
      expect(inside?.claims.upstream).toMatch(/^ghu_/);
      // It registered itself (RFC 7591): its client id is one the front issued, not a URL; the token carries its binding.
      const store = join(configDir, 'mcp-remote-v1');
      const infoFile = readdirSync(store).find((file) => file.endsWith('_client_info.json'))!;
      const registered = (JSON.parse(readFileSync(join(store, infoFile), 'utf8')) as { client_id: string }).client_id;
      expect(registered).not.toMatch(/^https?:/);
      expect(inside?.claims.client).toBe(clientBinding(registered));

      // Bob reads the handbook only: plans is not among the tools' repositories.
      const { tools } = await client.listTools();
      expect(repoChoices(tools)).toContain('handbook');
      expect(JSON.stringify(tools)).not.toContain('plans');
      const read = await call(client, 'read_note', { repo: 'handbook', path: 'policies/travel-policy.md' });
      expect(read['content']).toContain('45 euros');
      // GitHub gives bob pull only: the write is refused, nothing reaches the stand-in.
      const before = handbookHead();
      await refusal(client, 'edit_note', {
        repo: 'handbook',
        path: 'policies/travel-policy.md',
        old_text: '45 euros',
        new_text: '50 euros',
        summary: 'Raise the per diem',
      });
      expect(handbookHead()).toEqual(before);
    } finally {
      await client.close();
    }

    // Refresh: the stored token "expires"; the next start refreshes it through the front, without the browser.
    writeFileSync(tokensFile(), JSON.stringify({ ...storedTokens(), expires_at: Date.now() - 1000 }));
    const old = storedTokens();
    client = await start();
    try {
      const read = await call(client, 'read_note', { repo: 'handbook', path: 'onboarding/first-week.md' });
      expect(read['content']).toContain('First week');
      expect(browserRuns(browserLog)).toHaveLength(1);
      const renewed = storedTokens();
      expect(renewed.access_token).not.toBe(old.access_token);
      expect(renewed['refresh_token']).not.toBe(old['refresh_token']);
      expect(await mcpStatus(address, renewed.access_token)).toBe(200);

      // Refused once it no longer holds: past its own expiry, and after GitHub revokes bob's sign-in.
      const opened = (await sealer.open('access', renewed.access_token))!;
      const expired = await sealer.seal('access', opened.claims, { audience: opened.audience!, expiresAt: Date.now() - 1000 });
      expect(await mcpStatus(address, expired)).toBe(401);
      await e2e.standin.revokeAuthorization('bob');
      await e2e.standin.webhooksSettled();
      expect(await mcpStatus(address, renewed.access_token)).toBe(401);
    } finally {
      await client.close();
    }
  }, 90_000);

  it('the SDK client names itself by a metadata document, signs alice in, writes as her, refreshes, and is refused once expired', async () => {
    const clientId = `${documentOrigin}/clients/e2e.json`;
    const provider = new ScriptedOAuthClient({
      browser: new OAuthBrowser({ login: 'alice', decision: 'approve' }),
      clientMetadataUrl: clientId,
    });
    const client = new Client({ name: 'real-clients-e2e-sdk', version: '1.0.0' });
    await connectWithSignIn(client, address, provider);
    try {
      expect(provider.authorizationUrls).toHaveLength(1);
      expect(provider.authorizationUrls[0]!.searchParams.get('client_id')).toBe(clientId);
      expect(provider.lastCallback?.searchParams.get('iss')).toBe(address.origin);
      const signedIn = provider.tokens()!;
      expect((await sealer.open<{ client: string }>('access', signedIn.access_token))?.claims.client).toBe(clientBinding(clientId));

      // Alice writes the handbook and reads plans.
      const { tools } = await client.listTools();
      expect(repoChoices(tools)).toEqual(expect.arrayContaining(['handbook', 'plans']));
      const plan = await call(client, 'read_note', { repo: 'plans', path: 'launch.md' });
      expect(plan['content']).toContain('bluefinch');
      await call(client, 'edit_note', {
        repo: 'handbook',
        path: 'onboarding/first-week.md',
        old_text: 'Meet the team on Monday.',
        new_text: 'Meet the team on Thursday.',
        summary: 'Move the team meeting to Thursday',
      });
      expect(handbookHead()).toMatchObject({ author: 'Alice Arden <alice@acme.example>', subject: expect.stringContaining('to Thursday') });

      // Refresh: the access token held no longer works, so the next call gets 401, refreshes through the front, and goes on.
      provider.setTokens({ ...signedIn, access_token: 'x' });
      const read = await call(client, 'read_note', { repo: 'handbook', path: 'onboarding/first-week.md' });
      expect(read['content']).toContain('Thursday');
      const refreshed = provider.tokens()!;
      expect(refreshed.access_token).not.toBe(signedIn.access_token);
      expect(refreshed.refresh_token).not.toBe(signedIn.refresh_token);
      expect(provider.authorizationUrls).toHaveLength(1);

      // Refused once expired: its own expiry (forged, 8 hours on), and GitHub's revocation.
      const opened = (await sealer.open('access', refreshed.access_token))!;
      const expired = await sealer.seal('access', opened.claims, { audience: opened.audience!, expiresAt: Date.now() - 1000 });
      expect(await mcpStatus(address, expired)).toBe(401);
      await e2e.standin.revokeAuthorization('alice');
      await e2e.standin.webhooksSettled();
      expect(await mcpStatus(address, refreshed.access_token)).toBe(401);
    } finally {
      await client.close();
    }
  }, 60_000);

  it.skipIf(!inspectorInstalled)(
    inspectorInstalled
      ? 'the MCP Inspector CLI signs alice in, lists tools, reads and writes as her with the tokens it stored'
      : `the MCP Inspector CLI (skipped: not installed in ${inspectorDir}; scripts/inspector-signin.sh installs it)`,
    async () => {
      const home = join(dir.path, 'inspector');
      const browserLog = join(home, 'browser.log');
      const port = await freePort();
      const inspect = (args: string[]) =>
        new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
          execFile(
            node22,
            [inspector, '--cli', '--server-url', address.href, '--transport', 'http', ...args, '--format', 'json'],
            {
              env: {
                PATH: process.env['PATH'] ?? '/usr/bin:/bin',
                HOME: home,
                MCP_STORAGE_DIR: join(home, 'storage'),
                MCP_INSPECTOR_SECRET_STORE: 'file',
                MCP_AUTO_OPEN_ENABLED: 'true',
                MCP_OAUTH_CALLBACK_URL: `http://127.0.0.1:${port}/oauth/callback`,
                BROWSER: browserCommand,
                OAUTH_BROWSER_LOGIN: 'alice',
                OAUTH_BROWSER_LOG: browserLog,
              },
              timeout: 45_000,
            },
            (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}\n${stdout}`)) : resolve({ stdout, stderr })),
          ).stdin?.end();
        });
      const listed = await inspect(['--method', 'tools/list']);
      const runs = browserRuns(browserLog);
      expect(runs, listed.stderr).toHaveLength(1);
      expect(runs[0]!.error).toBeUndefined();
      expect(repoChoices(JSON.parse(listed.stdout))).toEqual(expect.arrayContaining(['handbook', 'plans']));
      const read = await inspect(['--method', 'tools/call', '--tool-name', 'read_note', '--tool-arg', 'repo=plans', 'path=launch.md']);
      expect(read.stdout).toContain('bluefinch');
      // The second run used the tokens the first one stored: no second sign-in.
      expect(browserRuns(browserLog)).toHaveLength(1);
      await inspect([
        '--method',
        'tools/call',
        '--tool-name',
        'edit_note',
        '--tool-arg',
        'repo=handbook',
        'path=policies/travel-policy.md',
        'old_text=The per diem is 45 euros.',
        'new_text=The per diem is 48 euros.',
        'summary=Set the per diem to 48 euros',
      ]);
      expect(handbookHead()).toMatchObject({ author: 'Alice Arden <alice@acme.example>', subject: expect.stringContaining('48 euros') });
    },
    60_000,
  );
});
