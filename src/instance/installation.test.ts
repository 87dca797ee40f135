// The running installation on real Git repositories and a real index: startup indexing,
// `.vault/` read per repository, changes made outside the server noticed by the poll, the
// server's own commits seen at once, repositories coming and going, access-limited vaults.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { alice, makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { capturedLog, type CapturedLog } from '../../test/support/captured-log.ts';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { removeRepo, syncRepo } from '../note-index/indexer.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';
import { sharedStateKey } from '../repo-host/caller-repo-host.ts';
import { ChangesPoll } from '../repo-host/local/changes-poll.ts';
import { isVaultError } from '../vault-error.ts';
import { Installation } from './installation.ts';
import { silentLogger } from './log.ts';

/** Waits until `condition` holds, checking every 50 ms; fails after `ms` (generous: no timing is asserted). */
async function eventually(condition: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition did not come true');
    await sleep(50);
  }
}

describe('Installation', () => {
  let dir: ReturnType<typeof tempDir>;
  let sql: SqlClient;
  let host: LocalRepoHost;
  let installation: Installation;
  let logged: CapturedLog;

  beforeEach(async () => {
    dir = tempDir('mv-installation-');
    makeRepo(join(dir.path, 'notes'), [
      {
        message: 'Start',
        files: {
          '.vault/settings.jsonc': '{ "summary": "Team notes." }\n',
          '.vault/instructions.md': 'Be brief.\n',
          'a.md': '# A\n\nSee [[b]].\n',
          'b.md': '# B\n',
        },
      },
    ]);
    makeRepo(join(dir.path, 'plain'), [{ message: 'Start', files: { 'readme.md': '# Plain\n' } }]);
    host = new LocalRepoHost({ reposDir: dir.path });
    logged = capturedLog();
    installation = Installation.open({ name: 'test', host, sql, changes: new ChangesPoll({ intervalMs: 50 }), log: logged.log });
    await installation.start();
  });

  afterEach(async () => {
    await installation.close();
    await host.close();
    // One database for the file: each test starts from an empty index.
    for (const name of ['notes', 'plain', 'later']) await removeRepo(sql, name);
    dir.cleanup();
  });

  beforeAll(async () => {
    sql = await openTestDatabase();
  });

  afterAll(async () => {
    await sql.close();
  });

  test('indexes every repository at startup and reads each one’s .vault/', async () => {
    expect(installation.repoNames()).toEqual(['notes', 'plain']);
    expect(await installation.index.notePaths('notes')).toEqual(['a.md', 'b.md']);
    const access = (await host.authenticate(undefined))!;
    const vaults = await installation.vaultsFor(access);
    expect(vaults.get('notes')?.config.settings.summary).toBe('Team notes.');
    expect(vaults.get('notes')?.config.instructions).toBe('Be brief.');
    expect(vaults.get('plain')?.config.configured).toBe(false);
    expect(Installation.repoChoices(vaults)).toEqual([
      { name: 'notes', summary: 'Team notes.' },
      { name: 'plain', summary: null },
    ]);
  });

  test('a vault is only what the person may read, with whether they may write', async () => {
    const person = { login: 'x', name: 'X', email: 'x@example.com' };
    const vaults = await installation.vaultsFor({ person, read: new Set(['plain', 'elsewhere']), write: new Set() });
    expect([...vaults.keys()]).toEqual(['plain']);
    expect(vaults.get('plain')?.canWrite).toBe(false);
  });

  test('an edit made outside the server (an editor) reaches the index through the poll', async () => {
    writeFileSync(join(dir.path, 'notes', 'c.md'), '# C\n');
    await eventually(async () => (await installation.index.notePaths('notes')).includes('c.md'));
    // Logged once the update is done (the notes are in the index a moment before): the startup's build, then the update.
    const updates = () => logged.events('index_updated').filter((line) => line['repo'] === 'notes');
    await eventually(async () => updates().length === 2);
    expect(updates()).toEqual([
      expect.objectContaining({ level: 30, changed: 2, removed: 0 }),
      expect.objectContaining({
        level: 30,
        repo: 'notes',
        head: expect.any(String),
        changed: 1,
        removed: 0,
        durationMs: expect.any(Number),
      }),
    ]);
  });

  test('refresh brings a repository up to date at once, and a changed .vault/ is read again', async () => {
    writeFileSync(join(dir.path, 'notes', '.vault', 'settings.jsonc'), '{ "summary": "Changed." }\n');
    writeFileSync(join(dir.path, 'notes', 'd.md'), '# D\n');
    await installation.refresh('notes', { force: true });
    expect(await installation.index.notePaths('notes')).toContain('d.md');
    const vaults = await installation.vaultsFor((await host.authenticate(undefined))!);
    expect(vaults.get('notes')?.config.settings.summary).toBe('Changed.');
  });

  test('a commit made through a tool’s host is seen by the next refresh, without waiting', async () => {
    const head = (await host.listRepos()).find((repo) => repo.name === 'notes')!.head;
    await installation.refresh('notes', { force: true });
    const result = await (
      await installation.contextFor((await host.authenticate(undefined))!, null)
    ).host.commit('notes', {
      parent: head,
      files: [{ path: 'e.md', content: Buffer.from('# E\n') }],
      author: { login: 'alice', name: alice.name, email: alice.email },
      message: 'Add e',
    });
    expect(result.ok).toBe(true);
    await installation.refresh('notes');
    expect(await installation.index.notePaths('notes')).toContain('e.md');
  });

  test('a tool’s context holds repository access bound to the caller: no credential, no sign-in, no close', async () => {
    const access = (await host.authenticate(undefined))!;
    const ctx = await installation.contextFor(access, null);
    expect(Object.keys(ctx.access).sort()).toEqual(['person', 'read', 'write']);
    for (const member of ['authenticate', 'requiresToken', 'close']) expect(member in ctx.host, member).toBe(false);
    // @ts-expect-error: a tool's host has no close.
    expect(ctx.host.close).toBeUndefined();
    // What tools keep for the installation (write queues, listings) is keyed by the installation's host, whoever calls.
    expect(sharedStateKey((await installation.contextFor(access, 'Other Client')).host)).toBe(sharedStateKey(ctx.host));
  });

  test('an own commit goes into the index from its own files, and the poll then finds nothing left to do', async () => {
    const head = (await host.listRepos()).find((repo) => repo.name === 'notes')!.head;
    await installation.refresh('notes', { force: true });
    const result = await (
      await installation.contextFor((await host.authenticate(undefined))!, null)
    ).host.commit('notes', {
      parent: head,
      files: [
        { path: 'b.md', content: Buffer.from('# B, changed\n') },
        { path: 'f.md', content: Buffer.from('# F\n\nSee [[a]].\n') },
      ],
      author: { login: 'alice', name: alice.name, email: alice.email },
      message: 'Change b, add f',
    });
    if (!result.ok) throw new Error('the commit failed');
    await installation.refresh('notes');
    // Indexed straight from the commit: the stored fingerprint names the commit, not a snapshot.
    expect(await installation.index.repoState('notes')).toMatchObject({ head: result.commit, fingerprint: `committed:${result.commit}` });
    expect((await installation.index.getNote('notes', 'b.md'))?.content).toBe('# B, changed\n');
    expect((await installation.index.linksTo('notes', 'a.md')).map((link) => link.source)).toContain('f.md');
    // A sync of the repository as it now is finds nothing left to do.
    await installation.close();
    const reconcile = await syncRepo(sql, host, 'notes');
    expect({ changed: reconcile.changed, removed: reconcile.removed }).toEqual({ changed: 0, removed: 0 });
    expect((await installation.index.getNote('notes', 'b.md'))?.content).toBe('# B, changed\n');
    expect(await installation.index.notePaths('notes')).toEqual(['a.md', 'b.md', 'f.md']);
  });

  test('started in the background: the vaults answer once listed, a context waits for the index', async () => {
    // A fresh index: the installation of beforeEach is closed and its repositories forgotten.
    await installation.close();
    for (const name of ['notes', 'plain']) await removeRepo(sql, name);
    installation = Installation.open({ name: 'test', host, sql, changes: new ChangesPoll({ intervalMs: 50 }), log: silentLogger() });
    await installation.startInBackground();
    const access = (await host.authenticate(undefined))!;
    const vaults = await installation.vaultsFor(access);
    expect([...vaults.keys()]).toEqual(['notes', 'plain']);
    expect(vaults.get('notes')?.config.instructions).toBe('Be brief.');
    const ctx = await installation.contextFor(access, null);
    expect(await ctx.index.notePaths('notes')).toEqual(['a.md', 'b.md']);
    await expect(installation.ready()).resolves.toBeUndefined();
  });

  test('a startup that fails as a whole makes ready() and every context reject with index_unavailable', async () => {
    const gone = new LocalRepoHost({ reposDir: join(dir.path, 'no such folder') });
    const failed = Installation.open({ name: 'test', host: gone, sql, log: silentLogger() });
    await expect(failed.startInBackground()).rejects.toThrow();
    await expect(failed.ready()).rejects.toSatisfy((error) => isVaultError(error, 'index_unavailable'));
    await expect(failed.contextFor((await host.authenticate(undefined))!, null)).rejects.toSatisfy((error) =>
      isVaultError(error, 'index_unavailable'),
    );
    await failed.close();
  });

  test('a repository added to the folder is picked up, one removed is dropped', async () => {
    makeRepo(join(dir.path, 'later'), [{ message: 'Start', files: { 'x.md': '# X\n' } }]);
    await eventually(async () => installation.repoNames().includes('later'));
    expect(await installation.index.notePaths('later')).toEqual(['x.md']);
    rmSync(join(dir.path, 'plain'), { recursive: true, force: true });
    await eventually(async () => !installation.repoNames().includes('plain'));
    expect(await installation.index.notePaths('plain')).toEqual([]);
  });
});
