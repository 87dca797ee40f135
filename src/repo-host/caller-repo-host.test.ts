// Repository access bound to a caller, over the real local adapter: commits carry the caller's
// credential, and the sign-in side and `close` are out of reach.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, git, makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import type { UsersFile } from '../config/users-file.ts';
import { bindToCaller, sharedStateKey } from './caller-repo-host.ts';
import { LocalRepoHost } from './local/local-repo-host.ts';
import type { Change, CommitResult } from './repo-host.ts';

/** The local adapter, recording the credential each commit arrives with. */
class RecordingHost extends LocalRepoHost {
  readonly credentials: Array<string | null | undefined> = [];
  override commit(repo: string, change: Change, preparedFrom?: ReadonlyMap<string, string | null>): Promise<CommitResult> {
    this.credentials.push(change.credential);
    return super.commit(repo, change, preparedFrom);
  }
}

const users: UsersFile = {
  path: 'users.jsonc',
  users: [{ login: 'alice', name: alice.name, email: alice.email, token: 'token-alice-0123456789', read: ['*'], write: ['*'] }],
};

describe('bindToCaller', () => {
  const dir = tempDir('mv-caller-host-');
  const notes = join(dir.path, 'notes');
  let host: RecordingHost;

  beforeAll(() => {
    makeRepo(notes, [{ message: 'Start', files: { 'a.md': '# A\n' } }]);
    host = new RecordingHost({ reposDir: dir.path, users });
  });

  afterAll(async () => {
    await host.close();
    dir.cleanup();
  });

  it('sends the signed-in caller’s credential with each commit, over any a tool put in the change', async () => {
    const access = (await host.authenticate('token-alice-0123456789'))!;
    expect(access.credential).toBe('token-alice-0123456789');
    const committed: string[] = [];
    const bound = bindToCaller(host, access.credential ?? null, (repo, _change, commit) => committed.push(`${repo} ${commit}`));
    const parent = git(notes, ['rev-parse', 'HEAD']);
    const change = { parent, files: [{ path: 'b.md', content: Buffer.from('# B\n') }], author: access.person, message: 'Add b' };
    const result = await bound.commit('notes', { ...change, credential: 'a tool’s guess' });
    if (!result.ok) throw new Error('the commit failed');
    expect(host.credentials).toEqual(['token-alice-0123456789']);
    expect(committed).toEqual([`notes ${result.commit}`]);
    expect(git(notes, ['log', '-1', '--format=%an <%ae> %s'])).toBe(`${alice.name} <${alice.email}> Add b`);
    // A refused commit (the head moved) tells nobody it landed.
    expect((await bound.commit('notes', change)).ok).toBe(false);
    expect(committed).toHaveLength(1);
  });

  it('keys state shared by every caller (write queues, listings) by the installation’s own host', () => {
    const asAlice = bindToCaller(host, 'token-alice-0123456789');
    const nobody = bindToCaller(host, null);
    expect(sharedStateKey(asAlice)).toBe(host);
    expect(sharedStateKey(nobody)).toBe(host);
    expect(sharedStateKey(bindToCaller(asAlice, 'token-alice-0123456789'))).toBe(host);
    expect(sharedStateKey(host)).toBe(host);
  });

  it('reaches the repository operations, and neither sign-in nor close', async () => {
    const bound = bindToCaller(host, null);
    expect(await bound.listRepos()).toEqual(await host.listRepos());
    expect((await bound.snapshot('notes')).head).toBe(git(notes, ['rev-parse', 'HEAD']));
    expect(await bound.readFile('notes', 'a.md')).toEqual(Buffer.from('# A\n'));
    const reach = bound as unknown as Record<string, unknown>;
    for (const member of ['authenticate', 'requiresToken', 'close']) {
      expect(member in bound, member).toBe(false);
      expect(reach[member], member).toBeUndefined();
    }
    // @ts-expect-error: sign-in is no repository operation.
    expect(bound.authenticate).toBeUndefined();
    // @ts-expect-error: stopping the adapter is its composition root's business.
    expect(bound.close).toBeUndefined();
    // No member of the adapter's own (its users, its caches) either.
    expect(reach['users']).toBeUndefined();
    expect(() => {
      reach['commit'] = () => undefined;
    }).toThrow(TypeError);
  });
});
