// GitHub's object shapes (users, repositories, installations, the App) as REST and webhooks send them.
import type { StandinOptions, StandinPermission } from './standin-api.ts';
import { permissionFlags, type Account, type InstallationRecord, type RepoRecord } from './state.ts';

/** Where the stand-in lives: its web origin and REST base URL (`<origin>/api/v3`, as GitHub Enterprise Server). */
export interface Urls {
  origin: string;
  api: string;
}

/** The App's permissions, as its registration declares them for Major Vault (contents write, metadata read). */
export const APP_PERMISSIONS = { contents: 'write', metadata: 'read' } as const;
/** The events the App subscribes to; `installation` and `installation_repositories` reach every App unasked. */
export const APP_EVENTS = ['push'];

/** GitHub's `simple-user` for an account. */
export function simpleUser(urls: Urls, account: Account): Record<string, unknown> {
  // A bot's login has brackets (`slug[bot]`); GitHub percent-encodes them in its URLs.
  const bot = account.login.endsWith('[bot]');
  const u = `${urls.api}/users/${encodeURIComponent(account.login)}`;
  return {
    login: account.login,
    id: account.id,
    node_id: account.nodeId,
    avatar_url: `${urls.origin}/avatars/u/${account.id}`,
    gravatar_id: '',
    url: u,
    html_url: bot ? `${urls.origin}/apps/${account.login.slice(0, -'[bot]'.length)}` : `${urls.origin}/${account.login}`,
    followers_url: `${u}/followers`,
    following_url: `${u}/following{/other_user}`,
    gists_url: `${u}/gists{/gist_id}`,
    starred_url: `${u}/starred{/owner}{/repo}`,
    subscriptions_url: `${u}/subscriptions`,
    organizations_url: `${u}/orgs`,
    repos_url: `${u}/repos`,
    events_url: `${u}/events{/privacy}`,
    received_events_url: `${u}/received_events`,
    type: bot ? 'Bot' : account.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/** GitHub's `private-user` (`GET /user`) for a demo person. */
export function privateUser(urls: Urls, account: Account, counts: { publicRepos: number; privateRepos: number }): Record<string, unknown> {
  return {
    ...simpleUser(urls, account),
    name: account.person?.name ?? null,
    company: null,
    blog: '',
    location: null,
    email: account.person?.email ?? null,
    notification_email: account.person?.email ?? null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: counts.publicRepos,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: account.createdAt,
    updated_at: account.createdAt,
    private_gists: 0,
    total_private_repos: counts.privateRepos,
    owned_private_repos: counts.privateRepos,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: false,
    plan: { name: 'free', space: 976562499, collaborators: 0, private_repos: 10000 },
  };
}

/** The address GitHub puts on a person's commits when they keep their e-mail private. */
export function noreplyEmail(account: Account): string {
  return `${account.id}+${account.login}@users.noreply.github.com`;
}

/** The URL fields every repository shape shares. */
function repoUrls(urls: Urls, repo: RepoRecord): Record<string, string> {
  const full = `${repo.owner.login}/${repo.name}`;
  const u = `${urls.api}/repos/${full}`;
  const host = new URL(urls.origin).host;
  return {
    html_url: `${urls.origin}/${full}`,
    url: u,
    forks_url: `${u}/forks`,
    keys_url: `${u}/keys{/key_id}`,
    collaborators_url: `${u}/collaborators{/collaborator}`,
    teams_url: `${u}/teams`,
    hooks_url: `${u}/hooks`,
    issue_events_url: `${u}/issues/events{/number}`,
    events_url: `${u}/events`,
    assignees_url: `${u}/assignees{/user}`,
    branches_url: `${u}/branches{/branch}`,
    tags_url: `${u}/tags`,
    blobs_url: `${u}/git/blobs{/sha}`,
    git_tags_url: `${u}/git/tags{/sha}`,
    git_refs_url: `${u}/git/refs{/sha}`,
    trees_url: `${u}/git/trees{/sha}`,
    statuses_url: `${u}/statuses/{sha}`,
    languages_url: `${u}/languages`,
    stargazers_url: `${u}/stargazers`,
    contributors_url: `${u}/contributors`,
    subscribers_url: `${u}/subscribers`,
    subscription_url: `${u}/subscription`,
    commits_url: `${u}/commits{/sha}`,
    git_commits_url: `${u}/git/commits{/sha}`,
    comments_url: `${u}/comments{/number}`,
    issue_comment_url: `${u}/issues/comments{/number}`,
    contents_url: `${u}/contents/{+path}`,
    compare_url: `${u}/compare/{base}...{head}`,
    merges_url: `${u}/merges`,
    archive_url: `${u}/{archive_format}{/ref}`,
    downloads_url: `${u}/downloads`,
    issues_url: `${u}/issues{/number}`,
    pulls_url: `${u}/pulls{/number}`,
    milestones_url: `${u}/milestones{/number}`,
    notifications_url: `${u}/notifications{?since,all,participating}`,
    labels_url: `${u}/labels{/name}`,
    releases_url: `${u}/releases{/id}`,
    deployments_url: `${u}/deployments`,
    git_url: `git://${host}/${full}.git`,
    ssh_url: `git@${host}:${full}.git`,
    clone_url: `${urls.origin}/${full}.git`,
    svn_url: `${urls.origin}/${full}`,
  };
}

/**
 * GitHub's `repository` / `full-repository` shape. `permission`, when given (a user token),
 * adds the caller's `permissions`; `full` adds the fields of `GET /repos/{owner}/{repo}`.
 */
export function repository(
  urls: Urls,
  repo: RepoRecord,
  options: { permission?: StandinPermission | null; full?: boolean; sizeKiB?: number } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: repo.id,
    node_id: repo.nodeId,
    name: repo.name,
    full_name: `${repo.owner.login}/${repo.name}`,
    private: repo.private,
    owner: simpleUser(urls, repo.owner),
    description: null,
    fork: false,
    ...repoUrls(urls, repo),
    mirror_url: null,
    homepage: null,
    language: null,
    forks_count: 0,
    stargazers_count: 0,
    watchers_count: 0,
    size: options.sizeKiB ?? 0,
    default_branch: repo.defaultBranch,
    open_issues_count: 0,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: repo.private ? 'private' : 'public',
    pushed_at: repo.pushedAt,
    created_at: repo.createdAt,
    updated_at: repo.updatedAt,
    allow_forking: true,
    web_commit_signoff_required: false,
    license: null,
    forks: 0,
    open_issues: 0,
    watchers: 0,
  };
  if (options.permission !== undefined) body.permissions = permissionFlags(options.permission);
  if (options.full) {
    Object.assign(body, {
      network_count: 0,
      subscribers_count: 0,
      temp_clone_token: null,
      allow_squash_merge: true,
      allow_merge_commit: true,
      allow_rebase_merge: true,
      allow_auto_merge: false,
      delete_branch_on_merge: false,
      allow_update_branch: false,
      use_squash_pr_title_as_default: false,
      squash_merge_commit_title: 'COMMIT_OR_PR_TITLE',
      squash_merge_commit_message: 'COMMIT_MESSAGES',
      merge_commit_title: 'MERGE_MESSAGE',
      merge_commit_message: 'PR_TITLE',
    });
    if (repo.owner.type === 'Organization') body.organization = simpleUser(urls, repo.owner);
  }
  return body;
}

/** GitHub's `installation` shape. */
export function installation(
  urls: Urls,
  app: StandinOptions['app'],
  record: InstallationRecord,
  suspendedBy: Account | null,
): Record<string, unknown> {
  return {
    id: record.id,
    client_id: app.clientId,
    account: simpleUser(urls, record.account),
    repository_selection: record.selection,
    access_tokens_url: `${urls.api}/app/installations/${record.id}/access_tokens`,
    repositories_url: `${urls.api}/installation/repositories`,
    html_url:
      record.account.type === 'Organization'
        ? `${urls.origin}/organizations/${record.account.login}/settings/installations/${record.id}`
        : `${urls.origin}/settings/installations/${record.id}`,
    app_id: app.id,
    app_slug: app.slug,
    target_id: record.account.id,
    target_type: record.account.type,
    permissions: { ...APP_PERMISSIONS },
    events: [...APP_EVENTS],
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: record.suspendedAt && suspendedBy ? simpleUser(urls, suspendedBy) : null,
    suspended_at: record.suspendedAt,
  };
}

/** GitHub's `integration` shape (`GET /app`). */
export function integration(
  urls: Urls,
  app: StandinOptions['app'],
  owner: Account,
  createdAt: string,
  installationsCount: number,
): Record<string, unknown> {
  return {
    id: app.id,
    slug: app.slug,
    node_id: Buffer.from(`03:App${app.id}`).toString('base64'),
    client_id: app.clientId,
    owner: simpleUser(urls, owner),
    name: app.slug,
    description: 'Major Vault: Markdown notes in Git repositories, for an AI assistant.',
    external_url: urls.origin,
    html_url: `${urls.origin}/apps/${app.slug}`,
    created_at: createdAt,
    updated_at: createdAt,
    permissions: { ...APP_PERMISSIONS },
    events: [...APP_EVENTS],
    installations_count: installationsCount,
  };
}

/** The repository object of webhook payloads (`repository-webhooks`): `created_at`/`pushed_at` as GitHub's push sends them. */
export function webhookRepository(urls: Urls, repo: RepoRecord, forPush: boolean): Record<string, unknown> {
  const body = repository(urls, repo, {});
  if (forPush) {
    body.created_at = Math.floor(Date.parse(repo.createdAt) / 1000);
    body.pushed_at = Math.floor(Date.parse(repo.pushedAt) / 1000);
    body.stargazers = 0;
    body.master_branch = repo.defaultBranch;
    if (repo.owner.type === 'Organization') body.organization = repo.owner.login;
    body.owner = { ...simpleUser(urls, repo.owner), name: repo.owner.login, email: null };
  }
  return body;
}

/** The short repository shape in `installation` / `installation_repositories` webhooks. */
export function webhookRepoRef(repo: RepoRecord): Record<string, unknown> {
  return { id: repo.id, node_id: repo.nodeId, name: repo.name, full_name: `${repo.owner.login}/${repo.name}`, private: repo.private };
}

/** GitHub's `organization-simple` of an organisation account, as webhook payloads carry it. */
export function organizationSimple(urls: Urls, org: Account): Record<string, unknown> {
  const u = `${urls.api}/orgs/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    node_id: org.nodeId,
    url: u,
    repos_url: `${u}/repos`,
    events_url: `${u}/events`,
    hooks_url: `${u}/hooks`,
    issues_url: `${u}/issues`,
    members_url: `${u}/members{/member}`,
    public_members_url: `${u}/public_members{/member}`,
    avatar_url: `${urls.origin}/avatars/u/${org.id}`,
    description: null,
  };
}
