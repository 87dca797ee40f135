import { describe, expect, test } from 'vitest';
import type { Access } from '../repo-host/person.ts';
import { cachedAuthenticate } from './access-cache.ts';

const maya: Access = { person: { login: 'maya', name: 'Maya', email: 'maya@acme.example' }, read: new Set(['a']), write: new Set() };

describe('cachedAuthenticate', () => {
  test('asks once per token while the answer is kept, and never keeps an unknown token', async () => {
    const asked: Array<string | undefined> = [];
    const authenticate = cachedAuthenticate(async (token) => {
      asked.push(token);
      return token === 'good' ? maya : null;
    }, 60_000);
    expect(await authenticate('good')).toBe(maya);
    expect(await authenticate('good')).toBe(maya);
    expect(await authenticate('bad')).toBeNull();
    expect(await authenticate('bad')).toBeNull();
    expect(asked).toEqual(['good', 'bad', 'bad']);
  });

  test('asks again once the answer has expired', async () => {
    let calls = 0;
    const authenticate = cachedAuthenticate(async () => {
      calls += 1;
      return maya;
    }, 0);
    await authenticate(undefined);
    await authenticate(undefined);
    expect(calls).toBe(2);
  });
});

describe('cachedAuthenticate.forget', () => {
  test('asks again after forget, and does not keep an answer asked for before it', async () => {
    let calls = 0;
    let release!: () => void;
    const authenticate = cachedAuthenticate(async () => {
      calls += 1;
      if (calls === 2) await new Promise<void>((resolve) => (release = resolve));
      return maya;
    }, 60_000);
    await authenticate('good');
    authenticate.forget();
    const asking = authenticate('good');
    await new Promise((resolve) => setTimeout(resolve, 0));
    authenticate.forget();
    release();
    await asking;
    await authenticate('good');
    expect(calls).toBe(3);
  });
});
