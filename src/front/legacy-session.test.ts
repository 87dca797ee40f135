import { describe, expect, test } from 'vitest';
import { clientNameFromSessionId, initializeClientName, sessionIdFor } from './legacy-session.ts';

describe('the client name in a session id', () => {
  test('round-trips any name, in visible ASCII, different for each connection', () => {
    for (const name of ['claude-ai', 'Claude Code', 'Zoë’s client ✨']) {
      const id = sessionIdFor(name);
      expect(id).toMatch(/^[\x21-\x7e]+$/);
      expect(clientNameFromSessionId(id)).toBe(name);
    }
    expect(sessionIdFor('x')).not.toBe(sessionIdFor('x'));
  });

  test('another server’s session id, or a forged one with control characters, gives no name', () => {
    expect(clientNameFromSessionId(null)).toBeNull();
    expect(clientNameFromSessionId('3f2c9a0e-1b7d-4c55-9a65-6f1d2a7e9b10')).toBeNull();
    expect(clientNameFromSessionId(`mv1.${Buffer.from('a\nb').toString('base64url')}.x`)).toBeNull();
  });

  test('the name is read from an initialize request only', () => {
    expect(
      initializeClientName({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'claude-ai', version: '1' } } }),
    ).toBe('claude-ai');
    expect(initializeClientName({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeNull();
    expect(initializeClientName([{ method: 'initialize' }])).toBeNull();
    expect(initializeClientName(null)).toBeNull();
  });
});
