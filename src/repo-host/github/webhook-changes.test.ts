// The webhook Changes adapter: which deliveries become which work, and bursts coalesced.
// The target here records what it is asked (the GitHub side is exercised end to end in
// test/e2e/github-*.test.ts against the stand-in).
import { describe, expect, test } from 'vitest';
import { InProcessQueue } from '../../jobs/in-process-queue.ts';
import type { ChangeNotice } from '../changes.ts';
import { GitHubWebhookChanges, type WebhookTarget } from './webhook-changes.ts';

function recordingTarget(fetchGate?: Promise<void>) {
  const calls: string[] = [];
  const target: WebhookTarget = {
    async fetchMirror(repo) {
      calls.push(`fetch ${repo}`);
      await fetchGate;
    },
    async reloadRepos() {
      calls.push('reload');
    },
    forgetRights(login) {
      calls.push(`forget ${login ?? 'everyone'}`);
    },
  };
  return { target, calls };
}

const push = (ref: string, installation = 7) => ({
  ref,
  after: 'a'.repeat(40),
  forced: false,
  repository: { name: 'handbook', full_name: 'acme/handbook', default_branch: 'main' },
  installation: { id: installation },
});

/** Waits until `condition` holds (checked every 5 ms, at most 2 s). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('GitHubWebhookChanges', () => {
  test('a push to the default branch fetches the mirror, then notices the repository moved; other branches are ignored', async () => {
    const { target, calls } = recordingTarget();
    const changes = new GitHubWebhookChanges({ installationId: 7, target, queue: new InProcessQueue() });
    const notices: ChangeNotice[] = [];
    changes.start(async (notice) => {
      calls.push(`notice ${notice.kind}`);
      notices.push(notice);
    });
    expect(changes.receive({ id: '1', event: 'push', payload: push('refs/heads/topic') }).kind).toBe('ignored');
    expect(changes.receive({ id: '2', event: 'push', payload: push('refs/heads/main', 8) }).kind).toBe('ignored');
    expect(changes.receive({ id: '3', event: 'push', payload: push('refs/heads/main') })).toEqual({ kind: 'accepted' });
    await until(() => notices.length === 1);
    expect(calls).toEqual(['fetch handbook', 'notice moved']);
    expect(notices).toEqual([{ kind: 'moved', repo: 'handbook' }]);
    await changes.stop();
  });

  test('a burst of pushes costs the fetch going on plus one', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { target, calls } = recordingTarget(gate);
    const changes = new GitHubWebhookChanges({ installationId: 7, target, queue: new InProcessQueue() });
    let moved = 0;
    changes.start(async () => {
      moved += 1;
    });
    for (let i = 0; i < 20; i += 1) changes.receive({ id: String(i), event: 'push', payload: push('refs/heads/main') });
    open();
    await until(() => moved === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.filter((call) => call.startsWith('fetch'))).toHaveLength(2);
    expect(moved).toBe(2);
    await changes.stop();
  });

  test('installation changes reload the list and drop every cached right; a revoked authorization drops one person’s', async () => {
    const { target, calls } = recordingTarget();
    const forgotten: Array<string | null> = [];
    const changes = new GitHubWebhookChanges({
      installationId: 7,
      target,
      queue: new InProcessQueue(),
      onRightsForgotten: (login) => forgotten.push(login),
    });
    const notices: ChangeNotice[] = [];
    changes.start(async (notice) => {
      notices.push(notice);
    });
    const removed = { action: 'removed', installation: { id: 7 }, repositories_removed: [{ name: 'handbook' }] };
    expect(changes.receive({ id: 'a', event: 'installation_repositories', payload: removed }).kind).toBe('accepted');
    await until(() => notices.length === 1);
    expect(notices).toEqual([{ kind: 'listed' }]);
    expect(calls).toEqual(['forget everyone', 'reload', 'forget everyone']);
    expect(changes.receive({ id: 'b', event: 'installation', payload: { action: 'suspend', installation: { id: 9 } } }).kind).toBe(
      'ignored',
    );
    expect(changes.receive({ id: 'c', event: 'installation', payload: { action: 'renamed', installation: { id: 7 } } }).kind).toBe(
      'ignored',
    );
    const revoked = { action: 'revoked', sender: { login: 'maya', id: 3 } };
    expect(changes.receive({ id: 'd', event: 'github_app_authorization', payload: revoked }).kind).toBe('accepted');
    expect(calls.at(-1)).toBe('forget maya');
    expect(forgotten).toEqual([null, null, 'maya']);
    await changes.stop();
  });

  test('tells of every installation a delivery names, this one or another, with its account', async () => {
    const { target, calls } = recordingTarget();
    const seen: Array<[number, string | null]> = [];
    const changes = new GitHubWebhookChanges({
      installationId: 7,
      target,
      queue: new InProcessQueue(),
      onInstallationSeen: async (id, account) => {
        seen.push([id, account]);
      },
    });
    const created = { action: 'created', installation: { id: 9, account: { login: 'globex' } } };
    expect(changes.receive({ id: 'a', event: 'installation', payload: created }).kind).toBe('accepted');
    const deleted = { action: 'deleted', installation: { id: 7, account: { login: 'acme' } } };
    expect(changes.receive({ id: 'b', event: 'installation', payload: deleted }).kind).toBe('accepted');
    const enterprise = { action: 'suspend', installation: { id: 11, account: { slug: 'initech' } } };
    expect(changes.receive({ id: 'c', event: 'installation', payload: enterprise }).kind).toBe('accepted');
    const bare = { action: 'added', installation: { id: 12 }, repositories_added: [] };
    expect(changes.receive({ id: 'd', event: 'installation_repositories', payload: bare }).kind).toBe('accepted');
    await until(() => calls.includes('reload'));
    expect(seen).toEqual([
      [9, 'globex'],
      [7, 'acme'],
      [11, 'initech'],
      [12, null],
    ]);
    await changes.stop();
  });

  test('refuses a known event whose payload lacks what it needs, and ignores unknown events', async () => {
    const { target } = recordingTarget();
    const changes = new GitHubWebhookChanges({ installationId: 7, target, queue: new InProcessQueue() });
    const outcome = changes.receive({ id: 'x', event: 'push', payload: { ref: 'refs/heads/main' } });
    expect(outcome.kind).toBe('refused');
    expect(changes.receive({ id: 'y', event: 'star', payload: {} }).kind).toBe('ignored');
    expect(changes.receive({ id: 'z', event: 'ping', payload: { zen: 'Design for failure.' } }).kind).toBe('ignored');
  });
});

describe('GitHubWebhookChanges before it is started', () => {
  test('fetches at once and hands the notices on when started, once each', async () => {
    const { target, calls } = recordingTarget();
    const changes = new GitHubWebhookChanges({ installationId: 7, target, queue: new InProcessQueue() });
    changes.receive({ id: '1', event: 'push', payload: push('refs/heads/main') });
    await until(() => calls.length === 1);
    changes.receive({ id: '2', event: 'push', payload: push('refs/heads/main') });
    await until(() => calls.length === 2);
    const notices: ChangeNotice[] = [];
    changes.start(async (notice) => {
      notices.push(notice);
    });
    await until(() => notices.length === 1);
    await changes.stop();
    expect(notices).toEqual([{ kind: 'moved', repo: 'handbook' }]);
  });
});
