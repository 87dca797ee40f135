// base_view: the tool's definition (name, title, description, annotations, schemas), as
// tools/list shows it; the handler is src/instance/tools/base-view.ts.
import { z } from 'zod';
import { defineTool } from './tool.ts';

/** The output schema (`outputSchema`) of the tool defined below. */
export const output = z
  .object({
    path: z.string().describe('The .base file that was read.'),
    view: z.string().describe('The view that was rendered.'),
    availableViews: z.array(z.string()),
    columns: z.array(
      z
        .object({
          property: z.string().describe('The note field this column shows.'),
          label: z.string().describe('The heading, as the file names it.'),
        })
        .strict(),
    ),
    rows: z.array(
      z
        .object({
          path: z.string().describe('Path of the note, relative to the vault root.'),
          cells: z.array(z.string()),
          repo: z.string().optional(),
        })
        .strict(),
    ),
    total: z.number().describe('How many notes the view holds in all, before paging.'),
    offset: z.number().describe('How many rows were skipped before this page.'),
    hasMore: z.boolean().describe('True when more rows follow after this page.'),
    note: z.string().optional(),
    repo: z.string().optional(),
  })
  .strict();

/** The base_view tool as listed (spec: "base_view"; contract: spec/acme-tools-list.json); handler in instance/tools/base-view.ts. */
export const baseView = defineTool({
  name: 'base_view',
  title: 'Show a table from the notes',
  description: 'Shows a table built from the notes, as a view defines it.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  input: (repo) =>
    z.object({
      path: z
        .string()
        .min(1)
        .describe('The table definition, relative to the vault root, ending in .base, for example "projects/apollo/Overview.base".'),
      view: z
        .string()
        .optional()
        .describe(
          "Which of the file's views to show, by its name. Leave it out for the first one. A wrong name comes back with the list of names that exist.",
        ),
      limit: z.number().int().min(1).max(200).default(50).describe('How many rows to return. Fewer means a shorter answer.'),
      offset: z
        .number()
        .int()
        .min(0)
        .max(Number.MAX_SAFE_INTEGER)
        .default(0)
        .describe('How many rows to skip. An answer with more after it names the next offset.'),
      repo,
    }),
  output,
});
