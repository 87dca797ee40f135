// The registry's tools with their handlers: each definition of src/tools/all-tools.ts paired by
// name with its handler file here, in the registry's order. A handler file (and what it
// imports: the frontmatter schemas' ajv, the diff of edits, the bases' formulas) loads on the
// first call of its tool, or when preloadToolHandlers asks: `initialize` and `tools/list`
// need only the definitions, so a start answers them without loading every handler first.
// The special tools' engine handlers (writes, undo's diff, history) load the same way.
import type { z } from 'zod';
import { allTools, type ToolName } from '../tools/all-tools.ts';
import type * as SpecialToolHandlers from './special-tools/all-engine-handlers.ts';
import { noCallsInProgress } from './calls-in-progress.ts';
import type { Tool } from './tool.ts';

type ToolOf<N extends ToolName> = Tool<z.ZodRawShape, z.ZodRawShape, N>;

/** Each basic tool's handler file by name: a tool of the registry without one here (or under another name) is a type error. */
const handlerFiles: { readonly [N in ToolName]: () => Promise<ToolOf<N>> } = {
  read_note: async () => (await import('./tools/read-note.ts')).readNote,
  list_notes: async () => (await import('./tools/list-notes.ts')).listNotes,
  tree: async () => (await import('./tools/tree.ts')).tree,
  search_notes: async () => (await import('./tools/search-notes.ts')).searchNotes,
  find_references: async () => (await import('./tools/find-references.ts')).findReferences,
  note_history: async () => (await import('./tools/note-history.ts')).noteHistory,
  search_history: async () => (await import('./tools/search-history.ts')).searchHistory,
  edit_note: async () => (await import('./tools/edit-note.ts')).editNote,
  move_note: async () => (await import('./tools/move-note.ts')).moveNote,
  base_view: async () => (await import('./tools/base-view.ts')).baseView,
  create_note: async () => (await import('./tools/create-note.ts')).createNote,
};

const loaded = new Map<ToolName, Promise<Tool>>();

/** The tool `name` as its handler file exports it, loading the file once (a failed load is tried again by the next call). */
function handlerTool(name: ToolName): Promise<Tool> {
  let tool = loaded.get(name);
  if (tool === undefined) {
    tool = (handlerFiles[name] as () => Promise<Tool>)();
    tool.catch(() => loaded.delete(name));
    loaded.set(name, tool);
  }
  return tool;
}

/**
 * Every basic tool with its handler, in the registry's order (spec: "Basic tools"); what the
 * instance serves. Each handler loads its tool's file on the first call.
 */
export const implementedTools: readonly Tool[] = allTools.map((definition) => ({
  ...definition,
  handler: async (input, ctx) => (await handlerTool(definition.name as ToolName)).handler(input, ctx),
}));

let engineHandlers: Promise<typeof SpecialToolHandlers> | null = null;

/**
 * The special tools' engine handlers (special-tools/all-engine-handlers.ts: `runSpecialTool`),
 * loaded by the first special tool's call or by {@link preloadToolHandlers}, as a basic
 * tool's handler file is (a failed load is tried again by the next call).
 */
export function specialToolHandlers(): Promise<typeof SpecialToolHandlers> {
  if (engineHandlers === null) {
    const loading = import('./special-tools/all-engine-handlers.ts');
    loading.catch(() => (engineHandlers = null));
    engineHandlers = loading;
  }
  return engineHandlers;
}

/**
 * Loads every tool's handler file in the background (one after the other), then the special
 * tools' engine handlers, so a later call does not wait for its file: for a start once its
 * index is ready. Each file waits until no tool call is in progress (calls-in-progress.ts):
 * loading one holds the main thread for tens of milliseconds, and begun as the index became
 * ready, the loading held up the first call that had waited for it by 350-550 ms (obsidian-help,
 * 2 processors); a call loads its own file anyway. Resolves when all are loaded; never rejects
 * (a file that fails to load fails its call).
 */
export async function preloadToolHandlers(): Promise<void> {
  for (const definition of allTools) {
    await noCallsInProgress();
    await handlerTool(definition.name as ToolName).catch(() => undefined);
  }
  await noCallsInProgress();
  await specialToolHandlers().catch(() => undefined);
}
