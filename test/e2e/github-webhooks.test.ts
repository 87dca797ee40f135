// GitHub's webhooks end to end: the stand-in pushes, rewrites, removes and revokes, delivers
// signed webhooks to the server, and the SDK's client sees the result; forged and replayed
// deliveries do nothing; GitHub failing or hanging is refused clearly, with nothing lost.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { Webhooks } from '@octokit/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/instance/log.ts';
import { tempDir } from '../support/git-fixture.ts';
import { connectHttp } from './demo-fixture.ts';
import { call, finds, refusal, startGitHubE2e, testApp, within, gitIn, type GitHubE2e } from './github-fixture.ts';

/** Git without the machine's configuration, committing as Alice. */
const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Alice Arden',
  GIT_AUTHOR_EMAIL: 'alice@acme.example',
  GIT_COMMITTER_NAME: 'Alice Arden',
  GIT_COMMITTER_EMAIL: 'alice@acme.example',
};

const run = promisify(execFile);

describe("GitHub's webhooks", () => {
  let e2e: GitHubE2e;
  const clients: Client[] = [];
  const connect = async (login: string) => {
    const client = await connectHttp(e2e.server.url, '2026-07-28', { token: e2e.tokens[login]! });
    clients.push(client);
    return client;
  };
  /** POSTs `body` to the webhook endpoint as GitHub would, signed with `secret`. */
  const deliver = async (event: string, id: string, body: string, secret = testApp.webhookSecret) =>
    fetch(e2e.server.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-github-delivery': id,
        'x-hub-signature-256': await new Webhooks({ secret }).sign(body),
      },
      body,
    });

  beforeAll(async () => {
    e2e = await startGitHubE2e({
      requestTimeoutMs: 2_000,
      ...(process.env['E2E_LOG'] ? { log: createLogger({ level: 'debug' }) } : {}),
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await e2e?.close();
  });

  it('makes a push from outside searchable (bench/github-push-to-search.ts measures how soon)', async () => {
    const alice = await connect('alice');
    await e2e.standin.push('acme', 'handbook', {
      message: 'Add the expense rules',
      author: 'alice',
      files: { 'policies/expenses.md': '# Expenses\n\nReceipts go to the quokkaledger.\n' },
    });
    // A wait, not a timing assertion: how soon is the benchmark's to say.
    await within(20_000, () => finds(alice, 'quokkaledger', 'expenses.md'), 'the pushed note is searchable');
    const history = await call(alice, 'note_history', { repo: 'handbook', path: 'policies/expenses.md' });
    expect(JSON.stringify(history)).toContain('Add the expense rules');
  });

  it('rereads .vault/ when a push changes it', async () => {
    const alice = await connect('alice');
    await e2e.standin.push('acme', 'handbook', {
      message: 'Add the rules',
      author: 'alice',
      files: { '.vault/instructions.md': 'Write every policy in the second person.\n' },
    });
    await within(
      20_000,
      async () => JSON.stringify(await call(alice, 'tree', { repo: 'handbook' })).includes('second person'),
      'the new instructions are served',
    );
  });

  it('ignores a push to another branch', async () => {
    const alice = await connect('alice');
    await e2e.standin.push(
      'acme',
      'handbook',
      { message: 'A draft', author: 'alice', files: { 'draft.md': '# Draft\n\nThe word is wombatdraft.\n' } },
      { branch: 'drafts' },
    );
    const delivery = e2e.standin.deliveries().at(-1)!;
    expect(delivery.event).toBe('push');
    expect(delivery.status).toBe(200);
    expect(await finds(alice, 'wombatdraft', 'draft.md')).toBe(false);
  });

  it('answers a bad signature with 401 and does nothing; a replayed delivery is acknowledged and ignored', async () => {
    const alice = await connect('alice');
    e2e.standin.setWebhookUrl(null);
    await e2e.standin.push('acme', 'handbook', {
      message: 'A quiet change',
      author: 'alice',
      files: { 'quiet.md': '# Quiet\n\nThe word is narwhalquiet.\n' },
    });
    e2e.standin.setWebhookUrl(e2e.server.webhookUrl.href);
    const push = e2e.standin.deliveries().at(-1)!;
    expect(push.status).toBeNull();
    const body = JSON.stringify(push.payload);
    const forged = await deliver('push', push.id, body, 'not the secret');
    expect(forged.status).toBe(401);
    const unsigned = await fetch(e2e.server.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': push.id },
      body,
    });
    expect(unsigned.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await finds(alice, 'narwhalquiet', 'quiet.md')).toBe(false);

    // GitHub's own redelivery of it (same id, same body) is the first genuine one: it counts.
    await e2e.standin.redeliver(push.id);
    await within(20_000, () => finds(alice, 'narwhalquiet', 'quiet.md'), 'the redelivered push is indexed');
    expect(e2e.standin.deliveries().at(-1)!.status).toBe(202);
    // Once more: seen before, acknowledged, nothing done.
    await e2e.standin.redeliver(push.id);
    expect(e2e.standin.deliveries().at(-1)!.status).toBe(200);
    const replay = await deliver('push', push.id, body);
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain('handled already');
  });

  it('refuses a delivery that is not JSON or names no event, and ignores events it has no use for', async () => {
    expect((await deliver('push', 'not-json', 'payload=%7B%7D')).status).toBe(400);
    expect((await deliver('star', 'a-star', JSON.stringify({ action: 'created' }))).status).toBe(200);
    expect((await deliver('push', 'no-repository', JSON.stringify({ ref: 'refs/heads/main' }))).status).toBe(400);
  });

  it('indexes a push of 3,000 files', async () => {
    const alice = await connect('alice');
    // Pushed from a clone with git, as a person would (GitHub's payload lists at most 20 commits and 3,000 files).
    const clone = tempDir('mv-github-clone-');
    try {
      const remote = new URL('/acme/handbook.git', e2e.standin.origin);
      remote.username = 'alice';
      remote.password = 'alice-pw';
      // Asynchronously: the stand-in answers in this process.
      await run('git', ['clone', '-q', remote.href, clone.path], { env: gitEnv });
      mkdirSync(join(clone.path, 'bulk'));
      for (let i = 0; i < 3000; i += 1) {
        writeFileSync(join(clone.path, 'bulk', `${String(i).padStart(4, '0')}.md`), `# Note ${i}\n\nBulk word bulkmarker${i}.\n`);
      }
      await run('git', ['-C', clone.path, 'add', '-A'], { env: gitEnv });
      await run('git', ['-C', clone.path, 'commit', '-q', '-m', 'Import 3,000 notes'], { env: gitEnv });
      await run('git', ['-C', clone.path, 'push', '-q', 'origin', 'HEAD:main'], { env: gitEnv });
    } finally {
      clone.cleanup();
    }
    await within(30_000, () => finds(alice, 'bulkmarker2999', 'bulk/2999.md'), 'the last of 3,000 files is searchable');
    const listed = await call(alice, 'list_notes', { repo: 'handbook', folder: 'bulk', limit: 1 });
    expect(listed['total']).toBe(3000);
  }, 60_000);

  it('leaves the index equal to the new tree after a forced push that rewrites history', async () => {
    const alice = await connect('alice');
    const gitDir = e2e.standin.gitDir('acme', 'handbook');
    const root = gitIn(gitDir, ['rev-list', '--max-parents=0', 'main']);
    await e2e.standin.forcePush('acme', 'handbook', root, [
      {
        message: 'Start over',
        author: 'alice',
        files: {
          'policies/expenses.md': null,
          'quiet.md': null,
          'restart.md': '# Restart\n\nThe word is axolotlrestart.\n',
        },
      },
    ]);
    await within(20_000, () => finds(alice, 'axolotlrestart', 'restart.md'), 'the rewritten tree is indexed');
    const tree = gitIn(gitDir, ['ls-tree', '-r', '--name-only', 'main'])
      .split('\n')
      .filter((path) => path.endsWith('.md'));
    const listed = await call(alice, 'list_notes', { repo: 'handbook', limit: 200 });
    expect(listed['total']).toBe(tree.length);
    expect(await finds(alice, 'quokkaledger', 'expenses.md')).toBe(false);
    expect(await finds(alice, 'bulkmarker12', 'bulk/0012.md')).toBe(false);
    const history = await call(alice, 'search_history', { repo: 'handbook', text: 'quokkaledger' });
    expect(JSON.stringify(history)).not.toContain('expenses.md');
  }, 30_000);

  it('answers GitHub failing or hanging during a write with a clear refusal, loses nothing, and stays up', async () => {
    const alice = await connect('alice');
    const gitDir = e2e.standin.gitDir('acme', 'handbook');
    const before = gitIn(gitDir, ['rev-parse', 'main']);
    const edit = (word: string) => ({
      repo: 'handbook',
      path: 'README.md',
      old_text: '# Handbook',
      new_text: `# Handbook of ${word}`,
      summary: `Use the word ${word}`,
    });
    const unclear: string[] = [];
    for (const status of [401, 403, 404, 409, 422, 500, 502, 'timeout'] as const) {
      e2e.standin.failNext({ method: 'POST', path: /^\/api\/graphql$/ }, status);
      const text = await refusal(alice, 'edit_note', edit(`failed${status}`));
      // A refusal that says what happened, never the generic internal error.
      if (/internal error|stack|TypeError/i.test(text)) unclear.push(`${status}: ${text}`);
      expect(gitIn(gitDir, ['rev-parse', 'main'])).toBe(before);
    }
    expect(unclear).toEqual([]);
    // Nothing was lost or left half-done: the same edit goes through now.
    await call(alice, 'edit_note', edit('axolotlagain'));
    expect(gitIn(gitDir, ['show', 'main:README.md'])).toContain('axolotlagain');
    expect(await finds(alice, 'axolotlagain', 'README.md')).toBe(true);
  }, 60_000);

  it('catches up after a fetch of the mirror fails', async () => {
    const alice = await connect('alice');
    e2e.standin.setWebhookUrl(null);
    await e2e.standin.push('acme', 'handbook', { message: 'Add a', author: 'alice', files: { 'a.md': '# A\n\nThe word is ibexfirst.\n' } });
    e2e.standin.setWebhookUrl(e2e.server.webhookUrl.href);
    // The delivery arrives, but GitHub answers the mirror's fetch with 500.
    e2e.standin.failNext({ method: 'GET', path: /^\/acme\/handbook\.git\/info\/refs$/ }, 500);
    await e2e.standin.redeliver(e2e.standin.deliveries().at(-1)!.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await finds(alice, 'ibexfirst', 'a.md')).toBe(false);
    // The next push fetches everything.
    await e2e.standin.push('acme', 'handbook', {
      message: 'Add b',
      author: 'alice',
      files: { 'b.md': '# B\n\nThe word is ibexsecond.\n' },
    });
    await within(20_000, () => finds(alice, 'ibexsecond', 'b.md'), 'the second push is indexed');
    expect(await finds(alice, 'ibexfirst', 'a.md')).toBe(true);
  });

  it('drops a repository removed from the installation from every answer', async () => {
    const alice = await connect('alice');
    expect(await finds(alice, 'bluefinch', 'launch.md')).toBe(true);
    await e2e.standin.setInstallationRepos(e2e.installationId, [], ['plans']);
    await within(20_000, async () => !(await finds(alice, 'bluefinch', 'launch.md')), 'plans is gone from search');
    expect(JSON.stringify((await alice.listTools()).tools)).not.toContain('"const":"plans"');
    const refused = await refusal(alice, 'read_note', { repo: 'plans', path: 'launch.md' });
    expect(refused).not.toContain('bluefinch');
    // Added back, it is served again.
    await e2e.standin.setInstallationRepos(e2e.installationId, ['plans'], []);
    await within(20_000, () => finds(alice, 'bluefinch', 'launch.md'), 'plans is back');
  }, 30_000);

  it('drops the rights of a person who lost access once the installation changes, and a revoked authorization at once', async () => {
    const bob = await connect('bob');
    expect(await finds(bob, 'per diem', 'travel-policy.md')).toBe(true);
    e2e.standin.grant('acme', 'handbook', 'bob', null);
    // GitHub sends the App no event for a collaborator change; any installation change drops
    // the kept rights (else they expire within 15 minutes).
    await e2e.standin.setInstallationRepos(e2e.installationId, [], ['plans']);
    await within(20_000, async () => !(await finds(bob, 'per diem', 'travel-policy.md')), 'Bob no longer reads handbook');
    expect(JSON.stringify((await bob.listTools()).tools)).not.toContain('"const":"handbook"');

    const alice = await connect('alice');
    expect(await finds(alice, 'per diem', 'travel-policy.md')).toBe(true);
    await e2e.standin.revokeAuthorization('alice');
    await within(
      20_000,
      async () =>
        (await fetch(e2e.server.url, { method: 'POST', headers: { authorization: `Bearer ${e2e.tokens['alice']}` } })).status === 401,
      "Alice's revoked token is refused",
    );
    // The server is still up for everyone else.
    const health = await fetch(e2e.server.url, { headers: { accept: 'text/html' } });
    expect(health.status).toBe(200);
  }, 30_000);
});
