// An installation served from a GitHub App, for the end-to-end tests and the benchmarks: the
// GitHub stand-in (a real HTTP server over bare Git repositories, delivering signed webhooks),
// and `serveGitHub` pointed at it as it would be at github.com.
import { startGitHubStandin } from '../../src/github-standin/standin.ts';
import type { GitHubStandin, StandinCommit, StandinPerson } from '../../src/github-standin/standin-api.ts';
import { silentLogger, type Logger } from '../../src/instance/log.ts';
import { serveGitHub, type GitHubServer, type GitHubServeSettings } from '../../src/main/github.ts';
import type { OAuthSettings } from '../../src/main/oauth-settings.ts';
import { openPostgres } from '../../src/note-index/postgres-client.ts';
import { tempDir } from './git-fixture.ts';

/** The App the stand-in plays and the server is pointed at. */
export const testApp = {
  id: 31337,
  slug: 'major-vault-e2e',
  clientId: 'Iv1.e2e0000000000000',
  clientSecret: 'e2e-client-secret',
  webhookSecret: 'e2e-webhook-secret',
};

/** Alice writes handbook and reads plans; Bob reads handbook only; Carol reads nothing. */
export const testPeople: StandinPerson[] = [
  { login: 'alice', name: 'Alice Arden', email: 'alice@acme.example', password: 'alice-pw' },
  { login: 'bob', name: 'Bob Brandt', email: null, password: 'bob-pw' },
  { login: 'carol', name: 'Carol Chen', email: 'carol@acme.example', password: 'carol-pw' },
];

/** The repositories of organisation `acme` at the start: two installed, one not. */
export const testRepos: Record<string, StandinCommit[]> = {
  handbook: [
    {
      message: 'Start the handbook',
      author: 'alice',
      files: {
        'README.md': '# Handbook\n',
        'policies/travel-policy.md': '---\ntitle: Travel policy\n---\n# Travel policy\n\nThe per diem is 40 euros.\n',
        'onboarding/first-week.md': '# First week\n\nMeet the team on Monday.\n',
      },
    },
    {
      message: 'Raise the per diem',
      author: 'bob',
      files: { 'policies/travel-policy.md': '---\ntitle: Travel policy\n---\n# Travel policy\n\nThe per diem is 45 euros.\n' },
    },
  ],
  plans: [{ message: 'Plan the launch', author: 'alice', files: { 'launch.md': '# Launch\n\nThe launch codename is bluefinch.\n' } }],
  outside: [{ message: 'Not installed', author: 'alice', files: { 'secret.md': '# Outside\n\nThe word is zebracorn.\n' } }],
};

/** A running pair: the stand-in, the server pointed at it, tokens per person, and the teardown. */
export interface GitHubE2e {
  standin: GitHubStandin;
  server: GitHubServer;
  installationId: number;
  /** Each person's GitHub user token, as GitHub's web flow gives it (a bearer token only without sign-in through the front). */
  tokens: Record<string, string>;
  /** Serves the same installation once more, under another name (and sign-in settings), closed with the rest. */
  serveAnother(options: { name: string; oauth?: OAuthSettings }): Promise<GitHubServer>;
  close(): Promise<void>;
}

/**
 * Starts the stand-in with {@link testRepos} (handbook and plans installed on `acme`; alice
 * push on handbook and pull on plans, bob pull on handbook, carol nothing), then the server
 * as `acme`, with the stand-in delivering its webhooks to the server; resolves once indexed.
 */
export async function startGitHubE2e(
  options: { log?: Logger; repos?: Record<string, StandinCommit[]>; requestTimeoutMs?: number; oauth?: OAuthSettings } = {},
): Promise<GitHubE2e> {
  const dir = tempDir('mv-github-e2e-');
  const standin = await startGitHubStandin({ dataDir: `${dir.path}/github`, app: testApp, people: testPeople, webhookUrl: null });
  const repos = options.repos ?? testRepos;
  for (const [name, commits] of Object.entries(repos)) await standin.createRepo('acme', name, commits);
  const installationId = await standin.install(
    'acme',
    Object.keys(repos).filter((name) => name !== 'outside'),
  );
  standin.grant('acme', 'handbook', 'alice', 'push');
  standin.grant('acme', 'plans', 'alice', 'pull');
  standin.grant('acme', 'outside', 'alice', 'admin');
  standin.grant('acme', 'handbook', 'bob', 'pull');
  const databaseUrl = process.env['DATABASE_URL'];
  const schemas: string[] = [];
  const others: GitHubServer[] = [];
  const serve = (settings: { name?: string; oauth?: OAuthSettings }, dataDir: string) => {
    const schema = `e2e_gh_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const serveSettings: GitHubServeSettings = {
      app: {
        appId: testApp.id,
        privateKey: standin.app.privateKey,
        clientId: testApp.clientId,
        clientSecret: testApp.clientSecret,
        webhookSecret: testApp.webhookSecret,
        apiUrl: standin.apiUrl,
        webUrl: standin.origin,
        owner: 'acme',
      },
      dataDir,
      port: 0,
      hostname: '127.0.0.1',
      ...(settings.name !== undefined ? { name: settings.name } : {}),
      ...(settings.oauth !== undefined ? { oauth: settings.oauth } : {}),
      // The Store in the index's schema: one schema per server to drop.
      ...(databaseUrl ? { schema, storeSchema: schema } : {}),
      ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    };
    return serveGitHub(serveSettings, { log: options.log ?? silentLogger() });
  };
  let server: GitHubServer;
  try {
    server = await serve(options.oauth !== undefined ? { oauth: options.oauth } : {}, `${dir.path}/vault`);
    await server.installation.ready();
  } catch (error) {
    await standin.close();
    dir.cleanup();
    throw error;
  }
  standin.setWebhookUrl(server.webhookUrl.href);
  const tokens: Record<string, string> = {};
  for (const person of testPeople) tokens[person.login] = (await standin.userToken(person.login)).accessToken;
  return {
    standin,
    server,
    installationId,
    tokens,
    async serveAnother(settings) {
      const other = await serve(settings, `${dir.path}/vault-${settings.name}`);
      others.push(other);
      await other.installation.ready();
      return other;
    },
    async close() {
      for (const other of others) await other.close();
      await server.close();
      await standin.close();
      if (databaseUrl) {
        const sql = await openPostgres(databaseUrl, schemas[0]!);
        for (const schema of schemas) await sql.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await sql.close();
      }
      dir.cleanup();
    },
  };
}
