// Sign-in with a person's GitHub user token: who they are, and which of the installation's repositories they may read and write.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isVaultError } from '../../vault-error.ts';
import type { Access, Person } from '../person.ts';
import type { SignIn } from '../sign-in.ts';
import type { GitHubApi } from './github-api.ts';
import { githubFailure, statusOf } from './github-failure.ts';

/** How long one token's answer is kept (spec: "A change of access takes effect within 15 minutes"), ms. */
export const ACCESS_TTL_MS = 15 * 60_000;

/** What {@link GitHubSignIn} forgets: one token's answer (by its hash), everything one person's tokens gave, or all. */
export type ForgetAccess = { tokenHash: string } | { login: string } | 'all';

/** The key a token's answer is kept under: its SHA-256, hex. The token itself is never kept. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** One kept answer: the access, and the person's login for {@link GitHubSignIn.forgetAccess}. */
interface Kept {
  access: Omit<Access, 'credential'>;
  login: string;
}

/**
 * The sign-in port over GitHub (DESIGN.md "Ports and adapters", sign-in side; issue 11, "Who
 * reads and writes what"): a bearer token is the person's GitHub user token (from the App's
 * OAuth flow). `GET /user` says who they are; `GET /user/installations/{installation_id}/repositories`
 * (every page) lists the installation's repositories they can reach, with `permissions.push`
 * for writing. Repositories outside the installation never appear.
 *
 * The answer is kept {@link ACCESS_TTL_MS} per token, keyed by {@link tokenHash}, in an LRU of
 * `maxTokens` entries, and never past the token's expiry where GitHub tells it (the
 * `GitHub-Authentication-Token-Expiration` header on answers to expiring tokens); calls of one token while GitHub is being asked share one request. A
 * token GitHub refuses (401: revoked, expired) is unauthenticated at once: null, and its kept
 * answer dropped. Any other failure (5xx, a timeout, a rate limit) throws a clear error rather
 * than answering "no access".
 */
export class GitHubSignIn implements SignIn {
  readonly requiresToken = true;
  private readonly kept: LRUCache<string, Kept>;
  private readonly asking = new Map<string, Promise<Kept | null>>();
  private readonly ttlMs: number;

  private readonly api: GitHubApi;

  constructor(api: GitHubApi, options: { ttlMs?: number; maxTokens?: number } = {}) {
    this.api = api;
    this.ttlMs = options.ttlMs ?? ACCESS_TTL_MS;
    this.kept = new LRUCache<string, Kept>({ max: options.maxTokens ?? 10_000, ttl: this.ttlMs });
  }

  async authenticate(token: string | undefined): Promise<Access | null> {
    if (token === undefined || token.trim() === '') return null;
    const key = tokenHash(token);
    let kept: Kept | null | undefined = this.kept.get(key);
    if (kept === undefined) {
      let asking = this.asking.get(key);
      if (asking === undefined) {
        asking = this.ask(token, key).finally(() => this.asking.delete(key));
        this.asking.set(key, asking);
      }
      kept = await asking;
    }
    return kept === null ? null : { ...kept.access, credential: token };
  }

  /**
   * Forgets kept answers, so the next call asks GitHub again: one token's (by {@link tokenHash}),
   * every token's of a person (by GitHub login, case ignored: a `github_app_authorization`
   * revocation or a change of their rights), or all (an installation's repositories changed).
   */
  forgetAccess(what: ForgetAccess): void {
    if (what === 'all') {
      this.kept.clear();
    } else if ('tokenHash' in what) {
      this.kept.delete(what.tokenHash);
    } else {
      const login = what.login.toLowerCase();
      for (const [key, kept] of this.kept.entries()) if (kept.login.toLowerCase() === login) this.kept.delete(key);
    }
  }

  private async ask(token: string, key: string): Promise<Kept | null> {
    const octokit = this.api.asPerson(token);
    try {
      const installationId = await this.api.installationId();
      const answer = await octokit.request('GET /user');
      const user = answer.data;
      const expiresAt = tokenExpiration(answer.headers['github-authentication-token-expiration']);
      // 404: GitHub shows this person nothing of the installation; they sign in and read nothing.
      const repositories = await octokit
        .paginate('GET /user/installations/{installation_id}/repositories', { installation_id: installationId, per_page: 100 })
        .catch((error: unknown) => {
          if (statusOf(error) === 404) return [];
          throw error;
        });
      const read = new Set<string>();
      const write = new Set<string>();
      for (const repo of repositories) {
        read.add(repo.name);
        if (repo.permissions?.push === true) write.add(repo.name);
      }
      const kept: Kept = { access: { person: this.personOf(user), read, write }, login: user.login };
      // Never kept past the token's own expiry, when GitHub says when that is.
      const ttl = expiresAt === null ? undefined : Math.min(this.ttlMs, expiresAt - Date.now());
      if (ttl === undefined || ttl > 0) this.kept.set(key, kept, ttl === undefined ? undefined : { ttl });
      return kept;
    } catch (error) {
      const failure = githubFailure(error, 'check your GitHub sign-in');
      if (isVaultError(failure, 'unauthorized')) {
        this.kept.delete(key);
        return null;
      }
      throw failure;
    }
  }

  /**
   * The person a GitHub user is: their login, their profile name (the login when they set
   * none), and their public e-mail, else the noreply address GitHub itself puts on their web
   * commits (`ID+LOGIN@users.noreply.github.com`).
   */
  private personOf(user: { id: number | bigint; login: string; name?: string | null; email?: string | null }): Person {
    const name = user.name?.trim() ? user.name : user.login;
    const email = user.email?.trim() ? user.email : `${String(user.id)}+${user.login}@users.noreply.github.com`;
    return { login: user.login, name, email };
  }
}

/**
 * The moment (ms since the epoch) in GitHub's `GitHub-Authentication-Token-Expiration` header,
 * e.g. `2026-12-02 10:21:45 UTC` or `2026-12-02 10:21:45 +0100`; null when absent or unreadable.
 */
export function tokenExpiration(header: unknown): number | null {
  if (typeof header !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})\s*(UTC|Z|[+-]\d{2}:?\d{2})?$/.exec(header.trim());
  if (match === null) return null;
  const zone = match[3] === undefined || match[3] === 'UTC' || match[3] === 'Z' ? 'Z' : match[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const at = Date.parse(`${match[1]}T${match[2]}${zone}`);
  return Number.isNaN(at) ? null : at;
}
