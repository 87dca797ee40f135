// GitHub's failures as the caller sees them: one clear error per kind, never a silent "no access".
import { RequestError } from '@octokit/request-error';
import { describe, expect, it } from 'vitest';
import { isVaultError } from '../../vault-error.ts';
import { GitHubTimeout } from './github-api.ts';
import { githubFailure, GitHubUnavailable } from './github-failure.ts';
import { graphqlErrorTypes, splitMessage } from './commit-on-branch.ts';
import { resolveGitHubAppConfig } from './github-app-config.ts';
import { tokenExpiration, tokenHash } from './github-sign-in.ts';

const request = { method: 'GET' as const, url: 'https://api.github.com/user', headers: { authorization: 'token ghu_secret' } };

function answered(status: number, message: string, headers: Record<string, string> = {}): RequestError {
  return new RequestError(message, status, { request, response: { status, url: request.url, headers, data: { message } } });
}

describe('githubFailure', () => {
  it('makes 401 unauthorized and 403 forbidden, each saying what to do', () => {
    const unauthorized = githubFailure(answered(401, 'Bad credentials'), 'check your GitHub sign-in');
    expect(isVaultError(unauthorized, 'unauthorized')).toBe(true);
    expect(unauthorized.message).toMatch(/Bad credentials.*Sign in again/);
    const forbidden = githubFailure(answered(403, 'Resource not accessible by integration'), 'commit to "acme/notes"');
    expect(isVaultError(forbidden, 'forbidden')).toBe(true);
    expect(forbidden.message).toContain('Resource not accessible by integration');
  });

  it('makes a rate limit, a 5xx, 404, 409, 422, a timeout and an unreachable host a GitHubUnavailable naming the action', () => {
    const cases = [
      answered(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' }),
      answered(429, 'Too many requests', { 'retry-after': '30' }),
      answered(502, 'Bad gateway'),
      answered(404, 'Not Found'),
      answered(409, 'Git Repository is empty.'),
      answered(422, 'Validation Failed'),
      Object.assign(new RequestError('GitHub did not answer within 15 s', 500, { request }), { cause: new GitHubTimeout(15_000) }),
      new RequestError('connect ECONNREFUSED 127.0.0.1:1', 500, { request }),
    ];
    for (const error of cases) {
      const failure = githubFailure(error, 'list the repositories');
      expect(failure, error.message).toBeInstanceOf(GitHubUnavailable);
      expect(failure.message).toMatch(/^Could not list the repositories: /);
      expect(failure.message).not.toContain('ghu_secret');
    }
    expect(githubFailure(cases[2]!, 'x').message).toContain('HTTP 502');
    expect(githubFailure(cases[6]!, 'x').message).toContain('did not answer in time');
    expect(githubFailure(cases[0]!, 'x').message).toContain('rate limit');
  });

  it('passes a VaultError through unchanged', () => {
    const error = githubFailure(answered(401, 'Bad credentials'), 'x');
    expect(githubFailure(error, 'y')).toBe(error);
  });
});

describe('createCommitOnBranch helpers', () => {
  it('splits a message into the headline and the body GitHub joins with a blank line', () => {
    expect(splitMessage('Add the second week\n\nWhat happens after the first one.')).toEqual({
      headline: 'Add the second week',
      body: 'What happens after the first one.',
    });
    expect(splitMessage('Only a subject')).toEqual({ headline: 'Only a subject', body: '' });
    expect(splitMessage('Subject\n\n\nBody\n\nMoved: a -> b')).toEqual({ headline: 'Subject', body: 'Body\n\nMoved: a -> b' });
  });

  it('reads the types of GraphQL errors, and none from other errors', () => {
    expect(graphqlErrorTypes({ errors: [{ type: 'STALE_DATA', message: 'Expected branch to point to' }, { message: 'x' }] })).toEqual([
      'STALE_DATA',
    ]);
    expect(graphqlErrorTypes(new Error('x'))).toEqual([]);
    expect(graphqlErrorTypes(null)).toEqual([]);
  });
});

describe('GitHub App configuration', () => {
  const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n';
  const base = { appId: 1, privateKey: pem, clientId: 'Iv1.x', clientSecret: 's', webhookSecret: 'w', dataDir: '/data' };

  it('fills in github.com and a request timeout, and drops a final slash', () => {
    expect(resolveGitHubAppConfig({ ...base, installationId: 7 })).toMatchObject({
      apiUrl: 'https://api.github.com',
      webUrl: 'https://github.com',
      requestTimeoutMs: 15_000,
      installationId: 7,
    });
    expect(
      resolveGitHubAppConfig({ ...base, owner: 'acme', apiUrl: 'https://ghe.example/api/v3/', webUrl: 'https://ghe.example/' }),
    ).toMatchObject({
      apiUrl: 'https://ghe.example/api/v3',
      webUrl: 'https://ghe.example',
    });
  });

  it('refuses what cannot work, naming the setting', () => {
    expect(() => resolveGitHubAppConfig({ ...base })).toThrow(/installationId, or owner/);
    expect(() => resolveGitHubAppConfig({ ...base, owner: 'acme', privateKey: 'not a key' })).toThrow(/privateKey/);
    expect(() => resolveGitHubAppConfig({ ...base, owner: 'acme', apiUrl: 'api.github.com' })).toThrow(/apiUrl/);
    expect(() => resolveGitHubAppConfig({ ...base, owner: 'acme', webUrl: 'ftp://x' })).toThrow(/webUrl/);
  });
});

describe('tokenHash', () => {
  it('is the SHA-256 of the token in hex, never the token', () => {
    expect(tokenHash('ghu_abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash('ghu_abc')).not.toContain('ghu_abc');
    expect(tokenHash('ghu_abc')).toBe(tokenHash('ghu_abc'));
    expect(tokenHash('ghu_abd')).not.toBe(tokenHash('ghu_abc'));
  });
});

describe('tokenExpiration', () => {
  it("reads GitHub's GitHub-Authentication-Token-Expiration header, in UTC or with an offset", () => {
    expect(tokenExpiration('2026-12-02 10:21:45 UTC')).toBe(Date.parse('2026-12-02T10:21:45Z'));
    expect(tokenExpiration('2026-12-02 10:21:45 +0100')).toBe(Date.parse('2026-12-02T09:21:45Z'));
    expect(tokenExpiration(undefined)).toBeNull();
    expect(tokenExpiration('soon')).toBeNull();
  });
});
