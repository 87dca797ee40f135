// What an engine is (spec: "Special tools", "Engines"): tested code for one kind of work that a
// repository switches on and configures in `.vault/tools/<name>.md`. This module holds the part
// everyone who lists a tool needs (settings, schemas, guards); the handler that runs a call
// sits in src/instance/special-tools/, paired with the engine by name, as basic tools are.
import type { z } from 'zod';
import type { SpecialToolConfig, VaultConfig } from '../config/vault-config.ts';
import type { ToolAnnotations } from '../tools/tool.ts';

/** A JSON Schema object, as listed. */
export type JsonSchemaObject = Record<string, unknown>;

/**
 * What an engine's `resolve` gives: the tool's parameters (JSON, everything its schemas and its
 * handler need from the repository's configuration), or a problem that leaves the tool out, said
 * the way `tree` reports it ("… ; the tool is left out" is added).
 */
export type Resolved<P> = { params: P } | { problem: string };

/**
 * One change of one note that a basic write tool is about to commit, as a guard sees it:
 * `before` the note as it was (null: created), `after` as it will be (null: removed). A move is
 * one change whose `before.path` and `after.path` differ.
 */
export interface NoteChange {
  before: { path: string; text: string } | null;
  after: { path: string; text: string } | null;
}

/** The basic tools a guard can change (spec: "Guards"); create_note also stands for a `create` tool, which writes new notes the same way. */
export type GuardedTool = 'edit_note' | 'move_note' | 'create_note';

/**
 * What a switched-on engine protects in its repository (spec: "Guards"): `check` answers the
 * refusal's text for a change only the engine's own tool may make (it names that tool and says
 * how to succeed), or null when the change is the basic tool's to make. It is asked only for
 * the tools in `tools`, only in the repository whose tool file switched it on.
 */
export interface Guard {
  /** The listed name of the tool that owns what is guarded, `<repo>__<name>`. */
  tool: string;
  tools: readonly GuardedTool[];
  /** `writer`: the tool making the change, as the refusal names it (`edit_note`, or a `create` tool's listed name). */
  check(change: NoteChange, writer: string): string | null;
}

/**
 * One engine (spec: "Engines"). `S` is its settings as its schema parses them, `P` its
 * resolved parameters (plain JSON: the catalogue store keeps them), `N` its name. An engine:
 * - declares its `settings`: a zod schema of every key of the tool file's frontmatter other
 *   than `engine`, `title` and `fields` (strict: a key it does not take leaves the tool out,
 *   and `tree` at the repository's root says why);
 * - `resolve`s them against the repository's configuration (its types, its settings) into
 *   parameters, or a problem (an unknown type; a tool that does what a basic tool already
 *   does, spec: "Not twice");
 * - builds the tool's input and output schemas from those parameters (no `repo`: a special
 *   tool is bound to its repository); `inputJson` may give the listed input schema when the
 *   repository's own JSON Schema says it better than zod's conversion;
 * - says whether it writes, and its annotations;
 * - optionally declares `guards` (spec: "Guards"), from its parameters.
 * Its handler is in src/instance/special-tools/, registered under the same `name`.
 */
export interface Engine<S = unknown, P = unknown, N extends string = string> {
  /** The engine's name, as a tool file's `engine:` names it. */
  name: N;
  /** One sentence on what it does (refusals and the README name it). */
  about: string;
  /** The title a tool gets when its file gives none. */
  defaultTitle: string;
  settings: z.ZodType<S>;
  writes: boolean;
  annotations: ToolAnnotations;
  resolve(settings: S, config: VaultConfig, tool: SpecialToolConfig): Resolved<P>;
  /** The input fields, without `repo`; the tool file's `fields` replace their descriptions. */
  input(params: P): z.ZodObject;
  /** The listed input JSON Schema of `input`'s fields, when the engine lists them as written (see above); null: zod's conversion. */
  inputJson?(params: P): JsonSchemaObject | null;
  output(params: P): z.ZodObject;
  /** What the tool guards once resolved; empty when it guards nothing (e.g. `guard` not switched on). */
  guards?(params: P, tool: string): Guard[];
}

/** Keeps an engine's types precise; every engine file exports one. */
export function defineEngine<const N extends string, S, P>(engine: Engine<S, P, N>): Engine<S, P, N> {
  return engine;
}

/**
 * One special tool of a repository, resolved, as the catalogue (and its store) keeps it: JSON.
 * `name` is the file name; the listed name is `<repo>__<name>` ({@link listedName}).
 */
export interface SpecialToolSpec {
  name: string;
  engine: string;
  /** The tool file's title, else the engine's default title. */
  title: string;
  /** The tool file's body; empty when it has none (the engine's `about` is listed then). */
  description: string;
  /** Input field descriptions the tool file replaces (only fields the tool has). */
  fields: Record<string, string>;
  /** The engine's parameters: JSON (the catalogue store keeps them). */
  params: unknown;
}

/** The separator between a repository's name and its tool's (spec: "How special tools are listed"). */
export const REPO_TOOL_SEPARATOR = '__';

/**
 * Whether a listed name (a special tool's or a prompt's, `<repo>__<name>`) is one every client
 * takes: letters, digits, `_`, `.` and `-`, at most 64 (MCP's tool-name guidance, SEP-986;
 * the Claude and OpenAI APIs refuse a tool list holding any other). A repository whose name
 * makes it otherwise (a space, an accent, a long name) offers its special tools and prompts to
 * no one, and `tree` at its root says why (listedNameProblem).
 */
export function isListableName(name: string): boolean {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(name);
}

/**
 * Why the special tools and prompts of `repo` named `names` (bare) are not listed, or null
 * when each listed name is one every client takes ({@link isListableName}).
 */
export function listedNameProblem(repo: string, names: readonly string[]): string | null {
  const bad = names.filter((name) => !isListableName(listedName(repo, name)));
  if (bad.length === 0) return null;
  return `the special tools and prompts of this repository are listed as "${repo}__<name>", and ${bad.map((name) => `"${listedName(repo, name)}"`).join(', ')} ${bad.length > 1 ? 'are names' : 'is a name'} clients refuse (letters, digits, _ . - only, at most 64 characters), so ${bad.length > 1 ? 'they are' : 'it is'} not listed; give the repository a name of letters, digits, _ and - (or the tool a shorter name)`;
}

/** A special tool's listed name: `projects__create_decision`. */
export function listedName(repo: string, tool: string): string {
  return `${repo}${REPO_TOOL_SEPARATOR}${tool}`;
}
