// The App's OAuth web flow over HTTP: sign-in form, code exchange with PKCE, refresh rotation, revocation.
import { createHash, randomBytes } from 'node:crypto';
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFaithful, validateWebhookPayload } from './fidelity.ts';
import { FIXTURE_APP, startStandinFixture, type StandinFixture } from './standin-fixture.ts';

const redirectUri = 'http://127.0.0.1:9/oauth/callback';

/** Signs `login` in through the authorize page; returns the code and state GitHub redirects with. */
async function signIn(
  fixture: StandinFixture,
  login: string,
  pkce?: { challenge: string },
): Promise<{ code: string; state: string | null }> {
  const authorize = new URL(`${fixture.standin.origin}/login/oauth/authorize`);
  authorize.searchParams.set('client_id', FIXTURE_APP.clientId);
  authorize.searchParams.set('redirect_uri', redirectUri);
  authorize.searchParams.set('state', 'st-123');
  if (pkce) {
    authorize.searchParams.set('code_challenge', pkce.challenge);
    authorize.searchParams.set('code_challenge_method', 'S256');
  }
  const page = await fetch(authorize);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toMatch(/<form method="POST"/);
  expect(html).toContain('name="login"');
  // Submit the form as a browser would: the hidden fields plus the login.
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields.set(
      match[1]!,
      match[2]!.replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code))),
    );
  fields.set('login', login);
  const answer = await fetch(`${fixture.standin.origin}/login/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields,
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  return { code: location.searchParams.get('code') ?? '', state: location.searchParams.get('state') };
}

/** Posts to the token endpoint as JSON and returns the JSON answer. */
async function tokenRequest(fixture: StandinFixture, body: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(`${fixture.standin.origin}/login/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ client_id: FIXTURE_APP.clientId, client_secret: FIXTURE_APP.clientSecret, ...body }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('OAuth web flow of the GitHub App', () => {
  let fixture: StandinFixture;

  beforeAll(async () => {
    fixture = await startStandinFixture();
    await fixture.standin.createRepo('acme', 'notes', [{ message: 'Start', author: 'alice', files: { 'a.md': 'A\n' } }]);
    await fixture.standin.install('acme');
    fixture.standin.grant('acme', 'notes', 'alice', 'push');
  });

  afterAll(async () => {
    await fixture?.close();
    expect(fixture.fidelityFailures()).toEqual([]);
  });

  it('signs a person in, exchanges the code with PKCE S256 once, and the token reads /user', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const { code, state } = await signIn(fixture, 'alice', { challenge });
    expect(state).toBe('st-123');
    const tokens = await tokenRequest(fixture, { code, redirect_uri: redirectUri, code_verifier: verifier });
    expect(tokens).toMatchObject({ expires_in: 28800, refresh_token_expires_in: 15897600, token_type: 'bearer', scope: '' });
    expect(tokens.access_token).toMatch(/^ghu_/);
    expect(tokens.refresh_token).toMatch(/^ghr_/);
    const { data: me } = await fixture.asUser(tokens.access_token as string).rest.users.getAuthenticated();
    expect(me.login).toBe('alice');
    // A code is single-use.
    expect(await tokenRequest(fixture, { code, redirect_uri: redirectUri, code_verifier: verifier })).toMatchObject({
      error: 'bad_verification_code',
    });
  });

  it('refuses a wrong code_verifier, a wrong client secret and an unknown code with GitHub’s errors (HTTP 200)', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const { code } = await signIn(fixture, 'alice', { challenge: createHash('sha256').update(verifier).digest('base64url') });
    expect(await tokenRequest(fixture, { code, code_verifier: 'not-the-verifier' })).toMatchObject({
      error: 'bad_verification_code',
      error_uri: expect.any(String),
    });
    expect(await tokenRequest(fixture, { code: 'nonsense', client_secret: 'wrong' })).toMatchObject({
      error: 'incorrect_client_credentials',
    });
    expect(await tokenRequest(fixture, { code: 'nonsense' })).toMatchObject({
      error: 'bad_verification_code',
      error_description: 'The code passed is incorrect or expired.',
    });
  });

  it('answers form-encoded without Accept: application/json, as GitHub does', async () => {
    const { code } = await signIn(fixture, 'alice');
    const response = await fetch(`${fixture.standin.origin}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: FIXTURE_APP.clientId, client_secret: FIXTURE_APP.clientSecret, code }),
    });
    expect(response.headers.get('content-type')).toMatch(/application\/x-www-form-urlencoded/);
    const fields = new URLSearchParams(await response.text());
    expect(fields.get('access_token')).toMatch(/^ghu_/);
    expect(fields.get('token_type')).toBe('bearer');
  });

  it('exchanges a code through @octokit/auth-app (oauth-user) at the GHES base URL', async () => {
    const { code } = await signIn(fixture, 'alice');
    const auth = createAppAuth({
      appId: FIXTURE_APP.id,
      privateKey: fixture.standin.app.privateKey,
      clientId: FIXTURE_APP.clientId,
      clientSecret: FIXTURE_APP.clientSecret,
      request: new Octokit({ baseUrl: fixture.standin.apiUrl }).request,
    });
    const authentication = (await auth({ type: 'oauth-user', code })) as { token: string; refreshToken?: string; expiresAt?: string };
    expect(authentication.token).toMatch(/^ghu_/);
    expect(authentication.refreshToken).toMatch(/^ghr_/);
    expect(Date.parse(authentication.expiresAt ?? '') - Date.now()).toBeGreaterThan(28_000_000);
  });

  it('rotates refresh tokens; a reused one answers bad_refresh_token', async () => {
    const { refreshToken } = await fixture.standin.userToken('alice');
    const first = await tokenRequest(fixture, { grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(first.access_token).toMatch(/^ghu_/);
    expect(first.refresh_token).not.toBe(refreshToken);
    expect(await tokenRequest(fixture, { grant_type: 'refresh_token', refresh_token: refreshToken })).toMatchObject({
      error: 'bad_refresh_token',
    });
    const second = await tokenRequest(fixture, { grant_type: 'refresh_token', refresh_token: first.refresh_token as string });
    expect(second.access_token).toMatch(/^ghu_/);
  });

  it('revokes a grant with DELETE /applications/{client_id}/grant: tokens stop working and the App hears github_app_authorization.revoked', async () => {
    const { accessToken } = await fixture.standin.userToken('alice');
    const octokit = fixture.asUser(accessToken);
    await octokit.rest.users.getAuthenticated();
    const basic = Buffer.from(`${FIXTURE_APP.clientId}:${FIXTURE_APP.clientSecret}`).toString('base64');
    await fixture.asAnonymous().request('DELETE /applications/{client_id}/grant', {
      client_id: FIXTURE_APP.clientId,
      access_token: accessToken,
      headers: { authorization: `basic ${basic}` },
    });
    await expect(octokit.rest.users.getAuthenticated()).rejects.toMatchObject({
      status: 401,
      response: { data: { message: 'Bad credentials' } },
    });
    const revoked = fixture.standin.deliveries().at(-1)!;
    expect([revoked.event, revoked.action]).toEqual(['github_app_authorization', 'revoked']);
    assertFaithful(validateWebhookPayload(revoked.event, revoked.payload), 'the github_app_authorization payload');
  });
});
