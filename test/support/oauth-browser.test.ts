// The scripted browser against a tiny authorization server on 127.0.0.1: a consent form bound
// to a cookie, then a sign-in form, then the loopback callback; and the SameSite rules across
// 127.0.0.1 and localhost.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIXTURE_APP, startStandinFixture } from '../../src/github-standin/standin-fixture.ts';
import { BrowserError, OAuthBrowser } from './oauth-browser.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL, body: URLSearchParams) => void;

async function listen(handler: Handler): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => handler(req, res, new URL(req.url ?? '/', 'http://127.0.0.1'), new URLSearchParams(text)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function cookiesOf(req: IncomingMessage): Map<string, string> {
  const pairs = (req.headers.cookie ?? '').split(';').map((pair) => pair.trim().split('='));
  return new Map(pairs.filter((pair) => pair.length === 2) as Array<[string, string]>);
}

function page(res: ServerResponse, body: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`);
}

function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location });
  res.end();
}

/**
 * `/authorize` shows a consent page (two forms: approve and deny) and sets a CSRF cookie;
 * `POST /consent` checks cookie, token and Origin, sets the approval cookie and sends the
 * person to `/login`; `POST /login` needs the approval cookie and a login, then redirects to
 * the callback with a code. Every request is recorded with the headers a test looks at.
 */
function authorizationServer(seen: Array<{ path: string; origin?: string; fetchSite?: string }>): Handler {
  return (req, res, url, body) => {
    seen.push({ path: url.pathname, origin: req.headers.origin, fetchSite: req.headers['sec-fetch-site'] as string | undefined });
    const cookies = cookiesOf(req);
    if (url.pathname === '/authorize') {
      const csrf = randomBytes(8).toString('hex');
      const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value}">`;
      const common =
        hidden('csrf', csrf) +
        hidden('redirect_uri', url.searchParams.get('redirect_uri') ?? '') +
        hidden('state', url.searchParams.get('state') ?? '');
      return page(
        res,
        `<h1>Allow Test Client?</h1>` +
          `<form method="post" action="/consent">${common}<button name="decision" value="approve">Allow</button></form>` +
          `<form method="post" action="/consent">${common}<button name="decision" value="deny">Deny</button></form>`,
        { 'set-cookie': `csrf=${csrf}; Path=/; HttpOnly; SameSite=Strict` },
      );
    }
    if (url.pathname === '/consent' && req.method === 'POST') {
      const back = new URL(body.get('redirect_uri') ?? '');
      back.searchParams.set('state', body.get('state') ?? '');
      if (body.get('csrf') !== cookies.get('csrf') || req.headers.origin !== `http://${req.headers.host}`) {
        res.writeHead(403, { 'content-type': 'text/html' });
        return res.end('<p>The consent form expired: start the sign-in again.</p>');
      }
      if (body.get('decision') !== 'approve') {
        back.searchParams.set('error', 'access_denied');
        return redirect(res, 302, back.href);
      }
      const next = new URL('/login', url);
      next.search = new URLSearchParams({ redirect_uri: body.get('redirect_uri') ?? '', state: body.get('state') ?? '' }).toString();
      res.writeHead(303, { location: next.pathname + next.search, 'set-cookie': 'approved=yes; Path=/; HttpOnly; Secure; SameSite=Lax' });
      return res.end();
    }
    if (url.pathname === '/login' && req.method === 'GET') {
      if (cookies.get('approved') !== 'yes') {
        res.writeHead(403, { 'content-type': 'text/html' });
        return res.end('<p>This sign-in was approved in another browser.</p>');
      }
      return page(
        res,
        `<form method="POST" action="/login"><input type="hidden" name="redirect_uri" value="${url.searchParams.get('redirect_uri')}">` +
          `<input type="hidden" name="state" value="${url.searchParams.get('state')}">` +
          `<label>Username <input name="login" required></label><label><input type="checkbox" name="remember" value="1"> Remember</label>` +
          `<select name="lang"><option value="en">English</option><option value="fr" selected>French</option></select>` +
          `<button type="submit">Sign in</button></form>`,
      );
    }
    if (url.pathname === '/login' && req.method === 'POST') {
      const back = new URL(body.get('redirect_uri') ?? '');
      back.search = new URLSearchParams({
        code: `code-for-${body.get('login')}-${body.get('lang')}-${body.get('remember') ?? 'no'}`,
        state: body.get('state') ?? '',
      }).toString();
      return redirect(res, 302, back.href);
    }
    res.writeHead(404).end();
  };
}

