// For tests: a stand-in with demo people, an organisation's repositories, a webhook receiver, and Octokit clients whose answers are checked.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { checkOctokitAnswers, validateWebhookPayload, type FidelityLog } from './fidelity.ts';
import { startGitHubStandin } from './standin.ts';
import type { GitHubStandin, StandinOptions } from './standin-api.ts';

const execFileAsync = promisify(execFile);

/** One delivery as the receiver got it. */
export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that records each delivery and answers `status` (202). */
export async function startWebhookReceiver(
  status = 202,
): Promise<{ url: string; received: ReceivedDelivery[]; close: () => Promise<void> }> {
  const received: ReceivedDelivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs `git` without user or system configuration, asynchronously (a stand-in in the same
 * process must keep answering); resolves with standard output trimmed, rejects on failure.
 */
export async function runGitCommand(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' },
  });
  return stdout.trim();
}

/** The App of the fixtures. */
export const FIXTURE_APP = {
  id: 4242,
  slug: 'major-vault-test',
  clientId: 'Iv1.standintest',
  clientSecret: 'secret-of-the-client',
  webhookSecret: 'hook-secret',
};

/** The demo people of the fixtures: alice (public e-mail), bob (no name, no e-mail), carol (name, no public e-mail). */
export const FIXTURE_PEOPLE: StandinOptions['people'] = [
  { login: 'alice', name: 'Alice Arden', email: 'alice@acme.example', password: 'alice-pw' },
  { login: 'bob', name: null, email: null, password: 'bob-pw' },
  { login: 'carol', name: 'Carol Chen', email: null, password: 'carol-pw' },
];

/** A running fixture: the stand-in, its receiver, Octokit factories, the answer logs. */
export interface StandinFixture {
  standin: GitHubStandin;
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  dataDir: string;
  /** Octokit authenticated as the App (JWT). */
  asApp(): Octokit;
  /** Octokit authenticated as an installation (tokens made by `@octokit/auth-app`). */
  asInstallation(installationId: number): Octokit;
  /** Octokit with a user-to-server token. */
  asUser(token: string): Octokit;
  /** Octokit without credentials (set headers per request, e.g. the App's Basic client credentials). */
  asAnonymous(): Octokit;
  /**
   * Every REST answer the fixture's clients received, and every webhook the stand-in sent, that
   * does not match GitHub's descriptions (`@octokit/openapi`, `@octokit/openapi-webhooks`).
   */
  fidelityFailures(): unknown[];
  close(): Promise<void>;
}

/** Octokit's logger, quiet: refusals are expected in these tests. */
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** Starts a stand-in with the fixture App and people, delivering to a fresh receiver. */
export async function startStandinFixture(): Promise<StandinFixture> {
  const dataDir = mkdtempSync(join(tmpdir(), 'standin-'));
  const receiver = await startWebhookReceiver();
  const standin = await startGitHubStandin({ dataDir, app: FIXTURE_APP, people: FIXTURE_PEOPLE, webhookUrl: receiver.url });
  const logs: FidelityLog[] = [];
  const checked = (octokit: Octokit) => {
    logs.push(checkOctokitAnswers(octokit, standin.apiUrl));
    return octokit;
  };
  return {
    standin,
    receiver,
    dataDir,
    asApp: () =>
      checked(
        new Octokit({
          baseUrl: standin.apiUrl,
          log: quiet,
          authStrategy: createAppAuth,
          auth: { appId: FIXTURE_APP.id, privateKey: standin.app.privateKey },
        }),
      ),
    asInstallation: (installationId) =>
      checked(
        new Octokit({
          baseUrl: standin.apiUrl,
          log: quiet,
          authStrategy: createAppAuth,
          auth: { appId: FIXTURE_APP.id, privateKey: standin.app.privateKey, installationId },
        }),
      ),
    asUser: (token) => checked(new Octokit({ baseUrl: standin.apiUrl, log: quiet, auth: token })),
    asAnonymous: () => checked(new Octokit({ baseUrl: standin.apiUrl, log: quiet })),
    fidelityFailures: () => [
      ...logs.flatMap((log) => log.failures()),
      ...standin
        .deliveries()
        .map((delivery) => ({
          delivery: `${delivery.event}.${delivery.action ?? ''}`,
          verdict: validateWebhookPayload(delivery.event, delivery.payload),
        }))
        .filter((entry) => !entry.verdict.ok),
    ],
    async close() {
      await standin.close();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
