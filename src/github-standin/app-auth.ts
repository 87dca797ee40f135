// Who a request is: the App (its RS256 JWT), an installation token, a user token, or a person's password.
import { createPrivateKey, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import type { Caller, StandinState } from './state.ts';

/** The App's private key as GitHub hands it out (PKCS#1 PEM, RSA 2048), made when the options give none. */
export function makeAppPrivateKey(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}

/** The public half of the App's private key (PKCS#1 or PKCS#8 PEM). */
export function appPublicKey(privateKeyPem: string): KeyObject {
  return createPublicKey(createPrivateKey(privateKeyPem));
}

/** Why a JWT was refused, with the message GitHub answers (HTTP 401). */
export type JwtRefusal = { ok: false; message: string };

/**
 * Verifies an App JWT as GitHub does (docs: "Generating a JSON Web Token (JWT) for a GitHub
 * App"): RS256 signed with the App's key, `iss` the App id or client id, `iat` not in the
 * future (60 s drift allowed), `exp` in the future and at most 10 minutes after `iat`.
 */
export function verifyAppJwt(
  jwt: string,
  key: KeyObject,
  app: { id: number; clientId: string },
  now = Date.now(),
): { ok: true } | JwtRefusal {
  const undecodable: JwtRefusal = { ok: false, message: 'A JSON web token could not be decoded' };
  const parts = jwt.split('.');
  if (parts.length !== 3) return undecodable;
  const [head = '', body = '', signature = ''] = parts;
  let header: { alg?: unknown };
  let claims: { iss?: unknown; iat?: unknown; exp?: unknown };
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as typeof header;
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return undecodable;
  }
  if (header.alg !== 'RS256') return undecodable;
  if (!verify('RSA-SHA256', Buffer.from(`${head}.${body}`), key, Buffer.from(signature, 'base64url'))) return undecodable;
  const seconds = Math.floor(now / 1000);
  if (typeof claims.iat !== 'number' || claims.iat > seconds + 60) {
    return { ok: false, message: "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued." };
  }
  if (typeof claims.exp !== 'number' || claims.exp <= seconds) {
    return {
      ok: false,
      message: "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires.",
    };
  }
  if (claims.exp - claims.iat > 600) return { ok: false, message: "'Expiration time' claim ('exp') is too far in the future." };
  if (String(claims.iss) !== String(app.id) && claims.iss !== app.clientId) {
    return { ok: false, message: "'Issuer' claim ('iss') must be an Integer" };
  }
  return { ok: true };
}

/** GitHub's answer to an unknown, expired or revoked token (HTTP 401). */
const BAD_CREDENTIALS: Caller = { kind: 'bad', message: 'Bad credentials' };

/** A token (not a JWT, not a password) resolved to its caller, or a bad-credentials refusal. */
function tokenCaller(state: StandinState, token: string): Caller {
  if (token.startsWith('ghs_')) {
    const record = state.installationTokens.get(token);
    const installation = record ? state.installations.get(record.installationId) : undefined;
    if (!record || record.expiresAt <= Date.now() || !installation || installation.deleted) return BAD_CREDENTIALS;
    return { kind: 'installation', installation, token: record };
  }
  const user = state.liveUserToken(token);
  const account = user ? state.person(user.login) : undefined;
  if (!user || !account) return BAD_CREDENTIALS;
  return { kind: 'user', account, token: user };
}

/**
 * The caller of a request from its `Authorization` header: `token X` / `Bearer X` (a
 * `ghs_`/`ghu_` token, or the App's JWT), or Basic `x-access-token:<token>` /
 * `<login>:<password>` (Git over HTTP). No header: `none`. Unknown or expired: `bad`.
 */
export function resolveCaller(state: StandinState, key: KeyObject, header: string | undefined): Caller {
  if (!header) return { kind: 'none' };
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  const value = rest.join(' ');
  const lower = scheme.toLowerCase();
  if (lower === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    if (/^gh[su]_/.test(password)) return tokenCaller(state, password);
    const account = state.person(user);
    if (account?.person && account.person.password === password) return { kind: 'password', account };
    return BAD_CREDENTIALS;
  }
  if (lower !== 'token' && lower !== 'bearer') return BAD_CREDENTIALS;
  if (value.split('.').length === 3) {
    const verdict = verifyAppJwt(value, key, state.options.app);
    if (verdict.ok) return { kind: 'app' };
    return { kind: 'bad', message: verdict.message };
  }
  return tokenCaller(state, value);
}
