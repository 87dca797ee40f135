// Sign-in through the front's authorization server, end to end over real HTTP: the GitHub
// stand-in plays GitHub (its App's web flow), serveGitHub runs with `oauth`, and a small
// cookie jar plays the browser. Every attack of issue 12 is refused, each in its own test.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubUserAuthorization } from '../../src/repo-host/github/github-user-authorization.ts';
import { isVaultError } from '../../src/vault-error.ts';
import type { GitHubServer } from '../../src/main/github.ts';
import { TokenSealer } from '../../src/tokens/token-sealer.ts';
import { capturedLog } from '../support/captured-log.ts';
import { connectHttp } from './demo-fixture.ts';
import { call, gitIn, startGitHubE2e, testApp, type GitHubE2e } from './github-fixture.ts';

const secret = randomBytes(32).toString('base64url');
/** The sealer the front uses (same secret): to look inside tokens and forge expired ones. */
const sealer = new TokenSealer([Buffer.from(secret, 'base64url')]);
/** Where the test client says it listens; never contacted (the test reads the redirect's Location). */
const redirectUri = 'http://127.0.0.1:1/callback';

/** A browser: a cookie jar over fetch, redirects not followed. */
class Browser {
  private readonly cookies = new Map<string, string>();
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The hidden fields of the page's form. */
function hiddenFields(html: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const [input] of html.matchAll(/<input\b[^>]*>/gi)) {
    if (!/type\s*=\s*"hidden"/i.test(input)) continue;
    const name = /\bname\s*=\s*"([^"]*)"/i.exec(input)?.[1];
    const value = /\bvalue\s*=\s*"([^"]*)"/i.exec(input)?.[1] ?? '';
    if (name !== undefined) fields.append(unescapeHtml(name), unescapeHtml(value));
  }
  return fields;
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const form = (params: Record<string, string> | URLSearchParams) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(params).toString(),
});

