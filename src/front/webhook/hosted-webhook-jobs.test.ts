// GitHub's deliveries turned into the hosted jobs: the mapping as a pure function, and the
// receiver's filtering by the installations switched on.
import { pino } from 'pino';
import { describe, expect, test } from 'vitest';
import type { HostedJob } from '../../jobs/hosted-jobs.ts';
import type { InstallationStatus } from '../../store/store.ts';
import { hostedWebhookReceiver, webhookWork, type ForgetRights } from './hosted-webhook-jobs.ts';

const repository = { name: 'handbook', default_branch: 'main' };
const installation = { id: 40001 };
const push = (overrides: Record<string, unknown> = {}) => ({
  id: 'd1',
  event: 'push',
  payload: {
    ref: 'refs/heads/main',
    created: false,
    deleted: false,
    forced: false,
    commits: [{ added: ['notes/a.md'], removed: [], modified: ['README.md'] }],
    repository,
    installation,
    ...overrides,
  },
});

describe('webhookWork', () => {
  test('a push to the default branch indexes the repository', () => {
    expect(webhookWork(push())).toEqual({
      outcome: { kind: 'accepted' },
      jobs: [{ name: 'index-repo', installationId: 40001, repo: 'handbook' }],
      seen: [],
      forget: [],
    });
  });

  test('a push that touches .vault/, or cannot tell, also builds the catalogue', () => {
    const names = (delivery: ReturnType<typeof push>) => webhookWork(delivery).jobs.map((job) => job.name);
    const both = ['index-repo', 'build-catalogue'];
    expect(names(push({ commits: [{ added: [], removed: [], modified: ['.vault/settings.jsonc'] }] }))).toEqual(both);
    expect(names(push({ commits: [{ added: [], removed: ['.vault/types/decision.md'], modified: [] }] }))).toEqual(both);
    expect(names(push({ forced: true }))).toEqual(both);
    expect(names(push({ created: true }))).toEqual(both);
    expect(names(push({ commits: undefined }))).toEqual(both);
    expect(names(push({ commits: [{ added: [], modified: ['a.md'] }] }))).toEqual(both);
    const many = Array.from({ length: 3000 }, (_, at) => `notes/${at}.md`);
    expect(names(push({ commits: [{ added: many, removed: [], modified: [] }] }))).toEqual(both);
    expect(names(push({ commits: [{ added: ['vault/x.md', 'a/.vault/b.md'], removed: [], modified: [] }] }))).toEqual(['index-repo']);
  });

  test('a push to another branch, or one that names no installation, is ignored', () => {
    expect(webhookWork(push({ ref: 'refs/heads/draft' })).outcome).toEqual({
      kind: 'ignored',
      reason: 'a push to refs/heads/draft, not the default branch main',
    });
    expect(webhookWork(push({ installation: undefined })).jobs).toEqual([]);
    expect(webhookWork({ id: 'd', event: 'push', payload: { ref: 1 } }).outcome.kind).toBe('refused');
  });

  test('installation events refresh, drop, record and forget', () => {
    const event = (name: string, action: string) =>
      webhookWork({ id: 'd', event: name, payload: { action, installation: { id: 7, account: { login: 'globex' } } } });
    const everyone = [{ installationId: 7, login: null }];
    const seen = [{ installationId: 7, account: 'globex' }];
    expect(event('installation', 'created')).toEqual({
      outcome: { kind: 'accepted' },
      jobs: [{ name: 'refresh-installation', installationId: 7 }],
      seen,
      forget: everyone,
    });
    expect(event('installation', 'deleted').jobs).toEqual([{ name: 'drop-installation', installationId: 7 }]);
    expect(event('installation', 'suspend')).toMatchObject({ jobs: [], seen, forget: everyone });
    expect(event('installation', 'unsuspend').jobs).toEqual([{ name: 'refresh-installation', installationId: 7 }]);
    expect(event('installation', 'new_permissions_accepted').jobs).toEqual([{ name: 'refresh-installation', installationId: 7 }]);
    expect(event('installation_repositories', 'added')).toMatchObject({ jobs: [{ name: 'refresh-installation' }], seen, forget: everyone });
    expect(event('installation_repositories', 'removed').jobs).toHaveLength(1);
  });

  test('membership changes and a revoked authorization forget rights; other events are ignored', () => {
    expect(webhookWork({ id: 'd', event: 'member', payload: { action: 'added', installation: { id: 7 } } }).forget).toEqual([
      { installationId: 7, login: null },
    ]);
    expect(
      webhookWork({ id: 'd', event: 'github_app_authorization', payload: { action: 'revoked', sender: { login: 'ada' } } }).forget,
    ).toEqual([{ installationId: null, login: 'ada' }]);
    expect(webhookWork({ id: 'd', event: 'repository', payload: { action: 'renamed', installation: { id: 7 } } }).jobs).toEqual([
      { name: 'refresh-installation', installationId: 7 },
    ]);
    expect(webhookWork({ id: 'd', event: 'star', payload: {} }).outcome.kind).toBe('ignored');
  });
});

describe('hostedWebhookReceiver', () => {
  function receiver(statuses: Record<number, InstallationStatus>) {
    const sent: HostedJob[] = [];
    const seen: number[] = [];
    const forgotten: ForgetRights[] = [];
    const receive = hostedWebhookReceiver({
      jobs: { send: async (job) => void sent.push(job) },
      installations: {
        get: async (id) => (statuses[id] ? { status: statuses[id]! } : null),
        seen: async (id) => void seen.push(id),
      },
      forgetRights: (what) => void forgotten.push(what),
      log: pino({ level: 'silent' }),
    });
    return { receive, sent, seen, forgotten };
  }

  test('queues the jobs of installations switched on only, except dropping one', async () => {
    const { receive, sent, seen } = receiver({ 40001: 'on', 7: 'pending' });
    expect(await receive(push())).toEqual({ kind: 'accepted' });
    expect(sent).toEqual([{ name: 'index-repo', installationId: 40001, repo: 'handbook' }]);
    sent.length = 0;
    expect(await receive(push({ installation: { id: 7 } }))).toEqual({ kind: 'ignored', reason: 'installation 7 is not switched on here' });
    expect(sent).toEqual([]);
    await receive({
      id: 'd',
      event: 'installation',
      payload: { action: 'created', installation: { id: 8, account: { login: 'initech' } } },
    });
    expect(seen).toEqual([8]);
    expect(sent).toEqual([]);
    await receive({ id: 'd', event: 'installation', payload: { action: 'deleted', installation: { id: 7, account: null } } });
    expect(sent).toEqual([{ name: 'drop-installation', installationId: 7 }]);
  });

  test('a queue that fails makes the delivery fail, so GitHub can redeliver it', async () => {
    const receive = hostedWebhookReceiver({
      jobs: {
        send: async () => {
          throw new Error('the queue is down');
        },
      },
      installations: { get: async () => ({ status: 'on' }), seen: async () => undefined },
      forgetRights: () => undefined,
      log: pino({ level: 'silent' }),
    });
    await expect(receive(push())).rejects.toThrow('the queue is down');
  });
});
