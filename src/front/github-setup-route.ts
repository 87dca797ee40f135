// The GitHub App's Setup URL (GitHub Docs, "About the setup URL"): where GitHub sends the admin
// who installed the App, with `installation_id` and `setup_action` in the query. The id comes
// from a URL anyone can write, so it is recorded only once GitHub confirms the installation;
// the answer is the install status page (spec: "Wait until we switch it on").
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { InstallationRecord, Installations } from '../store/store.ts';
import { errorPage } from './pages/error-page.ts';
import { installStatusPage, type InstallStatus } from './pages/install-status-page.ts';
import { htmlResponse } from './pages/page-layout.ts';
import { githubSetupPath } from './front-paths.ts';

/** Where the App's Setup URL points: `<public url>/github/setup`. */
export { githubSetupPath } from './front-paths.ts';

/** A page route of the front: its path and the handler of every request to it (after the front's `Host` check). */
export interface PageRoute {
  path: string;
  handle(request: Request): Promise<Response>;
}

/** What {@link githubSetupRoute} needs. */
export interface GitHubSetupRouteOptions {
  /** The Store's installations: a confirmed installation is recorded there (`seen`), its status read. */
  installations: Installations;
  /**
   * GitHub's word on an installation of the App (`GET /app/installations/{id}`, as the App): the
   * account it is on, or null when GitHub has no such installation. Throws when GitHub cannot be asked.
   */
  confirm(installationId: number): Promise<{ account: string | null } | null>;
  log?: Logger;
  /** Lookups of ids the Store does not know allowed per minute, over all requests (default 10); beyond: 429. */
  unknownLookupsPerMinute?: number;
}

/** How long GitHub's "no such installation" is believed, in ms: 10 minutes. */
const notInstalledTtlMs = 10 * 60_000;
/** How many such answers are kept (least recently used dropped first). */
const notInstalledKept = 10_000;

/**
 * `GET /github/setup?installation_id=<id>&setup_action=install|update`: confirms the
 * installation with GitHub, records it as seen, and answers the install status page:
 * - `on` (200) with its address, `<origin>/<name>` on the origin the request came to;
 * - `pending` (200) while the operator has not switched it on, or switched it off again;
 * - `unknown`: no usable `installation_id` (400; `setup_action=request`, an install an
 *   organisation member only asked for, has none), or GitHub has no such installation (404).
 * When GitHub cannot be asked, the Store's record answers unconfirmed (nothing recorded), and
 * an installation it does not know is `unknown` with 503 and `Retry-After`.
 * The id is anyone's to write and each lookup spends the App's API budget, so for ids the
 * Store does not know: GitHub's "no such installation" is kept for 10 minutes (bounded LRU) and
 * answered without asking again, and at most `unknownLookupsPerMinute` lookups a minute go to
 * GitHub; beyond that 429 with `Retry-After` (seconds) and a page saying to try again shortly.
 * Ids the Store knows (recorded by a webhook or an earlier setup) are always asked.
 * Other methods: 405.
 */
export function githubSetupRoute(options: GitHubSetupRouteOptions): PageRoute {
  const notInstalled = new LRUCache<number, true>({ max: notInstalledKept, ttl: notInstalledTtlMs });
  const perMinute = options.unknownLookupsPerMinute ?? 10;
  /** When the recent lookups of unknown ids went to GitHub (ms since the epoch), oldest first. */
  const lookups: number[] = [];

  async function handle(request: Request): Promise<Response> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('The setup page is read with GET.\n', { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    const url = new URL(request.url);
    const raw = url.searchParams.get('installation_id');
    const installationId = raw !== null && /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : null;
    if (installationId === null || !Number.isSafeInteger(installationId)) {
      return page({ state: 'unknown', installationId: null }, 400);
    }
    const known = await options.installations.get(installationId);
    if (known === null) {
      if (notInstalled.has(installationId)) return page({ state: 'unknown', installationId }, 404);
      const now = Date.now();
      while (lookups.length > 0 && lookups[0]! <= now - 60_000) lookups.shift();
      if (lookups.length >= perMinute) {
        const retryAfter = Math.max(1, Math.ceil((lookups[0]! + 60_000 - now) / 1000));
        options.log?.warn({ event: 'setup_lookups_limited', installationId }, 'too many setup lookups of unknown installations');
        return htmlResponse(
          errorPage({
            title: 'Too many look-ups just now',
            message: 'This page asks GitHub about each new installation, and it has asked about many in the last minute.',
            hint: `Try again in ${retryAfter} seconds: reload this page.`,
          }),
          { status: 429, headers: { 'retry-after': String(retryAfter) } },
        );
      }
      lookups.push(now);
    }
    let confirmed: { account: string | null } | null;
    try {
      confirmed = await options.confirm(installationId);
    } catch (error) {
      options.log?.warn({ event: 'setup_unconfirmed', installationId, err: error }, 'GitHub could not confirm an installation');
      if (known === null) return page({ state: 'unknown', installationId }, 503, { 'retry-after': '30' });
      return page(statusOf(known, url), 200);
    }
    if (confirmed === null) {
      notInstalled.set(installationId, true);
      return page({ state: 'unknown', installationId }, 404);
    }
    notInstalled.delete(installationId);
    const record = await options.installations.seen(installationId, confirmed.account);
    return page(statusOf(record, url), 200);
  }
  return { path: githubSetupPath, handle };
}

/** The page's status for a recorded installation: on with its address, else pending (off shows as pending: not served). */
function statusOf(record: InstallationRecord, url: URL): InstallStatus {
  if (record.status === 'on' && record.name !== null) {
    return { state: 'on', installationId: record.id, name: record.name, address: new URL(`/${record.name}`, url.origin).href };
  }
  return { state: 'pending', installationId: record.id, account: record.account };
}

function page(status: InstallStatus, code: number, headers: Record<string, string> = {}): Response {
  return htmlResponse(installStatusPage(status), { status: code, headers });
}
