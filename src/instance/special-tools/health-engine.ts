// The `health` engine's handler: the report of health-report.ts, one page of it.
import { healthEngine, type HealthCheck } from '../../special-tools/health-engine.ts';
import { fitAnswer, pastTheEnd } from '../tools/answer-budget.ts';
import { lookupVault } from '../tools/read-scope.ts';
import { implementEngine } from './engine-handler.ts';
import { healthReport } from './health-report.ts';

/**
 * Answers one page (`offset`, `limit`) of the repository's findings, narrowed to `check` when
 * given, with the counts of every check run over all pages; cut to the answer limit like the
 * basic tools, naming the next offset. An offset past the end says which offsets hold pages.
 */
export const healthEngineHandler = implementEngine(healthEngine, {
  async handler(input, ctx, tool) {
    const { check, offset, limit } = input as { check?: HealthCheck; offset: number; limit: number };
    const vault = await lookupVault(ctx, tool.repo);
    const report = await healthReport(ctx, vault, tool.params, check === undefined ? {} : { checks: [check] });
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
