// The `undo` engine's handler: undo-change.ts for the tool's repository, named by the tool.
import { undoEngine } from '../../special-tools/undo-engine.ts';
import { implementEngine } from './engine-handler.ts';
import { undoLatestChange } from './undo-change.ts';

/**
 * Takes back the person's latest change through Major Vault in the tool's repository as one
 * commit authored by them, its subject naming the tool (see undoLatestChange for what counts
 * and the refusals: `forbidden`, `conflict`, `nothing_to_undo`).
 */
export const undoEngineHandler = implementEngine(undoEngine, {
  async handler(_input, ctx, tool) {
    const done = await undoLatestChange(ctx, tool.repo, tool.name, [tool.spec.name]);
    return {
      undone: done.undone,
      commit: done.commit,
      files: done.files,
      ...(done.notes.length > 0 ? { note: done.notes.join(' ') } : {}),
    };
  },
});
