// The one list of engines (spec: "Engines": tested code built into Major Vault; a repository
// brings none). Each engine's handler is paired with it by name in
// src/instance/special-tools/all-engine-handlers.ts.
import { appendEngine } from './append-engine.ts';
import { changesEngine } from './changes-engine.ts';
import { createEngine } from './create-engine.ts';
import { healthEngine } from './health-engine.ts';
import { undoEngine } from './undo-engine.ts';
import type { Engine } from './engine.ts';
import { transitionEngine } from './transition-engine.ts';

/** Every engine, in the order the README and refusals name them. */
export const allEngines = [createEngine, appendEngine, transitionEngine, healthEngine, changesEngine, undoEngine] as const;

/** An engine's name, as a tool file's `engine:` gives it. */
export type EngineName = (typeof allEngines)[number]['name'];

/** The engines by name. */
export const engines: ReadonlyMap<string, Engine<unknown, unknown>> = new Map(
  allEngines.map((engine) => [engine.name, engine as unknown as Engine<unknown, unknown>]),
);
