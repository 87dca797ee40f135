// Starts the GitHub stand-in: one HTTP server on 127.0.0.1 (REST, GraphQL, OAuth web flow, Git) and its handle.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appPublicKey, makeAppPrivateKey, resolveCaller } from './app-auth.ts';
import { compareAndSwapRef, initBareRepo, resolveRef, runGit, writeCommit, ZERO_OID } from './bare-repo.ts';
import { contentsRoutes } from './contents-route.ts';
import { StandinCore } from './core.ts';
import { serveGit, isGitPath } from './git-http.ts';
import { serveGraphql } from './graphql.ts';
import { errorBody, parseBody, readBody, sendError, sendJson } from './http-answer.ts';
import { serveOAuth } from './oauth.ts';
import { personIdent } from './commit-ident.ts';
import { webhookRepoRef } from './payloads.ts';
import { restRoutes } from './rest-routes.ts';
import { Router } from './router.ts';
import type { GitHubStandin, StandinCommit, StandinOptions, StandinPermission } from './standin-api.ts';
import { StandinState, type InstallationRecord } from './state.ts';
import { WebhookSender } from './webhook-sender.ts';

/** One armed fault of {@link GitHubStandin.failNext}. */
interface Fault {
  method?: string;
  path: RegExp;
  status: number | 'timeout';
  remaining: number;
}

/**
 * Starts the stand-in (docs: README "The GitHub stand-in"): a real HTTP server on 127.0.0.1
 * over bare repositories in `options.dataDir/repos`. Resolves once listening. Close it with
 * `close()`, which also drops requests held by `failNext(…, 'timeout')`.
 */
