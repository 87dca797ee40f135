import { describe, expect, test } from 'vitest';
import { protectedResourceMetadataUrl, unauthorizedResponse } from './protected-resource-metadata.ts';

describe('RFC 9728 discovery', () => {
  test('the document sits at the well-known prefix before the resource path', () => {
    expect(protectedResourceMetadataUrl(new URL('http://127.0.0.1:8787/acme'))).toBe(
      'http://127.0.0.1:8787/.well-known/oauth-protected-resource/acme',
    );
    expect(protectedResourceMetadataUrl(new URL('https://vlt.example/'))).toBe('https://vlt.example/.well-known/oauth-protected-resource');
  });

  test('a 401 names the document, and says invalid_token only when a token was sent', async () => {
    const none = unauthorizedResponse(new URL('http://localhost:8787/acme'), false);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="http://localhost:8787/.well-known/oauth-protected-resource/acme"',
    );
    const wrong = unauthorizedResponse(new URL('http://localhost:8787/acme'), true);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await wrong.json()).toMatchObject({ error: 'invalid_token' });
  });
});
