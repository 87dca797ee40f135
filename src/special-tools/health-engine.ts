// The `health` engine (issue 15): a read-only report of what needs care in one repository:
// dangling links, orphan notes, stale notes, untyped notes and notes that break their type's
// schema, paged. The report is src/instance/special-tools/health-report.ts.
import { z } from 'zod';
import { defineEngine } from './engine.ts';

/** The checks a health tool can run, in the order its report lists them for one note. */
export const HEALTH_CHECKS = ['dangling', 'orphans', 'stale', 'types'] as const;
export type HealthCheck = (typeof HEALTH_CHECKS)[number];

/** Days without a commit after which a note counts as stale, unless the tool file says otherwise. */
export const DEFAULT_STALE_DAYS = 180;

/**
 * The settings of a `health` tool file: `staleDays`, whole days without a commit before a note
 * is stale (1–36500, default {@link DEFAULT_STALE_DAYS}); `checks`, which of
 * {@link HEALTH_CHECKS} it runs (default all). Unknown keys are refused (strict), so a misspelt
 * setting leaves the tool out.
 */
export const healthSettings = z.strictObject({
  staleDays: z
    .number({ error: 'staleDays must be a whole number of days, e.g. "staleDays: 90"' })
    .int({ error: 'staleDays must be a whole number of days, e.g. "staleDays: 90"' })
    .min(1, { error: 'staleDays is from 1 to 36500' })
    .max(36500, { error: 'staleDays is from 1 to 36500' })
    .default(DEFAULT_STALE_DAYS),
  checks: z
    .array(z.enum(HEALTH_CHECKS, { error: `checks may name ${HEALTH_CHECKS.join(', ')}` }))
    .min(1)
    .default([...HEALTH_CHECKS]),
});
export type HealthSettings = z.output<typeof healthSettings>;

const KINDS = ['dangling_link', 'orphan', 'stale', 'untyped', 'unknown_type', 'schema', 'broken_frontmatter'] as const;

/** `health`: settings {@link healthSettings}; input `check`, `limit`, `offset`; reads only. */
export const healthEngine = defineEngine({
  name: 'health',
  about:
    "Lists what needs care in this repository: links that lead nowhere, notes nothing links to, notes no commit changed for a long time, notes without a type and notes that break their type's schema.",
  defaultTitle: 'Check the notes',
  settings: healthSettings,
  writes: false,
  annotations: { readOnlyHint: true, openWorldHint: false },
  resolve: (settings) => ({ params: settings }),
  input: (params) =>
    z.object({
      check: z
        .enum(params.checks as [HealthCheck, ...HealthCheck[]])
        .optional()
        .describe(`Only this check, one of ${params.checks.map((check) => `"${check}"`).join(', ')}. Leave it out for all of them.`),
      limit: z.number().int().min(1).max(200).default(50).describe('How many findings to list on this page.'),
      offset: z.number().int().min(0).default(0).describe('How many findings to skip. An answer with more after it names the next offset.'),
    }),
  output: () =>
    z.object({
      problems: z.array(
        z
          .object({
            kind: z.enum(KINDS).describe('What is wrong.'),
            path: z.string().describe('The note, relative to the repository root.'),
            line: z.number().optional().describe('The line of a dangling link, counted from 1.'),
            link: z.string().optional().describe('A dangling link as written.'),
            lastCommit: z.string().optional().describe('When a stale note was last changed: the author date of its last commit.'),
            detail: z.string().describe('What is wrong and how to mend it.'),
          })
          .strict(),
      ),
      counts: z.record(z.string(), z.number()).describe('How many findings each check made, across all pages.'),
      total: z.number().describe('How many findings there are, across all pages.'),
      offset: z.number().describe('How many findings were skipped before this page.'),
      hasMore: z.boolean().describe('True when more findings follow after this page.'),
      note: z.string().optional(),
    }),
});
