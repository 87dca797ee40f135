// The hosted jobs (issue 13; DESIGN.md "The parts": jobs): what the front (webhooks), the
// operator's command and the worker send one another through a Postgres-backed queue
// (pg-boss). The worker (main/worker.ts) runs them; every run is idempotent, so a job that is
// retried, or run twice, converges to the same index and catalogue.

/**
 * One job and its data. By name:
 * - `index-repo`: fetch `repo`'s mirror from GitHub and bring the installation's index up to
 *   its default branch (bursts coalesce: one run at a time per repository, the next picks up
 *   everything pushed meanwhile);
 * - `refresh-installation`: ask GitHub again which repositories the installation has, index
 *   the new ones, drop the removed ones, and build the catalogue;
 * - `build-catalogue`: read every repository's `.vault/` and write the installation's
 *   catalogue source and answers (after a push that touched `.vault/`);
 * - `drop-installation`: the App was uninstalled: drop the installation's database and
 *   everything the store keeps for it.
 */
export type HostedJob =
  | { name: 'index-repo'; installationId: number; repo: string }
  | { name: 'refresh-installation'; installationId: number }
  | { name: 'build-catalogue'; installationId: number }
  | { name: 'drop-installation'; installationId: number };

/** The names of {@link HostedJob}. */
export type HostedJobName = HostedJob['name'];

/** Where jobs are sent (the front, the operator's command); the worker takes them from the same queue. */
export interface JobSender {
  /** Queues `job`; resolves once the queue holds it (or an equal job already waiting, which it joins). */
  send(job: HostedJob): Promise<void>;
}
