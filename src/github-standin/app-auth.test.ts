// The App's JWT checked as GitHub checks it: RS256 with the App's key, issuer, and a lifetime of at most ten minutes.
import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appPublicKey, makeAppPrivateKey, verifyAppJwt } from './app-auth.ts';

const privateKey = makeAppPrivateKey();
const publicKey = appPublicKey(privateKey);
const app = { id: 4242, clientId: 'Iv1.abc' };
const now = Date.now();
const seconds = Math.floor(now / 1000);

/** A JWT with `claims`, signed RS256 with `key` (the App's by default). */
function jwt(claims: Record<string, unknown>, options: { alg?: string; key?: string } = {}): string {
  const head = Buffer.from(JSON.stringify({ alg: options.alg ?? 'RS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = sign('RSA-SHA256', Buffer.from(`${head}.${body}`), createPrivateKey(options.key ?? privateKey)).toString('base64url');
  return `${head}.${body}.${signature}`;
}

describe('verifyAppJwt', () => {
  it('accepts what @octokit/auth-app makes: iat 30 s back, exp 10 minutes after iat, iss the App id or client id', () => {
    expect(verifyAppJwt(jwt({ iat: seconds - 30, exp: seconds + 570, iss: app.id }), publicKey, app, now)).toEqual({ ok: true });
    expect(verifyAppJwt(jwt({ iat: seconds - 30, exp: seconds + 570, iss: String(app.id) }), publicKey, app, now)).toEqual({ ok: true });
    expect(verifyAppJwt(jwt({ iat: seconds, exp: seconds + 600, iss: app.clientId }), publicKey, app, now)).toEqual({ ok: true });
  });

  it('refuses an expired token, one living longer than 10 minutes, one issued in the future, and another issuer', () => {
    expect(verifyAppJwt(jwt({ iat: seconds - 700, exp: seconds - 100, iss: app.id }), publicKey, app, now)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/'exp'/),
    });
    expect(verifyAppJwt(jwt({ iat: seconds, exp: seconds + 601, iss: app.id }), publicKey, app, now)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/too far in the future/),
    });
    expect(verifyAppJwt(jwt({ iat: seconds + 120, exp: seconds + 600, iss: app.id }), publicKey, app, now)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/'iat'/),
    });
    expect(verifyAppJwt(jwt({ iat: seconds, exp: seconds + 600, iss: 1 }), publicKey, app, now)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/'iss'/),
    });
  });

  it('refuses another key, another algorithm and garbage as "could not be decoded"', () => {
    const undecodable = { ok: false, message: 'A JSON web token could not be decoded' };
    const claims = { iat: seconds, exp: seconds + 600, iss: app.id };
    expect(verifyAppJwt(jwt(claims, { key: makeAppPrivateKey() }), publicKey, app, now)).toEqual(undecodable);
    expect(verifyAppJwt(jwt(claims, { alg: 'HS256' }), publicKey, app, now)).toEqual(undecodable);
    expect(verifyAppJwt('not.a.jwt', publicKey, app, now)).toEqual(undecodable);
    expect(verifyAppJwt('nonsense', publicKey, app, now)).toEqual(undecodable);
  });
});
