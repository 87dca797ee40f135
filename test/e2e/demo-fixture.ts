// Starts the real demo installation for end-to-end tests: the demo built in a temporary
// folder, served over HTTP on a free port (PGlite, or the Postgres server in a fresh schema
// when DATABASE_URL is set), and MCP clients of either protocol era connected to it.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildDemo, type DemoLayout } from '../../src/demo/build-demo.ts';
import type { Logger } from '../../src/instance/log.ts';
import type { Tool } from '../../src/instance/tool.ts';
import { serveLocal, type LocalServer } from '../../src/main/local.ts';
import { openPostgres } from '../../src/note-index/postgres-client.ts';
import { silentLogger } from '../../src/instance/log.ts';
import { tempDir } from '../support/git-fixture.ts';

/** A served demo: its address, where it lives, and `close` (stops it and removes everything). */
export interface ServedDemo {
  url: URL;
  layout: DemoLayout;
  server: LocalServer;
  close(): Promise<void>;
}

/** Builds the demo in a fresh temporary folder. */
export async function builtDemo(): Promise<{ layout: DemoLayout; cleanup(): void }> {
  const dir = tempDir('mv-demo-');
  const layout = await buildDemo(dir.path);
  return { layout, cleanup: dir.cleanup };
}

/** A served folder of repositories: its address, the server, and `close` (stops it and drops its Postgres schema). */
export interface ServedRepos {
  url: URL;
  server: LocalServer;
  close(): Promise<void>;
}

/**
 * Serves the repositories in `reposDir` as installation `name` at `http://127.0.0.1:<free
 * port>/<name>`: on PGlite in the folder, or, when DATABASE_URL is set, on the Postgres server
 * in a fresh schema that `close` drops. `usersFile`, `tools`, `log` (default: nothing) and
 * `matchBudgetMs` as serveLocal takes them. Resolves once the startup indexing is done (serve
 * itself answers before: src/main/serve-early.test.ts tests that), so calls and their log lines
 * do not include the wait for the index; a failure to open the index is left to the calls.
 */
export async function serveRepos(
  reposDir: string,
  options: { name?: string; usersFile?: string; tools?: readonly Tool[]; log?: Logger; matchBudgetMs?: number } = {},
): Promise<ServedRepos> {
  const databaseUrl = process.env['DATABASE_URL'];
  const schema = `e2e_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const server = await serveLocal(
    {
      reposDir,
      name: options.name ?? 'notes',
      port: 0,
      hostname: '127.0.0.1',
      ...(options.usersFile ? { usersFile: options.usersFile } : {}),
      ...(databaseUrl ? { schema } : {}),
    },
    {
      log: options.log ?? silentLogger(),
      // The tests wait for the startup indexing below: no pause for a client's first answers.
      openingDelayMs: 0,
      ...(options.tools ? { tools: options.tools } : {}),
      ...(options.matchBudgetMs !== undefined ? { matchBudgetMs: options.matchBudgetMs } : {}),
    },
  );
  await server.opened.then((opened) => opened.installation.ready()).catch(() => undefined);
  return {
    url: server.url,
    server,
    async close() {
      await server.close();
      if (databaseUrl) {
        const sql = await openPostgres(databaseUrl, schema);
        await sql.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await sql.close();
      }
    },
  };
}

/**
 * Serves the demo at `http://127.0.0.1:<free port>/acme`, with the example users file
 * when `users` is set, and the registry (or `tools`), logging to `log` (default: nothing).
 */
export async function serveDemo(options: { users?: boolean; tools?: readonly Tool[]; log?: Logger } = {}): Promise<ServedDemo> {
  const demo = await builtDemo();
  const served = await serveRepos(demo.layout.reposDir, {
    name: 'acme',
    ...(options.users ? { usersFile: demo.layout.usersFile } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    url: served.url,
    layout: demo.layout,
    server: served.server,
    async close() {
      await served.close();
      demo.cleanup();
    },
  };
}

/** The two kinds of client the suite runs with. */
export type ClientEra = '2026-07-28' | '2025-11-25' | '2025-06-18' | '2025-03-26';

/**
 * An SDK `Client` connected over Streamable HTTP: `2026-07-28` pins the modern revision
 * (negotiated with `server/discover`); a 2025 date speaks that revision's `initialize`.
 */
export async function connectHttp(url: URL, era: ClientEra, options: { token?: string; name?: string } = {}): Promise<Client> {
  const client = new Client(
    { name: options.name ?? `e2e-${era}`, version: '1.0.0' },
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : { supportedProtocolVersions: [era] },
  );
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}
