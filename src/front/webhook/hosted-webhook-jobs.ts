// The hosted front's webhook receiver (issue 13, "The front": webhooks become jobs): each of
// GitHub's deliveries, for any installation of the App, is turned into jobs on the queue
// (jobs/hosted-jobs.ts), records of installations GitHub told of, and rights to forget. The
// work itself runs in the worker; the front only classifies and queues.
import { z } from 'zod';
import type { Logger } from 'pino';
import type { HostedJob, JobSender } from '../../jobs/hosted-jobs.ts';
import type { InstallationStatus } from '../../store/store.ts';
import type { DeliveryOutcome, DeliveryReceiver, WebhookDelivery } from './github-webhook.ts';

/** Cached rights to drop: of one installation (or, null, of every one), of one person by GitHub login (or, null, of everyone). */
export interface ForgetRights {
  installationId: number | null;
  login: string | null;
}

/** What one delivery asks for, decided from its payload alone ({@link webhookWork}). */
export interface WebhookWork {
  outcome: DeliveryOutcome;
  /** Jobs to queue; those of installations not switched on are dropped by the receiver, except `drop-installation`. */
  jobs: HostedJob[];
  /** Installations the delivery names, with the account they are on: recorded in the Store (`seen`). */
  seen: Array<{ installationId: number; account: string | null }>;
  forget: ForgetRights[];
}

// The parts of GitHub's payloads used here (GitHub Docs, "Webhook events and payloads").
const installationRef = z.object({ id: z.number().int().positive() });
const installationWithAccount = installationRef.extend({
  account: z.object({ login: z.string().optional(), slug: z.string().optional() }).nullish(),
});
const commitFiles = z.object({
  added: z.array(z.string()).optional(),
  removed: z.array(z.string()).optional(),
  modified: z.array(z.string()).optional(),
});
const pushPayload = z.object({
  ref: z.string(),
  created: z.boolean().optional(),
  deleted: z.boolean().optional(),
  forced: z.boolean().optional(),
  commits: z.array(commitFiles).optional(),
  repository: z.object({ name: z.string(), default_branch: z.string().optional(), master_branch: z.string().optional() }),
  installation: installationRef.optional(),
});
const installationPayload = z.object({ action: z.string(), installation: installationWithAccount });
const withInstallation = z.object({ action: z.string().optional(), installation: installationRef });
const authorizationPayload = z.object({ action: z.string(), sender: z.object({ login: z.string() }) });

/** What GitHub lists at most in a push payload (GitHub Docs, push): past these, the lists may be cut. */
const listedCommitsMax = 2048;
const listedFilesMax = 3000;

/** `installation` actions after which the installation's repositories are listed again (and indexed, and the catalogue built). */
const refreshActions = new Set(['created', 'unsuspend', 'new_permissions_accepted']);
/** Events that change who may read what inside an installation, without changing its repositories. */
const membershipEvents = new Set(['member', 'membership', 'organization', 'team', 'team_add']);
/** `repository` actions that change a repository's name or presence: its installation is listed again. */
const repositoryListActions = new Set(['created', 'deleted', 'renamed', 'transferred', 'archived', 'unarchived']);

/**
 * What a delivery asks for (issue 13 design, "Front"):
 * - `push` to the repository's default branch: `index-repo`, and `build-catalogue` when a
 *   commit touches `.vault/` or the payload cannot tell (a forced push, a created or deleted
 *   branch, lists missing or as long as GitHub cuts them); other branches: ignored;
 * - `installation` created, unsuspend, new_permissions_accepted: `refresh-installation`;
 *   deleted: `drop-installation`; suspend: everyone's rights there forgotten; each recorded as seen;
 * - `installation_repositories` (added, removed): `refresh-installation`, rights forgotten, recorded as seen;
 * - `repository` created, deleted, renamed, transferred, (un)archived: `refresh-installation`, rights forgotten;
 * - membership (`member`, `membership`, `organization`, `team`, `team_add`): the installation's rights forgotten;
 * - `github_app_authorization` revoked: the person's rights forgotten everywhere;
 * - anything else: ignored. A known event whose payload lacks what it needs: refused (400).
 */
