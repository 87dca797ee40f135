// What the stand-in's GitHub knows: accounts, repositories, installations, grants and tokens (in memory).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { StandinOptions, StandinPermission, StandinPerson } from './standin-api.ts';

/** A GitHub account: a demo person (User) or an organisation (any other owner). */
export interface Account {
  login: string;
  id: number;
  nodeId: string;
  type: 'User' | 'Organization';
  person: StandinPerson | null;
  createdAt: string;
}

/** A repository: its bare Git folder lives at {@link StandinState.repoDir}. */
export interface RepoRecord {
  id: number;
  nodeId: string;
  owner: Account;
  name: string;
  private: boolean;
  defaultBranch: string;
  createdAt: string;
  updatedAt: string;
  pushedAt: string;
  /** login -> permission (explicit grants; a user-owned repository's owner is admin besides). */
  collaborators: Map<string, StandinPermission>;
}

/** An installation of the App on an account. */
export interface InstallationRecord {
  id: number;
  account: Account;
  selection: 'all' | 'selected';
  /** The selected repositories' ids (used when `selection` is `selected`). */
  repoIds: Set<number>;
  createdAt: string;
  updatedAt: string;
  suspendedAt: string | null;
  deleted: boolean;
}

/** An installation access token (`ghs_…`), valid one hour. */
export interface InstallationTokenRecord {
  token: string;
  installationId: number;
  expiresAt: number;
  /** The repositories the token was narrowed to (`repositories` / `repository_ids` when created); undefined: all of the installation's. */
  repoIds?: Set<number>;
}

/** A user-to-server token pair (`ghu_…` 8 hours, `ghr_…` 6 months); each refresh token is single-use. */
export interface UserTokenRecord {
  accessToken: string;
  refreshToken: string;
  login: string;
  expiresAt: number;
  refreshExpiresAt: number;
  revoked: boolean;
  refreshUsed: boolean;
}

/** An OAuth authorization code waiting to be exchanged (10 minutes, single use). */
export interface OAuthCodeRecord {
  code: string;
  login: string;
  redirectUri: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: number;
}

/** Who a request acts as, from its `Authorization` header. */
export type Caller =
  | { kind: 'none' }
  | { kind: 'bad'; message: string }
  | { kind: 'app' }
  | { kind: 'installation'; installation: InstallationRecord; token: InstallationTokenRecord }
  | { kind: 'user'; account: Account; token: UserTokenRecord }
  | { kind: 'password'; account: Account };

/** Ranks of GitHub's repository permissions, lowest first. */
export const PERMISSION_ORDER: StandinPermission[] = ['pull', 'triage', 'push', 'maintain', 'admin'];

/** GitHub's `permissions` object for a permission level (null: all false). */
export function permissionFlags(level: StandinPermission | null): Record<StandinPermission, boolean> {
  const rank = level ? PERMISSION_ORDER.indexOf(level) : -1;
  return {
    admin: rank >= 4,
    maintain: rank >= 3,
    push: rank >= 2,
    triage: rank >= 1,
    pull: rank >= 0,
  };
}

