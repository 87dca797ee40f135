import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { frontSecretVariable, readOAuthSettings } from './oauth-settings.ts';

describe('readOAuthSettings', () => {
  it('reads one or more secrets, newest first, and none when unset', () => {
    const [a, b] = [randomBytes(32).toString('base64url'), randomBytes(48).toString('base64url')];
    expect(readOAuthSettings({ [frontSecretVariable]: `${a}, ${b}` })).toEqual({ secrets: [a, b] });
    expect(readOAuthSettings({})).toBeUndefined();
  });

  it('refuses a short or malformed secret, saying how to make one', () => {
    expect(() => readOAuthSettings({ [frontSecretVariable]: randomBytes(16).toString('base64url') })).toThrow(
      /16 bytes.*at least 32.*randomBytes/,
    );
    expect(() => readOAuthSettings({ [frontSecretVariable]: 'not base64url!' })).toThrow(/not base64url/);
  });
});
