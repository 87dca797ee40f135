// The GitHub stand-in's handle, as tests and the hosted demo drive it (issue 11). GitHub cannot
// be reached from here; the stand-in is a real HTTP server over real bare Git repositories that
// answers what Major Vault uses of GitHub exactly as GitHub documents it, and nothing else. The
// product talks to it only through Octokit and `git`, as it would to GitHub Enterprise Server:
// REST at `<origin>/api/v3`, GraphQL at `<origin>/api/graphql`, the web (OAuth) at `<origin>/`,
// Git smart HTTP at `<origin>/<owner>/<repo>.git`.

/** A demo person of the stand-in: a GitHub user. */
export interface StandinPerson {
  login: string;
  /** The profile name; GitHub's `name` may be null, so may this. */
  name: string | null;
  /** The public profile e-mail, or null (GitHub then shows none; commits use the noreply address). */
  email: string | null;
  /** The password `git push` over HTTP accepts for this person (Basic auth), as a personal access token would be. */
  password: string;
}

/** A repository's starting content: one commit per entry, authored by `author` (a login). */
export interface StandinCommit {
  message: string;
  author: string;
  /** Path -> UTF-8 text; null deletes. */
  files: Record<string, string | null>;
}

/** What {@link GitHubStandin} is built from. */
export interface StandinOptions {
  /** Where the bare repositories and state live. */
  dataDir: string;
  /** Listening port (0: any free one) on 127.0.0.1. */
  port?: number;
  /** The GitHub App. `privateKey` (PKCS#1 or PKCS#8 PEM): absent, the stand-in makes one and exposes it in `app`. */
  app: { id: number; slug: string; clientId: string; clientSecret: string; webhookSecret: string; privateKey?: string };
  /** Where the App's webhooks are delivered (POST, signed); null: not delivered (still recorded). Settable later. */
  webhookUrl?: string | null;
  people: StandinPerson[];
  /**
   * The id of the first installation (default 40001), then counting up: tests that share a
   * Postgres server give each run its own, as installation databases are named by id.
   */
  firstInstallationId?: number;
}

/** A permission of a person on a repository, as GitHub's collaborator permissions. */
export type StandinPermission = 'pull' | 'triage' | 'push' | 'maintain' | 'admin';

/** One webhook delivery as sent. */
export interface StandinDelivery {
  id: string;
  event: string;
  action: string | null;
  payload: Record<string, unknown>;
  /** The HTTP status the receiver answered, or null when it could not be reached (or no URL). */
  status: number | null;
}

/** A running stand-in. */
export interface GitHubStandin {
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  /** `${origin}/api/v3`: REST base URL for Octokit's `baseUrl`. */
  apiUrl: string;
  /** `${origin}/api/graphql` */
  graphqlUrl: string;
  /** The App as configured, with its private key (PEM). */
  app: Required<StandinOptions['app']>;
  /**
   * Creates an organisation (or user account) `owner`'s repository with a default branch `main`
   * and the commits given (none: an empty repository). Private unless `private: false`. `from`:
   * the path of a Git repository whose `HEAD` history becomes the default branch first (commits
   * kept as they are: ids, authors, dates, messages), with `commits` on top. When the App is
   * installed on `owner` for all repositories, sends `installation_repositories.added`.
   */
  createRepo(
    owner: string,
    name: string,
    commits: StandinCommit[],
    options?: { private?: boolean; defaultBranch?: string; from?: string },
  ): Promise<void>;
  /**
   * The repository's Git smart-HTTP URL, `<origin>/<owner>/<name>.git`, as GitHub's clone URL;
   * with `as` (a demo person's login) it carries that person's login and password, so `git
   * clone` and later `git push` from the clone act as them. Throws for an unknown person.
   */
  cloneUrl(owner: string, name: string, as?: string): string;
  /** Installs the App on `owner` for all its repositories, or the names given; returns the installation id. Sends `installation.created`. */
  install(owner: string, repositories?: 'all' | string[]): Promise<number>;
  /** Adds or removes repositories of an installation with selected repositories (`installation_repositories`). */
  setInstallationRepos(installationId: number, add: string[], remove: string[]): Promise<void>;
  /** Suspends, unsuspends or deletes an installation (`installation` webhook). */
  setInstallationState(installationId: number, state: 'suspend' | 'unsuspend' | 'deleted'): Promise<void>;
  /** The owner accepts the App's changed permissions (`installation.new_permissions_accepted`). */
  acceptNewPermissions(installationId: number): Promise<void>;
  /** Gives `login` a permission on `owner/name` (null removes them): collaborators; org members read nothing by default. */
  grant(owner: string, name: string, login: string, permission: StandinPermission | null): void;
  /** A user-to-server token for `login` as the OAuth flow would give (expires in 8 hours), without the browser. */
  userToken(login: string): Promise<{ accessToken: string; refreshToken: string }>;
  /** Makes an installation (`ghs_`) or user (`ghu_`) token expire at `at` (ms since the epoch; default now), as if its lifetime were that (its refresh token stays usable). */
  expireToken(token: string, at?: number): void;
  /** Revokes every token of `login` for the App (`github_app_authorization.revoked`). */
  revokeAuthorization(login: string): Promise<void>;
  /** Commits as `author` and pushes through the stand-in's own Git smart HTTP (fires `push`). Returns the new head. */
  push(owner: string, name: string, commit: StandinCommit, options?: { branch?: string }): Promise<string>;
  /** Rewrites a branch to `commits` on top of `onto` (a commit id, or null for a new root), as `git push --force` would (fires `push` with `forced: true`). */
  forcePush(owner: string, name: string, onto: string | null, commits: StandinCommit[], options?: { branch?: string }): Promise<string>;
  /** The bare repository's folder, for assertions with `git`. */
  gitDir(owner: string, name: string): string;
  /** Every webhook delivery so far, oldest first. */
  deliveries(): StandinDelivery[];
  /** Resolves once every delivery queued so far was attempted (those queued by GraphQL, contents or `git push` requests included). */
  webhooksSettled(): Promise<void>;
  /** Sends a delivery again, same id and body (a replay). */
  redeliver(id: string): Promise<void>;
  setWebhookUrl(url: string | null): void;
  /**
   * Fault injection: the next `times` requests whose method and path (without the `/api/v3`
   * prefix) match answer `status` with GitHub's error body, or (status `'timeout'`) never answer
   * (the socket is held until `close()`). Other paths match as requested: `/api/graphql`,
   * `/login/oauth/access_token`, `/<owner>/<repo>.git/info/refs`, … The query string is not matched.
   */
  failNext(match: { method?: string; path: RegExp }, status: number | 'timeout', times?: number): void;
  close(): Promise<void>;
}
