// create_note: the tool's definition (name, title, description, annotations, schemas), as
// tools/list shows it; the handler is src/instance/tools/create-note.ts.
import { z } from 'zod';
import { defineTool } from './tool.ts';

/** The create_note tool as listed (spec: "create_note"; contract: spec/acme-tools-list.json); handler in instance/tools/create-note.ts. */
export const createNote = defineTool({
  name: 'create_note',
  title: 'Create a note',
  description: 'Creates a new note at a path, with frontmatter and body text.',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: (repo) =>
    z.object({
      path: z
        .string()
        .optional()
        .describe(
          'Where the note goes, relative to the repository root. Without types: the whole file path, ending in .md. With a type: optional, the folder below the type folder, or left out.',
        ),
      type: z
        .string()
        .optional()
        .describe('The note type, one of the repository types. Left out, the repository default type is used, where it has one.'),
      frontmatter: z.record(z.string(), z.unknown()).optional().describe('The frontmatter fields, as an object. With a type, its fields.'),
      body: z.string().describe('The note text below the frontmatter.'),
      repo,
    }),
  output: z.object({
    path: z.string().describe('Where the note was created, relative to the repository root.'),
    commit: z.string().describe('Hash of the commit that holds the new note, as Git recorded it.'),
    repo: z.string().optional(),
  }),
});
