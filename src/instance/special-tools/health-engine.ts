// The `health` engine's handler: the report of health-report.ts, one page of it.
import { healthEngine, type HealthCheck } from '../../special-tools/health-engine.ts';
import { fitAnswer, pastTheEnd } from '../tools/answer-budget.ts';
import { lookupVault } from '../tools/read-scope.ts';
import { implementEngine } from './engine-handler.ts';
import { healthReport, type HealthReport } from './health-report.ts';
import type { HealthSettings } from '../../special-tools/health-engine.ts';
import type { ToolContext, Vault } from '../tool.ts';

/**
 * Answers one page (`offset`, `limit`) of the repository's findings, narrowed to `check` when
 * given, with the counts of every check run over all pages; cut to the answer limit like the
 * basic tools, naming the next offset. An offset past the end says which offsets hold pages.
 */
export const healthEngineHandler = implementEngine(healthEngine, {
  async handler(input, ctx, tool) {
    const { check, offset, limit } = input as { check?: HealthCheck; offset: number; limit: number };
    const vault = await lookupVault(ctx, tool.repo);
    const report = await keptReport(ctx, vault, tool.params, check);
    const total = report.problems.length;
    const page = report.problems.slice(offset, offset + limit);
    const { answer } = fitAnswer(page, (problems, cut) => {
      const next = offset + problems.length;
      const hasMore = next < total;
      const note =
        total === 0
          ? 'Nothing needs care: every check found nothing.'
          : page.length === 0
            ? pastTheEnd(offset, total, 'findings', tool.name, limit)
            : hasMore
              ? `More findings follow: ask again with offset ${next}${cut ? ' (this page was cut to fit the answer)' : ''}.`
              : undefined;
      return { problems: [...problems], counts: report.counts, total, offset, hasMore, ...(note === undefined ? {} : { note }) };
    });
    return answer;
  },
});

/** How long a report is kept for the next pages of the same state, in ms (stale notes count days, so a minute changes nothing). */
const REPORT_KEPT_MS = 60_000;

/** The last reports, per index (an installation's), by repository, state, settings and check. */
const reports = new WeakMap<object, Map<string, { at: number; report: Promise<HealthReport> }>>();

/**
 * The report {@link healthReport} gives, kept a minute for the same index state of the
 * repository (head, fingerprint, time of indexing), the same settings, folders and check: a
 * person reading every page of a large repository's findings (obsidian-help: 98 pages) pays for
 * the report once, not per page. A new state (any write, a push) makes a new report. At most
 * eight are kept per installation.
 */
async function keptReport(ctx: ToolContext, vault: Vault, settings: HealthSettings, check: HealthCheck | undefined): Promise<HealthReport> {
  const state = await ctx.index.repoState(vault.name);
  const make = () => healthReport(ctx, vault, settings, check === undefined ? {} : { checks: [check] });
  if (state === null) return make();
  const key = JSON.stringify([
    vault.name,
    state.head,
    state.fingerprint,
    state.indexedAt.getTime(),
    vault.config.settings.folders,
    settings,
    check ?? null,
  ]);
  let kept = reports.get(ctx.index);
  if (kept === undefined) reports.set(ctx.index, (kept = new Map()));
  const now = Date.now();
  const found = kept.get(key);
  if (found !== undefined && now - found.at < REPORT_KEPT_MS) return found.report;
  const report = make();
  kept.delete(key);
  kept.set(key, { at: now, report });
  report.catch(() => kept.delete(key));
  while (kept.size > 8) kept.delete(kept.keys().next().value!);
  return report;
}