describe('sign-in through the front (OAuth)', () => {
  let e2e: GitHubE2e;
  let server: GitHubServer;
  let origin: string;
  const clients: Client[] = [];
  const captured = capturedLog('info');

  beforeAll(async () => {
    e2e = await startGitHubE2e({ oauth: { secrets: [secret] }, log: captured.log });
    server = e2e.server;
    origin = server.url.origin;
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await e2e?.close();
  });

  async function register(uris: string[] = [redirectUri]): Promise<string> {
    const response = await fetch(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: uris, client_name: 'Test client', token_endpoint_auth_method: 'none' }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { client_id: string }).client_id;
  }

  function authorizeUrl(params: Record<string, string | null>): string {
    const url = new URL(`${origin}/oauth/authorize`);
    for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
    return url.href;
  }

  /** The authorization request of a sign-in, with `override` replacing (null: removing) parameters. */
  function request(clientId: string, challenge: string, override: Record<string, string | null> = {}): string {
    return authorizeUrl({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: server.url.href,
      state: 'client-state',
      ...override,
    });
  }

  /** The consent page's form (after GET /oauth/authorize in `browser`). */
  async function consentForm(browser: Browser, url: string): Promise<URLSearchParams> {
    const response = await browser.fetch(url);
    expect(response.status, await response.clone().text()).toBe(200);
    return hiddenFields(await response.text());
  }

  /** Approves the consent form; resolves to where the browser goes (GitHub's authorize page). */
  async function approve(browser: Browser, fields: URLSearchParams): Promise<URL> {
    const response = await browser.fetch(`${origin}/oauth/authorize`, form(new URLSearchParams([...fields, ['decision', 'approve']])));
    expect(response.status).toBe(303);
    return new URL(response.headers.get('location')!);
  }

  /** The person signs in on the stand-in's page as `login`; resolves to the callback URL GitHub sends them to. */
  async function githubSignIn(githubUrl: URL, login: string): Promise<string> {
    expect(githubUrl.origin).toBe(e2e.standin.origin);
    expect(githubUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const response = await fetch(`${e2e.standin.origin}/login/oauth/authorize`, {
      ...form(new URLSearchParams([...githubUrl.searchParams, ['login', login]])),
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    return response.headers.get('location')!;
  }

  /** The whole browser side: resolves to the redirect back to the client. */
  async function browserSignIn(clientId: string, challenge: string, login = 'alice', browser = new Browser()): Promise<URL> {
    const fields = await consentForm(browser, request(clientId, challenge));
    const callback = await githubSignIn(await approve(browser, fields), login);
    const response = await browser.fetch(callback);
    expect(response.status, await response.clone().text()).toBe(302);
    return new URL(response.headers.get('location')!);
  }

  async function token(params: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${origin}/oauth/token`, form(params));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  interface Tokens {
    access_token: string;
    refresh_token: string;
    expires_in: number;
  }

  /** A whole sign-in of `login` by a newly registered client: its id and tokens. */
  async function signIn(login = 'alice'): Promise<{ clientId: string; tokens: Tokens }> {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const back = await browserSignIn(clientId, challenge, login);
    const answer = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
      resource: server.url.href,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { clientId, tokens: answer.body as unknown as Tokens };
  }

  /** The HTTP status of an MCP request with `bearer`. */
  async function mcpStatus(url: URL, bearer: string): Promise<number> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    await response.body?.cancel();
    return response.status;
  }

  const refresh = (clientId: string, refreshToken: string) =>
    token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

  /** `token` with one character changed at `at` (from its end when negative). */
  function flipped(text: string, at: number): string {
    const index = at < 0 ? text.length + at : at;
    return text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);
  }

  it('announces the authorization server: RFC 8414 metadata, and the RFC 9728 document naming it', async () => {
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['none'],
    });
    const document = await fetch(`${origin}/.well-known/oauth-protected-resource/${server.name}`);
    expect(await document.json()).toMatchObject({ resource: server.url.href, authorization_servers: [origin] });
    const challenge = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toContain(
      `resource_metadata="${origin}/.well-known/oauth-protected-resource/${server.name}"`,
    );
  });

  it('signs a person in through consent and GitHub, and their write is theirs on GitHub', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const back = await browserSignIn(clientId, challenge, 'alice');
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('client-state');
    expect(back.searchParams.get('iss')).toBe(origin);
    const answer = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer' });
    const tokens = answer.body as unknown as Tokens;
    expect(tokens.expires_in).toBeGreaterThan(7 * 3600);
    expect(tokens.expires_in).toBeLessThanOrEqual(8 * 3600);
    // No passthrough: our token is not GitHub's, and does not show it.
    const inside = await sealer.open<{ upstream: string }>('access', tokens.access_token);
    expect(inside?.claims.upstream).toMatch(/^ghu_/);
    expect(tokens.access_token).not.toContain(inside!.claims.upstream);
    expect(inside?.audience).toBe(server.url.href);

    const alice = await connectHttp(server.url, '2026-07-28', { token: tokens.access_token });
    clients.push(alice);
    const gitDir = e2e.standin.gitDir('acme', 'handbook');
    const before = gitIn(gitDir, ['rev-parse', 'main']);
    await call(alice, 'edit_note', {
      repo: 'handbook',
      path: 'onboarding/first-week.md',
      old_text: 'Meet the team on Monday.',
      new_text: 'Meet the team on Wednesday.',
      summary: 'Move the team meeting',
    });
    const after = gitIn(gitDir, ['rev-parse', 'main']);
    expect(after).not.toBe(before);
    expect(gitIn(gitDir, ['log', '-1', '--format=%an', after])).toBe('Alice Arden');
  });

  it('refreshes through the front: both tokens rotate, and a repeated refresh gets the same pair', async () => {
    const { clientId, tokens } = await signIn();
    const first = await refresh(clientId, tokens.refresh_token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const pair = first.body as unknown as Tokens;
    expect(pair.access_token).not.toBe(tokens.access_token);
    expect(pair.refresh_token).not.toBe(tokens.refresh_token);
    const upstreamBefore = (await sealer.open<{ upstream: string }>('access', tokens.access_token))!.claims.upstream;
    const upstreamAfter = (await sealer.open<{ upstream: string }>('access', pair.access_token))!.claims.upstream;
    expect(upstreamAfter).not.toBe(upstreamBefore);
    // A client retrying within the grace window gets the same pair, not a failure.
    const again = await refresh(clientId, tokens.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body['access_token']).toBe(pair.access_token);
    expect(again.body['refresh_token']).toBe(pair.refresh_token);
    // The new refresh token works in turn (GitHub's new one is inside), and the new access token reads.
    const second = await refresh(clientId, pair.refresh_token);
    expect(second.status).toBe(200);
    expect(await mcpStatus(server.url, second.body['access_token'] as string)).toBe(200);
  });

  it('answers five concurrent refreshes with one pair, asking GitHub once', async () => {
    const { clientId, tokens } = await signIn();
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(clientId, tokens.refresh_token)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(new Set(answers.map((answer) => answer.body['access_token'])).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.body['refresh_token'])).size).toBe(1);
    // GitHub's refresh tokens are single-use: had two refreshes gone upstream, one would have
    // failed. Asking GitHub directly with the old one now fails: it was used, once.
    const old = (await sealer.open<{ upstream: string }>('refresh', tokens.refresh_token))!.claims.upstream;
    const github = new GitHubUserAuthorization({
      clientId: testApp.clientId,
      clientSecret: testApp.clientSecret,
      apiUrl: e2e.standin.apiUrl,
    });
    await expect(github.refresh(old)).rejects.toSatisfy((error) => isVaultError(error, 'unauthorized'));
  });

  it('tells a refusal by GitHub from GitHub being unreachable, upstream', async () => {
    const github = new GitHubUserAuthorization({
      clientId: testApp.clientId,
      clientSecret: testApp.clientSecret,
      apiUrl: e2e.standin.apiUrl,
    });
    await expect(github.refresh('ghr_not_a_token')).rejects.toSatisfy((error) => isVaultError(error, 'unauthorized'));
    await expect(github.exchangeCode({ code: 'nope', codeVerifier: pkce().verifier, redirectUri })).rejects.toSatisfy((error) =>
      isVaultError(error, 'unauthorized'),
    );
    // Port 1 on the loopback interface: nothing listens there.
    const unreachable = new GitHubUserAuthorization({
      clientId: testApp.clientId,
      clientSecret: testApp.clientSecret,
      apiUrl: 'http://127.0.0.1:1/api/v3',
    });
    await expect(unreachable.refresh('ghr_x')).rejects.toSatisfy((error) => isVaultError(error, 'host_unavailable'));
  });

  it('logs a sign-in, its tokens and refreshes at info, without any token, code or secret', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const back = await browserSignIn(clientId, challenge);
    const code = back.searchParams.get('code')!;
    const answer = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
    });
    const tokens = answer.body as unknown as Tokens;
    const pair = await refresh(clientId, tokens.refresh_token);
    await refresh(clientId, tokens.refresh_token);
    await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: redirectUri });
    expect(captured.events('sign_in_consented').at(-1)).toMatchObject({
      client: 'Test client',
      redirectHost: '127.0.0.1:1',
      installation: server.name,
    });
    expect(captured.events('sign_in_completed').at(-1)).toMatchObject({ redirectHost: '127.0.0.1:1', resource: server.url.href });
    expect(captured.events('token_issued').map((line) => line['grantType'])).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token']),
    );
    expect(
      captured
        .events('token_refreshed')
        .slice(-2)
        .map((line) => line['shared']),
    ).toEqual([false, true]);
    expect(captured.events('token_refused').at(-1)).toMatchObject({ grantType: 'authorization_code', code: 'invalid_grant' });
    const github = (await sealer.open<{ upstream: string }>('access', tokens.access_token))!.claims.upstream;
    const githubRefresh = (await sealer.open<{ upstream: string }>('refresh', tokens.refresh_token))!.claims.upstream;
    const text = captured.lines.map((line) => JSON.stringify(line)).join('\n');
    for (const value of [
      code,
      tokens.access_token,
      tokens.refresh_token,
      pair.body['access_token'] as string,
      github,
      githubRefresh,
      secret,
    ])
      expect(text).not.toContain(value);
  });

  it('sends a denial back to the client as access_denied', async () => {
    const browser = new Browser();
    const fields = await consentForm(browser, request(await register(), pkce().challenge));
    const response = await browser.fetch(`${origin}/oauth/authorize`, form(new URLSearchParams([...fields, ['decision', 'deny']])));
    const back = new URL(response.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(captured.events('sign_in_denied').at(-1)).toMatchObject({ client: 'Test client', installation: server.name });
    expect(back.searchParams.get('state')).toBe('client-state');
    expect(back.searchParams.get('iss')).toBe(origin);
  });

  describe('attacks', () => {
    /**
     * The OAuth error an authorization request is refused with: always a page on our origin,
     * never a redirect to the client (RFC 9700 §4.11.2), naming the error and where the client
     * would have been sent.
     */
    async function refusedPage(url: string): Promise<string | null> {
      const response = await new Browser().fetch(url);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toContain('text/html');
      const text = unescapeHtml(await response.text());
      expect(text).toContain(new URL(redirectUri).host);
      return /was refused \(([a-z_]+)\)/.exec(text)?.[1] ?? null;
    }

    it('is no open redirector: a client of evil.example refused for any reason stays on our page', async () => {
      const evil = 'https://evil.example/cb';
      const clientId = await register([evil]);
      const requests = [
        request(clientId, pkce().challenge, { redirect_uri: evil, response_type: 'token' }),
        request(clientId, '', { redirect_uri: evil, code_challenge: null }),
        request(clientId, pkce().challenge, { redirect_uri: evil, resource: 'https://elsewhere.example/x' }),
      ];
      for (const url of requests) {
        const response = await new Browser().fetch(url);
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
        expect(await response.text()).toContain('evil.example');
      }
    });

    it('refuses an authorization request without PKCE', async () => {
      const clientId = await register();
      expect(await refusedPage(request(clientId, '', { code_challenge: null, code_challenge_method: null }))).toBe('invalid_request');
    });

    it('refuses a parameter given twice, naming it, at the authorization endpoint and in the consent form', async () => {
      const clientId = await register();
      const { challenge } = pkce();
      for (const name of ['client_id', 'redirect_uri', 'state', 'code_challenge']) {
        const url = new URL(request(clientId, challenge));
        url.searchParams.append(name, name === 'client_id' ? await register() : 'other');
        const response = await new Browser().fetch(url);
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
        expect(await response.text()).toContain(`gives ${name} more than once`);
      }
      const browser = new Browser();
      const fields = await consentForm(browser, request(clientId, challenge));
      const twice = new URLSearchParams([...fields, ['decision', 'deny'], ['decision', 'approve']]);
      const response = await browser.fetch(`${origin}/oauth/authorize`, form(twice));
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('decision more than once');
    });

    it('refuses PKCE with the plain method', async () => {
      const { verifier } = pkce();
      expect(await refusedPage(request(await register(), verifier, { code_challenge_method: 'plain' }))).toBe('invalid_request');
    });

    it('refuses a code with a wrong or missing verifier', async () => {
      const clientId = await register();
      const { challenge } = pkce();
      const back = await browserSignIn(clientId, challenge);
      const code = back.searchParams.get('code')!;
      const base = { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: redirectUri };
      expect((await token({ ...base, code_verifier: pkce().verifier })).body['error']).toBe('invalid_grant');
      expect((await token(base)).body['error']).toBe('invalid_grant');
    });

    it('refuses a replayed code', async () => {
      const clientId = await register();
      const { verifier, challenge } = pkce();
      const back = await browserSignIn(clientId, challenge);
      const params = {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: redirectUri,
      };
      expect((await token(params)).status).toBe(200);
      const replay = await token(params);
      expect(replay.status).toBe(400);
      expect(replay.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
    });

    it('refuses an expired code', async () => {
      const clientId = await register();
      const { verifier, challenge } = pkce();
      const back = await browserSignIn(clientId, challenge);
      const opened = (await sealer.open('code', back.searchParams.get('code')!))!;
      const expired = await sealer.seal('code', opened.claims, { expiresAt: Date.now() - 1000 });
      const answer = await token({
        grant_type: 'authorization_code',
        code: expired,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: redirectUri,
      });
      expect(answer.body['error']).toBe('invalid_grant');
    });

    it('refuses a redirect URI that differs by one character, at the authorization endpoint (a page, no redirect)', async () => {
      const response = await new Browser().fetch(request(await register(), pkce().challenge, { redirect_uri: `${redirectUri}x` }));
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toContain('text/html');
    });

    it('refuses a redirect URI that differs by one character, at the token endpoint', async () => {
      const clientId = await register();
      const { verifier, challenge } = pkce();
      const back = await browserSignIn(clientId, challenge);
      const answer = await token({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: redirectUri.replace('callback', 'callbacc'),
      });
      expect(answer.body['error']).toBe('invalid_grant');
    });

    it("refuses one client's code redeemed by another", async () => {
      const clientId = await register();
      const other = await register();
      const { verifier, challenge } = pkce();
      const back = await browserSignIn(clientId, challenge);
      const answer = await token({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: other,
        redirect_uri: redirectUri,
      });
      expect(answer.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/another client/) });
    });

    it("refuses one client's refresh token used by another", async () => {
      const { tokens } = await signIn();
      const answer = await refresh(await register(), tokens.refresh_token);
      expect(answer.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/another client/) });
    });

    it("refuses a token for one installation at another's address (two names sharing the secret)", async () => {
      const other = await e2e.serveAnother({ name: 'other', oauth: { secrets: [secret] } });
      const { tokens } = await signIn();
      expect(await mcpStatus(server.url, tokens.access_token)).toBe(200);
      expect(await mcpStatus(other.url, tokens.access_token)).toBe(401);
      // Nor can a sign-in at this front name the other's address as its resource.
      expect(await refusedPage(request(await register(), pkce().challenge, { resource: other.url.href }))).toBe('invalid_target');
    }, 60_000);

    it('refuses a consent approved in one browser and completed in another', async () => {
      const approving = new Browser();
      const fields = await consentForm(approving, request(await register(), pkce().challenge));
      const callback = await githubSignIn(await approve(approving, fields), 'alice');
      // A browser without the cookie, and one with a cookie of its own sign-in.
      const stranger = await new Browser().fetch(callback);
      expect(stranger.status).toBe(403);
      expect(stranger.headers.get('location')).toBeNull();
      const other = new Browser();
      await consentForm(other, request(await register(), pkce().challenge));
      const otherAnswer = await other.fetch(callback);
      expect(otherAnswer.status).toBe(403);
      expect(otherAnswer.headers.get('location')).toBeNull();
      // The approving browser still completes it.
      expect((await approving.fetch(callback)).status).toBe(302);
    });

    it('refuses a consent form posted without the cookie or with a wrong CSRF token', async () => {
      const browser = new Browser();
      const fields = await consentForm(browser, request(await register(), pkce().challenge));
      const withoutCookie = await fetch(`${origin}/oauth/authorize`, {
        ...form(new URLSearchParams([...fields, ['decision', 'approve']])),
        redirect: 'manual',
      });
      expect(withoutCookie.status).toBe(403);
      const forged = new URLSearchParams(fields);
      forged.set('csrf', flipped(fields.get('csrf')!, 3));
      forged.set('decision', 'approve');
      const wrongToken = await browser.fetch(`${origin}/oauth/authorize`, form(forged));
      expect(wrongToken.status).toBe(403);
      expect(wrongToken.headers.get('location')).toBeNull();
      // The CSRF token covers the request: the same token for another resource is refused too.
      const changed = new URLSearchParams([...fields, ['decision', 'approve']]);
      changed.set('state', 'another-state');
      expect((await browser.fetch(`${origin}/oauth/authorize`, form(changed))).status).toBe(403);
    });

    it('refuses a tampered sealed token', async () => {
      const { clientId, tokens } = await signIn();
      for (const at of [10, 60, -5]) expect(await mcpStatus(server.url, flipped(tokens.access_token, at))).toBe(401);
      expect((await refresh(clientId, flipped(tokens.refresh_token, 60))).body['error']).toBe('invalid_grant');
    });

    it('refuses a sealed token of another kind as the bearer', async () => {
      const clientId = await register();
      const { verifier, challenge } = pkce();
      const back = await browserSignIn(clientId, challenge);
      const code = back.searchParams.get('code')!;
      expect(await mcpStatus(server.url, code)).toBe(401);
      const answer = await token({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: redirectUri,
      });
      expect(await mcpStatus(server.url, answer.body['refresh_token'] as string)).toBe(401);
      expect(await mcpStatus(server.url, clientId)).toBe(401);
      // Nor is an access token a refresh token.
      expect((await refresh(clientId, answer.body['access_token'] as string)).body['error']).toBe('invalid_grant');
    });

    it('refuses a GitHub token sent directly as the bearer', async () => {
      expect(await mcpStatus(server.url, e2e.tokens['alice']!)).toBe(401);
    });

    it('refuses an access token whose GitHub token expired', async () => {
      const { tokens } = await signIn();
      const upstream = (await sealer.open<{ upstream: string }>('access', tokens.access_token))!.claims.upstream;
      e2e.standin.expireToken(upstream);
      expect(await mcpStatus(server.url, tokens.access_token)).toBe(401);
    });

    it('refuses an access token past its own expiry', async () => {
      const { tokens } = await signIn();
      const opened = (await sealer.open('access', tokens.access_token))!;
      const expired = await sealer.seal('access', opened.claims, { audience: opened.audience!, expiresAt: Date.now() - 1000 });
      expect(await mcpStatus(server.url, expired)).toBe(401);
    });

    it('refuses an authorization request whose resource is missing or names no installation', async () => {
      const clientId = await register();
      const { challenge } = pkce();
      expect(await refusedPage(request(clientId, challenge, { resource: null }))).toBe('invalid_target');
      expect(await refusedPage(request(clientId, challenge, { resource: `${origin}/nobody` }))).toBe('invalid_target');
      expect(await refusedPage(request(clientId, challenge, { resource: `${server.url.href}/` }))).toBe('invalid_target');
    });

    it('keeps codes and tokens small: they carry a digest of the client, and a registration is bounded', async () => {
      const long = (index: number) => `http://127.0.0.1:1/${index}/${'c'.repeat(180)}`;
      const uris = [redirectUri, long(1), long(2), long(3), long(4), long(5), long(6), long(7), long(8)];
      const clientId = await register(uris);
      expect(clientId.length).toBeGreaterThan(2000);
      const { verifier, challenge } = pkce();
      const back = await browserSignIn(clientId, challenge);
      const code = back.searchParams.get('code')!;
      expect(code.length).toBeLessThan(2000);
      const answer = await token({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: redirectUri,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect((answer.body['access_token'] as string).length).toBeLessThan(2000);
      expect((answer.body['refresh_token'] as string).length).toBeLessThan(2000);
      expect((await sealer.open<Record<string, unknown>>('access', answer.body['access_token'] as string))!.claims).not.toHaveProperty(
        'client_id',
      );
      const tooMany = await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [1, 2, 3].map((index) => `https://app.example/${index}/${'a'.repeat(2000)}`) }),
      });
      expect(tooMany.status).toBe(400);
      expect(await tooMany.json()).toMatchObject({
        error: 'invalid_redirect_uri',
        error_description: expect.stringContaining('at most 512'),
      });
    });

    it('refuses a client id in Basic authentication that is not valid form-encoding, as invalid_client', async () => {
      const response = await fetch(`${origin}/oauth/token`, {
        ...form({ grant_type: 'authorization_code', code: 'x', code_verifier: pkce().verifier }),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('%E0%A4%A:').toString('base64')}`,
        },
      });
      // RFC 6749 §5.2: a client that authenticated with the Authorization header gets 401 and a Basic challenge.
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Basic');
      expect(await response.json()).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('form-encoding') });
    });

    it('names the rule a URL-like client_id breaks, instead of calling it unregistered', async () => {
      for (const [clientId, rule] of [
        ['https://app.example', 'must have a path'],
        ['https://app.example/a/../c.json', '. or .. path segments'],
        ['https://user@app.example/c.json', 'user name or password'],
        ['http://127.0.0.1:1/c.json', 'must use https:'],
      ] as const) {
        const response = await new Browser().fetch(request(clientId, pkce().challenge));
        expect(response.status).toBe(400);
        const text = unescapeHtml(await response.text());
        expect(text).toContain(rule);
        expect(text).not.toContain('not registered');
      }
    });

    it('with allowLoopbackClientMetadata, takes an http: loopback client_id as a metadata document', async () => {
      const other = await e2e.serveAnother({ name: 'loopback', oauth: { secrets: [secret], allowLoopbackClientMetadata: true } });
      const documentServer = http.createServer((incoming, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            client_id: `http://127.0.0.1:${port}${incoming.url}`,
            client_name: 'Loopback doc',
            redirect_uris: [redirectUri],
          }),
        );
      });
      documentServer.listen(0, '127.0.0.1');
      await once(documentServer, 'listening');
      const port = (documentServer.address() as AddressInfo).port;
      try {
        const url = new URL(request(`http://127.0.0.1:${port}/c.json`, pkce().challenge, { resource: other.url.href }));
        url.host = other.url.host;
        const response = await new Browser().fetch(url);
        const text = await response.text();
        expect(response.status, text).toBe(200);
        expect(text).toContain('Loopback doc');
      } finally {
        documentServer.closeAllConnections();
        documentServer.close();
      }
    }, 60_000);

    it('refuses an unknown client and an oversized registration', async () => {
      const unknown = await new Browser().fetch(request('not-a-client', pkce().challenge));
      expect(unknown.status).toBe(400);
      expect(unknown.headers.get('location')).toBeNull();
      const big = await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'x'.repeat(20_000) }),
      });
      expect(big.status).toBe(400);
      expect(((await big.json()) as { error: string }).error).toBe('invalid_client_metadata');
    });
  });
});