export async function startGitHubStandin(options: StandinOptions): Promise<GitHubStandin> {
  const app: Required<StandinOptions['app']> = { ...options.app, privateKey: options.app.privateKey ?? makeAppPrivateKey() };
  const state = new StandinState({ ...options, app });
  await mkdir(state.reposRoot, { recursive: true });
  const faults: Fault[] = [];
  const held = new Set<ServerResponse>();
  const router = new Router([...restRoutes, ...contentsRoutes]);
  const webhooks = new WebhookSender(app.webhookSecret, app.id, options.webhookUrl ?? null);
  // The port is known once listening; the URLs are filled in then.
  const urls = { origin: '', api: '' };
  const core = new StandinCore(state, urls, app, appPublicKey(app.privateKey), webhooks);
  const live = core;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, error instanceof Error ? error.message : 'Server Error'));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', core.urls.origin);
    const method = req.method ?? 'GET';
    const rest = url.pathname.startsWith('/api/v3/') || url.pathname === '/api/v3';
    const path = rest ? url.pathname.slice('/api/v3'.length) || '/' : url.pathname;
    const fault = faults.find(
      (candidate) => candidate.remaining > 0 && (!candidate.method || candidate.method === method) && candidate.path.test(path),
    );
    if (fault) {
      fault.remaining -= 1;
      if (fault.status === 'timeout') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      return sendError(res, fault.status);
    }
    const caller = resolveCaller(state, core.publicKey, req.headers.authorization);
    // GitHub names an expiring token's end on every answer to it (as "2026-12-02 11:48:33 UTC").
    if (caller.kind === 'user') res.setHeader('github-authentication-token-expiration', tokenExpirationHeader(caller.token.expiresAt));
    if (rest) {
      const found = router.match(method, path);
      if (!found) return sendError(res, 404);
      let parsed: Promise<Record<string, unknown> | undefined> | undefined;
      const body = () => (parsed ??= readBody(req).then((buffer) => parseBody(req, buffer)));
      await found.route.handle({ core, req, res, params: found.params, query: url.searchParams, caller, body });
      return;
    }
    if (path === '/api/graphql') return serveGraphql(core, req, res, caller);
    if (path.startsWith('/login/oauth/')) return serveOAuth(core, req, res, url);
    if (isGitPath(path)) return serveGit(core, req, res, path, url.searchParams, caller);
    sendError(res, 404);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `The GitHub stand-in cannot listen on 127.0.0.1:${options.port}: the port is in use. Stop what uses it, or choose another port.`,
            )
          : error,
      ),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  Object.assign(urls, { origin, api: `${origin}/api/v3` });

  /** The repository `owner/name`, or a clear refusal. */
  const repoOf = (owner: string, name: string) => {
    const repo = state.repo(owner, name);
    if (!repo) throw new Error(`The stand-in has no repository ${owner}/${name}; create it with createRepo first.`);
    return repo;
  };
  /** The demo person `login`, or a clear refusal. */
  const personOf = (login: string) => {
    const account = state.person(login);
    if (!account) throw new Error(`No demo person has the login ${login}; the stand-in's options list the people.`);
    return account;
  };
  /** An installation by id (not deleted), or a clear refusal. */
  const installationOf = (id: number): InstallationRecord => {
    const record = state.installations.get(id);
    if (!record || record.deleted) throw new Error(`The stand-in has no installation ${id}; install() returns the ids.`);
    return record;
  };
  /** Writes `commits` on top of `parent` in the bare repository `dir`; returns the last commit (or `parent`). */
  const writeCommits = async (dir: string, parent: string | null, commits: StandinCommit[]) => {
    let head = parent;
    for (const commit of commits) {
      const ident = personIdent(personOf(commit.author));
      head = await writeCommit(dir, head, commit.files, commit.message, ident, ident);
    }
    return head;
  };

  const handleApi: GitHubStandin = {
    origin,
    apiUrl: `${origin}/api/v3`,
    graphqlUrl: `${origin}/api/graphql`,
    app,

    async createRepo(owner, name, commits, repoOptions = {}) {
      const branch = repoOptions.defaultBranch ?? 'main';
      const repo = state.addRepo(owner, name, repoOptions.private ?? true, branch);
      const dir = state.repoDir(repo);
      try {
        await initBareRepo(dir, branch);
        let base: string | null = null;
        if (repoOptions.from !== undefined) {
          await runGit(dir, ['fetch', '-q', '--no-tags', repoOptions.from, `+HEAD:refs/heads/${branch}`]);
          base = await resolveRef(dir, `refs/heads/${branch}`);
        }
        const head = await writeCommits(dir, base, commits);
        if (head) await runGit(dir, ['update-ref', `refs/heads/${branch}`, head]);
      } catch (error) {
        state.repos.delete(`${owner}/${name}`.toLowerCase());
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
      // An installation on all of the account's repositories gains the new one; GitHub tells the App.
      const installation = state.installationOn(owner);
      if (installation && installation.selection === 'all') {
        await webhooks.send('installation_repositories', {
          action: 'added',
          installation: live.installationObject(installation),
          repository_selection: 'all',
          repositories_added: [webhookRepoRef(repo)],
          repositories_removed: [],
          requester: null,
          sender: live.user(live.defaultSender(installation.account)),
        });
      }
    },

    async install(owner, repositories = 'all') {
      const account = state.ensureAccount(owner);
      if (state.installationOn(owner))
        throw new Error(`The App is installed on ${owner} already; use setInstallationRepos to change its repositories.`);
      const now = new Date().toISOString();
      const record: InstallationRecord = {
        id: state.newInstallationId(),
        account,
        selection: repositories === 'all' ? 'all' : 'selected',
        repoIds: new Set(repositories === 'all' ? [] : repositories.map((name) => repoOf(owner, name).id)),
        createdAt: now,
        updatedAt: now,
        suspendedAt: null,
        deleted: false,
      };
      state.installations.set(record.id, record);
      await webhooks.send('installation', {
        action: 'created',
        installation: live.installationObject(record),
        repositories: state.installationRepos(record).map(webhookRepoRef),
        requester: null,
        sender: live.user(live.defaultSender(account)),
      });
      return record.id;
    },

    async setInstallationRepos(installationId, add, remove) {
      const record = installationOf(installationId);
      const owner = record.account.login;
      const added = add.map((name) => repoOf(owner, name));
      const removed = remove.map((name) => repoOf(owner, name));
      if (record.selection === 'all' && removed.length > 0) {
        record.selection = 'selected';
        record.repoIds = new Set(state.installationRepos({ ...record, selection: 'all' }).map((repo) => repo.id));
      }
      for (const repo of added) record.repoIds.add(repo.id);
      for (const repo of removed) record.repoIds.delete(repo.id);
      record.updatedAt = new Date().toISOString();
      const sender = live.user(live.defaultSender(record.account));
      const common = { installation: live.installationObject(record), repository_selection: record.selection, requester: null, sender };
      if (added.length > 0) {
        await webhooks.send('installation_repositories', {
          action: 'added',
          ...common,
          repositories_added: added.map(webhookRepoRef),
          repositories_removed: [],
        });
      }
      if (removed.length > 0) {
        await webhooks.send('installation_repositories', {
          action: 'removed',
          ...common,
          repositories_added: [],
          repositories_removed: removed.map(webhookRepoRef),
        });
      }
    },

    async setInstallationState(installationId, next) {
      const record = installationOf(installationId);
      const now = new Date().toISOString();
      const sender = live.user(live.defaultSender(record.account));
      const repositories = state.installationRepos({ ...record, suspendedAt: null }).map(webhookRepoRef);
      if (next === 'suspend') record.suspendedAt = now;
      else if (next === 'unsuspend') record.suspendedAt = null;
      else record.deleted = true;
      record.updatedAt = now;
      const action = next === 'deleted' ? 'deleted' : next;
      await webhooks.send('installation', { action, installation: live.installationObject(record), repositories, requester: null, sender });
    },

    async acceptNewPermissions(installationId) {
      const record = installationOf(installationId);
      record.updatedAt = new Date().toISOString();
      const sender = live.user(live.defaultSender(record.account));
      const repositories = state.installationRepos(record).map(webhookRepoRef);
      await webhooks.send('installation', {
        action: 'new_permissions_accepted',
        installation: live.installationObject(record),
        repositories,
        requester: null,
        sender,
      });
    },

    grant(owner, name, login, permission: StandinPermission | null) {
      const repo = repoOf(owner, name);
      personOf(login);
      if (permission) repo.collaborators.set(login.toLowerCase(), permission);
      else repo.collaborators.delete(login.toLowerCase());
    },

    userToken(login) {
      personOf(login);
      const record = state.issueUserToken(login);
      return Promise.resolve({ accessToken: record.accessToken, refreshToken: record.refreshToken });
    },

    revokeAuthorization: (login) => live.revokeAuthorization(login),

    expireToken(token, at = Date.now() - 1) {
      const record = state.installationTokens.get(token) ?? state.userTokens.get(token);
      if (!record) throw new Error('The stand-in issued no such token; expireToken takes a ghs_ or ghu_ token it gave out.');
      record.expiresAt = at;
    },

    async push(owner, name, commit, pushOptions = {}) {
      const repo = repoOf(owner, name);
      const branch = pushOptions.branch ?? repo.defaultBranch;
      const author = personOf(commit.author);
      const scratch = await mkdtemp(join(tmpdir(), 'standin-push-'));
      try {
        const remote = handleApi.cloneUrl(repo.owner.login, repo.name, author.login);
        await runGit(tmpdir(), ['clone', '-q', '--bare', remote, scratch]);
        const parent = await resolveRef(scratch, `refs/heads/${branch}`);
        const head = await writeCommits(scratch, parent, [commit]);
        await runGit(scratch, ['push', '-q', remote, `${head}:refs/heads/${branch}`]);
        await webhooks.idle();
        return head as string;
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },

    async forcePush(owner, name, onto, commits, pushOptions = {}) {
      const repo = repoOf(owner, name);
      const branch = pushOptions.branch ?? repo.defaultBranch;
      const ref = `refs/heads/${branch}`;
      const dir = state.repoDir(repo);
      const pusher = personOf(commits.at(-1)?.author ?? options.people[0]?.login ?? '');
      const { head, delivered } = await live.withRepoLock(repo, async () => {
        const before = await resolveRef(dir, ref);
        const next = await writeCommits(dir, onto, commits);
        if (!next) throw new Error('forcePush needs a commit to point the branch at: give `onto` or at least one commit.');
        if (!(await compareAndSwapRef(dir, ref, next, before))) throw new Error(`The branch ${branch} moved during forcePush; try again.`);
        const queued = await live.queuePush(repo, [{ ref, before: before ?? ZERO_OID, after: next, forced: before !== null }], pusher);
        return { head: next, delivered: queued.delivered };
      });
      await delivered;
      return head;
    },

    cloneUrl(owner, name, as) {
      const repo = repoOf(owner, name);
      const url = new URL(`${origin}/${repo.owner.login}/${repo.name}.git`);
      if (as !== undefined) {
        const person = personOf(as);
        url.username = person.login;
        url.password = person.person?.password ?? '';
      }
      return url.href;
    },

    gitDir: (owner, name) => state.repoDir(repoOf(owner, name)),
    deliveries: () => webhooks.deliveries(),
    redeliver: (id) => webhooks.redeliver(id),
    webhooksSettled: () => webhooks.idle(),
    setWebhookUrl: (url) => webhooks.setUrl(url),

    failNext(match, status, times = 1) {
      faults.push({ method: match.method?.toUpperCase(), path: match.path, status, remaining: times });
    },

    async close() {
      await webhooks.idle();
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return handleApi;
}

/** `at` (ms since the epoch) as GitHub writes `GitHub-Authentication-Token-Expiration`: `YYYY-MM-DD HH:MM:SS UTC`. */
function tokenExpirationHeader(at: number): string {
  return `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
