// The stand-in's shared core: state, keys, webhooks, per-repository locks and who-may-do-what.
import type { KeyObject } from 'node:crypto';
import { listBranches, ZERO_OID } from './bare-repo.ts';
import { installation as installationShape, simpleUser, type Urls } from './payloads.ts';
import { pushPayload, type RefChange } from './push-event.ts';
import type { StandinOptions, StandinPermission } from './standin-api.ts';
import type { Account, Caller, InstallationRecord, RepoRecord, StandinState } from './state.ts';
import type { WebhookSender } from './webhook-sender.ts';

/** Everything the stand-in's routes share. */
export class StandinCore {
  private readonly locks = new Map<number, Promise<unknown>>();

  readonly state: StandinState;
  readonly urls: Urls;
  readonly app: Required<StandinOptions['app']>;
  readonly publicKey: KeyObject;
  readonly webhooks: WebhookSender;

  constructor(state: StandinState, urls: Urls, app: Required<StandinOptions['app']>, publicKey: KeyObject, webhooks: WebhookSender) {
    this.state = state;
    this.urls = urls;
    this.app = app;
    this.publicKey = publicKey;
    this.webhooks = webhooks;
  }

  /** Runs `work` after every earlier ref-changing work on `repo` settled (one writer per repository). */
  withRepoLock<T>(repo: RepoRecord, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(repo.id) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.locks.set(repo.id, settled);
    void settled.then(() => {
      if (this.locks.get(repo.id) === settled) this.locks.delete(repo.id);
    });
    return next;
  }

  /**
   * The caller's permission on `repo`, as GitHub combines them: an installation token has the
   * App's `contents: write` (push) on the installation's repositories; a user-to-server token
   * has the person's permission, only on repositories the App is installed on (and not
   * suspended); a password (Git over HTTP) the person's permission; nobody, pull on public ones.
   */
  permissionOf(caller: Caller, repo: RepoRecord): StandinPermission | null {
    switch (caller.kind) {
      case 'installation':
        if (caller.token.repoIds && !caller.token.repoIds.has(repo.id)) return null;
        return this.state.installationRepos(caller.installation).includes(repo) ? 'push' : null;
      case 'user': {
        const covering = this.state.installationOf(repo);
        if (!covering || covering.suspendedAt) return null;
        return this.state.permission(caller.account.login, repo);
      }
      case 'password':
        return this.state.permission(caller.account.login, repo);
      case 'none':
        return repo.private ? null : 'pull';
      default:
        return null;
    }
  }

  /** The account that acts for `caller` (the App's bot for an installation token), or null. */
  actor(caller: Caller): Account | null {
    if (caller.kind === 'user' || caller.kind === 'password') return caller.account;
    if (caller.kind === 'installation') return this.state.bot;
    return null;
  }

  /** GitHub's `installation` object for a record. */
  installationObject(record: InstallationRecord): Record<string, unknown> {
    return installationShape(this.urls, this.app, record, this.defaultSender(record.account));
  }

  /** The person shown as `sender` of installation events on `account`: the account itself when a person, else the first demo person. */
  defaultSender(account: Account): Account {
    if (account.person) return account;
    const first = this.state.options.people[0];
    return (first && this.state.person(first.login)) || account;
  }

  /** The `simple-user` of an account. */
  user(account: Account): Record<string, unknown> {
    return simpleUser(this.urls, account);
  }

  /**
   * Builds and queues the `push` webhook for each ref change of `repo` (none when the App is
   * not installed on it, or suspended: GitHub delivers nothing then). Resolves once queued,
   * with a promise of the deliveries' attempts.
   */
  async queuePush(repo: RepoRecord, changes: RefChange[], pusher: Account): Promise<{ delivered: Promise<void> }> {
    const installation = this.state.installationOf(repo);
    repo.pushedAt = new Date().toISOString();
    if (!installation || installation.suspendedAt) return { delivered: Promise.resolve() };
    const heads = [...(await listBranches(this.state.repoDir(repo))).entries()];
    const sends: Promise<void>[] = [];
    for (const change of changes) {
      const others = heads.filter(([name]) => name !== change.ref).map(([, oid]) => oid);
      const payload = await pushPayload(this.state, this.urls, repo, change, pusher, installation, others);
      sends.push(this.webhooks.send('push', payload));
    }
    return { delivered: Promise.all(sends).then(() => undefined) };
  }

  /**
   * Revokes every user-to-server token of `login` for the App and sends
   * `github_app_authorization` `revoked` (docs: "Webhook events and payloads").
   */
  async revokeAuthorization(login: string): Promise<void> {
    const account = this.state.person(login);
    if (!account) throw new Error(`No demo person has the login ${login}; the stand-in's options list the people.`);
    for (const record of this.state.userTokens.values()) if (record.login.toLowerCase() === login.toLowerCase()) record.revoked = true;
    await this.webhooks.send('github_app_authorization', { action: 'revoked', sender: this.user(account) });
  }

  /** Ref changes between two snapshots of a repository's branches. */
  static refChanges(before: Map<string, string>, after: Map<string, string>): RefChange[] {
    const changes: RefChange[] = [];
    for (const [ref, oid] of after) {
      const old = before.get(ref);
      if (old !== oid) changes.push({ ref, before: old ?? ZERO_OID, after: oid, forced: false });
    }
    for (const [ref, oid] of before) if (!after.has(ref)) changes.push({ ref, before: oid, after: ZERO_OID, forced: false });
    return changes;
  }
}
