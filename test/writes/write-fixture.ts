// A real ToolContext over a real Git repository for the write tools' tests: LocalRepoHost,
// the index (PGlite, or the Postgres server with DATABASE_URL) and the installation's sync.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Installation } from '../../src/instance/installation.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import type { SqlClient } from '../../src/note-index/sql-client.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import type { Person } from '../../src/repo-host/person.ts';
import { alice, cloneBare, commit, git, makeRepo, tempDir } from '../support/git-fixture.ts';
import { openTestDatabase } from '../support/test-database.ts';
import { silentLogger } from '../../src/instance/log.ts';

/** The person the fixture's calls come from unless a test names another. */
export const alicePerson: Person = { login: 'alice', name: alice.name, email: alice.email };

/** A repository named `notes` with a running installation over it. */
export interface WriteFixture {
  /** The repository's work tree (or the bare repository's folder with `bare`). */
  repoDir: string;
  /** git in the repository; output trimmed. */
  git(args: string[]): string;
  /** The exact bytes of `path` at `rev` (default HEAD). */
  show(path: string, rev?: string): Buffer;
  /** How many commits HEAD has. */
  commitCount(): number;
  /** A context for `person` (default Alice), who may write unless `write` is false. */
  context(options?: { person?: Person; write?: boolean; clientName?: string | null }): Promise<ToolContext>;
  installation: Installation;
  host: LocalRepoHost;
  sql: SqlClient;
  close(): Promise<void>;
}

/**
 * Makes `notes` with one commit of `files` (by Alice), opens the host, a fresh test database
 * and an installation indexed once (no background poll). `bare` serves a bare clone instead
 * of the work tree.
 */
export async function openWriteFixture(
  files: Record<string, string | Buffer>,
  options: { bare?: boolean; sql?: SqlClient } = {},
): Promise<WriteFixture> {
  const temp = tempDir('mv-writes-');
  const reposDir = join(temp.path, 'repos');
  const source = options.bare ? join(temp.path, 'source') : join(reposDir, 'notes');
  makeRepo(source, [{ files, message: 'Initial notes' }]);
  const repoDir = options.bare ? join(reposDir, 'notes') : source;
  if (options.bare) cloneBare(source, repoDir);
  const host = new LocalRepoHost({ reposDir, as: alicePerson });
  const sql = options.sql ?? (await openTestDatabase());
  const installation = Installation.open({ name: 'test', host, sql, log: silentLogger() });
  await installation.start({ poll: false });
  const run = (args: string[]) => git(repoDir, args);
  return {
    repoDir,
    git: run,
    show: (path, rev = 'HEAD') => gitBytes(repoDir, ['show', `${rev}:${path}`]),
    commitCount: () => Number(run(['rev-list', '--count', 'HEAD'])),
    async context({ person = alicePerson, write = true, clientName = 'Test Client' } = {}) {
      const access = { person, read: new Set(['notes']), write: new Set(write ? ['notes'] : []) };
      return installation.contextFor(access, clientName);
    },
    installation,
    host,
    sql,
    async close() {
      await installation.close();
      await host.close();
      if (!options.sql) await sql.close();
      temp.cleanup();
    },
  };
}

/** Commits `files` in the fixture's work tree as someone else (an outside change). */
export function commitOutside(fixture: WriteFixture, files: Record<string, string | null>, message = 'Outside change'): string {
  return commit(fixture.repoDir, { files, message });
}

/**
 * Commits symbolic links (`path → target text`) as someone else: in the work tree, or, for a
 * bare fixture, in a clone pushed back. Returns the new head.
 */
export function commitSymlinks(fixture: WriteFixture, links: Record<string, string>, message = 'Links'): string {
  const bare = fixture.git(['rev-parse', '--is-bare-repository']) === 'true';
  const temp = bare ? tempDir('mv-links-') : null;
  const dir = temp === null ? fixture.repoDir : join(temp.path, 'clone');
  try {
    if (temp !== null) git(temp.path, ['clone', '-q', fixture.repoDir, 'clone']);
    for (const [path, target] of Object.entries(links)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      symlinkSync(target, join(dir, path));
      git(dir, ['add', '--', path]);
    }
    git(dir, ['-c', 'user.name=Outside', '-c', 'user.email=outside@example.com', 'commit', '-q', '-m', message]);
    if (temp !== null) git(dir, ['push', '-q', 'origin', 'HEAD:main']);
    return fixture.git(['rev-parse', 'HEAD']);
  } finally {
    temp?.cleanup();
  }
}

/** git's raw standard output, as bytes. */
function gitBytes(cwd: string, args: string[]): Buffer {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
}
