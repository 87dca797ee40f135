// Installation lifecycle webhooks, their effect on tokens and listings, and GitHub's signature.
import { Webhooks } from '@octokit/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFaithful, validateWebhookPayload } from './fidelity.ts';
import { FIXTURE_APP, startStandinFixture, startWebhookReceiver, type StandinFixture } from './standin-fixture.ts';

describe('webhooks of the App', () => {
  let fixture: StandinFixture;
  let installationId: number;

  beforeAll(async () => {
    fixture = await startStandinFixture();
    for (const name of ['one', 'two', 'three']) {
      await fixture.standin.createRepo('acme', name, [{ message: `Start ${name}`, author: 'alice', files: { 'a.md': 'A\n' } }]);
      fixture.standin.grant('acme', name, 'alice', 'push');
    }
    installationId = await fixture.standin.install('acme', ['one', 'two']);
  });

  afterAll(async () => {
    await fixture?.close();
    expect(fixture.fidelityFailures()).toEqual([]);
  });

  it('signs as GitHub documents: the published test vector', async () => {
    const signer = new Webhooks({ secret: "It's a Secret to Everybody" });
    expect(await signer.sign('Hello, World!')).toBe('sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  });

  it('sends installation.created with GitHub’s headers, signed with the webhook secret', async () => {
    const created = fixture.receiver.received.find((delivery) => delivery.headers['x-github-event'] === 'installation');
    expect(created).toBeDefined();
    const headers = created!.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers['x-github-hook-id']).toMatch(/^\d+$/);
    expect(headers['x-github-hook-installation-target-type']).toBe('integration');
    expect(headers['x-github-hook-installation-target-id']).toBe(String(FIXTURE_APP.id));
    expect(headers['x-hub-signature']).toMatch(/^sha1=[0-9a-f]{40}$/);
    expect(await new Webhooks({ secret: FIXTURE_APP.webhookSecret }).verify(created!.body, String(headers['x-hub-signature-256']))).toBe(
      true,
    );
    expect(await new Webhooks({ secret: 'another secret' }).verify(created!.body, String(headers['x-hub-signature-256']))).toBe(false);
    const payload = JSON.parse(created!.body) as { action: string; repositories: { full_name: string }[] };
    expect(payload.action).toBe('created');
    expect(payload.repositories.map((repo) => repo.full_name)).toEqual(['acme/one', 'acme/two']);
  });

  it('adds and removes repositories (installation_repositories) and the listings follow', async () => {
    const { accessToken } = await fixture.standin.userToken('alice');
    const user = fixture.asUser(accessToken);
    await fixture.standin.setInstallationRepos(installationId, ['three'], ['one']);
    const actions = fixture.standin
      .deliveries()
      .slice(-2)
      .map((delivery) => `${delivery.event}.${delivery.action}`);
    expect(actions).toEqual(['installation_repositories.added', 'installation_repositories.removed']);
    const { data } = await user.rest.apps.listInstallationReposForAuthenticatedUser({ installation_id: installationId });
    expect(data.repositories.map((repo) => repo.name)).toEqual(['two', 'three']);
    const installation = fixture.asInstallation(installationId);
    const { data: own } = await installation.rest.apps.listReposAccessibleToInstallation();
    expect(own.repositories.map((repo) => repo.name)).toEqual(['two', 'three']);
  });

  it('suspends (nothing listed, no tokens), unsuspends, accepts new permissions, and deletes the installation', async () => {
    const { accessToken } = await fixture.standin.userToken('alice');
    const user = fixture.asUser(accessToken);
    await fixture.standin.setInstallationState(installationId, 'suspend');
    const { data: none } = await user.rest.apps.listInstallationReposForAuthenticatedUser({ installation_id: installationId });
    expect(none.repositories).toEqual([]);
    await expect(fixture.asApp().rest.apps.createInstallationAccessToken({ installation_id: installationId })).rejects.toMatchObject({
      status: 403,
    });
    await fixture.standin.setInstallationState(installationId, 'unsuspend');
    await fixture.standin.acceptNewPermissions(installationId);
    const { data: token } = await fixture.asApp().rest.apps.createInstallationAccessToken({ installation_id: installationId });
    await fixture.standin.setInstallationState(installationId, 'deleted');
    const response = await fetch(`${fixture.standin.apiUrl}/installation/repositories`, {
      headers: { authorization: `token ${token.token}` },
    });
    expect(response.status).toBe(401);
    const { data: installs } = await user.rest.apps.listInstallationsForAuthenticatedUser();
    expect(installs.total_count).toBe(0);
    const actions = fixture.standin
      .deliveries()
      .slice(-4)
      .map((delivery) => delivery.action);
    expect(actions).toEqual(['suspend', 'unsuspend', 'new_permissions_accepted', 'deleted']);
  });

  it('sends only payloads that GitHub’s webhook schemas accept', () => {
    for (const delivery of fixture.standin.deliveries())
      assertFaithful(validateWebhookPayload(delivery.event, delivery.payload), `${delivery.event}.${delivery.action}`);
  });

  it('records the receiver’s status and does not retry a failed delivery', async () => {
    const failing = await startWebhookReceiver(500);
    fixture.standin.setWebhookUrl(failing.url);
    await fixture.standin.revokeAuthorization('bob');
    expect(fixture.standin.deliveries().at(-1)?.status).toBe(500);
    expect(failing.received).toHaveLength(1);
    fixture.standin.setWebhookUrl(null);
    await fixture.standin.revokeAuthorization('bob');
    expect(fixture.standin.deliveries().at(-1)?.status).toBeNull();
    fixture.standin.setWebhookUrl(fixture.receiver.url);
    await failing.close();
  });

  it('tells an installation on all repositories about a new repository', async () => {
    await fixture.standin.createRepo('globex', 'first', [{ message: 'Start', author: 'alice', files: { 'a.md': 'A\n' } }]);
    await fixture.standin.install('globex');
    await fixture.standin.createRepo('globex', 'second', []);
    const last = fixture.standin.deliveries().at(-1)!;
    expect([last.event, last.action]).toEqual(['installation_repositories', 'added']);
    expect(last.payload).toMatchObject({ repository_selection: 'all', repositories_added: [{ full_name: 'globex/second' }] });
  });
});
