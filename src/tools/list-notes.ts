// list_notes: the tool's definition (name, title, description, annotations, schemas), as
// tools/list shows it; the handler is src/instance/tools/list-notes.ts.
import { z } from 'zod';
import { defineTool } from './tool.ts';

const output = z
  .object({
    notes: z.array(
      z
        .object({
          path: z.string().describe('Path of the note, relative to the vault root.'),
          title: z.string().describe('Its title from the frontmatter, or its file name.'),
          type: z.string().optional(),
          summary: z.string().optional(),
          fields: z.record(z.string(), z.string()).optional(),
          repo: z.string().optional(),
        })
        .strict(),
    ),
    total: z.number().describe('How many notes match, across all pages.'),
    offset: z.number().describe('How many notes were skipped before this page.'),
    hasMore: z.boolean().describe('True when more notes follow after this page.'),
    note: z.string().optional(),
    repo: z.string().optional(),
  })
  .strict();

/** What the handler answers with (the output schema entry, parsed): `z.output<typeof output>['notes'][number]`. */
export type ListedNote = z.output<typeof output>['notes'][number];

/** The list_notes tool as listed (spec: "list_notes"; contract: spec/acme-tools-list.json); handler in instance/tools/list-notes.ts. */
export const listNotes = defineTool({
  name: 'list_notes',
  title: 'List the notes',
  description: 'Lists the notes under a folder, one line per note.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  input: (repo) =>
    z.object({
      folder: z
        .string()
        .optional()
        .describe(
          'Only notes below this folder, relative to the vault root, for example "projects/apollo". Leave it out for the whole vault.',
        ),
      type: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Only notes whose frontmatter type is exactly this, for example "note" or "task". A type that matches nothing is answered with the types there are.',
        ),
      status: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Only notes whose frontmatter status is exactly this, for example "draft". A status that matches nothing is answered with the ones there are.',
        ),
      fields: z
        .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/))
        .max(10)
        .optional()
        .describe(
          'Extra frontmatter fields to show for each note, for example ["stand", "status"]. A note without the field just leaves it out. Dates come as YYYY-MM-DD, lists joined with commas.',
        ),
      limit: z.number().int().min(1).max(200).default(50).describe('How many notes to list on this page.'),
      offset: z.number().int().min(0).default(0).describe('How many notes to skip. An answer with more after it names the next offset.'),
      repo: repo.optional(),
    }),
  output,
});
