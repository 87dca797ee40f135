// A process's metrics: the names the README lists, labels, the queue read once per scrape.
import { describe, expect, it } from 'vitest';
import { capturedLog } from '../../test/support/captured-log.ts';
import { createMetrics, metricNames, type QueueStats } from './metrics.ts';

/** The value of one series in the exposition text, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('createMetrics', () => {
  it('registers exactly the listed names, each with help, beside Node’s process metrics, all labelled with the component', async () => {
    const metrics = createMetrics({ component: 'front' });
    const own = metrics.registry
      .getMetricsAsArray()
      .map((metric) => metric.name)
      .filter((name) => name.startsWith('major_vault_'));
    expect(own.sort()).toEqual([...metricNames].sort());
    const { contentType, body } = await metrics.exposition();
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const name of metricNames) expect(body).toContain(`# HELP ${name} `);
    expect(sample(body, 'process_cpu_user_seconds_total', { component: 'front' })).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'nodejs_eventloop_lag_seconds', { component: 'front' })).toBeGreaterThanOrEqual(0);
    expect(
      createMetrics({ component: 'worker', defaultMetrics: false }).registry.getSingleMetric('process_cpu_user_seconds_total'),
    ).toBeUndefined();
  });

  it('counts MCP requests by installation, method, tool and outcome, times them, and counts the errors with their reason', async () => {
    const metrics = createMetrics({ component: 'instance', defaultMetrics: false });
    metrics.recordMcpRequest({ installation: 'acme', method: 'tools/call', tool: 'read_note', outcome: 'ok', seconds: 0.02 });
    metrics.recordMcpRequest({ installation: 'acme', method: 'tools/call', tool: 'read_note', outcome: 'ok', seconds: 0.2 });
    metrics.recordMcpRequest({ installation: 'acme', method: 'tools/call', tool: 'edit_note', outcome: 'refused', seconds: 0.01 });
    metrics.recordMcpRequest({
      installation: 'acme',
      method: 'tools/call',
      tool: 'edit_note',
      outcome: 'error',
      errorReason: 'tool_failed',
      seconds: 1.5,
    });
    metrics.recordMcpRequest({ installation: 'globex', method: 'tools/list', tool: '', outcome: 'ok', seconds: 0.003 });
    const { body } = await metrics.exposition();
    const requests = (labels: Record<string, string>) => sample(body, 'major_vault_mcp_requests_total', labels);
    expect(requests({ installation: 'acme', tool: 'read_note', outcome: 'ok', component: 'instance' })).toBe(2);
    expect(requests({ installation: 'acme', tool: 'edit_note', outcome: 'refused' })).toBe(1);
    expect(requests({ installation: 'acme', tool: 'edit_note', outcome: 'error' })).toBe(1);
    expect(requests({ installation: 'globex', method: 'tools/list', tool: '', outcome: 'ok' })).toBe(1);
    expect(sample(body, 'major_vault_mcp_errors_total', { installation: 'acme', tool: 'edit_note', reason: 'tool_failed' })).toBe(1);
    expect(sample(body, 'major_vault_mcp_errors_total', { tool: 'read_note' })).toBeUndefined();
    expect(sample(body, 'major_vault_mcp_request_duration_seconds_count', { method: 'tools/call', tool: 'read_note' })).toBe(2);
    expect(sample(body, 'major_vault_mcp_request_duration_seconds_bucket', { tool: 'read_note', le: '0.025' })).toBe(1);
    expect(sample(body, 'major_vault_mcp_request_duration_seconds_bucket', { tool: 'read_note', le: '0.25' })).toBe(2);
    expect(sample(body, 'major_vault_mcp_request_duration_seconds_sum', { tool: 'edit_note' })).toBeCloseTo(1.51);
  });

  it('reads the queues once per scrape, and answers the rest when they cannot be read', async () => {
    const { log, events } = capturedLog();
    const metrics = createMetrics({ component: 'worker', defaultMetrics: false, log });
    expect(sample((await metrics.exposition()).body, 'major_vault_job_queue_depth')).toBeUndefined();
    let reads = 0;
    let stats: QueueStats[] = [
      { queue: 'index-repo', depth: 3, oldestAgeSeconds: 1.5 },
      { queue: 'build-catalogue', depth: 0, oldestAgeSeconds: 0 },
    ];
    metrics.observeQueues(async () => {
      reads += 1;
      if (stats.length === 0) throw new Error('the queue database is down');
      return stats;
    });
    let { body } = await metrics.exposition();
    expect(reads).toBe(1);
    expect(sample(body, 'major_vault_job_queue_depth', { queue: 'index-repo' })).toBe(3);
    expect(sample(body, 'major_vault_job_queue_oldest_age_seconds', { queue: 'index-repo' })).toBe(1.5);
    expect(sample(body, 'major_vault_job_queue_depth', { queue: 'build-catalogue' })).toBe(0);

    stats = [{ queue: 'index-repo', depth: 1, oldestAgeSeconds: 0.2 }];
    ({ body } = await metrics.exposition());
    expect(reads).toBe(2);
    expect(sample(body, 'major_vault_job_queue_depth', { queue: 'index-repo' })).toBe(1);
    expect(sample(body, 'major_vault_job_queue_depth', { queue: 'build-catalogue' })).toBeUndefined();

    stats = [];
    metrics.recordJob('index-repo', 'completed', 0.4);
    metrics.recordJob('index-repo', 'failed', 2);
    ({ body } = await metrics.exposition());
    expect(sample(body, 'major_vault_job_queue_depth')).toBeUndefined();
    expect(sample(body, 'major_vault_jobs_total', { queue: 'index-repo', outcome: 'completed' })).toBe(1);
    expect(sample(body, 'major_vault_jobs_total', { queue: 'index-repo', outcome: 'failed' })).toBe(1);
    expect(sample(body, 'major_vault_job_duration_seconds_count', { queue: 'index-repo' })).toBe(2);
    expect(events('queue_stats_failed')).toHaveLength(1);
    expect(events('queue_stats_failed')[0]!['err']).toMatchObject({ message: 'the queue database is down' });
  });

  it('sets the index lag per repository, observes it over every push, and forgets an installation’s series', async () => {
    const metrics = createMetrics({ component: 'worker', defaultMetrics: false });
    metrics.recordIndexLag('acme', 'handbook', 0.8);
    metrics.recordIndexLag('acme', 'handbook', 1.2);
    metrics.recordIndexLag('acme', 'projects', -0.3);
    metrics.recordIndexLag('globex', 'plans', 4);
    let { body } = await metrics.exposition();
    expect(sample(body, 'major_vault_index_lag_seconds', { installation: 'acme', repo: 'handbook' })).toBe(1.2);
    expect(sample(body, 'major_vault_index_lag_seconds', { installation: 'acme', repo: 'projects' })).toBe(0);
    expect(sample(body, 'major_vault_push_to_index_seconds_count')).toBe(4);
    expect(sample(body, 'major_vault_push_to_index_seconds_bucket', { le: '2' })).toBe(3);
    metrics.forgetInstallation('acme');
    ({ body } = await metrics.exposition());
    expect(sample(body, 'major_vault_index_lag_seconds', { installation: 'acme' })).toBeUndefined();
    expect(sample(body, 'major_vault_index_lag_seconds', { installation: 'globex', repo: 'plans' })).toBe(4);
  });

  it('counts instance wakes per installation and times the cold starts', async () => {
    const metrics = createMetrics({ component: 'front', defaultMetrics: false });
    metrics.recordInstanceWake('acme', 0.9);
    metrics.recordInstanceWake('acme', 3);
    metrics.recordInstanceWake('globex', 1.1);
    const { body } = await metrics.exposition();
    expect(sample(body, 'major_vault_instance_wakes_total', { installation: 'acme' })).toBe(2);
    expect(sample(body, 'major_vault_instance_wakes_total', { installation: 'globex' })).toBe(1);
    expect(sample(body, 'major_vault_instance_cold_start_seconds_count')).toBe(3);
    expect(sample(body, 'major_vault_instance_cold_start_seconds_bucket', { le: '1' })).toBe(1);
  });
});
