// The metrics of one process in Prometheus's text format, through prom-client (issue 13,
// "Operating it"): MCP calls, their latency and errors, the job queue, the index's lag behind
// pushes and the instances' wakes, beside Node's own process metrics. The README's
// "Deployment" section lists every name; a test pins that list.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from 'pino';

/**
 * How an MCP request ended, as the `outcome` label says:
 * - `ok`: answered with a result (a notification accepted);
 * - `refused`: a tool error (`isError: true`): the tool refused the call and said how to succeed;
 * - `rpc_error`: a JSON-RPC error answer other than an internal one (an unknown method, bad parameters);
 * - `unauthorized`: `401` or `403` (no token, a token for another address, a refused origin);
 * - `cancelled`: the client went away before the answer ended;
 * - `error`: our failure: see {@link McpErrorReason}; these are also counted in `major_vault_mcp_errors_total`.
 */
export type McpOutcome = 'ok' | 'refused' | 'rpc_error' | 'unauthorized' | 'cancelled' | 'error';

/**
 * Why an MCP request counts as an error (`reason` label): `http_5xx` (a 5xx answer, such as
 * 503 when GitHub cannot say who a token is), `rpc_internal` (a JSON-RPC internal error,
 * -32603), `tool_failed` (a tool failed unexpectedly and was answered generically: the
 * `call_failed` log line), `exception` (the handler threw), `stream_failed` (the answer's
 * stream broke off).
 */
export type McpErrorReason = 'http_5xx' | 'rpc_internal' | 'tool_failed' | 'exception' | 'stream_failed';

/** One measured MCP request. */
export interface McpRequestRecord {
  /** The installation's name (the address `/<name>`). */
  installation: string;
  /** The JSON-RPC method (`tools/call`, `tools/list`, `initialize`, …), `batch` for a batch, `other` for a method MCP does not name. */
  method: string;
  /** The tool of a `tools/call` (`other` for a name the registry does not have), else the empty string. */
  tool: string;
  outcome: McpOutcome;
  /** From the request's arrival to the end of its answer (the last byte of a stream), in seconds. */
  seconds: number;
  /** Why, when `outcome` is `error`. */
  errorReason?: McpErrorReason;
}

/** One queue's state at a scrape, as the worker reads it from the queue. */
export interface QueueStats {
  /** The queue's (job's) name, e.g. `index-repo`. */
  queue: string;
  /** Jobs waiting to run (created or retrying, not active). */
  depth: number;
  /** How long the oldest waiting job has waited, in seconds; 0 when none waits. */
  oldestAgeSeconds: number;
}

/** Reads every queue's {@link QueueStats}; called at most once per scrape. */
export type QueueStatsSource = () => Promise<readonly QueueStats[]>;

/** The names of every metric {@link createMetrics} registers besides Node's default ones (`process_*`, `nodejs_*`). */
export const metricNames = [
  'major_vault_mcp_requests_total',
  'major_vault_mcp_request_duration_seconds',
  'major_vault_mcp_errors_total',
  'major_vault_job_queue_depth',
  'major_vault_job_queue_oldest_age_seconds',
  'major_vault_jobs_total',
  'major_vault_job_duration_seconds',
  'major_vault_index_lag_seconds',
  'major_vault_push_to_index_seconds',
  'major_vault_instance_wakes_total',
  'major_vault_instance_cold_start_seconds',
] as const;

/** A process's metrics: its registry, the functions that record, and the text a scrape gets. */
export interface Metrics {
  /** The process's own prom-client registry (never prom-client's global one), for metrics of its own. */
  readonly registry: Registry;
  /** Counts one MCP request and observes its latency (with-operations.ts calls it for every MCP POST). */
  recordMcpRequest(record: McpRequestRecord): void;
  /**
   * The index of `repo` now holds a push that arrived `seconds` ago (the webhook's arrival to
   * the end of the index run that holds it): sets `major_vault_index_lag_seconds` for the
   * repository and observes `major_vault_push_to_index_seconds`. A negative value (clocks of
   * two machines) counts as 0.
   */
  recordIndexLag(installation: string, repo: string, seconds: number): void;
  /** Drops the per-repository series of an installation that was uninstalled or switched off. */
  forgetInstallation(installation: string): void;
  /** An installation's instance woke (was started because a call came): counts it, and its cold start (the request to wake, to answering), in seconds. */
  recordInstanceWake(installation: string, coldStartSeconds: number): void;
  /** A job of `queue` ran to its end, `completed` or `failed` (a failure is retried by the queue), in `seconds`. */
  recordJob(queue: string, outcome: 'completed' | 'failed', seconds: number): void;
  /** Reads the queues' depth and oldest age from `source` at every scrape (the worker gives it once). */
  observeQueues(source: QueueStatsSource): void;
  /** The scrape's answer: Prometheus's text exposition format 0.0.4 and its content type. */
  exposition(): Promise<{ contentType: string; body: string }>;
}

/** Latency buckets for MCP requests, in seconds: from the front's stored `tools/list` (~ms) to a long tool call. */
const mcpBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Buckets for push-to-index and cold starts, in seconds (the goal: searchable within 2 s of a push). */
const slowBuckets = [0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];
/** Buckets for a job's run, in seconds. */
const jobBuckets = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900];

