// Git smart HTTP at `/<owner>/<repo>.git/…`, through `git http-backend`, with GitHub's access rules.
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gitEnv, listRefs } from './bare-repo.ts';
import { StandinCore } from './core.ts';
import { PERMISSION_ORDER, type Caller } from './state.ts';

/** `/<owner>/<repo>(.git)/<service path>` of the smart protocol; anything else is not Git. */
const GIT_PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/** Whether a request path is a Git smart HTTP path. */
export function isGitPath(path: string): boolean {
  return GIT_PATH.test(path);
}

/** A plain-text Git refusal, as GitHub answers `git` (its message reaches the user as `remote: …`). */
function refuse(res: ServerResponse, status: number, text: string): void {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="GitHub"';
  res.writeHead(status, headers);
  res.end(`${text}\n`);
}

/**
 * Serves one smart-HTTP request. Fetching needs read access (an installation token of an
 * installation covering the repository, a user token or password of a person who can read,
 * or nothing for a public repository); pushing needs push permission. Non-fast-forward pushes
 * are refused by `receive.denyNonFastForwards`. After a push, one `push` webhook per changed
 * branch or tag is queued before the answer ends.
 */
export async function serveGit(
  core: StandinCore,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  caller: Caller,
): Promise<void> {
  const match = GIT_PATH.exec(path);
  if (!match) return refuse(res, 404, 'Not Found');
  const [, owner = '', name = '', service = ''] = match;
  // GitHub speaks only the smart protocol: `info/refs` without `?service=` is the dumb one.
  if (service === 'info/refs' && !['git-upload-pack', 'git-receive-pack'].includes(query.get('service') ?? '')) {
    return refuse(res, 403, 'Please upgrade your git client. GitHub does not support the dumb HTTP protocol.');
  }
  const push = service === 'git-receive-pack' || (service === 'info/refs' && query.get('service') === 'git-receive-pack');
  if (caller.kind === 'bad')
    return refuse(res, 401, 'Invalid username or token. Password authentication is not supported for Git operations.');
  const repo = core.state.repo(owner, name);
  const permission = repo ? core.permissionOf(caller, repo) : null;
  if (!repo || !permission) {
    if (caller.kind === 'none') return refuse(res, 401, 'Authentication required.');
    return refuse(res, 404, 'Repository not found.');
  }
  const actor = core.actor(caller);
  if (push) {
    if (caller.kind === 'none' || !actor) return refuse(res, 401, 'Authentication required.');
    if (PERMISSION_ORDER.indexOf(permission) < PERMISSION_ORDER.indexOf('push')) {
      return refuse(res, 403, `Permission to ${repo.owner.login}/${repo.name}.git denied to ${actor.login}.`);
    }
  }
  const run = runBackend(core, req, res, `/${repo.owner.login}/${repo.name}.git/${service}`, query, actor?.login ?? null);
  if (service !== 'git-receive-pack') return run();
  await core.withRepoLock(repo, async () => {
    const dir = core.state.repoDir(repo);
    const before = await listRefs(dir);
    await run(async () => {
      const changes = StandinCore.refChanges(before, await listRefs(dir));
      if (changes.length > 0 && actor) await core.queuePush(repo, changes, actor);
    });
  });
}

/**
 * Runs `git http-backend` as a CGI program for one request; `beforeEnd` runs after the backend
 * exited and before the answer ends (so a push's webhooks are queued by the time `git push` returns).
 */
function runBackend(
  core: StandinCore,
  req: IncomingMessage,
  res: ServerResponse,
  pathInfo: string,
  query: URLSearchParams,
  remoteUser: string | null,
): (beforeEnd?: () => Promise<void>) => Promise<void> {
  return (beforeEnd) =>
    new Promise<void>((resolve) => {
      const env: Record<string, string> = {
        GIT_PROJECT_ROOT: core.state.reposRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: pathInfo,
        REQUEST_METHOD: req.method ?? 'GET',
        QUERY_STRING: query.toString(),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
        GATEWAY_INTERFACE: 'CGI/1.1',
      };
      if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
      if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
      const protocol = req.headers['git-protocol'];
      if (typeof protocol === 'string') env.HTTP_GIT_PROTOCOL = protocol;
      if (remoteUser) env.REMOTE_USER = remoteUser;
      const child = spawn('git', ['http-backend'], { env: gitEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
      let headerDone = false;
      let pending = Buffer.alloc(0);
      child.stdout.on('data', (chunk: Buffer) => {
        if (headerDone) {
          res.write(chunk);
          return;
        }
        pending = Buffer.concat([pending, chunk]);
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        headerDone = true;
        let status = 200;
        const headers: Record<string, string> = {};
        for (const line of pending.subarray(0, end).toString('latin1').split('\r\n')) {
          const colon = line.indexOf(':');
          if (colon < 0) continue;
          const key = line.slice(0, colon).trim();
          const value = line.slice(colon + 1).trim();
          if (key.toLowerCase() === 'status') status = Number(value.split(' ')[0]) || 200;
          else headers[key] = value;
        }
        res.writeHead(status, headers);
        res.write(pending.subarray(end + 4));
      });
      child.stderr.on('data', () => undefined);
      child.on('error', () => {
        if (!res.headersSent) refuse(res, 500, 'git http-backend could not start.');
        resolve();
      });
      child.on('close', () => {
        void (async () => {
          try {
            if (beforeEnd) await beforeEnd();
          } finally {
            if (!res.headersSent) refuse(res, 500, 'git http-backend answered nothing.');
            else res.end();
            resolve();
          }
        })();
      });
      child.stdin.on('error', () => undefined);
      req.pipe(child.stdin);
    });
}
