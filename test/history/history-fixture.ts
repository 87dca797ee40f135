// A real ToolContext over Git repositories built by a test, for the history tools: LocalRepoHost,
// the index (PGlite, or the Postgres server with DATABASE_URL) and an installation over them.
import { callTool as callSharedTool, refusalOf as sharedRefusalOf } from '../support/call-tool.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultVaultConfig } from '../../src/config/load-vault-config.ts';
import { Installation } from '../../src/instance/installation.ts';
import type { ToolContext, Tool } from '../../src/instance/tool.ts';
import type { NoteIndex } from '../../src/note-index/note-index.ts';
import type { SqlClient } from '../../src/note-index/sql-client.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import type { Person } from '../../src/repo-host/person.ts';
import type { RepoHost } from '../../src/repo-host/repo-host.ts';
import type { VaultErrorCode } from '../../src/vault-error.ts';
import { alice, tempDir } from '../support/git-fixture.ts';
import { openTestDatabase } from '../support/test-database.ts';
import { silentLogger } from '../../src/instance/log.ts';
import { gitRunner } from '../../src/repo-host/git/git-runner.ts';

/** Who the fixture's calls come from. */
export const reader: Person = { login: 'alice', name: alice.name, email: alice.email };

/** Repositories under one folder with a running installation; `context` reads some or all of them. */
export interface HistoryFixture {
  reposDir: string;
  /** A context for a person who can read `repos` (default: every repository). */
  context(repos?: readonly string[]): Promise<ToolContext>;
  host: LocalRepoHost;
  close(): Promise<void>;
}

/**
 * Calls `build(reposDir)` to make the repositories (with git-fixture's makeRepo), then opens
 * the host, a fresh test database and an installation indexed once (no background poll).
 */
export async function openHistoryFixture(build: (reposDir: string) => void): Promise<HistoryFixture> {
  const temp = tempDir('mv-history-');
  const reposDir = join(temp.path, 'repos');
  build(reposDir);
  const host = new LocalRepoHost({ reposDir, as: reader });
  const sql: SqlClient = await openTestDatabase();
  const installation = Installation.open({ name: 'test', host, sql, log: silentLogger() });
  await installation.start({ poll: false });
  return {
    reposDir,
    host,
    async context(repos) {
      const names = repos ?? installation.repoNames();
      return installation.contextFor({ person: reader, read: new Set(names), write: new Set() }, 'Test Client');
    },
    async close() {
      await installation.close();
      await host.close();
      await sql.close();
      temp.cleanup();
    },
  };
}

/**
 * A context over `host` without the index, for history alone on large corpora (the history
 * tools answer from Git and never query the index): every repository in `repos` readable,
 * with the default configuration, and `refresh` doing nothing.
 */
export function gitOnlyContext(host: RepoHost, repos: readonly string[]): ToolContext {
  const vaults = new Map(repos.map((name) => [name, { name, head: null, config: defaultVaultConfig(), canWrite: false }]));
  const noIndex = new Proxy({} as NoteIndex, {
    get(_target, name) {
      throw new Error(`the history tools do not use the index, yet ${String(name)} was called`);
    },
  });
  return {
    access: { person: reader, read: new Set(repos), write: new Set() },
    vaults,
    index: noIndex,
    host,
    clientName: 'Test Client',
    refresh: async () => {},
    log: silentLogger(),
  };
}

/**
 * Calls a tool as the server would: input parsed by its schema, answer validated by its
 * output schema. Returns the answer and its size as the JSON text of `structuredContent`.
 */
export async function callTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  tool: Tool<I, O>,
  ctx: ToolContext,
  args: Record<string, unknown>,
): Promise<z.output<z.ZodObject<O>> & { jsonLength: number }> {
  const answer = await callSharedTool(tool, args, ctx);
  return Object.assign(answer, { jsonLength: JSON.stringify(answer).length });
}

/** The message of the VaultError with `code` that the call throws; fails when it answers or throws another. */
export async function refusalOf<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  tool: Tool<I, O>,
  ctx: ToolContext,
  args: Record<string, unknown>,
  code: VaultErrorCode,
): Promise<string> {
  const error = await sharedRefusalOf(callSharedTool(tool, args, ctx));
  if (error.code !== code) throw new Error(`expected a ${code} refusal of ${JSON.stringify(args)}, got ${error.code}: ${error.message}`);
  return error.message;
}

/**
 * The command lines of the git processes this process started that are still running, itself
 * or through its git runner (Linux: read from /proc; elsewhere always []): a search that was
 * stopped leaves none.
 */
export function childGits(): string[] {
  if (process.platform !== 'linux') return [];
  const parents = new Set([process.pid, gitRunner()?.pid ?? process.pid]);
  const running: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent is the 4th field of stat, after the command name in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (parents.has(parent) && commandLine.startsWith('git ')) running.push(commandLine);
    } catch {
      /* the process ended while it was read */
    }
  }
  return running;
}
