// search_history: the tool's definition (name, title, description, annotations, schemas), as
// tools/list shows it; the handler is src/instance/tools/search-history.ts.
import { z } from 'zod';
import { defineTool } from './tool.ts';

const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f]+$/;
const MOMENT = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2}))?$/;

const fileSchema = z
  .object({
    path: z.string().describe('The file, relative to the vault root, as it was called after the commit.'),
    added: z.number().optional(),
    removed: z.number().optional(),
    text: z.enum(['added', 'removed']).optional(),
    repo: z.string().optional(),
  })
  .strict();

const commitSchema = z
  .object({
    commit: z.string().describe('The commit hash; give it to note_history as at, with one of the paths, to see a note as it was then.'),
    date: z.string().describe('When it was committed, ISO 8601.'),
    author: z.string().describe('Who Git has as its author.'),
    subject: z.string().describe("The first line of its message: for the server's own commits, what changed and which tool did it."),
    files: z.array(fileSchema),
    files_total: z.number().describe('How many files it changed in all, those not listed included.'),
  })
  .strict();

const output = z
  .object({
    commits: z.array(commitSchema),
    offset: z.number().describe('How many commits were skipped before this page.'),
    hasMore: z.boolean().describe('True when older commits follow after this page.'),
    note: z.string().optional(),
    repo: z.string().optional(),
  })
  .strict();

/** What the handler answers with (the output schema, parsed): `z.output<typeof output>`. */
export type SearchHistoryAnswer = z.output<typeof output>;
/** What the handler answers with (the output schema, parsed): `z.output<typeof commitSchema>`. */
export type ListedCommit = z.output<typeof commitSchema>;

/** The search_history tool as listed (spec: "search_history"; contract: spec/acme-tools-list.json); handler in instance/tools/search-history.ts. */
export const searchHistory = defineTool({
  name: 'search_history',
  title: 'Search the history',
  description: 'Searches past versions of the notes for a word or phrase.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  input: (repo) =>
    z.object({
      text: z
        .string()
        .min(1)
        .max(200)
        .regex(ONE_LINE)
        .optional()
        .describe(
          'Commits that added or removed this text, for example "34 Stores at Acme". Case is ignored; otherwise exactly as written, one line.',
        ),
      author: z
        .string()
        .min(1)
        .max(100)
        .regex(ONE_LINE)
        .optional()
        .describe('Commits by this author: part of the name or e-mail address Git has, for example "acme". Case is ignored.'),
      since: z
        .string()
        .regex(MOMENT)
        .optional()
        .describe(
          'Commits from this moment on: a day, 2026-09-24 (from its start), or a day and a time, 2026-09-24T18:00, in the local time of the machine the server runs on.',
        ),
      until: z.string().regex(MOMENT).optional().describe('Commits up to this moment, written like since; a day counts to its end.'),
      path: z
        .string()
        .optional()
        .describe(
          'Only commits that changed this folder or note, relative to the vault root, for example "projects/apollo". Leave it out for the whole vault.',
        ),
      limit: z.number().int().min(1).max(50).default(20).describe('How many commits to list on this page.'),
      offset: z
        .number()
        .int()
        .min(0)
        .default(0)
        .describe('How many commits to skip, newest first. An answer with more after it names the next offset.'),
      repo: repo.optional(),
    }),
  output,
});
