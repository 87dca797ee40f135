// Client metadata as a registration request or a metadata document sends it: every rule of
// parseClientMetadata, hostile input, and the exact comparison of redirect URIs.
import { describe, expect, test } from 'vitest';
import { isLoopbackRedirect, parseClientMetadata, redirectUriMatches } from './client-metadata.ts';
import { isOAuthError, type OAuthError } from './oauth-error.ts';

/** The refusal `run` throws; fails the test when it does not throw an OAuthError. */
function refusal(run: () => unknown): OAuthError {
  try {
    run();
  } catch (error) {
    if (isOAuthError(error)) {
      // RFC 6749 §5.2: error_description is printable ASCII without " and \.
      expect(error.description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
      return error;
    }
    throw error;
  }
  throw new Error('expected an OAuthError, got none');
}

const register = (metadata: Record<string, unknown>) =>
  parseClientMetadata({ redirect_uris: ['https://app.example/cb'], ...metadata }, 'registration');

describe('parseClientMetadata', () => {
  test('fills in the defaults of a minimal registration', () => {
    expect(parseClientMetadata({ redirect_uris: ['http://127.0.0.1:8080/callback'] }, 'registration')).toEqual({
      client_id: null,
      client_name: null,
      client_uri: null,
      logo_uri: null,
      redirect_uris: ['http://127.0.0.1:8080/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: null,
      software_id: null,
      software_version: null,
    });
  });

  test('keeps what mcp-remote and similar clients register, drops unknown members', () => {
    const metadata = parseClientMetadata(
      {
        client_name: '  MCP CLI Proxy  ',
        client_uri: 'https://github.com/geelen/mcp-remote',
        logo_uri: 'https://example.com/logo.png',
        redirect_uris: ['http://localhost:3334/oauth/callback', 'http://localhost:3334/oauth/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: 'openid profile',
        software_id: 'mcp-remote',
        software_version: '0.15.1',
        client_id: 'chosen-by-the-client',
        jwks: { keys: [] },
        __proto__: { polluted: true },
      },
      'registration',
    );
    expect(metadata).toMatchObject({
      client_id: null,
      client_name: 'MCP CLI Proxy',
      redirect_uris: ['http://localhost:3334/oauth/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'openid profile',
      software_id: 'mcp-remote',
      software_version: '0.15.1',
    });
    expect(Object.keys(metadata)).not.toContain('jwks');
  });

  test('a document keeps its client_id and must have one', () => {
    const document = { client_id: 'https://app.example/client.json', redirect_uris: ['https://app.example/cb'] };
    expect(parseClientMetadata(document, 'document').client_id).toBe('https://app.example/client.json');
    const missing = refusal(() => parseClientMetadata({ redirect_uris: ['https://app.example/cb'] }, 'document'));
    expect(missing.code).toBe('invalid_client_metadata');
    expect(missing.description).toContain('client_id must be present');
    expect(refusal(() => parseClientMetadata({ ...document, client_id: 42 }, 'document')).description).toContain('client_id');
  });

  test('refuses what is not a JSON object', () => {
    for (const input of [null, 'redirect_uris', 42, [], [{ redirect_uris: ['https://a.example/cb'] }]]) {
      const error = refusal(() => parseClientMetadata(input, 'registration'));
      expect(error.code).toBe('invalid_client_metadata');
      expect(error.description).toContain('JSON object');
    }
  });

  describe('client authentication: public clients only', () => {
    test('a registration asking for a client secret is answered with none (RFC 7591 §3.2.1)', () => {
      for (const method of [undefined, null, 'none', 'client_secret_basic', 'client_secret_post'])
        expect(register({ token_endpoint_auth_method: method }).token_endpoint_auth_method).toBe('none');
    });

    test('a registration asking for private_key_jwt or anything else is refused', () => {
      for (const method of ['private_key_jwt', 'client_secret_jwt', 'tls_client_auth', 7]) {
        const error = refusal(() => register({ token_endpoint_auth_method: method }));
        expect(error.code).toBe('invalid_client_metadata');
        expect(error.description).toContain('use none');
      }
    });

    test('a document that needs a secret is refused and told why', () => {
      const document = { client_id: 'https://app.example/client.json', redirect_uris: ['https://app.example/cb'] };
      expect(parseClientMetadata(document, 'document').token_endpoint_auth_method).toBe('none');
      for (const method of ['client_secret_basic', 'client_secret_post', 'client_secret_jwt']) {
        const error = refusal(() => parseClientMetadata({ ...document, token_endpoint_auth_method: method }, 'document'));
        expect(error.description).toContain('cannot establish');
        expect(error.description).toContain('use none');
      }
      const jwt = refusal(() => parseClientMetadata({ ...document, token_endpoint_auth_method: 'private_key_jwt' }, 'document'));
      expect(jwt.description).toContain('public clients only');
      const secret = refusal(() => parseClientMetadata({ ...document, client_secret: 's3cret' }, 'document'));
      expect(secret.description).toContain('client_secret must not appear');
    });
  });

  test('grant and response types: only the authorization code flow', () => {
    expect(register({ grant_types: ['refresh_token', 'authorization_code', 'refresh_token'] }).grant_types).toEqual([
      'refresh_token',
      'authorization_code',
    ]);
    const implicit = refusal(() => register({ grant_types: ['authorization_code', 'implicit'] }));
    expect(implicit.code).toBe('invalid_client_metadata');
    expect(implicit.description).toContain("'implicit'");
    expect(implicit.description).toContain('allowed: authorization_code, refresh_token');
    expect(refusal(() => register({ grant_types: ['refresh_token'] })).description).toContain('must include authorization_code');
    expect(refusal(() => register({ grant_types: 'authorization_code' })).description).toContain('list');
    expect(refusal(() => register({ grant_types: [] })).description).toContain('non-empty list');
    expect(refusal(() => register({ response_types: ['token'] })).description).toContain('allowed: code');
    expect(refusal(() => register({ response_types: ['code', { code: 1 }] })).description).toContain('a non-string');
  });

  describe('client_name: untrusted display text', () => {
    test('is trimmed; blank becomes null', () => {
      expect(register({ client_name: '\u00a0 Claude Code \u00a0' }).client_name).toBe('Claude Code');
      expect(register({ client_name: '   ' }).client_name).toBeNull();
      expect(register({ client_name: 'Café ☕ 日本' }).client_name).toBe('Café ☕ 日本');
    });

    test('refuses control characters, bidi overrides, non-strings and length over 200', () => {
      for (const name of ['Good\nEvil', 'tab\there', 'nul\u0000', 'bell\u0007', 'esc\u001b[31m', 'Claude\u202egnp.exe', 'del\u007f'])
        expect(refusal(() => register({ client_name: name })).description).toContain('control characters');
      expect(refusal(() => register({ client_name: 42 })).description).toContain('client_name must be a string');
      expect(refusal(() => register({ client_name: ['a'] })).description).toContain('client_name must be a string');
      expect(register({ client_name: 'x'.repeat(200) }).client_name).toHaveLength(200);
      expect(refusal(() => register({ client_name: 'x'.repeat(201) })).description).toContain('at most 200');
      expect(refusal(() => register({ client_name: 'x'.repeat(1_000_000) })).description).toContain('at most 200');
    });
  });

  test('client_uri and logo_uri: http(s) only', () => {
    expect(register({ client_uri: 'https://app.example/', logo_uri: 'http://app.example/logo.png' })).toMatchObject({
      client_uri: 'https://app.example/',
      logo_uri: 'http://app.example/logo.png',
    });
    for (const uri of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'file:///etc/passwd', 'app.example', 'https://', 7])
      expect(refusal(() => register({ client_uri: uri, logo_uri: uri })).description).toMatch(/client_uri must be .*logo_uri must be /);
  });

  test('scope, software_id and software_version are checked text', () => {
    expect(register({ scope: '' }).scope).toBeNull();
    expect(refusal(() => register({ scope: 'a  b' })).description).toContain('RFC 6749 section 3.3');
    expect(refusal(() => register({ scope: 'a\nb' })).description).toContain('scope');
    expect(refusal(() => register({ scope: ['read'] })).description).toContain('scope must be a string');
    expect(refusal(() => register({ software_id: { id: 1 } })).description).toContain('software_id must be a string');
    expect(refusal(() => register({ software_version: 'v1\r\n' + 'x' })).description).toContain('control characters');
  });

  test('hostile input: huge arrays are refused without reading them', () => {
    const huge = new Array<unknown>(1_000_000).fill('https://app.example/cb');
    const error = refusal(() => parseClientMetadata({ redirect_uris: huge }, 'registration'));
    expect(error.code).toBe('invalid_redirect_uri');
    expect(error.description).toContain('at most 10');
    expect(refusal(() => register({ grant_types: new Array<unknown>(1_000_000).fill(1) })).description).toContain('at most 20');
    const many = refusal(() =>
      parseClientMetadata({ redirect_uris: Array.from({ length: 10 }, (_, index) => `ftp://x/${index}`) }, 'registration'),
    );
    expect(many.description).toContain('and 5 more');
  });

  test('a registration is bounded so its sealed client_id stays small; a document may list more and longer URIs', () => {
    const long = (length: number, index = 0) => `https://app.example/${index}/${'a'.repeat(length - 22)}`;
    expect(long(512)).toHaveLength(512);
    expect(register({ redirect_uris: [long(512)] }).redirect_uris).toHaveLength(1);
    const tooLong = refusal(() => register({ redirect_uris: [long(513)] }));
    expect(tooLong.code).toBe('invalid_redirect_uri');
    expect(tooLong.description).toContain('at most 512');
    const eleven = refusal(() => register({ redirect_uris: Array.from({ length: 11 }, (_, index) => long(40, index)) }));
    expect(eleven.description).toContain('at most 10 are accepted');
    // Five URIs of 500 characters each are fine one by one, but not together.
    const whole = refusal(() => register({ redirect_uris: Array.from({ length: 5 }, (_, index) => long(500, index)) }));
    expect(whole.code).toBe('invalid_client_metadata');
    expect(whole.description).toContain('at most 2048');
    const uris = Array.from({ length: 20 }, (_, index) => long(1000, index));
    expect(parseClientMetadata({ client_id: 'https://app.example/c.json', redirect_uris: uris }, 'document').redirect_uris).toHaveLength(
      20,
    );
  });

  describe('redirect URIs', () => {
    const accepted = [
      'https://app.example/callback',
      'https://app.example:8443/cb?x=1',
      'https://10.0.0.1/cb',
      'http://localhost/callback',
      'http://localhost:3334/oauth/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1:65535/callback',
      'http://127.1.2.3:8080/',
      'http://[::1]:8080/callback',
      'com.example.app:/oauth2redirect',
      'cursor://anysphere.cursor-retrieval/oauth/user-mcp/callback',
      'vscode://vscode.github-authentication/did-authenticate',
    ];
    test.each(accepted)('accepts %s', (uri) => {
      expect(register({ redirect_uris: [uri] }).redirect_uris).toEqual([uri]);
    });

    const refused: Array<[string, unknown, string]> = [
      ['a relative URI', '/callback', 'absolute URI'],
      ['a bare host', 'app.example/callback', 'absolute URI'],
      ['a fragment', 'https://app.example/cb#frag', 'fragment'],
      ['an empty fragment', 'https://app.example/cb#', 'fragment'],
      ['userinfo', 'https://user:pass@app.example/cb', 'user name or password'],
      ['an empty userinfo', 'https://@app.example/cb', 'user name or password'],
      ['userinfo on loopback', 'http://evil.example@127.0.0.1/cb', 'user name or password'],
      ['userinfo in an app scheme', 'com.example.app://me@host/cb', 'user name or password'],
      ['http to a public host', 'http://app.example/callback', 'loopback'],
      ['http to a private host', 'http://192.168.1.10/callback', 'loopback'],
      ['http to a localhost look-alike', 'http://localhost.evil.example/cb', 'loopback'],
      ['http to a mapped loopback', 'http://[::ffff:127.0.0.1]/cb', 'loopback'],
      ['javascript:', 'javascript:alert(document.cookie)', 'scheme javascript:'],
      ['javascript: in capitals', 'JavaScript:alert(1)', 'scheme javascript:'],
      ['data:', 'data:text/html,<script>alert(1)</script>', 'scheme data:'],
      ['file:', 'file:///etc/passwd', 'scheme file:'],
      ['about:', 'about:blank', 'scheme about:'],
      ['a space', 'https://app.example/a b', 'printable ASCII'],
      ['a leading space', ' https://app.example/cb', 'printable ASCII'],
      ['a line break', 'https://app.example/cb\r\nSet-Cookie: a=b', 'printable ASCII'],
      ['non-ASCII', 'https://app.example/cb/é', 'printable ASCII'],
      ['a bad port', 'https://app.example:99999/cb', 'not a valid URI'],
      ['a non-string', 42, 'must be a string'],
      ['null', null, 'must be a string'],
      ['an object', { href: 'https://app.example/cb' }, 'must be a string'],
      ['a huge string', `https://app.example/${'a'.repeat(5000)}`, 'at most 512'],
      ['intent:', 'intent://app.example/cb#Intent;scheme=https;end', 'fragment'],
      ['intent: without fragment', 'intent://app.example/cb', 'scheme intent:'],
      ['chrome:', 'chrome://settings', 'scheme chrome:'],
      ['chrome-extension:', 'chrome-extension://abcdefgh/cb.html', 'scheme chrome-extension:'],
      ['edge:', 'edge://settings', 'scheme edge:'],
      ['jar:', 'jar:https://app.example/a.jar!/cb', 'scheme jar:'],
      ['view-source:', 'view-source:https://app.example/cb', 'scheme view-source:'],
      ['an empty authority', 'https:///cb', 'empty host'],
      ['an empty authority, http', 'http:///127.0.0.1/cb', 'empty host'],
      ['a wildcard host', 'https://*.evil.example/cb', 'must not contain * in its host'],
      ['a wildcard host with port', 'https://app.*:443/cb', 'must not contain * in its host'],
    ];
    test.each(refused)('refuses %s', (_name, uri, says) => {
      const error = refusal(() => register({ redirect_uris: [uri] }));
      expect(error.code).toBe('invalid_redirect_uri');
      expect(error.description).toContain('redirect_uris[0]');
      expect(error.description).toContain(says);
    });

    test('refuses a missing or empty list and names the code invalid_client_metadata when other fields are wrong too', () => {
      for (const uris of [undefined, [], 'https://app.example/cb', {}])
        expect(refusal(() => parseClientMetadata({ redirect_uris: uris }, 'registration')).description).toContain(
          'at least one redirect URI',
        );
      const both = refusal(() => parseClientMetadata({ redirect_uris: ['http://x.example/'], client_name: 1 }, 'registration'));
      expect(both.code).toBe('invalid_client_metadata');
      expect(both.description).toContain('redirect_uris[0]');
      expect(both.description).toContain('client_name');
    });

    test('a hostile URI is quoted safely in the description', () => {
      const error = refusal(() => register({ redirect_uris: ['https://app.example/"\\<x>#é'] }));
      expect(error.description).not.toMatch(/["\\]/);
    });
  });
});

describe('isLoopbackRedirect', () => {
  test.each([
    ['http://localhost:3334/cb', true],
    ['http://127.0.0.1/cb', true],
    ['https://127.5.5.5:8443/cb', true],
    ['http://[::1]:1/cb', true],
    ['https://app.example/cb', false],
    ['http://localhost.app.example/cb', false],
    ['com.example.app:/cb', false],
    ['not a uri', false],
  ])('%s: %s', (uri, loopback) => {
    expect(isLoopbackRedirect(uri)).toBe(loopback);
  });
});

describe('redirectUriMatches', () => {
  const registered = ['https://app.example/callback', 'com.example.app:/oauth', 'http://127.0.0.1/callback', 'http://localhost:3334/cb'];

  test('an exact match', () => {
    for (const uri of registered) expect(redirectUriMatches(registered, uri)).toBe(true);
  });

  test.each([
    ['one character', 'https://app.example/callbacc'],
    ['one character more', 'https://app.example/callbackx'],
    ['case of the path', 'https://app.example/Callback'],
    ['case of the host', 'https://APP.example/callback'],
    ['case of the scheme', 'HTTPS://app.example/callback'],
    ['a trailing slash', 'https://app.example/callback/'],
    ['an added query', 'https://app.example/callback?x=1'],
    ['a default port spelled out', 'https://app.example:443/callback'],
    ['percent-encoding', 'https://app.example/c%61llback'],
    ['a dot segment', 'https://app.example/x/../callback'],
    ['a fragment', 'https://app.example/callback#'],
    ['another host', 'https://app.example.evil.example/callback'],
    ['an app scheme with a port-like change', 'com.example.app:/oauth/'],
    ['a loopback path one character off', 'http://127.0.0.1:5000/callbacc'],
    ['loopback under another spelling', 'http://localhost/callback'],
    ['loopback with userinfo', 'http://x@127.0.0.1:5000/callback'],
    ['loopback over https', 'https://127.0.0.1:5000/callback'],
    ['a loopback port that does not exist', 'http://127.0.0.1:99999/callback'],
    ['an empty string', ''],
  ])('refuses %s', (_name, requested) => {
    expect(redirectUriMatches(registered, requested)).toBe(false);
  });

  test('a loopback http URI may come with any port (RFC 8252 §7.3)', () => {
    expect(redirectUriMatches(registered, 'http://127.0.0.1:51234/callback')).toBe(true);
    expect(redirectUriMatches(registered, 'http://127.0.0.1:/callback')).toBe(true);
    expect(redirectUriMatches(registered, 'http://localhost:9999/cb')).toBe(true);
    expect(redirectUriMatches(registered, 'http://localhost/cb')).toBe(true);
    expect(redirectUriMatches(['http://[::1]:80/cb'], 'http://[::1]:8080/cb')).toBe(true);
    expect(redirectUriMatches(['https://127.0.0.1/cb'], 'https://127.0.0.1:8443/cb')).toBe(false);
  });
});
