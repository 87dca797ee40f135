// A worker of the hosted queue in a child process, for the tests that kill one mid-job
// (src/jobs/pg-boss-jobs.test.ts): works on `index-repo` in SCHEMA and prints `STARTED <repo>`
// when a run starts, then holds that run until the process is killed.
// Usage: node bin/run-ts.js test/support/queue-worker-child.ts DATABASE_URL SCHEMA
import { PgBossJobs } from '../../src/jobs/pg-boss-jobs.ts';

const [databaseUrl, schema] = process.argv.slice(2) as [string, string];
const jobs = await PgBossJobs.open({
  database: { databaseUrl },
  schema,
  // No supervision here: the parent's worker is the one that finds the abandoned run.
  timing: { pollingIntervalSeconds: 0.5, heartbeatSeconds: null, expireInSeconds: 2 },
});
await jobs.work('index-repo', 1, async (job) => {
  process.stdout.write(`STARTED ${job.repo}\n`);
  await new Promise(() => undefined);
});
process.stdout.write('READY\n');
