// The `changes` engine (issue 15): "since you last looked": the notes others changed in one
// repository since the person last asked, grouped by note. The work is
// src/instance/special-tools/changes-since.ts.
import { z } from 'zod';
import { defineEngine } from './engine.ts';

/** Days looked back on a person's first call, unless the tool file says otherwise (spec: "or since a day"). */
export const DEFAULT_FIRST_DAYS = 1;

/**
 * The settings of a `changes` tool file: `days`, how many days a person's first call looks
 * back (1–365, default {@link DEFAULT_FIRST_DAYS}); `own`, whether the person's own commits
 * count too (default false: the point is what others did). Unknown keys are refused.
 */
export const changesSettings = z.strictObject({
  days: z
    .number({ error: 'days must be a whole number of days, e.g. "days: 7"' })
    .int({ error: 'days must be a whole number of days, e.g. "days: 7"' })
    .min(1, { error: 'days is from 1 to 365' })
    .max(365, { error: 'days is from 1 to 365' })
    .default(DEFAULT_FIRST_DAYS),
  own: z.boolean({ error: 'own must be true or false' }).default(false),
});
export type ChangesSettings = z.output<typeof changesSettings>;

/** A moment as the input takes it: a day, a day and a time (local), or an instant with its offset, as answers give it. */
export const CHANGES_MOMENT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2}))?)?$/;

/** `changes`: settings {@link changesSettings}; input `since`, `until`, `limit`, `offset`; reads only (and keeps when the person asked). */
export const changesEngine = defineEngine({
  name: 'changes',
  about:
    'Lists the notes other people changed in this repository since you last asked (the first time: lately), grouped by note, with who changed them, when, and the commit subjects.',
  defaultTitle: 'What changed since I last looked',
  settings: changesSettings,
  writes: false,
  annotations: { readOnlyHint: true, openWorldHint: false },
  resolve: (settings) => ({ params: settings }),
  input: () =>
    z.object({
      since: z
        .string()
        .regex(CHANGES_MOMENT)
        .optional()
        .describe(
          'Changes from this moment on instead of since you last asked: a day, 2026-09-24, a day and a time, 2026-09-24T18:00 (the server\'s local time), or an answer\'s "since". Asking with it does not move your last look.',
        ),
      until: z
        .string()
        .regex(CHANGES_MOMENT)
        .optional()
        .describe('Changes up to this moment, written like since: for a later page, the answer\'s "until".'),
      limit: z.number().int().min(1).max(200).default(50).describe('How many notes to list on this page.'),
      offset: z.number().int().min(0).default(0).describe('How many notes to skip. An answer with more after it names the next offset.'),
    }),
  output: () =>
    z.object({
      since: z.string().describe('The start of the span looked at, ISO 8601.'),
      until: z.string().describe('The end of the span looked at, ISO 8601.'),
      notes: z.array(
        z
          .object({
            path: z.string().describe('The note, relative to the repository root (where it is after the newest change).'),
            changes: z.array(
              z
                .object({
                  commit: z.string().describe('Hash of the commit.'),
                  date: z.string().describe('When it was committed, ISO 8601 with offset.'),
                  author: z.string().describe('Who made it.'),
                  subject: z.string().describe('The first line of its message: what changed.'),
                })
                .strict(),
            ),
          })
          .strict(),
      ),
      total: z.number().describe('How many notes changed, across all pages.'),
      offset: z.number().describe('How many notes were skipped before this page.'),
      hasMore: z.boolean().describe('True when more notes follow after this page.'),
      note: z.string().optional(),
    }),
});
