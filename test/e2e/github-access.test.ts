// A GitHub App's installation end to end, as people with different rights see it through the
// SDK's client over HTTP: reads, searches, a write that becomes one commit on GitHub, history
// from the mirror, and a repository one cannot read appearing nowhere.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp } from './demo-fixture.ts';
import { serveGitHub } from '../../src/main/github.ts';
import { silentLogger } from '../../src/instance/log.ts';
import { tempDir } from '../support/git-fixture.ts';
import { call, finds, refusal, startGitHubE2e, testApp, gitIn, type GitHubE2e } from './github-fixture.ts';

describe('an installation served from a GitHub App', () => {
  let e2e: GitHubE2e;
  const clients: Client[] = [];
  const connect = async (login: string) => {
    const client = await connectHttp(e2e.server.url, '2026-07-28', { token: e2e.tokens[login]! });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    e2e = await startGitHubE2e();
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await e2e?.close();
  });

  it('refuses to start on an owner the App is not installed on, or a wrong key, with a sentence', async () => {
    const dir = tempDir('mv-github-wrong-');
    const app = {
      appId: testApp.id,
      privateKey: e2e.standin.app.privateKey,
      clientId: testApp.clientId,
      clientSecret: testApp.clientSecret,
      webhookSecret: testApp.webhookSecret,
      apiUrl: e2e.standin.apiUrl,
      webUrl: e2e.standin.origin,
    };
    const settings = { dataDir: dir.path, port: 0, hostname: '127.0.0.1' };
    try {
      await expect(serveGitHub({ ...settings, app: { ...app, owner: 'nobody' } }, { log: silentLogger() })).rejects.toThrow(/nobody/);
      await expect(serveGitHub({ ...settings, app: { ...app, installationId: 999 }, name: 'x' }, { log: silentLogger() })).rejects.toThrow(
        /installation|999/i,
      );
    } finally {
      dir.cleanup();
    }
  });

  it('refuses a request without a token or with one GitHub does not know', async () => {
    const response = await fetch(e2e.server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    await expect(connectHttp(e2e.server.url, '2026-07-28', { token: 'ghu_not_a_token' })).rejects.toThrow();
  });

  it('lets each person read and search what GitHub lets them read, and nothing else', async () => {
    const alice = await connect('alice');
    const bob = await connect('bob');
    const read = await call(alice, 'read_note', { repo: 'handbook', path: 'policies/travel-policy.md' });
    expect(read['content']).toContain('45 euros');
    expect(await finds(alice, 'bluefinch', 'launch.md')).toBe(true);
    expect(await finds(bob, 'per diem', 'travel-policy.md')).toBe(true);

    // plans is not Bob's to read: not in the tools' enums, not in results, not named in errors.
    const tools = JSON.stringify((await bob.listTools()).tools);
    expect(tools).toContain('"const":"handbook"');
    expect(tools).not.toContain('plans');
    expect(JSON.stringify((await alice.listTools()).tools)).toContain('"const":"plans"');
    expect(await finds(bob, 'bluefinch', 'launch.md')).toBe(false);
    const refused = await refusal(bob, 'read_note', { repo: 'plans', path: 'launch.md' });
    expect(refused).not.toContain('bluefinch');
    // A repository outside the installation appears for nobody, not even its admin.
    expect(JSON.stringify((await alice.listTools()).tools)).not.toContain('"const":"outside"');
    expect(JSON.stringify(await call(alice, 'tree', {}))).not.toContain('outside');
    expect(await finds(alice, 'zebracorn', 'secret.md')).toBe(false);
  });

  it('refuses a person with no repositories everything but an empty answer', async () => {
    const carol = await connect('carol');
    expect(await finds(carol, 'per diem', 'travel-policy.md')).toBe(false);
    expect(await finds(carol, 'bluefinch', 'launch.md')).toBe(false);
  });

  it('turns a write into one commit on the branch on GitHub, authored by the person', async () => {
    const alice = await connect('alice');
    const gitDir = e2e.standin.gitDir('acme', 'handbook');
    const before = gitIn(gitDir, ['rev-parse', 'main']);
    await call(alice, 'edit_note', {
      repo: 'handbook',
      path: 'onboarding/first-week.md',
      old_text: 'Meet the team on Monday.',
      new_text: 'Meet the team on Tuesday.',
      summary: 'Move the team meeting',
    });
    const after = gitIn(gitDir, ['rev-parse', 'main']);
    expect(gitIn(gitDir, ['rev-list', `${before}..${after}`]).split('\n')).toHaveLength(1);
    expect(gitIn(gitDir, ['log', '-1', '--format=%an', after])).toBe('Alice Arden');
    expect(gitIn(gitDir, ['show', `${after}:onboarding/first-week.md`])).toContain('Tuesday');
    // The next read sees it at once, from the mirror and the index.
    const read = await call(alice, 'read_note', { repo: 'handbook', path: 'onboarding/first-week.md' });
    expect(read['content']).toContain('Tuesday');
    expect(await finds(alice, 'Tuesday', 'first-week.md')).toBe(true);
    // Bob reads handbook but may not write it: GitHub's rights, refused before anything is sent.
    const bob = await connect('bob');
    await refusal(bob, 'edit_note', {
      repo: 'handbook',
      path: 'onboarding/first-week.md',
      old_text: 'Tuesday',
      new_text: 'Friday',
      summary: 'Not mine to change',
    });
    expect(gitIn(gitDir, ['rev-parse', 'main'])).toBe(after);
  });

  it('answers history, blame and pickaxe from the mirror', async () => {
    const alice = await connect('alice');
    const history = await call(alice, 'note_history', { repo: 'handbook', path: 'policies/travel-policy.md' });
    expect(JSON.stringify(history)).toContain('Raise the per diem');
    const blame = await call(alice, 'note_history', { repo: 'handbook', path: 'policies/travel-policy.md', blame: true });
    expect(JSON.stringify(blame)).toContain('Raise the per diem');
    const pickaxe = await call(alice, 'search_history', { repo: 'handbook', text: '45 euros' });
    expect(JSON.stringify(pickaxe)).toContain('Raise the per diem');
    // Bob's pickaxe over everything he reads never reaches plans.
    const bob = await connect('bob');
    const bobs = await call(bob, 'search_history', { text: 'bluefinch' });
    expect(JSON.stringify(bobs)).not.toContain('launch.md');
  });
});
