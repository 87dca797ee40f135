// Sealed tokens: what the front hands out instead of keeping state (DESIGN.md "How one call
// travels", step 2): registered client ids, consent states, codes, access and refresh tokens,
// grace records and the browser cookie, each a JWE the front alone can open.
import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';

/**
 * What a sealed token is for. Sealed as the `kind` claim and checked on opening, so a token
 * of one kind is never accepted as another (a refresh token is no access token, a code no
 * client id).
 */
export type SealedKind = 'client' | 'consent' | 'code' | 'access' | 'refresh' | 'grace' | 'browser';

/** The claims the sealer sets itself; a caller's claims may not use these names. */
const reservedClaims = new Set(['kind', 'aud', 'exp', 'iat', 'nbf', 'iss', 'sub', 'jti']);

/** The shortest secret accepted, in bytes (the key is 256 bits; a shorter secret would be the weaker part). */
export const minimumSecretBytes = 32;

/** The longest token {@link TokenSealer.open} looks at, in characters: anything longer is not ours. */
const maximumTokenLength = 16_384;

/** An opened token: its claims (without the sealer's own), when it expires (ms since the epoch, null: never) and its audience. */
export interface Opened<Claims> {
  claims: Claims;
  expiresAt: number | null;
  audience: string | null;
}

/** One secret's keys: the JWE key (`dir`, A256GCM) and the MAC key, and the key id naming them. */
interface Keys {
  kid: string;
  jwe: Uint8Array;
  mac: Buffer;
}

/**
 * Seals and opens the front's tokens: JWE compact serialization (RFC 7516 §7.1) with direct
 * encryption (`alg: dir`, RFC 7518 §4.5) and AES-256-GCM (`enc: A256GCM`, RFC 7518 §5.3),
 * so a token is both secret and tamper-evident; its payload is a JWT claims set (RFC 7519)
 * with `kind`, `aud` (RFC 7519 §4.1.3), `exp` (§4.1.4, whole seconds) and `iat`. The 256-bit
 * key is derived from a secret with HKDF-SHA256 (RFC 5869); several secrets may be given for
 * rotation: the first seals, every one opens (the protected header's `kid` names which).
 * Throws an Error when no secret is given or one is shorter than {@link minimumSecretBytes}.
 */
export class TokenSealer {
  private readonly keys: Keys[];

  constructor(secrets: readonly Uint8Array[]) {
    if (secrets.length === 0) throw new Error('The token sealer needs at least one secret.');
    this.keys = secrets.map((secret, at) => {
      if (secret.byteLength < minimumSecretBytes)
        throw new Error(`Secret ${at + 1} of the token sealer has ${secret.byteLength} bytes; give at least ${minimumSecretBytes}.`);
      const jwe = new Uint8Array(hkdfSync('sha256', secret, 'major-vault', 'sealed tokens: dir A256GCM', 32));
      const mac = Buffer.from(hkdfSync('sha256', secret, 'major-vault', 'browser binding: HMAC-SHA256', 32));
      const kid = createHash('sha256').update(jwe).digest('base64url').slice(0, 12);
      return { kid, jwe, mac };
    });
  }

  /**
   * Seals `claims` (JSON values; not `kind`, `aud`, `exp`, `iat`, `nbf`, `iss`, `sub` or
   * `jti`, which are the sealer's) as a token of `kind`, for `audience` when given, valid until
   * `expiresAt` (ms since the epoch; absent: never expires). Resolves to the compact JWE.
   */
  async seal(kind: SealedKind, claims: Record<string, unknown>, options: { audience?: string; expiresAt?: number }): Promise<string> {
    for (const name of Object.keys(claims)) if (reservedClaims.has(name)) throw new Error(`The claim "${name}" is the sealer's own.`);
    const keys = this.keys[0]!;
    const jwt = new EncryptJWT({ ...claims, kind }).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: keys.kid }).setIssuedAt();
    if (options.audience !== undefined) jwt.setAudience(options.audience);
    if (options.expiresAt !== undefined) jwt.setExpirationTime(Math.floor(options.expiresAt / 1000));
    return jwt.encrypt(keys.jwe);
  }

  /**
   * Opens `token` as a token of `kind`: its claims, expiry and audience, or null for anything
   * not sealed by one of our secrets, altered, expired (RFC 7519 §4.1.4), of another kind, or
   * (when `audience` is given) not for exactly that audience (RFC 7519 §4.1.3). Never throws on
   * what a caller sends.
   */
  async open<Claims = Record<string, unknown>>(
    kind: SealedKind,
    token: string,
    options: { audience?: string } = {},
  ): Promise<Opened<Claims> | null> {
    if (typeof token !== 'string' || token.length === 0 || token.length > maximumTokenLength) return null;
    try {
      const { payload } = await jwtDecrypt(
        token,
        (header) => {
          const keys = this.keys.find((candidate) => candidate.kid === header.kid);
          if (!keys) throw new Error('not sealed with a key of ours');
          return keys.jwe;
        },
        { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] },
      );
      if (payload.kind !== kind) return null;
      const audience = typeof payload.aud === 'string' ? payload.aud : null;
      if (options.audience !== undefined && audience !== options.audience) return null;
      return {
        claims: withoutReserved(payload) as Claims,
        expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : null,
        audience,
      };
    } catch {
      return null;
    }
  }

  /** An HMAC-SHA256 (RFC 2104) of `data` for `purpose`, base64url, with the first secret's MAC key. */
  mac(purpose: string, data: string): string {
    return macWith(this.keys[0]!.mac, purpose, data);
  }

  /** Whether `mac` is {@link mac} of `data` for `purpose` under any of the secrets; compared in constant time. */
  macMatches(purpose: string, data: string, mac: string): boolean {
    const given = Buffer.from(mac, 'utf8');
    return this.keys.some((keys) => {
      const expected = Buffer.from(macWith(keys.mac, purpose, data), 'utf8');
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }
}

function macWith(key: Buffer, purpose: string, data: string): string {
  return createHmac('sha256', key).update(`${purpose}\n${data}`, 'utf8').digest('base64url');
}

function withoutReserved(payload: JWTPayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([name]) => !reservedClaims.has(name)));
}
