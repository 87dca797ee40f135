// `PUT /repos/{owner}/{repo}/contents/{path}`: one file created or updated in one commit (also the first commit of an empty repository).
import { compareAndSwapRef, isRepoPath, listBranches, pathType, readCommit, resolveRef, runGit, writeCommit } from './bare-repo.ts';
import { personIdent } from './commit-ident.ts';
import { sendError, sendJson } from './http-answer.ts';
import { noreplyEmail } from './payloads.ts';
import type { Route, RouteContext } from './router.ts';
import { PERMISSION_ORDER } from './state.ts';

/** A 422 in GitHub's shape for a missing or bad field of this operation. */
function invalid(ctx: RouteContext, message: string, field: string): void {
  sendError(ctx.res, 422, message, [{ resource: 'Commit', code: 'invalid', field }]);
}

/**
 * Creates or updates a file (docs: "Create or update file contents"): `message` and `content`
 * (Base64) required; `sha` of the blob required when the file exists (a different one: 409);
 * `branch` defaults to the default branch, and is created when the repository is empty. The
 * author and committer are the caller (name or login; public e-mail or the noreply address).
 * Answers 201 (created) or 200 (updated) with `file-commit`, then sends the `push` webhook.
 */
async function putContents(ctx: RouteContext): Promise<void> {
  const { core, caller } = ctx;
  if (caller.kind === 'bad') return sendError(ctx.res, 401, caller.message);
  if (caller.kind === 'none') return sendError(ctx.res, 401, 'Requires authentication');
  const repo = core.state.repo(ctx.params.owner ?? '', ctx.params.repo ?? '');
  const permission = repo ? core.permissionOf(caller, repo) : null;
  const actor = core.actor(caller);
  if (!repo || !permission || !actor) return sendError(ctx.res, 404);
  if (PERMISSION_ORDER.indexOf(permission) < PERMISSION_ORDER.indexOf('push')) {
    return sendError(
      ctx.res,
      403,
      caller.kind === 'installation' ? 'Resource not accessible by integration' : 'Must have admin rights to Repository.',
    );
  }
  const body = await ctx.body();
  if (!body) return sendError(ctx.res, 400, 'Problems parsing JSON');
  const path = (ctx.params.path ?? '').replace(/^\/+/, '');
  if (!isRepoPath(path)) return invalid(ctx, `Invalid request.\n\n"${path}" is not a valid path.`, 'path');
  if (typeof body.message !== 'string' || body.message === '')
    return invalid(ctx, 'Invalid request.\n\n"message" wasn\'t supplied.', 'message');
  if (typeof body.content !== 'string') return invalid(ctx, 'Invalid request.\n\n"content" wasn\'t supplied.', 'content');
  const branch = typeof body.branch === 'string' && body.branch !== '' ? body.branch.replace(/^refs\/heads\//, '') : repo.defaultBranch;
  const ref = `refs/heads/${branch}`;
  const dir = core.state.repoDir(repo);
  const ident = actor.person ? personIdent(actor) : { name: actor.login, email: noreplyEmail(actor) };
  const content = Buffer.from(body.content, 'base64');
  type Outcome = { status: number; message: string; commit?: undefined } | { status: number; commit: string; head: string | null };
  const outcome = await core.withRepoLock(repo, async (): Promise<Outcome> => {
    const head = await resolveRef(dir, ref);
    if (!head && (await listBranches(dir)).size > 0) return { status: 404, message: `Branch ${branch} not found` };
    const existing = head ? await pathType(dir, head, path) : null;
    if (existing === 'tree') return { status: 422, message: `Invalid request.\n\n"${path}" is a directory.` };
    const currentSha = existing === 'blob' ? (await runGit(dir, ['rev-parse', `${head}:${path}`])).trim() : null;
    if (currentSha && typeof body.sha !== 'string') return { status: 422, message: 'Invalid request.\n\n"sha" wasn\'t supplied.' };
    if (currentSha && body.sha !== currentSha) return { status: 409, message: `${path} does not match ${String(body.sha)}` };
    const commit = await writeCommit(dir, head, { [path]: content }, body.message as string, ident, ident);
    if (!(await compareAndSwapRef(dir, ref, commit, head))) return { status: 409, message: `${branch} was updated; try again.` };
    await core.queuePush(repo, [{ ref, before: head ?? '0'.repeat(40), after: commit, forced: false }], actor);
    return { status: currentSha ? 200 : 201, commit, head };
  });
  if (outcome.commit === undefined) return sendError(ctx.res, outcome.status, outcome.message);
  const info = await readCommit(dir, outcome.commit);
  const blob = (await runGit(dir, ['rev-parse', `${outcome.commit}:${path}`])).trim();
  const api = `${core.urls.api}/repos/${repo.owner.login}/${repo.name}`;
  const web = `${core.urls.origin}/${repo.owner.login}/${repo.name}`;
  const name = path.split('/').pop() ?? path;
  sendJson(ctx.res, outcome.status, {
    content: {
      name,
      path,
      sha: blob,
      size: content.length,
      url: `${api}/contents/${path}?ref=${branch}`,
      html_url: `${web}/blob/${branch}/${path}`,
      git_url: `${api}/git/blobs/${blob}`,
      download_url: `${core.urls.origin}/raw/${repo.owner.login}/${repo.name}/${branch}/${path}`,
      type: 'file',
      _links: { self: `${api}/contents/${path}?ref=${branch}`, git: `${api}/git/blobs/${blob}`, html: `${web}/blob/${branch}/${path}` },
    },
    commit: {
      sha: info.id,
      node_id: Buffer.from(`06:Commit${repo.id}:${info.id}`).toString('base64'),
      url: `${api}/git/commits/${info.id}`,
      html_url: `${web}/commit/${info.id}`,
      author: { name: info.author.name, email: info.author.email, date: info.author.date },
      committer: { name: info.committer.name, email: info.committer.email, date: info.committer.date },
      message: info.message,
      tree: { sha: info.treeId, url: `${api}/git/trees/${info.treeId}` },
      parents: outcome.head
        ? [{ sha: outcome.head, url: `${api}/git/commits/${outcome.head}`, html_url: `${web}/commit/${outcome.head}` }]
        : [],
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
  });
}

/** The contents route. */
export const contentsRoutes: Route[] = [{ method: 'PUT', path: '/repos/{owner}/{repo}/contents/{path+}', handle: putContents }];
