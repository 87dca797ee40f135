// The GitHub App's Setup URL (GitHub Docs, "About the setup URL"): where GitHub sends the admin
// who installed the App, with `installation_id` and `setup_action` in the query. The id comes
// from a URL anyone can write, so it is recorded only once GitHub confirms the installation;
// the answer is the install status page (spec: "Wait until we switch it on").
import type { Logger } from 'pino';
import type { InstallationRecord, Installations } from '../store/store.ts';
import { installStatusPage, type InstallStatus } from './pages/install-status-page.ts';
import { htmlResponse } from './pages/page-layout.ts';

/** Where the App's Setup URL points: `<public url>/github/setup`. */
export const githubSetupPath = '/github/setup';

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
}

/**
 * `GET /github/setup?installation_id=<id>&setup_action=install|update`: confirms the
 * installation with GitHub, records it as seen, and answers the install status page:
 * - `on` (200) with its address, `<origin>/<name>` on the origin the request came to;
 * - `pending` (200) while the operator has not switched it on, or switched it off again;
 * - `unknown`: no usable `installation_id` (400; `setup_action=request`, an install an
 *   organisation member only asked for, has none), or GitHub has no such installation (404).
 * When GitHub cannot be asked, the Store's record answers unconfirmed (nothing recorded), and
 * an installation it does not know is `unknown` with 503 and `Retry-After`.
 * Other methods: 405.
 */
export function githubSetupRoute(options: GitHubSetupRouteOptions): PageRoute {
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
    let confirmed: { account: string | null } | null;
    try {
      confirmed = await options.confirm(installationId);
    } catch (error) {
      options.log?.warn({ event: 'setup_unconfirmed', installationId, err: error }, 'GitHub could not confirm an installation');
      const known = await options.installations.get(installationId);
      if (known === null) return page({ state: 'unknown', installationId }, 503, { 'retry-after': '30' });
      return page(statusOf(known, url), 200);
    }
    if (confirmed === null) return page({ state: 'unknown', installationId }, 404);
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
