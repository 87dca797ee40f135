// Where the hosted jobs' queue is (issue 13, "Databases": the queue's own schema, on the front's
// database unless told otherwise), read here from the options and the environment, and the
// sender every process that sends jobs opens (the front, the operator's command).
import { defaultQueueSchema, PgBossJobs } from '../jobs/pg-boss-jobs.ts';
import { queueDatabaseVariable } from './names.ts';

/** Where the queue is: a database URL and the schema in it. */
export interface QueuePlace {
  databaseUrl: string;
  schema: string;
}

/**
 * The queue's place: `options.queueDatabaseUrl`, else {@link queueDatabaseVariable}, else
 * `databaseUrl` (the front's database); schema `options.queueSchema`, else `major_vault_queue`.
 */
export function queuePlace(
  databaseUrl: string,
  options: { queueDatabaseUrl?: string; queueSchema?: string; env?: NodeJS.ProcessEnv } = {},
): QueuePlace {
  const env = options.env ?? process.env;
  return {
    databaseUrl: options.queueDatabaseUrl || env[queueDatabaseVariable] || databaseUrl,
    schema: options.queueSchema ?? defaultQueueSchema,
  };
}

/**
 * Opens the queue at `place` to send jobs only (a pool of two connections, no supervision).
 * Close it when done. Throws when the queue's database cannot be reached.
 */
export function openJobSender(place: QueuePlace, options: { onError?: (error: Error) => void } = {}): Promise<PgBossJobs> {
  return PgBossJobs.open({
    database: { databaseUrl: place.databaseUrl, maxConnections: 2 },
    schema: place.schema,
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
