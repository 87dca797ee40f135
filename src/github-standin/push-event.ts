// The `push` webhook payload, built from a ref change in a bare repository.
import { commitsBetween, readCommit, ZERO_OID, type CommitInfo } from './bare-repo.ts';
import { noreplyEmail, organizationSimple, simpleUser, webhookRepository, type Urls } from './payloads.ts';
import { legacyNodeId, type Account, type InstallationRecord, type RepoRecord, type StandinState } from './state.ts';

/**
 * What GitHub lists at most in a push webhook: 2048 commits, 3000 changed files per commit
 * (docs: "Webhook events and payloads", push; the 20-commit limit applies to timeline events only).
 */
export const PUSH_LIMITS = { commits: 2048, filesPerCommit: 3000 };

/** One ref change: the full ref name, the commit before (zero id: created) and after (zero id: deleted). */
export interface RefChange {
  ref: string;
  before: string;
  after: string;
  forced: boolean;
}

/** The GitHub login whose e-mail (public or noreply) is `email`, or null. */
function usernameFor(state: StandinState, email: string): string | null {
  for (const account of state.accounts.values()) {
    if (account.person && (account.person.email === email || noreplyEmail(account) === email)) return account.login;
  }
  return null;
}

/** A commit as a push payload lists it. */
function payloadCommit(state: StandinState, urls: Urls, repo: RepoRecord, info: CommitInfo): Record<string, unknown> {
  const limit = (paths: string[]) => paths.slice(0, PUSH_LIMITS.filesPerCommit);
  const authorLogin = usernameFor(state, info.author.email);
  const committerLogin = usernameFor(state, info.committer.email);
  return {
    id: info.id,
    tree_id: info.treeId,
    distinct: true,
    message: info.message,
    timestamp: info.author.date,
    url: `${urls.origin}/${repo.owner.login}/${repo.name}/commit/${info.id}`,
    author: { name: info.author.name, email: info.author.email, ...(authorLogin ? { username: authorLogin } : {}) },
    committer: {
      name: info.committer.name,
      email: info.committer.email,
      ...(info.committer.email === 'noreply@github.com' ? { username: 'web-flow' } : committerLogin ? { username: committerLogin } : {}),
    },
    added: limit(info.added),
    removed: limit(info.removed),
    modified: limit(info.modified),
  };
}

/**
 * The `push` payload for `change` in `repo` (docs: "Webhook events and payloads", push):
 * the pushed commits oldest first (those reachable from `after` and not from `before`, or, for
 * a new branch, from no other branch), the head commit, the repository, pusher and sender.
 */
export async function pushPayload(
  state: StandinState,
  urls: Urls,
  repo: RepoRecord,
  change: RefChange,
  pusher: Account,
  installation: InstallationRecord,
  otherHeads: string[],
): Promise<Record<string, unknown>> {
  const dir = state.repoDir(repo);
  const created = change.before === ZERO_OID;
  const deleted = change.after === ZERO_OID;
  // A tag push lists no commits; its head commit is the tagged one (GitHub's push of a tag).
  const tag = change.ref.startsWith('refs/tags/');
  let ids: string[] = [];
  if (!deleted && !tag) ids = await commitsBetween(dir, change.after, created ? otherHeads : [change.before]);
  const infos: CommitInfo[] = [];
  for (const id of ids.slice(0, PUSH_LIMITS.commits)) infos.push(await readCommit(dir, id));
  const head = deleted ? null : (infos.find((info) => info.id === change.after) ?? (await readCommit(dir, `${change.after}^{commit}`)));
  const base = `${urls.origin}/${repo.owner.login}/${repo.name}`;
  const branch = tag ? '' : change.ref.replace(/^refs\/heads\//, '');
  const compare = created
    ? `${base}/commit/${change.after.slice(0, 12)}`
    : deleted
      ? `${base}/compare/${change.before.slice(0, 12)}...000000000000`
      : `${base}/compare/${change.before.slice(0, 12)}...${change.after.slice(0, 12)}`;
  const payload: Record<string, unknown> = {
    ref: change.ref,
    before: change.before,
    after: change.after,
    repository: webhookRepository(urls, repo, true),
    pusher: { name: pusher.login, email: pusher.person?.email ?? (pusher.person ? noreplyEmail(pusher) : null) },
    sender: simpleUser(urls, pusher),
    installation: { id: installation.id, node_id: legacyNodeId('Integration::Installation', installation.id) },
    created,
    deleted,
    forced: change.forced,
    base_ref: null,
    compare: created && branch ? `${base}/compare/${branch}` : compare,
    commits: infos.map((info) => payloadCommit(state, urls, repo, info)),
    head_commit: head ? payloadCommit(state, urls, repo, head) : null,
  };
  if (repo.owner.type === 'Organization') payload.organization = organizationSimple(urls, repo.owner);
  return payload;
}
