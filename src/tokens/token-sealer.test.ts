import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenSealer } from './token-sealer.ts';

const secret = () => randomBytes(32);
const inAnHour = () => Date.now() + 3_600_000;

describe('TokenSealer', () => {
  it('opens what it sealed, with its claims, audience and expiry', async () => {
    const sealer = new TokenSealer([secret()]);
    const expiresAt = inAnHour();
    const token = await sealer.seal('access', { client_id: 'c1', upstream: 'ghu_x' }, { audience: 'http://h/acme', expiresAt });
    const opened = await sealer.open('access', token, { audience: 'http://h/acme' });
    expect(opened?.claims).toEqual({ client_id: 'c1', upstream: 'ghu_x' });
    expect(opened?.audience).toBe('http://h/acme');
    expect(opened?.expiresAt).toBe(Math.floor(expiresAt / 1000) * 1000);
    expect(token).not.toContain('ghu_x');
  });

  it('refuses another kind, another audience, an expired token, a tampered one and strangers', async () => {
    const sealer = new TokenSealer([secret()]);
    const token = await sealer.seal('refresh', { a: 1 }, { audience: 'http://h/acme', expiresAt: inAnHour() });
    expect(await sealer.open('access', token)).toBeNull();
    expect(await sealer.open('refresh', token, { audience: 'http://h/acme2' })).toBeNull();
    const expired = await sealer.seal('refresh', { a: 1 }, { expiresAt: Date.now() - 2000 });
    expect(await sealer.open('refresh', expired)).toBeNull();
    for (let at = 0; at < token.length; at += 7) {
      const flipped = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      if (flipped !== token) expect(await sealer.open('refresh', flipped)).toBeNull();
    }
    expect(await new TokenSealer([secret()]).open('refresh', token)).toBeNull();
    for (const junk of ['', 'ghu_abc', 'a.b.c.d.e', '....', 'x'.repeat(20_000)]) expect(await sealer.open('refresh', junk)).toBeNull();
  });

  it('seals with the first secret and opens with any (rotation)', async () => {
    const [oldSecret, newSecret] = [secret(), secret()];
    const token = await new TokenSealer([oldSecret]).seal('client', { n: 1 }, {});
    const rotated = new TokenSealer([newSecret, oldSecret]);
    expect((await rotated.open('client', token))?.claims).toEqual({ n: 1 });
    expect(await new TokenSealer([newSecret]).open('client', token)).toBeNull();
    const mac = new TokenSealer([oldSecret]).mac('csrf', 'data');
    expect(rotated.macMatches('csrf', 'data', mac)).toBe(true);
    expect(rotated.macMatches('csrf', 'other', mac)).toBe(false);
  });

  it('refuses short secrets and reserved claim names', async () => {
    expect(() => new TokenSealer([randomBytes(16)])).toThrow(/at least 32/);
    expect(() => new TokenSealer([])).toThrow(/at least one/);
    await expect(new TokenSealer([secret()]).seal('code', { aud: 'x' }, {})).rejects.toThrow(/sealer's own/);
  });
});
