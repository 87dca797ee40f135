// A JobSender for a front with no job queue wired in yet: the pg-boss adapter
// (jobs/pg-boss-jobs.ts, with `--queue-database-url` / MAJOR_VAULT_QUEUE_DATABASE_URL) replaces
// it in cli/main.ts. Until then a webhook's job is logged, loudly, and not run.
import type { Logger } from '../instance/log.ts';
import type { JobSender } from '../jobs/hosted-jobs.ts';

/** Logs each job at error (`job_not_queued`) and drops it: nothing indexes a push until a queue is wired in. */
export function unwiredJobSender(log: Logger): JobSender {
  return {
    send: async (job) => {
      log.error({ event: 'job_not_queued', job }, `no job queue is wired into this front: ${job.name} was not queued`);
    },
  };
}
