// The hosted Changes adapter (DESIGN.md "Ports and adapters"; issue 11 "Webhooks"): GitHub's
// webhook deliveries turned into work. A push to a default branch fetches that repository's
// mirror, then says it moved: the indexer reads the new tree from the mirror, never the
// payload's lists, so a forced push or a push of more commits and files than GitHub lists is
// the same case. Installation changes reload the repository list and drop cached rights.
import type { Queue } from '../../jobs/queue.ts';
import { z } from 'zod';
import type { ChangeNotice, Changes } from '../changes.ts';

/**
 * What the GitHub App adapter does for the deliveries (GitHubRepoHost and GitHubSignIn provide
 * it; main/ wires it). Each may reject (GitHub unreachable): the failure is logged and the
 * next delivery, or the mirror's own fetch before a write, tries again.
 */
export interface WebhookTarget {
  /** Fetches `repo`'s mirror from GitHub (cloning it when there is none yet). */
  fetchMirror(repo: string): Promise<void>;
  /** Asks GitHub again which repositories the installation has. */
  reloadRepos(): Promise<void>;
  /** Drops the cached rights of the person `login`, or of everyone (null). */
  forgetRights(login: string | null): void;
}

/** What {@link GitHubWebhookChanges} is built from. */
export interface GitHubWebhookChangesOptions {
  /** The installation served: deliveries about another one are ignored. */
  installationId: number;
  target: WebhookTarget;
  /** Where pushes and installation changes are worked off; may be the installation's own queue (the job names differ). */
  queue: Queue;
  /** Told when a job failed (GitHub unreachable, a fetch refused); default: nothing. */
  onError?: (error: unknown, job: string) => void;
  /** Told when cached rights were dropped (e.g. so the front forgets the access it keeps too). */
  onRightsForgotten?: (login: string | null) => void;
  /**
   * Told of every installation of the App an `installation` or `installation_repositories`
   * delivery names, this one or another (created, deleted, suspended, …), with the account it
   * is on: main/ records it in the Store (`installations.seen`). A rejection goes to `onError`.
   */
  onInstallationSeen?: (installationId: number, account: string | null) => Promise<void>;
}

/** What this adapter takes in: one signed, not-yet-seen delivery (front/webhook/github-webhook.ts checked that). */
export interface GitHubDelivery {
  id: string;
  event: string;
  payload: unknown;
}

/** What becomes of a delivery (the front's DeliveryOutcome). */
export type GitHubDeliveryOutcome = { kind: 'accepted' } | { kind: 'ignored'; reason: string } | { kind: 'refused'; reason: string };

// The parts of GitHub's webhook payloads used here (GitHub Docs, "Webhook events and payloads").
const account = z.object({ login: z.string() });
const installationRef = z.object({ id: z.number().int() });
/** An installation as `installation` events carry it: its account (a user or organisation; an enterprise has a slug). */
const installationWithAccount = installationRef.extend({
  account: z.object({ login: z.string().optional(), slug: z.string().optional() }).nullish(),
});
const pushPayload = z.object({
  ref: z.string(),
  after: z.string(),
  deleted: z.boolean().optional(),
  forced: z.boolean().optional(),
  repository: z.object({ name: z.string(), default_branch: z.string().optional(), master_branch: z.string().optional() }),
  installation: installationRef.optional(),
});
const installationPayload = z.object({
  action: z.string(),
  installation: installationWithAccount,
});
const authorizationPayload = z.object({ action: z.string(), sender: account });

/** `installation` actions that change which repositories are served or what the App may do. */
const installationActions = new Set(['created', 'deleted', 'suspend', 'unsuspend', 'new_permissions_accepted']);
/** `installation_repositories` actions. */
const repositoryActions = new Set(['added', 'removed']);

const pushJob = 'github-push';
const relistJob = 'github-relist';
/** The one key of the relist job: the installation's list is one thing. */
const relistKey = 'installation';

/**
 * Changes from GitHub's webhooks. {@link receive} classifies a delivery at once and queues
 * its work; the work goes on after the answer:
 * - `push` to the repository's default branch: job `github-push` for the repository (fetch
 *   the mirror, then notice `moved`). A burst of pushes costs the run going on plus one,
 *   which fetches everything pushed before it. Other branches: ignored.
 * - `installation` (created, deleted, suspend, unsuspend, new_permissions_accepted) and
 *   `installation_repositories` (added, removed): job `github-relist` (reload the list, drop
 *   everyone's cached rights, notice `listed`).
 * - `installation` and `installation_repositories` of any installation: `onInstallationSeen`
 *   is told of it (accepted, even for another installation, when it is given).
 * - `github_app_authorization` revoked: the person's cached rights dropped at once.
 * - anything else, or another installation's deliveries: ignored.
 * Notices are handed on one at a time (the Changes contract). Before {@link start} (while
 * the installation indexes at startup) the fetches run and their notices wait: `start` hands
 * them on first, so a push during the startup is not missed. After {@link stop} none is sent.
 */
