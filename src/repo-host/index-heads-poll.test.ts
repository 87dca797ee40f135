// The instance's poll of its database's heads: a head the worker moved fetches the mirror and
// says so; repositories that came or went reload the list; differences settle.
import { describe, expect, test } from 'vitest';
import type { ChangeNotice } from './changes.ts';
import { IndexHeadsPoll } from './index-heads-poll.ts';

function setup(options: { fetchSettles?: boolean } = {}) {
  const indexed = new Map<string, string | null>([
    ['handbook', 'a1'],
    ['plans', 'b1'],
  ]);
  const mirrored = new Map(indexed);
  const done: string[] = [];
  const notices: ChangeNotice[] = [];
  const poll = new IndexHeadsPoll({
    indexHeads: async () => new Map(indexed),
    mirrorHeads: async () => new Map(mirrored),
    fetchMirror: async (repo) => {
      done.push(`fetch ${repo}`);
      if (options.fetchSettles !== false) mirrored.set(repo, indexed.get(repo) ?? null);
    },
    reloadRepos: async () => {
      done.push('reload');
      for (const name of [...mirrored.keys()]) if (!indexed.has(name)) mirrored.delete(name);
      for (const [name, head] of indexed) if (!mirrored.has(name)) mirrored.set(name, head);
    },
    intervalMs: 10,
    retryMs: 60_000,
  });
  poll.start(async (notice) => void notices.push(notice));
  return { poll, indexed, mirrored, done, notices };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 80));

describe('IndexHeadsPoll', () => {
  test('does nothing while the database and the mirrors agree', async () => {
    const { poll, done, notices } = setup();
    await settle();
    await poll.stop();
    expect(done).toEqual([]);
    expect(notices).toEqual([]);
  });

  test('a head the worker moved fetches that mirror once and says the repository moved', async () => {
    const { poll, indexed, done, notices } = setup();
    indexed.set('plans', 'b2');
    await settle();
    await poll.stop();
    expect(done).toEqual(['fetch plans']);
    expect(notices).toEqual([{ kind: 'moved', repo: 'plans' }]);
  });

  test('a repository that came reloads the list and says so', async () => {
    const { poll, indexed, done, notices } = setup();
    indexed.set('wiki', 'c1');
    await settle();
    await poll.stop();
    expect(done).toEqual(['reload']);
    expect(notices).toEqual([{ kind: 'listed' }]);
  });

  test('a difference that acting did not settle is not acted on again before the retry time', async () => {
    // A fetch that does not bring the mirror to the database's head (GitHub unreachable).
    const { poll, indexed, done } = setup({ fetchSettles: false });
    indexed.set('plans', 'b2');
    await settle();
    await poll.stop();
    expect(done.filter((entry) => entry === 'fetch plans').length).toBe(1);
  });
});
