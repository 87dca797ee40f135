// `major-vault serve-github` as an operator runs it: the App given by environment variables
// and a settings file, pointed at the stand-in; the SDK's client reads and a push arrives.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHubStandin } from '../../src/github-standin/standin.ts';
import type { GitHubStandin } from '../../src/github-standin/standin-api.ts';
import { tempDir } from '../support/git-fixture.ts';
import { testApp, testPeople } from '../support/github-server.ts';
import { connectHttp } from './demo-fixture.ts';
import { finds, within } from './github-fixture.ts';

const bin = fileURLToPath(new URL('../../bin/major-vault.js', import.meta.url));

describe('major-vault serve-github', () => {
  let standin: GitHubStandin;
  let child: ChildProcess;
  let dir: ReturnType<typeof tempDir>;
  const lines: string[] = [];

  /** Resolves with the first line of standard output matching `pattern` (its first group), within 60 s. */
  const printed = (pattern: RegExp) =>
    within(60_000, async () => lines.some((line) => pattern.test(line)), `a line matching ${pattern}`).then(
      () => pattern.exec(lines.find((line) => pattern.test(line))!)![1]!,
    );

  beforeAll(async () => {
    dir = tempDir('mv-github-cli-');
    standin = await startGitHubStandin({ dataDir: join(dir.path, 'github'), app: testApp, people: testPeople, webhookUrl: null });
    await standin.createRepo('acme', 'handbook', [
      { message: 'Start', author: 'alice', files: { 'README.md': '# Handbook\n\nThe word is pelicanstart.\n' } },
    ]);
    await standin.install('acme', 'all');
    standin.grant('acme', 'handbook', 'alice', 'push');
    writeFileSync(join(dir.path, 'app.pem'), standin.app.privateKey);
    // The secrets from the environment, the rest from a settings file, as the README shows.
    const config = join(dir.path, 'github.jsonc');
    writeFileSync(
      config,
      JSON.stringify({
        appId: testApp.id,
        owner: 'acme',
        apiUrl: standin.apiUrl,
        webUrl: standin.origin,
        privateKeyFile: join(dir.path, 'app.pem'),
      }),
    );
    child = spawn(process.execPath, [bin, 'serve-github', '--config', config, '--data', join(dir.path, 'vault'), '--port', '0'], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        MAJOR_VAULT_LOG_LEVEL: 'warn',
        MAJOR_VAULT_GITHUB_CLIENT_ID: testApp.clientId,
        MAJOR_VAULT_GITHUB_CLIENT_SECRET: testApp.clientSecret,
        MAJOR_VAULT_GITHUB_WEBHOOK_SECRET: testApp.webhookSecret,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => lines.push(...chunk.split('\n')));
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await standin?.close();
    dir?.cleanup();
  });

  it('serves the installation, and takes in a push through its webhook', async () => {
    const url = new URL(await printed(/serving acme .* at (\S+)/));
    const webhookUrl = await printed(/GitHub webhooks: (\S+)/);
    standin.setWebhookUrl(webhookUrl);
    const alice = await connectHttp(url, '2026-07-28', { token: (await standin.userToken('alice')).accessToken });
    try {
      await within(30_000, () => finds(alice, 'pelicanstart', 'README.md'), 'the handbook is indexed');
      await standin.push('acme', 'handbook', {
        message: 'Add',
        author: 'alice',
        files: { 'new.md': '# New\n\nThe word is pelicanpush.\n' },
      });
      await within(20_000, () => finds(alice, 'pelicanpush', 'new.md'), 'the push is searchable');
      expect(standin.deliveries().at(-1)!.status).toBe(202);
    } finally {
      await alice.close();
    }
  }, 90_000);
});