export class GitHubWebhookChanges implements Changes {
  private onNotice: ((notice: ChangeNotice) => Promise<void>) | null = null;
  /** The last notice handed on: the next waits for it. */
  private notices: Promise<void> = Promise.resolve();
  /** Notices that came before {@link start}, without repeats, for `start` to hand on. */
  private readonly early = new Map<string, ChangeNotice>();
  private stopped = false;

  private readonly options: GitHubWebhookChangesOptions;

  constructor(options: GitHubWebhookChangesOptions) {
    this.options = options;
    options.queue.work(pushJob, async (repo) => {
      await options.target.fetchMirror(repo);
      await this.notify({ kind: 'moved', repo });
    });
    options.queue.work(relistJob, async () => {
      // Rights first: whoever lost a repository must not read it while the list reloads.
      this.forgetRights(null);
      await options.target.reloadRepos();
      this.forgetRights(null);
      await this.notify({ kind: 'listed' });
    });
  }

  start(onNotice: (notice: ChangeNotice) => Promise<void>): void {
    if (this.onNotice !== null || this.stopped) throw new Error('The webhook changes are started already.');
    this.onNotice = onNotice;
    const early = [...this.early.values()];
    this.early.clear();
    for (const notice of early) void this.notify(notice);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.onNotice = null;
    await this.notices;
  }

  /** Takes one delivery in (see the class): queues its work and says at once what becomes of it. Never throws. */
  receive(delivery: GitHubDelivery): GitHubDeliveryOutcome {
    switch (delivery.event) {
      case 'push':
        return this.receivePush(delivery.payload);
      case 'installation':
      case 'installation_repositories':
        return this.receiveInstallation(delivery.event, delivery.payload);
      case 'github_app_authorization': {
        const parsed = authorizationPayload.safeParse(delivery.payload);
        if (!parsed.success) return refused('github_app_authorization', parsed.error);
        if (parsed.data.action !== 'revoked') return { kind: 'ignored', reason: `github_app_authorization ${parsed.data.action}` };
        this.forgetRights(parsed.data.sender.login);
        return { kind: 'accepted' };
      }
      default:
        return { kind: 'ignored', reason: `Major Vault does nothing on ${delivery.event} events.` };
    }
  }

  private receivePush(payload: unknown): GitHubDeliveryOutcome {
    const parsed = pushPayload.safeParse(payload);
    if (!parsed.success) return refused('push', parsed.error);
    const push = parsed.data;
    if (push.installation !== undefined && push.installation.id !== this.options.installationId) {
      return { kind: 'ignored', reason: `a push for installation ${push.installation.id}, not this one` };
    }
    const defaultBranch = push.repository.default_branch ?? push.repository.master_branch;
    if (defaultBranch === undefined) return { kind: 'refused', reason: 'The push payload names no default branch of its repository.' };
    if (push.ref !== `refs/heads/${defaultBranch}`) {
      return { kind: 'ignored', reason: `a push to ${push.ref}, not the default branch ${defaultBranch}` };
    }
    this.queue(pushJob, push.repository.name);
    return { kind: 'accepted' };
  }

  private receiveInstallation(event: string, payload: unknown): GitHubDeliveryOutcome {
    const parsed = installationPayload.safeParse(payload);
    if (!parsed.success) return refused(event, parsed.error);
    const { action, installation } = parsed.data;
    const seen = this.options.onInstallationSeen;
    if (seen) {
      const account = installation.account?.login ?? installation.account?.slug ?? null;
      seen(installation.id, account).catch((error: unknown) => this.options.onError?.(error, `installation-seen ${installation.id}`));
    }
    if (installation.id !== this.options.installationId) {
      if (seen) return { kind: 'accepted' };
      return { kind: 'ignored', reason: `${event} for installation ${installation.id}, not this one` };
    }
    const known = event === 'installation' ? installationActions : repositoryActions;
    if (!known.has(action)) return { kind: 'ignored', reason: `${event} ${action}` };
    this.queue(relistJob, relistKey);
    return { kind: 'accepted' };
  }

  /** Sends a job without waiting for it; a failure goes to `onError`. */
  private queue(job: string, key: string): void {
    this.options.queue.send(job, key).catch((error: unknown) => this.options.onError?.(error, `${job} ${key}`));
  }

  private forgetRights(login: string | null): void {
    this.options.target.forgetRights(login);
    this.options.onRightsForgotten?.(login);
  }

  /** Hands `notice` on after the ones before it (no-op when not started); resolves when it was handled. */
  private notify(notice: ChangeNotice): Promise<void> {
    const onNotice = this.onNotice;
    if (onNotice === null) {
      if (!this.stopped) this.early.set(notice.kind === 'listed' ? '' : `moved ${notice.repo ?? ''}`, notice);
      return Promise.resolve();
    }
    const handled = this.notices.then(() => (this.onNotice === null ? undefined : onNotice(notice).catch(() => undefined)));
    this.notices = handled;
    return handled;
  }
}

function refused(event: string, error: z.ZodError): GitHubDeliveryOutcome {
  const where = error.issues[0]?.path.join('.') || 'the body';
  return { kind: 'refused', reason: `The ${event} payload is not as GitHub sends it: ${where} is missing or of the wrong type.` };
}
