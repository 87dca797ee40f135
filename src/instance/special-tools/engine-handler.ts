// How an engine runs on the instance: its handler, with the same ToolContext as a basic tool's
// and the tool it runs as (the repository it is bound to, the resolved tool file), paired with
// the engine's definition (src/special-tools/) by name in all-engine-handlers.ts.
import type { Engine, SpecialToolSpec } from '../../special-tools/engine.ts';
import type { ToolContext } from '../tool.ts';

/** The special tool a call runs as: `<repo>__<name>` of the repository `repo`, its engine's parameters `params`. */
export interface BoundSpecialTool<P = unknown> {
  /** The repository the tool belongs to; it works there only (spec: "Only in their own repository"). */
  repo: string;
  /** The listed name, `<repo>__<name>`: the commit subject names it. */
  name: string;
  spec: SpecialToolSpec;
  params: P;
}

/**
 * An engine's handler: gets the input as the tool's input schema parsed it (no `repo`), the
 * call's ToolContext (only readable repositories; the host bound to the caller, so a write is
 * theirs), and the tool it runs as; answers what the engine's output schema validates, or
 * refuses by throwing a VaultError whose message says how to succeed.
 */
export interface EngineHandler<P = unknown> {
  engine: string;
  handler(input: Record<string, unknown>, ctx: ToolContext, tool: BoundSpecialTool<P>): Promise<Record<string, unknown>>;
}

/** Pairs an engine with its handler, typing the handler's parameters by the engine's; every handler file exports one. */
export function implementEngine<S, P>(engine: Engine<S, P>, implementation: Pick<EngineHandler<P>, 'handler'>): EngineHandler<P> {
  return { engine: engine.name, handler: implementation.handler };
}
