// The installation name's rule: one path segment, and none of the front's own routes.
import { describe, expect, it } from 'vitest';
import { checkInstallationName, installationOfAddress, isInstallationName, reservedInstallationNames } from './installation-name.ts';

describe('an installation name', () => {
  it('is one path segment starting with a letter or digit', () => {
    for (const name of ['acme', 'Acme-Corp', '2024.notes', 'a_b']) expect(isInstallationName(name)).toBe(true);
    for (const name of ['', '..', '.well-known', '-x', '_x', 'a b', 'a/b', 'ä']) expect(isInstallationName(name)).toBe(false);
  });

  it("is none of the front's own routes, compared without case", () => {
    expect([...reservedInstallationNames].sort()).toEqual(['.well-known', 'github', 'healthz', 'metrics', 'oauth', 'readyz', 'webhooks']);
    for (const name of ['oauth', 'OAuth', 'webhooks', 'github', 'GitHub', 'healthz', 'readyz', 'Metrics'])
      expect(isInstallationName(name)).toBe(false);
    expect(isInstallationName('github-notes')).toBe(true);
  });

  it('is refused with the real rule, saying how to give another', () => {
    for (const name of ['..', '-x', '.well-known']) {
      expect(() => checkInstallationName(name)).toThrow(
        `cannot be an address; give another with --name: it starts with a letter or digit, then has only letters, digits, ".", "_" and "-", and is not one of the server's own paths (oauth, webhooks, github, healthz, readyz, metrics).`,
      );
    }
    expect(() => checkInstallationName('webhooks')).toThrow(/"webhooks" cannot be an address/);
    expect(checkInstallationName('acme')).toBe('acme');
  });

  it("is read from an MCP address's path, and from nothing else", () => {
    const of = (path: string) => installationOfAddress(new URL(path, 'http://front.internal'));
    expect(of('/acme')).toBe('acme');
    expect(of('/acme/')).toBe('acme');
    expect(of('/acme?x=1')).toBe('acme');
    for (const path of ['/', '/oauth', '/metrics', '/acme/x', '/.well-known/oauth-protected-resource/acme', '/a%20b'])
      expect(of(path)).toBeUndefined();
  });
});
