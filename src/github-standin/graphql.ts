// GraphQL at `/api/graphql`, executed by graphql-js against GitHub's published schema (`@octokit/graphql-schema`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { schema as published } from '@octokit/graphql-schema';
import {
  buildClientSchema,
  execute,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { compareAndSwapRef, isRepoPath, listBranches, pathType, readCommit, resolveRef, writeCommit } from './bare-repo.ts';
import type { StandinCore } from './core.ts';
import { errorBody, readBody, sendJson } from './http-answer.ts';
import { noreplyEmail } from './payloads.ts';
import { personIdent } from './commit-ident.ts';
import { PERMISSION_ORDER, type Account, type Caller, type RepoRecord } from './state.ts';

let githubSchema: GraphQLSchema | undefined;

/** GitHub's schema, built once from its introspection JSON (the `.graphql` file has a duplicate field). */
export function graphqlSchema(): GraphQLSchema {
  githubSchema ??= buildClientSchema(published.json as unknown as IntrospectionQuery);
  return githubSchema;
}

/** An execution error with GitHub's `type` (`NOT_FOUND`, `FORBIDDEN`, `STALE_DATA`, `UNPROCESSABLE`). */
export class GithubGraphqlError extends Error {
  readonly type: string;

  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

/** What resolvers receive. */
interface GraphqlContext {
  core: StandinCore;
  caller: Caller;
}

/** GitHub's `RepositoryPermission` enum value of a permission. */
const VIEWER_PERMISSION = { pull: 'READ', triage: 'TRIAGE', push: 'WRITE', maintain: 'MAINTAIN', admin: 'ADMIN' } as const;

/** A `Commit` object, its fields read from the bare repository. */
async function commitObject(core: StandinCore, repo: RepoRecord, oid: string): Promise<Record<string, unknown>> {
  const info = await readCommit(core.state.repoDir(repo), oid);
  const [headline = '', ...rest] = info.message.split('\n');
  return {
    __typename: 'Commit',
    id: Buffer.from(`06:Commit${repo.id}:${oid}`).toString('base64'),
    oid,
    abbreviatedOid: oid.slice(0, 7),
    message: info.message,
    messageHeadline: headline,
    messageBody: rest.join('\n').replace(/^\n+/, ''),
    committedDate: info.committer.date,
    authoredDate: info.author.date,
    url: `${core.urls.origin}/${repo.owner.login}/${repo.name}/commit/${oid}`,
    commitUrl: `${core.urls.origin}/${repo.owner.login}/${repo.name}/commit/${oid}`,
    author: { name: info.author.name, email: info.author.email, date: info.author.date },
    committer: { name: info.committer.name, email: info.committer.email, date: info.committer.date },
    tree: { __typename: 'Tree', oid: info.treeId },
  };
}

/** A `Ref` object for a branch. */
function refObject(core: StandinCore, repo: RepoRecord, branch: string, oid: string): Record<string, unknown> {
  return {
    __typename: 'Ref',
    id: Buffer.from(`03:Ref${repo.id}:refs/heads/${branch}`).toString('base64'),
    name: branch,
    prefix: 'refs/heads/',
    target: () => commitObject(core, repo, oid),
  };
}

/** A `User` object for an account. */
function userObject(account: Account): Record<string, unknown> {
  return {
    __typename: 'User',
    id: account.nodeId,
    databaseId: account.id,
    login: account.login,
    name: account.person?.name ?? null,
    email: account.person?.email ?? '',
  };
}

/** A `Repository` object, as far as Major Vault reads one. */
function repositoryObject(core: StandinCore, caller: Caller, repo: RepoRecord): Record<string, unknown> {
  const dir = core.state.repoDir(repo);
  const permission = core.permissionOf(caller, repo);
  return {
    __typename: 'Repository',
    id: repo.nodeId,
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: `${repo.owner.login}/${repo.name}`,
    isPrivate: repo.private,
    visibility: repo.private ? 'PRIVATE' : 'PUBLIC',
    url: `${core.urls.origin}/${repo.owner.login}/${repo.name}`,
    viewerPermission: permission ? VIEWER_PERMISSION[permission] : null,
    defaultBranchRef: async () => {
      const oid = await resolveRef(dir, `refs/heads/${repo.defaultBranch}`);
      return oid ? refObject(core, repo, repo.defaultBranch, oid) : null;
    },
    ref: async ({ qualifiedName }: { qualifiedName: string }) => {
      const name = qualifiedName.replace(/^refs\/heads\//, '');
      const oid = (await listBranches(dir)).get(`refs/heads/${name}`);
      return oid ? refObject(core, repo, name, oid) : null;
    },
  };
}

/** The input of `createCommitOnBranch`, as the schema has already checked it. */
interface CreateCommitOnBranchInput {
  branch: { repositoryNameWithOwner?: string; branchName?: string; id?: string };
  message: { headline: string; body?: string | null };
  fileChanges?: { additions?: { path: string; contents: string }[] | null; deletions?: { path: string }[] | null } | null;
  expectedHeadOid: string;
  clientMutationId?: string | null;
}

/**
 * `createCommitOnBranch` (docs: GraphQL mutations): one commit on the branch's head with the
 * file changes, authored by the caller (name or login; public e-mail or the noreply address),
 * committed by `GitHub <noreply@github.com>`; the branch moves only if it still points at
 * `expectedHeadOid` (compare-and-swap), then the `push` webhook is sent.
 */
async function createCommitOnBranch(args: { input: CreateCommitOnBranchInput }, context: GraphqlContext): Promise<Record<string, unknown>> {
  const { core, caller } = context;
  const { input } = args;
  const actor = core.actor(caller);
  if (!actor) throw new GithubGraphqlError('FORBIDDEN', 'Resource not accessible by integration');
  const nameWithOwner = input.branch.repositoryNameWithOwner;
  if (!nameWithOwner || !input.branch.branchName) {
    throw new GithubGraphqlError(
      'UNPROCESSABLE',
      'The stand-in needs branch.repositoryNameWithOwner and branch.branchName (branch.id is not supported).',
    );
  }
  const [owner = '', name = ''] = nameWithOwner.split('/');
  const repo = core.state.repo(owner, name);
  const permission = repo ? core.permissionOf(caller, repo) : null;
  if (!repo || !permission)
    throw new GithubGraphqlError('NOT_FOUND', `Could not resolve to a Repository with the name '${nameWithOwner}'.`);
  if (PERMISSION_ORDER.indexOf(permission) < PERMISSION_ORDER.indexOf('push')) {
    throw new GithubGraphqlError('FORBIDDEN', `${actor.login} does not have the correct permissions to execute \`CreateCommitOnBranch\``);
  }
  const branch = input.branch.branchName.replace(/^refs\/heads\//, '');
  const ref = `refs/heads/${branch}`;
  const dir = core.state.repoDir(repo);
  const { oid, delivered } = await core.withRepoLock(repo, async () => {
    const head = await resolveRef(dir, ref);
    if (!head) throw new GithubGraphqlError('NOT_FOUND', `A ref named "${ref}" does not exist in ${nameWithOwner}.`);
    if (head !== input.expectedHeadOid) {
      throw new GithubGraphqlError(
        'STALE_DATA',
        `Expected branch to point to "${input.expectedHeadOid}" but it did not. Pull and try again.`,
      );
    }
    const badPath = [...(input.fileChanges?.additions ?? []), ...(input.fileChanges?.deletions ?? [])].find(
      (change) => !isRepoPath(change.path),
    );
    if (badPath) throw new GithubGraphqlError('UNPROCESSABLE', `The path \`${badPath.path}\` is not a valid path in a repository.`);
    const files: Record<string, Buffer | null> = {};
    for (const deletion of input.fileChanges?.deletions ?? []) {
      if ((await pathType(dir, head, deletion.path)) !== 'blob') {
        throw new GithubGraphqlError(
          'UNPROCESSABLE',
          `A path was requested for deletion which does not exist as of commit oid \`${head}\``,
        );
      }
      files[deletion.path] = null;
    }
    for (const addition of input.fileChanges?.additions ?? []) {
      const parts = addition.path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const prefix = parts.slice(0, i).join('/');
        if ((await pathType(dir, head, prefix)) === 'blob' && !(prefix in files && files[prefix] === null)) {
          throw new GithubGraphqlError(
            'UNPROCESSABLE',
            `A path was requested for addition under \`${prefix}\`, which is a file as of commit oid \`${head}\``,
          );
        }
      }
      if ((await pathType(dir, head, addition.path)) === 'tree') {
        throw new GithubGraphqlError(
          'UNPROCESSABLE',
          `A path was requested for addition at \`${addition.path}\`, which is a directory as of commit oid \`${head}\``,
        );
      }
      files[addition.path] = Buffer.from(addition.contents, 'base64');
    }
    const author = actor.person ? personIdent(actor) : { name: actor.login, email: noreplyEmail(actor) };
    const message = input.message.body ? `${input.message.headline}\n\n${input.message.body}` : input.message.headline;
    const commit = await writeCommit(dir, head, files, message, author, { name: 'GitHub', email: 'noreply@github.com' });
    if (!(await compareAndSwapRef(dir, ref, commit, head))) {
      throw new GithubGraphqlError(
        'STALE_DATA',
        `Expected branch to point to "${input.expectedHeadOid}" but it did not. Pull and try again.`,
      );
    }
    const queued = await core.queuePush(repo, [{ ref, before: head, after: commit, forced: false }], actor);
    return { oid: commit, delivered: queued.delivered };
  });
  void delivered;
  return {
    clientMutationId: input.clientMutationId ?? null,
    commit: await commitObject(core, repo, oid),
    ref: refObject(core, repo, branch, oid),
  };
}

/** The root resolvers: `viewer`, `repository`, `createCommitOnBranch`. Anything else resolves to null. */
const rootValue = {
  viewer: (_args: unknown, context: GraphqlContext) => {
    const actor = context.core.actor(context.caller);
    return actor ? userObject(actor) : null;
  },
  repository: ({ owner, name }: { owner: string; name: string }, context: GraphqlContext) => {
    const repo = context.core.state.repo(owner, name);
    if (!repo || !context.core.permissionOf(context.caller, repo)) {
      throw new GithubGraphqlError('NOT_FOUND', `Could not resolve to a Repository with the name '${owner}/${name}'.`);
    }
    return repositoryObject(context.core, context.caller, repo);
  },
  createCommitOnBranch,
};

/** GitHub's wording of graphql-js's commonest validation messages, with its `extensions.code`. */
function githubShape(error: GraphQLError): Record<string, unknown> {
  const out: Record<string, unknown> = { message: error.message, locations: error.locations ?? [] };
  const field = /^Cannot query field "(\w+)" on type "(\w+)"\./.exec(error.message);
  if (field) {
    out.message = `Field '${field[1]}' doesn't exist on type '${field[2]}'`;
    out.extensions = { code: 'undefinedField', typeName: field[2], fieldName: field[1] };
  }
  const original = error.originalError;
  if (original instanceof GithubGraphqlError) out.type = original.type;
  if (error.path) out.path = error.path;
  return out;
}

/**
 * Serves `POST /api/graphql`: authentication as REST (401 without a token), then parse,
 * validate against GitHub's schema and execute. Errors come back with HTTP 200 in GitHub's
 * shape `{errors: [{message, locations, path?, type?}]}`, with `data` when execution began.
 */
export async function serveGraphql(core: StandinCore, req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
  if (req.method !== 'POST') return sendJson(res, 404, errorBody(404), {}, 'graphql');
  if (caller.kind === 'none') {
    return sendJson(
      res,
      401,
      {
        message: 'This endpoint requires you to be authenticated.',
        documentation_url: 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql',
      },
      {},
      'graphql',
    );
  }
  if (caller.kind === 'bad')
    return sendJson(res, 401, { message: caller.message, documentation_url: 'https://docs.github.com/graphql' }, {}, 'graphql');
  if (caller.kind === 'app') return sendJson(res, 403, errorBody(403, 'Resource not accessible by integration'), {}, 'graphql');
  let request: { query?: unknown; variables?: unknown; operationName?: unknown };
  try {
    request = JSON.parse((await readBody(req)).toString('utf8')) as typeof request;
  } catch {
    return sendJson(res, 400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/graphql' }, {}, 'graphql');
  }
  if (typeof request.query !== 'string') {
    return sendJson(res, 200, { errors: [{ message: 'A query attribute must be specified and must be a string.' }] }, {}, 'graphql');
  }
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    return sendJson(res, 200, { errors: [githubShape(error as GraphQLError)] }, {}, 'graphql');
  }
  const schema = graphqlSchema();
  const invalid = validate(schema, document);
  if (invalid.length > 0) return sendJson(res, 200, { errors: invalid.map(githubShape) }, {}, 'graphql');
  const result = await execute({
    schema,
    document,
    rootValue,
    contextValue: { core, caller } satisfies GraphqlContext,
    variableValues: (request.variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: typeof request.operationName === 'string' ? request.operationName : undefined,
  });
  const body: Record<string, unknown> = { data: result.data ?? null };
  if (result.errors?.length) body.errors = result.errors.map(githubShape);
  sendJson(res, 200, body, {}, 'graphql');
}