describe('the scripted OAuth browser', () => {
  const seen: Array<{ path: string; origin?: string; fetchSite?: string }> = [];
  const callbacks: string[] = [];
  let as: { server: Server; origin: string };
  let client: { server: Server; origin: string };
  const authorizationUrl = () => {
    const url = new URL('/authorize', as.origin);
    url.search = new URLSearchParams({ client_id: 'c', redirect_uri: `${client.origin}/oauth/callback`, state: 'st-1' }).toString();
    return url;
  };

  beforeAll(async () => {
    as = await listen(authorizationServer(seen));
    client = await listen((req, res, url) => {
      callbacks.push(url.search);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('Authorization successful!');
    });
  });
  afterAll(() => {
    as.server.close();
    client.server.close();
  });

  test('approves, signs in and stops at the redirect_uri with the code and state', async () => {
    const browser = new OAuthBrowser({ decision: 'approve', login: 'maya' });
    const { callback, delivery } = await browser.signIn(authorizationUrl());
    expect(callback.origin + callback.pathname).toBe(`${client.origin}/oauth/callback`);
    expect(callback.searchParams.get('code')).toBe('code-for-maya-fr-no');
    expect(callback.searchParams.get('state')).toBe('st-1');
    expect(delivery).toBeUndefined();
    expect(browser.visits.map((visit) => `${visit.method} ${new URL(visit.url).pathname} ${visit.status}`)).toEqual([
      'GET /authorize 200',
      'POST /consent 303',
      'GET /login 200',
      'POST /login 302',
    ]);
    const posts = seen.filter((request) => request.origin !== undefined);
    expect(posts.every((request) => request.origin === as.origin && request.fetchSite === 'same-origin')).toBe(true);
  });

  test('with deliver, opens the callback so the client listening there receives it', async () => {
    const before = callbacks.length;
    const { delivery } = await new OAuthBrowser({ login: 'tom', remember: '1', lang: 'en' }).signIn(authorizationUrl(), {
      answers: { decision: 'approve', login: 'tom', remember: '1', lang: 'en' },
      deliver: true,
    });
    expect(delivery).toEqual({ status: 200, text: 'Authorization successful!' });
    expect(callbacks.slice(before)).toEqual(['?code=code-for-tom-en-1&state=st-1']);
  });

  test('presses the deny button of the second form', async () => {
    const { callback } = await new OAuthBrowser({ decision: 'deny' }).signIn(authorizationUrl());
    expect(callback.searchParams.get('error')).toBe('access_denied');
  });

  test('a required field without an answer stops the browser with the field named', async () => {
    const attempt = new OAuthBrowser({ decision: 'approve' }).signIn(authorizationUrl());
    await expect(attempt).rejects.toThrow(/needs field 'login'/);
  });

  test('an approval cookie does not travel to another browser', async () => {
    const first = new OAuthBrowser({ decision: 'approve' });
    const { callback: loginPage } = await first.signIn(authorizationUrl(), { stopAt: new URL('/login', as.origin) });
    const error = await new OAuthBrowser({ login: 'maya' }).signIn(loginPage).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrowserError);
    expect((error as BrowserError).status).toBe(403);
    expect((error as BrowserError).text).toBe('This sign-in was approved in another browser.');
    const { callback } = await first.signIn(loginPage, { answers: { login: 'maya' } });
    expect(callback.searchParams.get('code')).toBe('code-for-maya-fr-no');
  });

  test('two forms and answers that match neither is an error naming the forms', async () => {
    const attempt = new OAuthBrowser({ decision: 'maybe' }).signIn(authorizationUrl());
    await expect(attempt).rejects.toThrow(/has 2 forms and the answers \(decision\) match none/);
  });

  test('SameSite: a cross-site GET carries Lax cookies (the default), a cross-site POST only None ones', async () => {
    const received: string[] = [];
    let awayOrigin = '';
    const home = await listen((req, res, url) => {
      if (url.pathname === '/set') {
        const cookies = [
          'strict=1; Path=/; SameSite=Strict',
          'lax=1; Path=/; SameSite=Lax',
          'plain=1; Path=/',
          'none=1; Path=/; SameSite=None; Secure',
        ];
        res.writeHead(302, { location: `${awayOrigin}/hop`, 'set-cookie': cookies });
        return res.end();
      }
      received.push(`${req.method} ${req.headers.cookie ?? ''}`);
      redirect(res, 302, url.pathname === '/back' ? `${awayOrigin}/form` : `${client.origin}/oauth/callback?code=x`);
    });
    const homeOrigin = home.origin;
    // localhost is another site than 127.0.0.1, as github.com is another site than the front.
    const away = await listen((_req, res, url) =>
      url.pathname === '/hop'
        ? redirect(res, 302, `${homeOrigin}/back`)
        : page(res, `<form method="post" action="${homeOrigin}/post"><button>Go</button></form>`),
    );
    awayOrigin = `http://localhost:${(away.server.address() as AddressInfo).port}`;
    try {
      await new OAuthBrowser().signIn(`${homeOrigin}/set`, { stopAt: `${client.origin}/oauth/callback` });
      expect(received).toEqual(['GET lax=1; plain=1; none=1', 'POST none=1']);
    } finally {
      home.server.close();
      away.server.close();
    }
  });

  test('the command delivers the callback, or the reason it failed as error=access_denied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oauth-browser-'));
    const script = fileURLToPath(new URL('./oauth-browser.sh', import.meta.url));
    const run = (env: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const child = execFile(script, [authorizationUrl().href], { env: { PATH: process.env['PATH'] ?? '', ...env } });
        child.on('exit', (code) => resolve(code ?? -1));
      });
    try {
      const before = callbacks.length;
      const log = join(dir, 'browser.log');
      expect(await run({ OAUTH_BROWSER_LOGIN: 'maya', OAUTH_BROWSER_LOG: log })).toBe(0);
      expect(await run({ OAUTH_BROWSER_DECISION: 'approve', OAUTH_BROWSER_LOG: log })).toBe(0);
      expect(callbacks.length - before).toBe(2);
      expect(callbacks[before]).toBe('?code=code-for-maya-fr-no&state=st-1');
      expect(callbacks[before + 1]).toMatch(
        /^\?error=access_denied&error_description=scripted\+browser%3A\+the\+form\+of\+.*needs\+field\+%27login%27.*&state=st-1$/,
      );
      const lines = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((line) => [line['delivered'], line['deliveredError']])).toEqual([
        [200, undefined],
        [undefined, true],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("signs in on the GitHub stand-in's authorize page, and names the refusal of an unknown login", async () => {
    const fixture = await startStandinFixture();
    try {
      const authorize = new URL('/login/oauth/authorize', fixture.standin.origin);
      authorize.search = new URLSearchParams({
        client_id: FIXTURE_APP.clientId,
        redirect_uri: `${client.origin}/gh`,
        state: 'gh-1',
      }).toString();
      const { callback } = await new OAuthBrowser({ login: 'alice' }).signIn(authorize);
      expect(callback.searchParams.get('state')).toBe('gh-1');
      expect(callback.searchParams.get('code')).toMatch(/^[0-9a-f]{20}$/);
      const error = await new OAuthBrowser({ login: 'mallory' }).signIn(authorize).catch((caught: unknown) => caught);
      expect((error as BrowserError).status).toBe(422);
      expect((error as BrowserError).text).toContain('Incorrect username.');
    } finally {
      await fixture.close();
    }
  });
});