/**
 * A process's metrics in a registry of its own, every series labelled `component` (`front`,
 * `instance`, `worker`, `serve`) so processes scraped together stay apart. With
 * `defaultMetrics` (default true) it also has prom-client's process metrics (CPU, memory,
 * event-loop lag, handles, GC). A queue source that fails at a scrape leaves the queue gauges
 * empty for that scrape and is logged to `log` (`queue_stats_failed`), so the other metrics
 * still answer.
 */
export function createMetrics(options: { component: string; defaultMetrics?: boolean; log?: Logger }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ component: options.component });
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const mcpRequests = new Counter({
    name: 'major_vault_mcp_requests_total',
    help: 'MCP requests answered, by installation, JSON-RPC method, tool (tools/call) and outcome.',
    labelNames: ['installation', 'method', 'tool', 'outcome'] as const,
    registers,
  });
  // Without the installation: a front serves many, and per-installation latency is the instance's own series.
  const mcpDuration = new Histogram({
    name: 'major_vault_mcp_request_duration_seconds',
    help: "MCP requests' latency, from arrival to the answer's last byte, in seconds.",
    labelNames: ['method', 'tool'] as const,
    buckets: mcpBuckets,
    registers,
  });
  const mcpErrors = new Counter({
    name: 'major_vault_mcp_errors_total',
    help: 'MCP requests that failed on our side, by installation, method, tool and reason.',
    labelNames: ['installation', 'method', 'tool', 'reason'] as const,
    registers,
  });

  let queueSource: QueueStatsSource | undefined;
  // Both queue gauges are collected at the same scrape (prom-client collects metrics
  // concurrently): they share one read of the source, forgotten when the next scrape starts
  // (or, for a caller of `registry.metrics()` itself, once the current task is done).
  let pendingStats: Promise<readonly QueueStats[] | null> | undefined;
  function queueStats(): Promise<readonly QueueStats[] | null> {
    if (!queueSource) return Promise.resolve(null);
    pendingStats ??= queueSource()
      .catch((error: unknown) => {
        options.log?.warn({ event: 'queue_stats_failed', err: error }, 'the job queue could not be read for the metrics');
        return null;
      })
      .finally(() => setTimeout(() => (pendingStats = undefined), 0));
    return pendingStats;
  }
  new Gauge({
    name: 'major_vault_job_queue_depth',
    help: 'Jobs waiting to run, per queue, read at the scrape.',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const stats = await queueStats();
      this.reset();
      for (const queue of stats ?? []) this.set({ queue: queue.queue }, queue.depth);
    },
  });
  new Gauge({
    name: 'major_vault_job_queue_oldest_age_seconds',
    help: 'How long the oldest waiting job of each queue has waited, in seconds, read at the scrape.',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const stats = await queueStats();
      this.reset();
      for (const queue of stats ?? []) this.set({ queue: queue.queue }, queue.oldestAgeSeconds);
    },
  });
  const jobs = new Counter({
    name: 'major_vault_jobs_total',
    help: 'Job runs that ended, per queue and outcome (completed, failed: retried with backoff).',
    labelNames: ['queue', 'outcome'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'major_vault_job_duration_seconds',
    help: "Job runs' duration per queue, in seconds.",
    labelNames: ['queue'] as const,
    buckets: jobBuckets,
    registers,
  });

  const indexLag = new Gauge({
    name: 'major_vault_index_lag_seconds',
    help: "Seconds between a push's arrival and the index holding it, for the latest push indexed, per installation and repository.",
    labelNames: ['installation', 'repo'] as const,
    registers,
  });
  const pushToIndex = new Histogram({
    name: 'major_vault_push_to_index_seconds',
    help: "Seconds between a push's arrival and the index holding it, over every push indexed.",
    buckets: slowBuckets,
    registers,
  });
  const instanceWakes = new Counter({
    name: 'major_vault_instance_wakes_total',
    help: 'Instances woken (started because a call came), per installation.',
    labelNames: ['installation'] as const,
    registers,
  });
  const coldStart = new Histogram({
    name: 'major_vault_instance_cold_start_seconds',
    help: "Seconds from waking an installation's instance to its answering.",
    buckets: slowBuckets,
    registers,
  });

  // The repositories with a lag series, per installation, so an installation's series can be dropped.
  const lagRepos = new Map<string, Set<string>>();
  const seconds = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

  return {
    registry,
    recordMcpRequest(record) {
      const { installation, method, tool, outcome } = record;
      mcpRequests.inc({ installation, method, tool, outcome });
      mcpDuration.observe({ method, tool }, seconds(record.seconds));
      if (outcome === 'error') mcpErrors.inc({ installation, method, tool, reason: record.errorReason ?? 'exception' });
    },
    recordIndexLag(installation, repo, lag) {
      indexLag.set({ installation, repo }, seconds(lag));
      let repos = lagRepos.get(installation);
      if (!repos) lagRepos.set(installation, (repos = new Set()));
      repos.add(repo);
      pushToIndex.observe(seconds(lag));
    },
    forgetInstallation(installation) {
      for (const repo of lagRepos.get(installation) ?? []) indexLag.remove({ installation, repo });
      lagRepos.delete(installation);
    },
    recordInstanceWake(installation, coldStartSeconds) {
      instanceWakes.inc({ installation });
      coldStart.observe(seconds(coldStartSeconds));
    },
    recordJob(queue, outcome, runSeconds) {
      jobs.inc({ queue, outcome });
      jobDuration.observe({ queue }, seconds(runSeconds));
    },
    observeQueues(source) {
      queueSource = source;
    },
    async exposition() {
      pendingStats = undefined; // a new scrape reads the queues anew
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
