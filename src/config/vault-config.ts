// The parsed `.vault/` configuration of one repository (spec: "Settings", "Folders",
// "Note types", "Special tools"). Parsing lives in load-vault-config.ts.

/** `.vault/settings.jsonc`, every key with its default applied (spec: "Settings"). */
export interface VaultSettings {
  format: number;
  role: string;
  name: string | null;
  prompts: unknown[];
  resources: unknown[];
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
  problems: ConfigProblem[];
}
