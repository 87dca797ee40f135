// move_note: the tool's definition (name, title, description, annotations, schemas), as
// tools/list shows it; the handler is src/instance/tools/move-note.ts.
import { z } from 'zod';
import { defineTool } from './tool.ts';

/** The move_note tool as listed (spec: "move_note"; contract: spec/acme-tools-list.json); handler in instance/tools/move-note.ts. */
export const moveNote = defineTool({
  name: 'move_note',
  title: 'Move or rename a note',
  description: 'Moves a note to a new path, or renames it, updating links to it.',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: (repo) =>
    z.object({
      from: z
        .string()
        .describe(
          'The note to move, as a path relative to the vault root, for example "projects/apollo/plan.md". Or a whole folder, without a trailing slash, for example "projects/apollo".',
        ),
      to: z
        .string()
        .describe(
          'Where it should be afterwards, as a path relative to the vault root: ending in .md for a note, a folder path for a folder. Missing folders are created. The target must not exist yet — except for a rename that only changes upper and lower case.',
        ),
      summary: z
        .string()
        .min(1)
        .describe(
          'Git history. First line: what changed, at most 60 characters, no client or project (the server adds it), e.g. "Moved the plan into its own folder". More lines, optional: why.',
        ),
      type: z
        .string()
        .optional()
        .describe(
          "Change the note's type, as its type field in the frontmatter. The note must meet the new type's schema, and the target must match a place of the new type.",
        ),
      repo,
    }),
  output: z.object({
    from: z.string().describe('Where the note or folder was.'),
    to: z.string().describe('Where it is now.'),
    files: z.number().optional(),
    links: z.number().describe('How many references were changed, across all files.'),
    updated: z.array(z.object({ path: z.string(), links: z.number(), repo: z.string().optional() })),
    commit: z.string().describe('Hash of the commit that holds the move and every changed reference, as Git recorded it.'),
    outsideReferences: z
      .number()
      .describe(
        'References to the moved note in files outside the open folders (`folders` in .vault/settings.jsonc), which this move could not update. 0 without folders configured, or when there are none; their paths are never named, since a path outside the open folders reads as missing.',
      ),
    note: z.string().optional(),
    repo: z.string().optional(),
  }),
});
