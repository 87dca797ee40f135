// GraphQL through @octokit/graphql: GitHub's schema rejects what GitHub rejects; createCommitOnBranch as GitHub runs it.
import { graphql, GraphqlResponseError } from '@octokit/graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFaithful, validateWebhookPayload } from './fidelity.ts';
import { runGitCommand, startStandinFixture, type StandinFixture } from './standin-fixture.ts';

const COMMIT = `mutation ($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid url message author { name email } committedDate } }
}`;

describe('GraphQL at /api/graphql', () => {
  let fixture: StandinFixture;
  /** @octokit/graphql as the product would build it for a GHES base URL. */
  const asUser = (token: string) =>
    graphql.defaults({ baseUrl: `${fixture.standin.origin}/api`, headers: { authorization: `token ${token}` } });
  const head = () => runGitCommand(fixture.standin.gitDir('acme', 'notes'), ['rev-parse', 'main']);
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  beforeAll(async () => {
    fixture = await startStandinFixture();
    await fixture.standin.createRepo('acme', 'notes', [
      { message: 'Start', author: 'alice', files: { 'README.md': '# Notes\n', 'docs/a.md': 'A\n' } },
    ]);
    await fixture.standin.install('acme');
    fixture.standin.grant('acme', 'notes', 'alice', 'push');
    fixture.standin.grant('acme', 'notes', 'bob', 'pull');
    fixture.standin.grant('acme', 'notes', 'carol', 'push');
  });

  afterAll(async () => {
    await fixture?.close();
    expect(fixture.fidelityFailures()).toEqual([]);
  });

  it('answers viewer and repository.defaultBranchRef, also through @octokit/rest’s graphql at the /api/v3 base URL', async () => {
    const { accessToken } = await fixture.standin.userToken('alice');
    const answer = await asUser(accessToken)<{
      viewer: { login: string };
      repository: { defaultBranchRef: { name: string; target: { oid: string } } };
    }>(`query { viewer { login } repository(owner: "acme", name: "notes") { defaultBranchRef { name target { oid } } } }`);
    expect(answer.viewer.login).toBe('alice');
    expect(answer.repository.defaultBranchRef).toEqual({ name: 'main', target: { oid: await head() } });
    const viaRest = await fixture.asUser(accessToken).graphql<{ viewer: { login: string } }>('query { viewer { login } }');
    expect(viaRest.viewer.login).toBe('alice');
  });

  it('rejects a query GitHub’s schema rejects, in GitHub’s error shape', async () => {
    const { accessToken } = await fixture.standin.userToken('alice');
    const error = (await asUser(accessToken)('query { viewer { login shoeSize } }').catch(
      (failure: unknown) => failure,
    )) as GraphqlResponseError<unknown>;
    expect(error).toBeInstanceOf(GraphqlResponseError);
    expect(error.errors?.[0]).toMatchObject({
      message: "Field 'shoeSize' doesn't exist on type 'User'",
      locations: [{ line: 1, column: 24 }],
    });
    const missingInput = (await asUser(accessToken)('mutation { createCommitOnBranch { commit { oid } } }').catch(
      (failure: unknown) => failure,
    )) as GraphqlResponseError<unknown>;
    expect(missingInput.errors?.[0]?.message).toMatch(/input/);
  });

  it('refuses without a token (401) and with a bad one', async () => {
    const response = await fetch(`${fixture.standin.origin}/api/graphql`, {
      method: 'POST',
      body: JSON.stringify({ query: '{ viewer { login } }' }),
    });
    expect(response.status).toBe(401);
    await expect(asUser('ghu_revokedrevokedrevokedrevokedrevok')('query { viewer { login } }')).rejects.toMatchObject({ status: 401 });
  });

  it('commits on a branch as the person, committed by GitHub, and sends the push webhook', async () => {
    const { accessToken } = await fixture.standin.userToken('carol');
    const before = await head();
    const deliveries = fixture.standin.deliveries().length;
    const answer = await asUser(accessToken)<{
      createCommitOnBranch: { commit: { oid: string; message: string; author: { name: string; email: string }; url: string } };
    }>(COMMIT, {
      input: {
        branch: { repositoryNameWithOwner: 'acme/notes', branchName: 'main' },
        message: { headline: 'Edit a', body: 'Through the tool.' },
        fileChanges: {
          additions: [
            { path: 'docs/a.md', contents: b64('A2\n') },
            { path: 'new/deep/n.md', contents: b64('N\n') },
          ],
          deletions: [{ path: 'README.md' }],
        },
        expectedHeadOid: before,
      },
    });
    const commit = answer.createCommitOnBranch.commit;
    expect(commit.oid).toBe(await head());
    expect(commit.message).toBe('Edit a\n\nThrough the tool.');
    expect(commit.author).toEqual({ name: 'Carol Chen', email: '1003+carol@users.noreply.github.com' });
    expect(commit.url).toBe(`${fixture.standin.origin}/acme/notes/commit/${commit.oid}`);
    const dir = fixture.standin.gitDir('acme', 'notes');
    expect(await runGitCommand(dir, ['log', '-1', '--format=%cn <%ce>|%P', 'main'])).toBe(`GitHub <noreply@github.com>|${before}`);
    expect(await runGitCommand(dir, ['show', 'main:docs/a.md'])).toBe('A2');
    await fixture.standin.webhooksSettled();
    const push = fixture.standin.deliveries().slice(deliveries);
    expect(push.map((delivery) => delivery.event)).toEqual(['push']);
    expect(push[0]?.status).toBe(202);
    expect(push[0]?.payload).toMatchObject({ before, after: commit.oid, forced: false, pusher: { name: 'carol' } });
    assertFaithful(validateWebhookPayload('push', push[0]!.payload), 'the push payload');
  });

  it('answers STALE_DATA when the head moved, FORBIDDEN without push, and refuses impossible file changes', async () => {
    const carol = asUser((await fixture.standin.userToken('carol')).accessToken);
    const stale = (await carol(COMMIT, {
      input: {
        branch: { repositoryNameWithOwner: 'acme/notes', branchName: 'main' },
        message: { headline: 'x' },
        fileChanges: { additions: [{ path: 'x.md', contents: b64('x') }] },
        expectedHeadOid: '1'.repeat(40),
      },
    }).catch((failure: unknown) => failure)) as GraphqlResponseError<unknown>;
    expect(stale.errors?.[0]).toMatchObject({
      type: 'STALE_DATA',
      message: `Expected branch to point to "${'1'.repeat(40)}" but it did not. Pull and try again.`,
    });

    const bob = asUser((await fixture.standin.userToken('bob')).accessToken);
    const forbidden = (await bob(COMMIT, {
      input: {
        branch: { repositoryNameWithOwner: 'acme/notes', branchName: 'main' },
        message: { headline: 'x' },
        fileChanges: { additions: [{ path: 'x.md', contents: b64('x') }] },
        expectedHeadOid: await head(),
      },
    }).catch((failure: unknown) => failure)) as GraphqlResponseError<unknown>;
    expect(forbidden.errors?.[0]).toMatchObject({ type: 'FORBIDDEN', path: ['createCommitOnBranch'] });
    expect(forbidden.errors?.[0]?.message).toMatch(/does not have the correct permissions to execute `CreateCommitOnBranch`/);

    const missing = (await carol(COMMIT, {
      input: {
        branch: { repositoryNameWithOwner: 'acme/notes', branchName: 'main' },
        message: { headline: 'x' },
        fileChanges: { deletions: [{ path: 'nope.md' }] },
        expectedHeadOid: await head(),
      },
    }).catch((failure: unknown) => failure)) as GraphqlResponseError<unknown>;
    expect(missing.errors?.[0]?.message).toMatch(/deletion which does not exist/);

    const underFile = (await carol(COMMIT, {
      input: {
        branch: { repositoryNameWithOwner: 'acme/notes', branchName: 'main' },
        message: { headline: 'x' },
        fileChanges: { additions: [{ path: 'docs/a.md/z.md', contents: b64('z') }] },
        expectedHeadOid: await head(),
      },
    }).catch((failure: unknown) => failure)) as GraphqlResponseError<unknown>;
    expect(underFile.errors?.[0]?.message).toMatch(/which is a file/);

    const dotted = (await carol(COMMIT, {
      input: {
        branch: { repositoryNameWithOwner: 'acme/notes', branchName: 'main' },
        message: { headline: 'x' },
        fileChanges: { additions: [{ path: '../escape.md', contents: b64('z') }] },
        expectedHeadOid: await head(),
      },
    }).catch((failure: unknown) => failure)) as GraphqlResponseError<unknown>;
    expect(dotted.errors?.[0]?.message).toMatch(/not a valid path/);

    const unknownRepo = (await carol(COMMIT, {
      input: {
        branch: { repositoryNameWithOwner: 'acme/none', branchName: 'main' },
        message: { headline: 'x' },
        expectedHeadOid: await head(),
      },
    }).catch((failure: unknown) => failure)) as GraphqlResponseError<unknown>;
    expect(unknownRepo.errors?.[0]).toMatchObject({ type: 'NOT_FOUND' });
  });

  it('commits with an installation token as the App’s bot', async () => {
    const installationId = (await fixture.asApp().rest.apps.getRepoInstallation({ owner: 'acme', repo: 'notes' })).data.id;
    const { data } = await fixture.asApp().rest.apps.createInstallationAccessToken({ installation_id: installationId });
    const answer = await asUser(data.token)<{ createCommitOnBranch: { commit: { oid: string; author: { name: string; email: string } } } }>(
      COMMIT,
      {
        input: {
          branch: { repositoryNameWithOwner: 'acme/notes', branchName: 'main' },
          message: { headline: 'By the App' },
          fileChanges: { additions: [{ path: 'bot.md', contents: b64('bot') }] },
          expectedHeadOid: await head(),
        },
      },
    );
    expect(answer.createCommitOnBranch.commit.author.name).toBe('major-vault-test[bot]');
    const push = fixture.standin.deliveries().at(-1)!;
    expect(push.payload).toMatchObject({ pusher: { name: 'major-vault-test[bot]' }, sender: { type: 'Bot' } });
    assertFaithful(validateWebhookPayload('push', push.payload), 'the push payload of a bot commit');
  });

  it('answers injected faults on /api/graphql: an error status, or no answer at all', async () => {
    const alice = asUser((await fixture.standin.userToken('alice')).accessToken);
    fixture.standin.failNext({ method: 'POST', path: /^\/api\/graphql$/ }, 502);
    await expect(alice('query { viewer { login } }')).rejects.toMatchObject({ status: 502 });
    fixture.standin.failNext({ path: /^\/api\/graphql$/ }, 'timeout');
    await expect(alice('query { viewer { login } }', { request: { signal: AbortSignal.timeout(300) } })).rejects.toThrow();
    expect((await alice<{ viewer: { login: string } }>('query { viewer { login } }')).viewer.login).toBe('alice');
  });
});
