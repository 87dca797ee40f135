// The registry's tools with their handlers: each definition of src/tools/all-tools.ts paired by
// name with its handler file here, in the registry's order.
import type { z } from 'zod';
import { allTools, type ToolName } from '../tools/all-tools.ts';
import type { Tool } from './tool.ts';
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

/** Each basic tool by name: a tool of the registry without a handler here (or under another name) is a type error. */
const byName: { readonly [N in ToolName]: Tool<z.ZodRawShape, z.ZodRawShape, N> } = {
  read_note: readNote,
  list_notes: listNotes,
  tree,
  search_notes: searchNotes,
  find_references: findReferences,
  note_history: noteHistory,
  search_history: searchHistory,
  edit_note: editNote,
  move_note: moveNote,
  base_view: baseView,
  create_note: createNote,
};

/** Every basic tool with its handler, in the registry's order (spec: "Basic tools"); what the instance serves. */
export const implementedTools: readonly Tool[] = allTools.map((definition) => byName[definition.name as ToolName]);
