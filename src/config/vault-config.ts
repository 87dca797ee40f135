// The parsed `.vault/` configuration of one repository (spec: "Settings", "Folders",
// "Note types", "Special tools"). Parsing lives in load-vault-config.ts.

/** `.vault/settings.jsonc`, every key with its default applied (spec: "Settings"). */
export interface VaultSettings {
  format: number;
  role: string;
  name: string | null;
  /** The MCP prompts the repository offers, as settings.jsonc lists them (see prompts-resources.ts). */
  prompts: PromptSetting[];
  /** The notes and folders the repository offers as MCP resources (see prompts-resources.ts). */
  resources: ResourceSetting[];
  /** The repository's one line in the tool list, at most 120 characters; null when none. */
  summary: string | null;
  /** Open folders, each ending in "/" ("/" alone opens everything). Default ["/"]. */
  folders: string[];
  typeField: string;
  summaryField: string;
  untyped: 'hint' | 'error';
  frontmatterSchema: 'hint' | 'warning';
  /** Paths no type rule applies to; a folder ends in "/", globs with `*` allowed. */
  exempt: string[];
  defaultType: string | null;
  /** Order of the special tools in the list; empty means by name. */
  order: string[];
  /** `overview.topic`: the frontmatter field that is a note's topic; `overview.fields`: fields list_notes shows. */
  overview: { topic: string | null; fields: string[] } | null;
}

/** One argument of a prompt: `{name}` in the prompt's text is replaced by its value. */
export interface PromptArgument {
  name: string;
  description: string | null;
  required: boolean;
}

/** One entry of `prompts` in settings.jsonc: a prompt whose text is a Markdown file in `.vault/`. */
export interface PromptSetting {
  /** The prompt's name before the `<repo>__` prefix: letters, digits, "_" and "-". */
  name: string;
  title: string | null;
  description: string | null;
  /** The Markdown file holding the text, e.g. `.vault/prompts/weekly-update.md`. */
  file: string;
  arguments: PromptArgument[];
}

/** A prompt ready to serve: its setting and its text (the file's body below any frontmatter). */
export interface Prompt extends PromptSetting {
  text: string;
}

/**
 * One entry of `resources` in settings.jsonc: one note (`kind: "note"`, `path` ends in `.md`),
 * or every note in a folder and below it (`kind: "folder"`, `path` ends in "/", "" for the root).
 */
export interface ResourceSetting {
  kind: 'note' | 'folder';
  path: string;
  title: string | null;
  description: string | null;
}

/** One note type from `.vault/types/<name>.md` (spec: "Note types"). */
export interface NoteType {
  name: string;
  /** Path patterns with `{field}` / `{field:slug}` placeholders, first one used to build. */
  places: string[];
  /** JSON Schema (2020-12) for the frontmatter; `{}` when the file gives none. */
  frontmatter: Record<string, unknown>;
  /** The body template: the type file's text below its frontmatter. */
  template: string;
}

/** One special tool from `.vault/tools/<name>.md`, parsed and kept for later issues. */
export interface SpecialToolConfig {
  /** The file name without `.md`: the tool's name before the `<repo>__` prefix. */
  name: string;
  engine: string;
  title: string | null;
  description: string;
  /** Every other frontmatter key, as written (`type`, `fields`, engine settings). */
  settings: Record<string, unknown>;
}

/** A problem found in `.vault/`: the file and what is wrong; defaults applied instead. */
export interface ConfigProblem {
  file: string;
  message: string;
}

/**
 * A repository's whole configuration. A repository without `.vault/` gets the defaults,
 * `configured: false`. A file that does not parse or validate never throws: its defaults
 * apply and `problems` says what was wrong (reported by `tree` at the root and in `note`).
 */
export interface VaultConfig {
  configured: boolean;
  settings: VaultSettings;
  /** `.vault/instructions.md`, trimmed; null when absent. */
  instructions: string | null;
  types: Map<string, NoteType>;
  tools: SpecialToolConfig[];
  /** The prompts of `settings.prompts` whose file was read; the others are reported in `problems`. */
  prompts: Prompt[];
  problems: ConfigProblem[];
  /**
   * Tool files left out before their settings could be read (frontmatter that does not
   * parse, a bad name, no engine, a description over the bound) whose text asks for a guard
   * (`guard:` not `false`), by path: which notes they guard is unknown, so the basic tools
   * write no note of the repository until they are fixed (special-tools-of.ts).
   * Absent or empty: none.
   */
  unreadGuards?: string[];
}
