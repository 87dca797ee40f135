// The one list of basic tools, in the spec's order ("Basic tools"): the instance, the catalogue
// and the front all build `tools/list` from it, and a test pins it to the contract.
import { baseView } from './base-view.ts';
import { createNote } from './create-note.ts';
import { editNote } from './edit-note.ts';
import { findReferences } from './find-references.ts';
import { listNotes } from './list-notes.ts';
import { moveNote } from './move-note.ts';
import { noteHistory } from './note-history.ts';
import { readNote } from './read-note.ts';
import { searchHistory } from './search-history.ts';
import { searchNotes } from './search-notes.ts';
import type { ToolDefinition } from './tool.ts';
import { tree } from './tree.ts';

const registry = [
  readNote,
  listNotes,
  tree,
  searchNotes,
  findReferences,
  noteHistory,
  searchHistory,
  editNote,
  moveNote,
  baseView,
  createNote,
] as const;

/** The name of a basic tool: `read_note`, `list_notes`, … (one per entry of {@link allTools}). */
export type ToolName = (typeof registry)[number]['name'];

/**
 * Every basic tool's definition, in the order the spec lists them (spec: "Basic tools"): read_note,
 * list_notes, tree, search_notes, find_references, note_history, search_history,
 * edit_note, move_note, base_view, create_note.
 */
export const allTools: readonly ToolDefinition[] = registry;
