// The REST operations Major Vault uses, answered as GitHub documents them (paths without `/api/v3`).
import { listRefs, repoSizeKiB } from './bare-repo.ts';
import { sendError, sendJson } from './http-answer.ts';
import { integration, privateUser, repository } from './payloads.ts';
import { paginate, type Route, type RouteContext } from './router.ts';
import { newToken, type InstallationRecord, type RepoRecord, type UserTokenRecord } from './state.ts';

/** Refuses unless the caller is the App (its JWT); returns whether it may go on. */
function requireApp(ctx: RouteContext): boolean {
  if (ctx.caller.kind === 'app') return true;
  if (ctx.caller.kind === 'bad') sendError(ctx.res, 401, ctx.caller.message);
  else sendError(ctx.res, 401, 'A JSON web token could not be decoded');
  return false;
}

/** Refuses a missing or bad credential with 401 (GitHub: "Requires authentication" / "Bad credentials"). */
function requireAuth(ctx: RouteContext): boolean {
  if (ctx.caller.kind === 'none') {
    sendError(ctx.res, 401, 'Requires authentication');
    return false;
  }
  if (ctx.caller.kind === 'bad') {
    sendError(ctx.res, 401, ctx.caller.message);
    return false;
  }
  return true;
}

/** A live installation by id, or a 404 answered. */
function installationById(ctx: RouteContext, id: string | undefined): InstallationRecord | undefined {
  const record = ctx.core.state.installations.get(Number(id));
  if (!record || record.deleted) {
    sendError(ctx.res, 404);
    return undefined;
  }
  return record;
}

/** The repository of the path when the caller may read it; else 404 answered (GitHub hides what one cannot read). */
function readableRepo(ctx: RouteContext): RepoRecord | undefined {
  if (ctx.caller.kind === 'bad') {
    sendError(ctx.res, 401, ctx.caller.message);
    return undefined;
  }
  const repo = ctx.core.state.repo(ctx.params.owner ?? '', ctx.params.repo ?? '');
  if (!repo || !ctx.core.permissionOf(ctx.caller, repo)) {
    sendError(ctx.res, 404);
    return undefined;
  }
  return repo;
}

/** The installation covering an account, for the App, or 404. */
function answerInstallationOf(ctx: RouteContext, login: string | undefined, type: 'Organization' | 'User' | null): void {
  if (!requireApp(ctx)) return;
  const record = ctx.core.state.installationOn(login ?? '');
  if (!record || (type && record.account.type !== type)) return sendError(ctx.res, 404);
  sendJson(ctx.res, 200, ctx.core.installationObject(record));
}

/** The ref object of `GET /repos/{owner}/{repo}/git/ref/{ref}`. */
function gitRef(ctx: RouteContext, repo: RepoRecord, ref: string, oid: string): Record<string, unknown> {
  const base = `${ctx.core.urls.api}/repos/${repo.owner.login}/${repo.name}`;
  return {
    ref,
    node_id: Buffer.from(`${repo.id}:${ref}`).toString('base64'),
    url: `${base}/git/${ref}`,
    object: { type: 'commit', sha: oid, url: `${base}/git/commits/${oid}` },
  };
}

/** Checks `Authorization: Basic client_id:client_secret` of the App (OAuth application endpoints). */
function requireClientCredentials(ctx: RouteContext): boolean {
  const header = ctx.req.headers.authorization ?? '';
  const decoded = header.toLowerCase().startsWith('basic ') ? Buffer.from(header.slice(6).trim(), 'base64').toString('utf8') : '';
  const app = ctx.core.app;
  if (ctx.params.client_id !== app.clientId || decoded !== `${app.clientId}:${app.clientSecret}`) {
    sendError(ctx.res, 404);
    return false;
  }
  return true;
}

/**
 * `DELETE /applications/{client_id}/grant` and `…/token`: the App's client credentials, the
 * live user token named in the body (else 422 / 404), `revoke` on it, then 204.
 */
async function revokeByBody(ctx: RouteContext, revoke: (record: UserTokenRecord) => void | Promise<void>): Promise<void> {
  if (!requireClientCredentials(ctx)) return;
  const token = await tokenOfBody(ctx);
  if (!token) return;
  const record = ctx.core.state.liveUserToken(token);
  if (!record) return sendError(ctx.res, 404);
  await revoke(record);
  sendJson(ctx.res, 204, null);
}

/** The user tokens named by `{access_token}` in the body, or a 422 / 404 answered. */
async function tokenOfBody(ctx: RouteContext): Promise<string | undefined> {
  const body = await ctx.body();
  const token = body?.access_token;
  if (typeof token !== 'string' || token === '') {
    sendError(ctx.res, 422, 'Invalid request.\n\n"access_token" wasn\'t supplied.', [
      { resource: 'Token', code: 'missing_field', field: 'access_token' },
    ]);
    return undefined;
  }
  return token;
}

