// `major-vault demo --hosted --processes` (issue 13) as a person tries it: the worker and the
// front run as child processes on the Postgres server, the front starts acme's instance on the
// first call, tom sees the handbook only, maya searches and writes (a commit by her on the
// stand-in), and stopping the demo stops every process. Postgres only.
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/instance/log.ts';
import { serveProcessesDemo, type ProcessesDemo } from '../../src/main/demo-processes.ts';
import type { HostedDemoInfo } from '../../src/main/demo-hosted.ts';
import { dropInstallationDatabase } from '../../src/main/installation-database.ts';
import { tempDir } from '../support/git-fixture.ts';
import { OAuthBrowser } from '../support/oauth-browser.ts';
import { connectWithSignIn, ScriptedOAuthClient } from '../support/scripted-oauth-client.ts';
import { call, gitIn } from './github-fixture.ts';

const serverUrl = process.env['DATABASE_URL'];

/** A port free on 127.0.0.1 a moment ago (the front is a child process, so it cannot take port 0 and say which). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.skipIf(!serverUrl)('major-vault demo --hosted --processes', () => {
  const dir = tempDir('mv-demo-processes-');
  const database = `mv_demo_e2e_${randomBytes(5).toString('hex')}`;
  const databaseUrl = serverUrl ? Object.assign(new URL(serverUrl), { pathname: `/${database}` }).href : '';
  const installationId = 700_000_000 + Math.floor(Math.random() * 100_000_000);
  let demo: ProcessesDemo;
  let info: HostedDemoInfo;
  const clients: Client[] = [];

  const signIn = async (login: string) => {
    const client = new Client({ name: `demo processes (${login})`, version: '1.0.0' });
    await connectWithSignIn(
      client,
      new URL(info.address),
      new ScriptedOAuthClient({ browser: new OAuthBrowser({ login, decision: 'approve' }) }),
    );
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    await admin.end();
    // The children inherit the environment: keep their routine lines out of the test's output.
    process.env['MAJOR_VAULT_LOG_LEVEL'] = 'warn';
    demo = await serveProcessesDemo(
      { dir: dir.path, port: await freePort(), githubPort: 0, databaseUrl, installationId },
      { log: silentLogger() },
    );
    info = JSON.parse(readFileSync(join(dir.path, 'hosted.json'), 'utf8')) as HostedDemoInfo;
  }, 120_000);

  afterAll(async () => {
    delete process.env['MAJOR_VAULT_LOG_LEVEL'];
    await Promise.allSettled(clients.map((client) => client.close()));
    await demo?.close();
    if (serverUrl) {
      await dropInstallationDatabase(serverUrl, installationId);
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    }
    dir.cleanup();
  });

  it('serves acme from separate processes: tom reads the handbook only, maya searches and writes as herself', async () => {
    expect(info.installationId).toBe(installationId);
    const tom = await signIn('tom');
    const { tools } = await tom.listTools();
    const repo = tools.find((tool) => tool.name === 'read_note')!.inputSchema.properties?.['repo'] as { anyOf?: Array<{ const: string }> };
    expect((repo.anyOf ?? []).map((choice) => choice.const)).toEqual(['handbook']);

    const maya = await signIn('maya');
    // The worker indexes acme in the background; the first call starts the instance.
    let found = '';
    for (let tries = 0; tries < 100 && !found.includes('projects'); tries += 1) {
      // On a loaded machine the instance may still be starting: the front then answers 503
      // ("cannot be reached right now … try again"), which the client throws.
      const result = await maya.callTool({ name: 'search_notes', arguments: { query: 'launch' } }).catch((error: unknown) => {
        if (String(error).includes('cannot be reached right now')) return { isError: true, structuredContent: undefined };
        throw error;
      });
      found = result.isError ? '' : JSON.stringify(result.structuredContent);
      if (!found.includes('projects')) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(found).toContain('projects');
    const written = await call(maya, 'create_note', {
      repo: 'handbook',
      path: 'notes/from-processes.md',
      body: '# From the processes\n',
    });
    expect(written['commit']).toMatch(/^[0-9a-f]{40}$/);
    expect(gitIn(demo.standin.gitDir('acme', 'handbook'), ['log', '-1', '--format=%an'])).toBe('Maya Brenner');

    // Special tools, prompts and resources come through the front and its catalogue store as
    // in one process: listed to who reads the repository, and a special tool's write is hers.
    expect(tools.some((tool) => tool.name.startsWith('projects__'))).toBe(false);
    const mayaTools = (await maya.listTools()).tools.map((tool) => tool.name);
    expect(mayaTools).toEqual(expect.arrayContaining(['projects__create_decision', 'projects__log_launch', 'projects__advance_proposal']));
    expect((await maya.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('projects__decision_brief');
    expect((await maya.listResources()).resources.map((resource) => resource.uri)).toContain('vault://acme/projects/active/launch/plan.md');
    const logged = await call(maya, 'projects__log_launch', { text: 'Logged through the separate processes.' });
    expect(logged['path']).toBe('active/launch/log.md');
    expect(gitIn(demo.standin.gitDir('acme', 'projects'), ['log', '-1', '--format=%an|%s'])).toMatch(
      /^Maya Brenner\|Added an entry to log\.md \(projects__log_launch/,
    );
  }, 120_000);

  it('stops the worker, the front and its instance when the demo stops', async () => {
    const pids = [demo.front.pid!, demo.worker.pid!];
    // The front's children (its instance launcher) and theirs (the instances).
    // ps exits with 1 when a process has no children (a git runner with no git running).
    const childrenOf = (pid: number) =>
      spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .map((line) => Number(line.trim()))
        .filter((child) => child > 0);
    const instancePids = childrenOf(demo.front.pid!).flatMap((child) => [child, ...childrenOf(child)]);
    await demo.close();
    for (const pid of [...pids, ...instancePids]) expect(() => process.kill(pid, 0)).toThrow();
  }, 60_000);
});
