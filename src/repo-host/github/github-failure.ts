// What a failed GitHub request means to the caller: one clear error per kind of failure.
import { VaultError } from '../../vault-error.ts';

/**
 * A request to GitHub that failed for a reason the caller cannot fix by changing the request
 * (GitHub down or slow, a rate limit, an answer it did not expect): `status` is GitHub's HTTP
 * status (undefined for a timeout or an unreachable host). Logged with its cause; the message
 * says what was being done and that trying again later may help.
 */
export class GitHubUnavailable extends VaultError {
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined, options?: { cause?: unknown }) {
    // A refusal the caller reads (VaultError `host_unavailable`), not an internal error: the message says what failed and that nothing was written.
    super('host_unavailable', message, status === undefined ? {} : { status }, options);
    this.status = status;
    this.name = 'GitHubUnavailable';
  }
}

/**
 * The error to throw for `error`, a failed Octokit request made to `action` (a phrase: "list
 * the installation's repositories"): 401 → VaultError `unauthorized` (the credential is no
 * longer accepted: sign in again); 403 → `forbidden` (GitHub refused the operation to this
 * credential), except a rate limit (403/429 with no requests left), which is
 * {@link GitHubUnavailable}; 404 → `repo_not_found`-like refusals are the caller's to make, so
 * here a plain GitHubUnavailable naming the 404; 409, 422 and other 4xx → GitHubUnavailable
 * with GitHub's message; 5xx, timeouts and network failures → GitHubUnavailable. Never
 * includes a token (Octokit's error messages hold GitHub's message, not the request headers).
 */
export function githubFailure(error: unknown, action: string): Error {
  if (error instanceof VaultError || error instanceof GitHubUnavailable) return error;
  const status = statusOf(error);
  const said = githubMessage(error);
  if (timedOut(error))
    return new GitHubUnavailable(`Could not ${action}: GitHub did not answer in time. Try again in a minute.`, undefined, { cause: error });
  if (status === undefined || (status === 500 && !said))
    return new GitHubUnavailable(
      `Could not ${action}: GitHub could not be reached (${said || describe(error)}). Try again in a minute.`,
      status,
      { cause: error },
    );
  if (status === 401)
    return new VaultError(
      'unauthorized',
      `Could not ${action}: GitHub no longer accepts this sign-in (${said || 'bad credentials'}). Sign in again.`,
      { status },
      { cause: error },
    );
  if ((status === 403 || status === 429) && rateLimited(error))
    return new GitHubUnavailable(`Could not ${action}: GitHub's rate limit is reached. Try again in a few minutes.`, status, {
      cause: error,
    });
  if (status === 403)
    return new VaultError(
      'forbidden',
      `Could not ${action}: GitHub refused it (${said || 'forbidden'}). Ask an admin of the repository for the access needed.`,
      { status },
      { cause: error },
    );
  if (status >= 500)
    return new GitHubUnavailable(
      `Could not ${action}: GitHub answered with an error (HTTP ${status}${said ? `: ${said}` : ''}). Try again in a minute.`,
      status,
      { cause: error },
    );
  return new GitHubUnavailable(`Could not ${action}: GitHub answered HTTP ${status}${said ? ` (${said})` : ''}.`, status, { cause: error });
}

/** The HTTP status of an Octokit RequestError (or anything with a numeric `status`). */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Whether the request gave up on time (our fetch's GitHubTimeout, wrapped by Octokit as a RequestError's cause, or an abort). */
function timedOut(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    if (at.name === 'GitHubTimeout' || at.name === 'TimeoutError' || at.name === 'AbortError') return true;
  }
  return false;
}

function rateLimited(error: unknown): boolean {
  const headers = (error as { response?: { headers?: Record<string, string | undefined> } } | null)?.response?.headers;
  return headers?.['x-ratelimit-remaining'] === '0' || headers?.['retry-after'] !== undefined;
}

/** GitHub's own `message` from the error's response body, or ''. */
function githubMessage(error: unknown): string {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  if (typeof data === 'object' && data !== null && typeof (data as { message?: unknown }).message === 'string')
    return (data as { message: string }).message.slice(0, 300);
  return '';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}