/** Every REST route of the stand-in, matched in order. */
export const restRoutes: Route[] = [
  {
    method: 'GET',
    path: '/app',
    handle(ctx) {
      if (!requireApp(ctx)) return;
      const live = [...ctx.core.state.installations.values()].filter((record) => !record.deleted).length;
      const owner = ctx.core.state.ensureAccount(ctx.core.state.options.people[0]?.login ?? 'standin');
      sendJson(ctx.res, 200, integration(ctx.core.urls, ctx.core.app, owner, ctx.core.state.appCreatedAt, live));
    },
  },
  {
    method: 'GET',
    path: '/app/installations',
    handle(ctx) {
      if (!requireApp(ctx)) return;
      const all = [...ctx.core.state.installations.values()].filter((record) => !record.deleted);
      sendJson(
        ctx.res,
        200,
        paginate(ctx, all).map((record) => ctx.core.installationObject(record)),
      );
    },
  },
  {
    method: 'GET',
    path: '/app/installations/{installation_id}',
    handle(ctx) {
      if (!requireApp(ctx)) return;
      const record = installationById(ctx, ctx.params.installation_id);
      if (record) sendJson(ctx.res, 200, ctx.core.installationObject(record));
    },
  },
  {
    method: 'POST',
    path: '/app/installations/{installation_id}/access_tokens',
    async handle(ctx) {
      if (!requireApp(ctx)) return;
      const record = installationById(ctx, ctx.params.installation_id);
      if (!record) return;
      if (record.suspendedAt) return sendError(ctx.res, 403, 'This installation has been suspended');
      const body = await ctx.body();
      if (!body) return sendError(ctx.res, 400, 'Problems parsing JSON');
      const reachable = ctx.core.state.installationRepos(record);
      const names = Array.isArray(body.repositories) ? (body.repositories as unknown[]) : [];
      const ids = Array.isArray(body.repository_ids) ? (body.repository_ids as unknown[]) : [];
      const narrowed = [
        ...names.map((name) => reachable.find((repo) => repo.name.toLowerCase() === String(name).toLowerCase())),
        ...ids.map((id) => reachable.find((repo) => repo.id === Number(id))),
      ];
      if (narrowed.some((repo) => !repo)) {
        return sendError(
          ctx.res,
          422,
          'There is at least one repository that does not exist or is not accessible to the parent installation.',
          [{ resource: 'Repository', code: 'invalid', field: names.length > 0 ? 'repositories' : 'repository_ids' }],
        );
      }
      const token = newToken('ghs');
      const expiresAt = Date.now() + 3_600_000;
      const repoIds = narrowed.length > 0 ? new Set(narrowed.map((repo) => repo!.id)) : undefined;
      ctx.core.state.installationTokens.set(token, { token, installationId: record.id, expiresAt, repoIds });
      const answer: Record<string, unknown> = {
        token,
        expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        permissions: { contents: 'write', metadata: 'read' },
        repository_selection: repoIds ? 'selected' : record.selection,
      };
      if (repoIds) answer.repositories = reachable.filter((repo) => repoIds.has(repo.id)).map((repo) => repository(ctx.core.urls, repo));
      sendJson(ctx.res, 201, answer);
    },
  },
  { method: 'GET', path: '/orgs/{org}/installation', handle: (ctx) => answerInstallationOf(ctx, ctx.params.org, 'Organization') },
  { method: 'GET', path: '/users/{username}/installation', handle: (ctx) => answerInstallationOf(ctx, ctx.params.username, null) },
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/installation',
    handle(ctx) {
      if (!requireApp(ctx)) return;
      const repo = ctx.core.state.repo(ctx.params.owner ?? '', ctx.params.repo ?? '');
      const record = repo && ctx.core.state.installationOf(repo);
      if (!record) return sendError(ctx.res, 404);
      sendJson(ctx.res, 200, ctx.core.installationObject(record));
    },
  },
  {
    method: 'GET',
    path: '/installation/repositories',
    async handle(ctx) {
      if (!requireAuth(ctx)) return;
      if (ctx.caller.kind !== 'installation') {
        return sendError(
          ctx.res,
          403,
          'You must authenticate with an installation access token in order to list repositories for an installation.',
        );
      }
      const narrowed = ctx.caller.token.repoIds;
      const repos = ctx.core.state.installationRepos(ctx.caller.installation).filter((repo) => !narrowed || narrowed.has(repo.id));
      const page = paginate(ctx, repos);
      const bodies = [];
      for (const repo of page) bodies.push(repository(ctx.core.urls, repo, { sizeKiB: await repoSizeKiB(ctx.core.state.repoDir(repo)) }));
      sendJson(ctx.res, 200, { total_count: repos.length, repository_selection: ctx.caller.installation.selection, repositories: bodies });
    },
  },
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}',
    async handle(ctx) {
      const repo = readableRepo(ctx);
      if (!repo) return;
      const options: Parameters<typeof repository>[2] = { full: true, sizeKiB: await repoSizeKiB(ctx.core.state.repoDir(repo)) };
      if (ctx.caller.kind === 'user' || ctx.caller.kind === 'password') options.permission = ctx.core.permissionOf(ctx.caller, repo);
      sendJson(ctx.res, 200, repository(ctx.core.urls, repo, options));
    },
  },
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/ref/{ref+}',
    async handle(ctx) {
      const repo = readableRepo(ctx);
      if (!repo) return;
      const ref = `refs/${ctx.params.ref ?? ''}`;
      const oid = (await listRefs(ctx.core.state.repoDir(repo))).get(ref);
      if (!oid) return sendError(ctx.res, 404);
      sendJson(ctx.res, 200, gitRef(ctx, repo, ref, oid));
    },
  },
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/matching-refs/{ref+}',
    async handle(ctx) {
      const repo = readableRepo(ctx);
      if (!repo) return;
      const prefix = `refs/${ctx.params.ref ?? ''}`;
      const refs = [...(await listRefs(ctx.core.state.repoDir(repo))).entries()].filter(([name]) => name.startsWith(prefix));
      sendJson(
        ctx.res,
        200,
        refs.map(([name, oid]) => gitRef(ctx, repo, name, oid)),
      );
    },
  },
  {
    method: 'GET',
    path: '/user',
    handle(ctx) {
      if (!requireAuth(ctx)) return;
      if (ctx.caller.kind !== 'user' && ctx.caller.kind !== 'password')
        return sendError(ctx.res, 403, 'Resource not accessible by integration');
      const login = ctx.caller.account.login;
      const owned = [...ctx.core.state.repos.values()].filter((repo) => repo.owner === ctx.core.state.account(login));
      sendJson(
        ctx.res,
        200,
        privateUser(ctx.core.urls, ctx.caller.account, {
          publicRepos: owned.filter((repo) => !repo.private).length,
          privateRepos: owned.filter((repo) => repo.private).length,
        }),
      );
    },
  },
  {
    method: 'GET',
    path: '/user/installations',
    handle(ctx) {
      if (!requireAuth(ctx)) return;
      if (ctx.caller.kind !== 'user')
        return sendError(
          ctx.res,
          403,
          'You must authenticate with an access token authorized to a GitHub App in order to list installations',
        );
      const login = ctx.caller.account.login;
      const state = ctx.core.state;
      const visible = [...state.installations.values()].filter(
        (record) => !record.deleted && state.userInstallationRepos(login, { ...record, suspendedAt: null }).length > 0,
      );
      const page = paginate(ctx, visible);
      sendJson(ctx.res, 200, { total_count: visible.length, installations: page.map((record) => ctx.core.installationObject(record)) });
    },
  },
  {
    method: 'GET',
    path: '/user/installations/{installation_id}/repositories',
    async handle(ctx) {
      if (!requireAuth(ctx)) return;
      if (ctx.caller.kind !== 'user')
        return sendError(
          ctx.res,
          403,
          'You must authenticate with an access token authorized to a GitHub App in order to list repositories',
        );
      const record = installationById(ctx, ctx.params.installation_id);
      if (!record) return;
      const login = ctx.caller.account.login;
      const repos = ctx.core.state.userInstallationRepos(login, record);
      const page = paginate(ctx, repos);
      const bodies = [];
      for (const repo of page) {
        bodies.push(
          repository(ctx.core.urls, repo, {
            permission: ctx.core.state.permission(login, repo),
            sizeKiB: await repoSizeKiB(ctx.core.state.repoDir(repo)),
          }),
        );
      }
      sendJson(ctx.res, 200, { total_count: repos.length, repository_selection: record.selection, repositories: bodies });
    },
  },
  {
    method: 'DELETE',
    path: '/applications/{client_id}/grant',
    handle: (ctx) => revokeByBody(ctx, (record) => ctx.core.revokeAuthorization(record.login)),
  },
  {
    method: 'DELETE',
    path: '/applications/{client_id}/token',
    handle: (ctx) =>
      revokeByBody(ctx, (record) => {
        record.revoked = true;
      }),
  },
];
