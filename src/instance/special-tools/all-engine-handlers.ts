// Every engine's handler, paired by name with the engines of src/special-tools/all-engines.ts,
// and the one function that runs a special tool's call.
import { allEngines, type EngineName } from '../../special-tools/all-engines.ts';
import type { SpecialToolDefinition } from '../../special-tools/special-tool-definition.ts';
import { repoNotFound } from '../../repo-not-found.ts';
import type { ToolContext } from '../tool.ts';
import { appendEngineHandler } from './append-engine.ts';
import { changesEngineHandler } from './changes-engine.ts';
import { createEngineHandler } from './create-engine.ts';
import { healthEngineHandler } from './health-engine.ts';
import { undoEngineHandler } from './undo-engine.ts';
import type { EngineHandler } from './engine-handler.ts';
import { transitionEngineHandler } from './transition-engine.ts';

/** Each engine's handler by name: an engine without a handler here is a type error. */
const byName: { readonly [N in EngineName]: EngineHandler } = {
  create: createEngineHandler as unknown as EngineHandler,
  append: appendEngineHandler as unknown as EngineHandler,
  transition: transitionEngineHandler as unknown as EngineHandler,
  health: healthEngineHandler as unknown as EngineHandler,
  changes: changesEngineHandler as unknown as EngineHandler,
  undo: undoEngineHandler as unknown as EngineHandler,
};

/** Every engine's handler, in the engines' order. */
export const engineHandlers: ReadonlyMap<string, EngineHandler> = new Map(allEngines.map((engine) => [engine.name, byName[engine.name]]));

/**
 * Runs a call of the special tool `definition` with the input its schema parsed: its engine's
 * handler, bound to the tool's repository. The repository must still be readable (`ctx.vaults`):
 * otherwise refused as any repository the person cannot read is (`repo_not_found`).
 */
export async function runSpecialTool(
  definition: SpecialToolDefinition,
  input: Record<string, unknown>,
  ctx: ToolContext,
): Promise<Record<string, unknown>> {
  const { repo, spec } = definition.special;
  if (!ctx.vaults.has(repo)) throw repoNotFound(repo, [...ctx.vaults.keys()]);
  const handler = engineHandlers.get(spec.engine);
  if (handler === undefined) throw new Error(`no handler for the engine "${spec.engine}"`);
  return handler.handler(input, ctx, { repo, name: definition.name, spec, params: spec.params });
}
