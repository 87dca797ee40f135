// The `undo` engine (issue 15): reverts the latest change the person made through Major Vault in
// one repository, as one new commit. The work is src/instance/special-tools/undo-change.ts.
import { z } from 'zod';
import { defineEngine } from './engine.ts';

/** The settings of an `undo` tool file: none; any key is refused, which leaves the tool out. */
export const undoSettings = z.strictObject({});

/** `undo`: no settings, no input; writes one commit. */
export const undoEngine = defineEngine({
  name: 'undo',
  about:
    'Takes back the last change you made in this repository through Major Vault, as one new commit; refuses, naming the later commits, when someone changed the same passages since.',
  defaultTitle: 'Undo my last change',
  settings: undoSettings,
  writes: true,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  resolve: () => ({ params: {} }),
  input: () => z.object({}),
  output: () =>
    z.object({
      undone: z
        .object({
          commit: z.string().describe('Hash of the change taken back.'),
          date: z.string().describe('When it was committed, ISO 8601 with offset.'),
          subject: z.string().describe('Its subject.'),
        })
        .strict(),
      commit: z.string().nullable().describe('Hash of the new commit that takes it back; null when the notes were already as before it.'),
      files: z.array(z.string()).describe('The files the undo changed back, relative to the repository root.'),
      note: z.string().optional(),
    }),
});