export function webhookWork(delivery: WebhookDelivery): WebhookWork {
  const none: Omit<WebhookWork, 'outcome'> = { jobs: [], seen: [], forget: [] };
  switch (delivery.event) {
    case 'push': {
      const parsed = pushPayload.safeParse(delivery.payload);
      if (!parsed.success) return { ...none, outcome: refused('push', parsed.error) };
      const push = parsed.data;
      if (push.installation === undefined) return { ...none, outcome: { kind: 'ignored', reason: 'a push that names no installation' } };
      const defaultBranch = push.repository.default_branch ?? push.repository.master_branch;
      if (defaultBranch === undefined)
        return { ...none, outcome: { kind: 'refused', reason: 'The push payload names no default branch of its repository.' } };
      if (push.ref !== `refs/heads/${defaultBranch}`)
        return { ...none, outcome: { kind: 'ignored', reason: `a push to ${push.ref}, not the default branch ${defaultBranch}` } };
      const installationId = push.installation.id;
      const jobs: HostedJob[] = [{ name: 'index-repo', installationId, repo: push.repository.name }];
      if (mayTouchVault(push)) jobs.push({ name: 'build-catalogue', installationId });
      return { ...none, jobs, outcome: { kind: 'accepted' } };
    }
    case 'installation':
    case 'installation_repositories': {
      const parsed = installationPayload.safeParse(delivery.payload);
      if (!parsed.success) return { ...none, outcome: refused(delivery.event, parsed.error) };
      const { action, installation } = parsed.data;
      const installationId = installation.id;
      const seen = [{ installationId, account: installation.account?.login ?? installation.account?.slug ?? null }];
      const everyone: ForgetRights = { installationId, login: null };
      if (delivery.event === 'installation_repositories') {
        if (action !== 'added' && action !== 'removed') return { ...none, seen, outcome: { kind: 'accepted' } };
        return { jobs: [{ name: 'refresh-installation', installationId }], seen, forget: [everyone], outcome: { kind: 'accepted' } };
      }
      if (action === 'deleted')
        return { jobs: [{ name: 'drop-installation', installationId }], seen, forget: [everyone], outcome: { kind: 'accepted' } };
      if (action === 'suspend') return { jobs: [], seen, forget: [everyone], outcome: { kind: 'accepted' } };
      if (refreshActions.has(action))
        return { jobs: [{ name: 'refresh-installation', installationId }], seen, forget: [everyone], outcome: { kind: 'accepted' } };
      return { ...none, seen, outcome: { kind: 'accepted' } };
    }
    case 'repository': {
      const parsed = withInstallation.safeParse(delivery.payload);
      if (!parsed.success) return { ...none, outcome: { kind: 'ignored', reason: 'a repository event that names no installation' } };
      const { action, installation } = parsed.data;
      if (action === undefined || !repositoryListActions.has(action))
        return { ...none, outcome: { kind: 'ignored', reason: `repository ${action ?? ''}`.trim() } };
      return {
        jobs: [{ name: 'refresh-installation', installationId: installation.id }],
        seen: [],
        forget: [{ installationId: installation.id, login: null }],
        outcome: { kind: 'accepted' },
      };
    }
    case 'github_app_authorization': {
      const parsed = authorizationPayload.safeParse(delivery.payload);
      if (!parsed.success) return { ...none, outcome: refused('github_app_authorization', parsed.error) };
      if (parsed.data.action !== 'revoked')
        return { ...none, outcome: { kind: 'ignored', reason: `github_app_authorization ${parsed.data.action}` } };
      return { ...none, forget: [{ installationId: null, login: parsed.data.sender.login }], outcome: { kind: 'accepted' } };
    }
    default: {
      if (!membershipEvents.has(delivery.event))
        return { ...none, outcome: { kind: 'ignored', reason: `Major Vault does nothing on ${delivery.event} events.` } };
      const parsed = withInstallation.safeParse(delivery.payload);
      if (!parsed.success) return { ...none, outcome: { kind: 'ignored', reason: `a ${delivery.event} event that names no installation` } };
      return { ...none, forget: [{ installationId: parsed.data.installation.id, login: null }], outcome: { kind: 'accepted' } };
    }
  }
}

/** Whether a push to the default branch may have changed `.vault/`: a listed file under it, or lists that cannot tell. */
function mayTouchVault(push: z.infer<typeof pushPayload>): boolean {
  if (push.forced || push.created || push.deleted) return true;
  const commits = push.commits;
  if (commits === undefined || commits.length === 0 || commits.length >= listedCommitsMax) return true;
  for (const commit of commits) {
    const lists = [commit.added, commit.removed, commit.modified];
    if (lists.some((list) => list === undefined)) return true;
    const paths = lists.flatMap((list) => list!);
    if (paths.length >= listedFilesMax) return true;
    if (paths.some((path) => path === '.vault' || path.startsWith('.vault/'))) return true;
  }
  return false;
}

function refused(event: string, error: z.ZodError): DeliveryOutcome {
  const where = error.issues[0]?.path.join('.') || 'the body';
  return { kind: 'refused', reason: `The ${event} payload is not as GitHub sends it: ${where} is missing or of the wrong type.` };
}

/** What {@link hostedWebhookReceiver} works with, wired in main/. */
export interface HostedWebhookReceiverOptions {
  jobs: JobSender;
  /** The Store's installations: where one stands, and the record of one GitHub told of. */
  installations: {
    get(id: number): Promise<{ status: InstallationStatus } | null>;
    seen(id: number, account: string | null): Promise<unknown>;
  };
  /** Drops cached rights (the front's and the per-installation sign-in's). */
  forgetRights(what: ForgetRights): void;
  log: Logger;
}

/**
 * The receiver of the front's `/webhooks/github` (github-webhook.ts): {@link webhookWork}, then
 * the installations recorded as seen, the rights forgotten and the jobs queued, before the
 * answer, so a delivery answered 202 is on the queue (a failure throws: 500, and GitHub's
 * redelivery tries again). Jobs of an installation that is not switched on are dropped (it
 * has no database yet), except `drop-installation`.
 */
export function hostedWebhookReceiver(options: HostedWebhookReceiverOptions): DeliveryReceiver {
  return async (delivery) => {
    const work = webhookWork(delivery);
    for (const { installationId, account } of work.seen) await options.installations.seen(installationId, account);
    for (const forget of work.forget) options.forgetRights(forget);
    const statuses = new Map<number, InstallationStatus | null>();
    let queued = 0;
    for (const job of work.jobs) {
      if (job.name !== 'drop-installation') {
        if (!statuses.has(job.installationId))
          statuses.set(job.installationId, (await options.installations.get(job.installationId))?.status ?? null);
        if (statuses.get(job.installationId) !== 'on') continue;
      }
      await options.jobs.send(job);
      queued += 1;
    }
    if (work.outcome.kind === 'accepted' && work.jobs.length > 0 && queued === 0) {
      const id = work.jobs[0]!.installationId;
      if (work.seen.length === 0 && work.forget.length === 0)
        return { kind: 'ignored', reason: `installation ${id} is not switched on here` };
    }
    options.log.debug(
      { event: 'webhook_jobs', delivery: delivery.id, jobs: work.jobs.map((job) => job.name), queued },
      'webhook work queued',
    );
    return work.outcome;
  };
}
