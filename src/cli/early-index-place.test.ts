import { describe, expect, it } from 'vitest';
import { earlyIndexPlace } from './early-index-place.ts';

const argv = (...args: string[]) => ['node', 'major-vault.js', ...args];

describe('earlyIndexPlace', () => {
  it('reads --repos and --data of stdio, in both spellings, the last one winning', () => {
    expect(earlyIndexPlace(argv('stdio', '--repos', 'vaults', '--log-level', 'warn'))).toEqual({ reposDir: 'vaults' });
    expect(earlyIndexPlace(argv('stdio', '--repos=a', '--as', 'maya', '--data', 'd', '--repos', 'b'))).toEqual({
      reposDir: 'b',
      dataDir: 'd',
    });
  });

  it('leaves everything else to the command', () => {
    expect(earlyIndexPlace(argv('index', '--repos', 'vaults'))).toBeNull();
    expect(earlyIndexPlace(argv('serve', '--repos', 'vaults', '--port', '0'))).toBeNull();
    expect(earlyIndexPlace(argv('serve', '--port', '0'))).toBeNull();
    expect(earlyIndexPlace(argv('serve', '--repos', 'vaults', '--database-url', 'postgres://x'))).toBeNull();
    expect(earlyIndexPlace(argv('serve', '--repos', 'vaults', '--help'))).toBeNull();
    expect(earlyIndexPlace(argv('stdio', '--repos', '--data'))).toBeNull();
    expect(earlyIndexPlace(argv('stdio', '--repos'))).toBeNull();
    expect(earlyIndexPlace(argv('serve', 'extra', '--repos', 'vaults'))).toBeNull();
  });
});
