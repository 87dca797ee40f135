// A repository's special tools, resolved: each `.vault/tools/<name>.md` checked against its
// engine (spec: "Special tools"), the ones that cannot run left out with the reason `tree` gives
// at the repository's root, and the guards the others switch on.
import { z } from 'zod';
import type { ConfigProblem, VaultConfig } from '../config/vault-config.ts';
import { isGuardKey } from '../config/load-vault-config.ts';
import { allTools } from '../tools/all-tools.ts';
import { engines } from './all-engines.ts';
import { isListableName, listedName, type Engine, type Guard, type SpecialToolSpec } from './engine.ts';

/** What {@link specialToolsOf} finds in one repository's configuration. */
export interface SpecialTools {
  /** The tools that run, in the settings' `order`, else by name (as the configuration sorted them). */
  specs: SpecialToolSpec[];
  /** Why a tool file is left out, or what of it is ignored: reported by `tree` at the root, like the configuration's own. */
  problems: ConfigProblem[];
  /**
   * The tool files left out that ask for a guard (`guard` set and not `false`), by path, the
   * configuration's {@link VaultConfig.unreadGuards} among them: their guards are unknown, so
   * {@link guardsOf} keeps every existing note of the repository from the basic tools' changes.
   */
  unreadGuards: string[];
}

const resolved = new WeakMap<VaultConfig, SpecialTools>();

/** The basic tools' names (`read_note`, …): no tool file may take one. */
const basicToolNames: ReadonlySet<string> = new Set(allTools.map((tool) => tool.name));

/**
 * The special tools of a repository whose configuration is `config` (computed once per
 * configuration object). A tool file is left out, with a problem naming it, when its engine is
 * named as a basic tool is (`read_note.md` would be listed as `<repo>__read_note`, which an
 * assistant reads as that tool), when its engine is not one of {@link engines}, when its settings are not the engine's (a key it does not take,
 * a value of the wrong kind), when the engine cannot resolve them against the repository (an
 * unknown type), or when it does exactly what a tool listed before it does (spec: "Not twice";
 * the engines refuse what a basic tool already does themselves). A `fields` entry naming no
 * input field of the tool is ignored and reported.
 */
export function specialToolsOf(config: VaultConfig): SpecialTools {
  let found = resolved.get(config);
  if (found === undefined) {
    found = resolve(config);
    resolved.set(config, found);
  }
  return found;
}

/**
 * The guards that the special tools of the repository `repo` (configured by `config`) switch
 * on (spec: "Guards"): only its own, so another repository's basic tools stay as they are.
 */
export function guardsOf(repo: string, config: VaultConfig): Guard[] {
  const guards: Guard[] = [];
  const { unreadGuards } = specialToolsOf(config);
  if (unreadGuards.length > 0) guards.push(unreadGuard(unreadGuards));
  for (const spec of specialToolsOf(config).specs) {
    const engine = engines.get(spec.engine);
    // A tool of a repository whose name no client takes is listed to no one: refusals name its file.
    const listed = listedName(repo, spec.name);
    if (engine?.guards)
      guards.push(...engine.guards(spec.params, isListableName(listed) ? listed : `.vault/tools/${spec.name}.md (not listed here)`));
  }
  return guards;
}

/**
 * The guard of tool files that ask for one but could not be read: a guard that fails closed.
 * It refuses every change by edit_note, move_note, create_note and `create` tools (a broken
 * transition guard would let a new note start at any step), naming the files, since a log it kept append-only would otherwise be open to
 * rewriting while the file is broken (a YAML typo, a description over the bound).
 */
function unreadGuard(files: readonly string[]): Guard {
  const named = files.map((file) => `"${file}"`).join(', ');
  return {
    tool: files[0]!,
    tools: ['edit_note', 'move_note', 'create_note'],
    check(_change, writer) {
      return `${named} switch${files.length > 1 ? '' : 'es'} a guard on but cannot be read (tree at the repository's root says why), so which notes it keeps, and how new ones must start, is unknown: until it is fixed, ${writer} writes no note of this repository. Ask the repository's admin to fix it; reading and the other special tools still work.`;
    },
  };
}

