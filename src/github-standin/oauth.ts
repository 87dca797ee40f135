// The GitHub App's OAuth web flow: the authorize page, code exchange with PKCE, refresh-token rotation.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StandinCore } from './core.ts';
import { parseBody, readBody } from './http-answer.ts';

/** Where GitHub's OAuth error answers point (docs: "Troubleshooting OAuth app access token request errors"). */
const ERROR_DOCS = 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';

/** An authorization code lives 10 minutes (docs: "Authorizing OAuth apps"). */
const CODE_TTL_MS = 600_000;

/** Escapes text for HTML. */
function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A small HTML page. */
function sendPage(res: ServerResponse, status: number, title: string, body: string): void {
  const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title></head><body><h1>${html(title)}</h1>${body}</body></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page);
}

/** The token endpoint's answer: JSON when asked (`Accept: application/json`), else form-encoded, as GitHub does. Always HTTP 200. */
function sendTokenAnswer(req: IncomingMessage, res: ServerResponse, body: Record<string, string | number>): void {
  const wantsJson = (req.headers.accept ?? '').includes('application/json');
  const text = wantsJson
    ? JSON.stringify(body)
    : new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString();
  res.writeHead(200, {
    'content-type': wantsJson ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded; charset=utf-8',
  });
  res.end(text);
}

/** GitHub's OAuth error answer (HTTP 200 with `error`, `error_description`, `error_uri`). */
function sendTokenError(req: IncomingMessage, res: ServerResponse, error: string, description: string): void {
  sendTokenAnswer(req, res, { error, error_description: description, error_uri: `${ERROR_DOCS}#${error.replace(/_/g, '-')}` });
}

/** The authorize page: a form where a demo person signs in by login (no password: this is a demo). */
function authorizePage(core: StandinCore, res: ServerResponse, params: URLSearchParams, notice?: string): void {
  const hidden = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope']
    .filter((name) => params.has(name))
    .map((name) => `<input type="hidden" name="${name}" value="${html(params.get(name) ?? '')}">`)
    .join('');
  const people = core.state.options.people
    .map((person) => `<li><code>${html(person.login)}</code>${person.name ? ` (${html(person.name)})` : ''}</li>`)
    .join('');
  sendPage(
    res,
    notice ? 422 : 200,
    `Sign in to authorize ${core.app.slug}`,
    `${notice ? `<p role="alert">${html(notice)}</p>` : ''}<form method="POST" action="/login/oauth/authorize">${hidden}` +
      `<label>Username <input name="login" autocomplete="username" required></label> <button type="submit">Authorize</button></form>` +
      `<p>Demo people:</p><ul>${people}</ul>`,
  );
}

/**
 * Serves `/login/oauth/authorize` (GET: the sign-in form; POST: the person chosen, then a 302
 * to `redirect_uri?code=…&state=…`) and `/login/oauth/access_token` (code exchange with PKCE
 * S256, or `grant_type=refresh_token`; refresh tokens are single-use and rotate).
 */
export async function serveOAuth(core: StandinCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? 'GET';
  if (url.pathname === '/login/oauth/authorize' && method === 'GET') {
    if (url.searchParams.get('client_id') !== core.app.clientId)
      return sendPage(res, 404, 'Not Found', '<p>No application has this client_id.</p>');
    return authorizePage(core, res, url.searchParams);
  }
  if (url.pathname === '/login/oauth/authorize' && method === 'POST') {
    const params = new URLSearchParams(Object.entries((parseBody(req, await readBody(req)) ?? {}) as Record<string, string>));
    if (params.get('client_id') !== core.app.clientId) return sendPage(res, 404, 'Not Found', '<p>No application has this client_id.</p>');
    const redirectUri = params.get('redirect_uri');
    if (!redirectUri)
      return sendPage(
        res,
        400,
        'redirect_uri missing',
        '<p>The stand-in needs the redirect_uri (it keeps no registered callback URL).</p>',
      );
    const account = core.state.person(params.get('login') ?? '');
    if (!account) return authorizePage(core, res, params, 'Incorrect username. Pick one of the demo people below.');
    const method = params.get('code_challenge_method');
    if (params.get('code_challenge') && method && method !== 'S256')
      return sendPage(res, 400, 'Unsupported code_challenge_method', '<p>Only S256 is supported.</p>');
    const code = randomBytes(10).toString('hex');
    core.state.oauthCodes.set(code, {
      code,
      login: account.login,
      redirectUri,
      codeChallenge: params.get('code_challenge'),
      codeChallengeMethod: method,
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    const state = params.get('state');
    if (state !== null) target.searchParams.set('state', state);
    res.writeHead(302, { location: target.toString() });
    res.end();
    return;
  }
  if (url.pathname === '/login/oauth/access_token' && method === 'POST') return accessToken(core, req, res, url);
  sendPage(res, 404, 'Not Found', '');
}

/** `POST /login/oauth/access_token`: parameters from the query string and the body (JSON or form), client credentials there or in Basic auth. */
async function accessToken(core: StandinCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const params: Record<string, string> = Object.fromEntries(url.searchParams);
  for (const [key, value] of Object.entries(parseBody(req, await readBody(req)) ?? {})) if (typeof value === 'string') params[key] = value;
  const basic = req.headers.authorization?.match(/^basic\s+(.+)$/i)?.[1];
  if (basic) {
    const [id = '', secret = ''] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    params.client_id ??= id;
    params.client_secret ??= secret;
  }
  if (params.client_id !== core.app.clientId || params.client_secret !== core.app.clientSecret) {
    return sendTokenError(req, res, 'incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
  }
  const state = core.state;
  if (params.grant_type === 'refresh_token') {
    const old = state.refreshTokens.get(params.refresh_token ?? '');
    if (!old || old.refreshUsed || old.revoked || old.refreshExpiresAt <= Date.now()) {
      return sendTokenError(req, res, 'bad_refresh_token', 'The refresh token passed is incorrect or expired.');
    }
    old.refreshUsed = true;
    return sendTokens(req, res, state.issueUserToken(old.login));
  }
  const code = state.oauthCodes.get(params.code ?? '');
  if (!code || code.expiresAt <= Date.now())
    return sendTokenError(req, res, 'bad_verification_code', 'The code passed is incorrect or expired.');
  if (params.redirect_uri && params.redirect_uri !== code.redirectUri) {
    return sendTokenError(
      req,
      res,
      'redirect_uri_mismatch',
      'The redirect_uri MUST match the registered callback URL for this application.',
    );
  }
  state.oauthCodes.delete(code.code);
  if (code.codeChallenge) {
    const verifier = params.code_verifier ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== code.codeChallenge) {
      return sendTokenError(req, res, 'bad_verification_code', 'The code passed is incorrect or expired.');
    }
  }
  sendTokens(req, res, state.issueUserToken(code.login));
}

/** The token pair answer (docs: "Generating a user access token for a GitHub App"). */
function sendTokens(req: IncomingMessage, res: ServerResponse, record: { accessToken: string; refreshToken: string }): void {
  sendTokenAnswer(req, res, {
    access_token: record.accessToken,
    expires_in: 28800,
    refresh_token: record.refreshToken,
    refresh_token_expires_in: 15897600,
    scope: '',
    token_type: 'bearer',
  });
}
