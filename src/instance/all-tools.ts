// The one list of basic tools, in the spec's order ("Basic tools"): the instance and the
// catalogue both build `tools/list` from it, and a test pins it to the contract.
import type { ToolDefinition } from './tool.ts';
import { baseView } from './tools/base-view.ts';
import { createNote } from './tools/create-note.ts';
import { editNote } from './tools/edit-note.ts';
import { findReferences } from './tools/find-references.ts';
import { listNotes } from './tools/list-notes.ts';
import { moveNote } from './tools/move-note.ts';
import { noteHistory } from './tools/note-history.ts';
import { readNote } from './tools/read-note.ts';
import { searchHistory } from './tools/search-history.ts';
import { searchNotes } from './tools/search-notes.ts';
import { tree } from './tools/tree.ts';

/**
 * Every basic tool, in the order the spec lists them (spec: "Basic tools"): read_note,
 * list_notes, tree, search_notes, find_references, note_history, search_history,
 * edit_note, move_note, base_view, create_note.
 */
export const allTools: readonly ToolDefinition[] = [
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
];