/** A token with GitHub's prefix and 36 random characters, like `ghs_…`. */
export function newToken(prefix: 'ghs' | 'ghu' | 'ghr'): string {
  return `${prefix}_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
}

/** GitHub's legacy global node id, base64 of `0<len>:<Type><id>`. */
export function legacyNodeId(type: string, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

/** The stand-in's memory of GitHub. State is not persisted across restarts (the repositories are, on disk). */
export class StandinState {
  readonly accounts = new Map<string, Account>();
  readonly repos = new Map<string, RepoRecord>();
  readonly installations = new Map<number, InstallationRecord>();
  readonly installationTokens = new Map<string, InstallationTokenRecord>();
  readonly userTokens = new Map<string, UserTokenRecord>();
  readonly refreshTokens = new Map<string, UserTokenRecord>();
  readonly oauthCodes = new Map<string, OAuthCodeRecord>();
  readonly appCreatedAt = new Date().toISOString();
  /** The App's bot account, the author of commits made with an installation token. */
  readonly bot: Account;
  private nextId = { account: 1001, repo: 500001, installation: 40001 };

  readonly options: StandinOptions;
  readonly reposRoot: string;

  constructor(options: StandinOptions, reposRoot: string = join(options.dataDir, 'repos')) {
    this.options = options;
    this.reposRoot = reposRoot;
    if (options.firstInstallationId !== undefined) this.nextId.installation = options.firstInstallationId;
    for (const person of options.people) this.addAccount(person.login, 'User', person);
    this.bot = {
      login: `${options.app.slug}[bot]`,
      id: 9_000_001,
      nodeId: legacyNodeId('Bot', 9_000_001),
      type: 'User',
      person: null,
      createdAt: this.appCreatedAt,
    };
  }

  private addAccount(login: string, type: Account['type'], person: StandinPerson | null): Account {
    const id = this.nextId.account++;
    const account: Account = { login, id, nodeId: legacyNodeId(type, id), type, person, createdAt: new Date().toISOString() };
    this.accounts.set(login.toLowerCase(), account);
    return account;
  }

  /** The account `login` (case-insensitive), or undefined. */
  account(login: string): Account | undefined {
    return this.accounts.get(login.toLowerCase());
  }

  /** The account `login`, made as an organisation when it is not a demo person. */
  ensureAccount(login: string): Account {
    return this.account(login) ?? this.addAccount(login, 'Organization', null);
  }

  /** The demo person `login`, or undefined. */
  person(login: string): Account | undefined {
    const account = this.account(login);
    return account?.person ? account : undefined;
  }

  /** The repository `owner/name` (case-insensitive), or undefined. */
  repo(owner: string, name: string): RepoRecord | undefined {
    return this.repos.get(`${owner}/${name}`.toLowerCase());
  }

  /** Records a new repository; throws when it exists. */
  addRepo(owner: string, name: string, isPrivate: boolean, defaultBranch: string): RepoRecord {
    if (this.repo(owner, name)) throw new Error(`The repository ${owner}/${name} exists already.`);
    const id = this.nextId.repo++;
    const now = new Date().toISOString();
    const record: RepoRecord = {
      id,
      nodeId: legacyNodeId('Repository', id),
      owner: this.ensureAccount(owner),
      name,
      private: isPrivate,
      defaultBranch,
      createdAt: now,
      updatedAt: now,
      pushedAt: now,
      collaborators: new Map(),
    };
    this.repos.set(`${owner}/${name}`.toLowerCase(), record);
    return record;
  }

  /** The bare Git folder of a repository: `<dataDir>/repos/<owner>/<name>.git`. */
  repoDir(repo: Pick<RepoRecord, 'owner' | 'name'>): string {
    return join(this.reposRoot, repo.owner.login, `${repo.name}.git`);
  }

  /** A new installation id. */
  newInstallationId(): number {
    return this.nextId.installation++;
  }

  /** The live (not deleted) installation on `login`'s account, or undefined. */
  installationOn(login: string): InstallationRecord | undefined {
    for (const installation of this.installations.values()) {
      if (!installation.deleted && installation.account.login.toLowerCase() === login.toLowerCase()) return installation;
    }
    return undefined;
  }

  /** The repositories an installation can reach (none when suspended or deleted), by id. */
  installationRepos(installation: InstallationRecord): RepoRecord[] {
    if (installation.deleted || installation.suspendedAt) return [];
    return [...this.repos.values()]
      .filter((repo) => repo.owner === installation.account && (installation.selection === 'all' || installation.repoIds.has(repo.id)))
      .sort((a, b) => a.id - b.id);
  }

  /** The live installation that covers `repo` (suspended ones included), or undefined. */
  installationOf(repo: RepoRecord): InstallationRecord | undefined {
    const installation = this.installationOn(repo.owner.login);
    if (!installation) return undefined;
    return installation.selection === 'all' || installation.repoIds.has(repo.id) ? installation : undefined;
  }

  /** `login`'s permission on `repo`: an explicit grant, admin for a user's own repository, pull on a public one, else null. */
  permission(login: string, repo: RepoRecord): StandinPermission | null {
    if (repo.owner.type === 'User' && repo.owner.login.toLowerCase() === login.toLowerCase()) return 'admin';
    const granted = repo.collaborators.get(login.toLowerCase());
    if (granted) return granted;
    return repo.private ? null : 'pull';
  }

  /** Whether `login` has explicit access (a grant or ownership), as GitHub lists for `/user/installations`. */
  hasExplicitAccess(login: string, repo: RepoRecord): boolean {
    return (
      (repo.owner.type === 'User' && repo.owner.login.toLowerCase() === login.toLowerCase()) || repo.collaborators.has(login.toLowerCase())
    );
  }

  /** The repositories of `installation` that `login` can access explicitly (GitHub's `/user/installations/{id}/repositories`). */
  userInstallationRepos(login: string, installation: InstallationRecord): RepoRecord[] {
    return this.installationRepos(installation).filter((repo) => this.hasExplicitAccess(login, repo));
  }

  /** A live user-to-server token record, or undefined when unknown, revoked or expired. */
  liveUserToken(token: string): UserTokenRecord | undefined {
    const record = this.userTokens.get(token);
    if (!record || record.revoked || record.expiresAt <= Date.now()) return undefined;
    return record;
  }

  /** Issues a user-to-server token pair for `login` (8 hours; refresh 6 months), as the OAuth flow does. */
  issueUserToken(login: string): UserTokenRecord {
    const now = Date.now();
    const record: UserTokenRecord = {
      accessToken: newToken('ghu'),
      refreshToken: newToken('ghr'),
      login,
      expiresAt: now + 28_800_000,
      refreshExpiresAt: now + 15_897_600_000,
      revoked: false,
      refreshUsed: false,
    };
    this.userTokens.set(record.accessToken, record);
    this.refreshTokens.set(record.refreshToken, record);
    return record;
  }
}
