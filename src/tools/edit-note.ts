// edit_note: the tool's definition (name, title, description, annotations, schemas), as
// tools/list shows it; the handler is src/instance/tools/edit-note.ts.
import { z } from 'zod';
import { defineTool } from './tool.ts';

const editFields = {
  path: 'The note, as a path relative to the vault root. May be the same note as another edit, or a different one.',
  old_text:
    'The passage to replace, exactly as it stands in the note once the edits before this one are made. It has to appear exactly once.',
  new_text:
    'What should stand there instead. An empty string deletes the passage. In the frontmatter, a value holding ": " goes in single quotes.',
};

/** The edit_note tool as listed (spec: "edit_note"; contract: spec/acme-tools-list.json); handler in instance/tools/edit-note.ts. */
export const editNote = defineTool({
  name: 'edit_note',
  title: 'Change a passage in a note',
  description: 'Replaces one passage of a note with new text, leaving the rest untouched.',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: (repo) =>
    z.object({
      path: z.string().describe('The note to change, from the vault root, for example "projects/apollo/plan.md". It must exist.'),
      old_text: z
        .string()
        .describe(
          'The passage to replace, exactly as it stands in the note today, including indentation and line breaks. It has to appear exactly once — if it does not, take more of the lines above or below it until it is unique. To add lines without changing any, send the neighbouring line here and that line plus the new ones as new_text.',
        ),
      new_text: z
        .string()
        .describe(
          'What should stand there instead. An empty string deletes the passage. Everything else in the note is left untouched, down to the spacing. On a table row, a link with a label is written [[note\\|label]], because a bare | would start a new cell; a bare | inside such a link gets its backslash, and the answer says so. In the frontmatter, a value holding ": " goes in single quotes, or the YAML breaks and the edit is refused.',
        ),
      summary: z
        .string()
        .min(1)
        .describe(
          'Git history. First line: what changed, at most 60 characters, no client or project (the server adds it), e.g. "Marked trial price as an assumption". More lines, optional: why.',
        ),
      more_edits: z
        .array(
          z.object({
            path: z.string().describe(editFields.path),
            old_text: z.string().describe(editFields.old_text),
            new_text: z.string().describe(editFields.new_text),
          }),
        )
        .min(1)
        .max(30)
        .optional()
        .describe(
          'Further passages of the same change, made after the first one, in this order and in the same commit: one correction that touches several places is one step in the history. If any cannot be made, none is.',
        ),
      repo,
    }),
  output: z.object({
    path: z.string().describe('The note of the first change.'),
    line: z.number().describe('The line the first replaced passage started on, counting from 1.'),
    changes: z
      .array(
        z.object({
          path: z.string().describe('The note.'),
          line: z.number().describe('The line the passage started on, in the note as the edits before it left it.'),
          repo: z.string().optional(),
        }),
      )
      .optional(),
    commit: z.string().describe('Hash of the commit that now holds the change, as Git recorded it.'),
    note: z.string().optional(),
    repo: z.string().optional(),
  }),
});
