// `runWorker` in a child process, for the tests that kill a worker mid-job (src/main/worker.test.ts):
// the settings come as JSON in the first argument; logs go to standard error at debug (one JSON
// line per event, `job_started` among them); `READY` on standard output once it takes jobs.
// Usage: node bin/run-ts.js test/support/worker-child.ts '<WorkerSettings as JSON>'
import { createLogger } from '../../src/instance/log.ts';
import { runWorker, type WorkerSettings } from '../../src/main/worker.ts';

const settings = JSON.parse(process.argv[2]!) as WorkerSettings;
await runWorker(settings, { log: createLogger({ level: 'debug' }) });
process.stdout.write('READY\n');