/** Whether a tool file's settings ask for a guard: a key that is `guard` or reads as one misspelt, not set to `false`. */
function asksGuard(settings: Record<string, unknown>): boolean {
  return Object.entries(settings).some(([key, value]) => isGuardKey(key) && value !== false && value !== null && value !== 'false');
}

function resolve(config: VaultConfig): SpecialTools {
  const specs: SpecialToolSpec[] = [];
  const problems: ConfigProblem[] = [];
  const unreadGuards = [...(config.unreadGuards ?? [])];
  const seen: Array<{ name: string; key: string }> = [];
  for (const tool of config.tools) {
    const file = `.vault/tools/${tool.name}.md`;
    const report = (message: string) => problems.push({ file, message: `tools/${tool.name}.md: ${message}` });
    const { fields, ...own } = tool.settings as { fields?: Record<string, string> } & Record<string, unknown>;
    // A tool left out takes its guard with it: one it asked for is kept closed instead.
    const leaveOut = (message: string) => {
      report(`${message}; the tool is left out`);
      if (asksGuard(own)) unreadGuards.push(file);
    };
    if (basicToolNames.has(tool.name)) {
      report(
        `"${tool.name}" is the name of a basic tool, and an assistant would take this tool for it; the tool is left out. Give the file a name of its own (for example tools/${tool.name}_${tool.engine}.md)`,
      );
      if (asksGuard(own)) unreadGuards.push(file);
      continue;
    }
    const engine = engines.get(tool.engine) as Engine<unknown, unknown> | undefined;
    if (engine === undefined) {
      leaveOut(`engine "${tool.engine}" is not an engine of Major Vault (the engines: ${[...engines.keys()].join(', ')})`);
      continue;
    }
    const settings = engine.settings.safeParse(own);
    if (!settings.success) {
      leaveOut(settingsProblem(engine, settings.error));
      continue;
    }
    const outcome = engine.resolve(settings.data, config, tool);
    if ('problem' in outcome) {
      leaveOut(outcome.problem);
      continue;
    }
    const key = JSON.stringify([engine.name, outcome.params]);
    const twin = seen.find((other) => other.key === key);
    if (twin !== undefined) {
      report(`does exactly what tools/${twin.name}.md already does (the same engine and settings); the tool is left out`);
      continue;
    }
    seen.push({ name: tool.name, key });
    const inputFields = Object.keys(engine.input(outcome.params).shape);
    const kept: Record<string, string> = {};
    for (const [field, description] of Object.entries(fields ?? {})) {
      if (inputFields.includes(field)) kept[field] = description;
      else report(`fields names "${field}", which is not an input field of this tool (its fields: ${inputFields.join(', ')}); ignored`);
    }
    specs.push({
      name: tool.name,
      engine: engine.name,
      title: tool.title ?? engine.defaultTitle,
      description: tool.description,
      fields: kept,
      params: outcome.params,
    });
  }
  return { specs, problems, unreadGuards };
}

/** One sentence on what is wrong with a tool file's settings for `engine`, naming the keys it takes. */
function settingsProblem(engine: Engine<unknown, unknown>, error: z.ZodError): string {
  const takes = engine.settings instanceof z.ZodObject ? Object.keys(engine.settings.shape) : [];
  const takesText =
    takes.length === 0
      ? `the ${engine.name} engine takes no settings besides engine, title and fields`
      : `the ${engine.name} engine takes ${takes.join(', ')} besides engine, title and fields`;
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `"${key}"`).join(', ');
    return `${keys} ${issue.keys.length > 1 ? 'are not settings' : 'is not a setting'} of this tool (${takesText})`;
  }
  if (issue.path.length === 0) return `${issue.message} (${takesText})`;
  return `${issue.path.join('.')}: ${issue.message} (${takesText})`;
}
