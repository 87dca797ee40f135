// The note a special tool's `path` names: in the tool's own repository only (spec: "Only in
// their own repository": a special tool refuses a path in another).
import { VaultError } from '../../vault-error.ts';
import { assertInFolders } from '../../notes/vault-path.ts';
import type { ToolContext } from '../tool.ts';
import { existingPath } from '../tools/existing-path.ts';
import type { BoundSpecialTool } from './engine-handler.ts';

/**
 * The existing note `given` names in `tool.repo` (as every tool reads a path: `<repo>/<path>`
 * understood, `.md` added), in its open folders. A path that names nothing there and starts
 * with another readable repository's name is refused with `bad_arguments`, saying the tool works
 * only in its own repository and which basic tool works in the other; anything else missing is
 * `note_not_found`, saying how to find one.
 */
export async function ownNote(ctx: ToolContext, tool: BoundSpecialTool, given: string, kind: string): Promise<string> {
  const folders = ctx.vaults.get(tool.repo)!.config.settings.folders;
  const found = await existingPath(ctx.host, tool.repo, given, 'note', { repo: tool.repo, tool: tool.name, folders });
  if (found.found) {
    assertInFolders(found.path, folders);
    return found.path;
  }
  const other = [...ctx.vaults.keys()].find((name) => name !== tool.repo && given.trim().startsWith(`${name}/`));
  if (other !== undefined) {
    throw new VaultError(
      'bad_arguments',
      `${tool.name} works only in the repository "${tool.repo}", and "${given}" is a path in "${other}". Give the path of a ${kind} in "${tool.repo}", or use edit_note with repo "${other}" there.`,
      { path: given, repo: tool.repo },
    );
  }
  throw new VaultError(
    'note_not_found',
    `There is no note "${found.path}" in "${tool.repo}". Give the path of a ${kind} there; list_notes or search_notes with repo "${tool.repo}" finds one.`,
    { path: found.path },
  );
}
