// The one list of basic tools, in the spec's order ("Basic tools"): the instance and the
// catalogue both build `tools/list` from it, and a test pins it to the contract.
import type { ToolDefinition } from './tool.ts';

/**
 * Every basic tool, in the order the spec lists them: read_note, list_notes, tree,
 * search_notes, find_references, note_history, search_history, edit_note, move_note,
 * base_view, create_note. A tool appears here once its file in `tools/` exists.
 */
export const allTools: readonly ToolDefinition[] = [];
