// Reads a repository's `.vault/` folder into a VaultConfig, reporting (never throwing) what is wrong.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { z } from 'zod';
import { splitFrontmatter } from '../notes/frontmatter.ts';
import { frontmatterAjv } from '../notes/frontmatter-schema.ts';
import { distance } from 'fastest-levenshtein';
import { CLOSED_FOLDERS, foldersClosed, normalizeVaultPath } from '../notes/vault-path.ts';
import { loadPrompts, parsePromptSettings, parseResourceSettings } from './prompts-resources.ts';
import type { ConfigProblem, NoteType, SpecialToolConfig, VaultConfig, VaultSettings } from './vault-config.ts';

/** Reads one file of the repository as text; null when it is absent. */
export type ReadText = (path: string) => Promise<string | null>;

const SETTINGS = '.vault/settings.jsonc';
const INSTRUCTIONS = '.vault/instructions.md';
const TYPES = '.vault/types/';
const TOOLS = '.vault/tools/';
const SUMMARY_MAX = 120;
/**
 * A special tool's name becomes part of an MCP tool name (`<repo>__<name>`); without `__` of
 * its own, so two repositories' tools never share a name (`a__b` + `c` and `a` + `b__c`).
 */
const TOOL_NAME = /^(?!.*__)[A-Za-z0-9_-]{1,64}$/;

/** Every setting's default (spec: "Settings", the table's last column). */
export function defaultSettings(): VaultSettings {
  return {
    format: 3,
    role: 'root',
    name: null,
    prompts: [],
    resources: [],
    summary: null,
    folders: ['/'],
    typeField: 'type',
    summaryField: 'summary',
    untyped: 'hint',
    frontmatterSchema: 'hint',
    exempt: [],
    defaultType: null,
    order: [],
    overview: null,
  };
}

/** The configuration of a repository without `.vault/`: every default, no types, no tools. */
export function defaultVaultConfig(): VaultConfig {
  return { configured: false, settings: defaultSettings(), instructions: null, types: new Map(), tools: [], prompts: [], problems: [] };
}

/**
 * Loads `.vault/` (spec: "Settings", "Note types", "Special tools"). `paths` is every file
 * path of the repository's snapshot (it says which `types/*.md` and `tools/*.md` exist);
 * `read` gives a file's text. `settings.jsonc` is JSON with comments, each key checked on its
 * own; `instructions.md` is kept trimmed; each `types/<name>.md` gives `places`, a
 * `frontmatter` JSON Schema (2020-12, must compile) and the template below; each
 * `tools/<name>.md` gives `engine`, `title`, other settings, and the description below;
 * each prompt of `prompts` gets its text from its file in `.vault/` (prompts-resources.ts).
 * Never throws: a file or key that does not parse or validate gets its default, and
 * `problems` names the file and says what is wrong and what is used instead.
 */
export async function loadVaultConfig(read: ReadText, paths: readonly string[]): Promise<VaultConfig> {
  const config = defaultVaultConfig();
  const vaultPaths = paths.filter((path) => path.startsWith('.vault/'));
  if (vaultPaths.length === 0) return config;
  config.configured = true;
  const problems = config.problems;
  const has = new Set(vaultPaths);

  const readSafely = async (path: string): Promise<string | null> => {
    try {
      return await read(path);
    } catch (error) {
      problems.push({ file: path, message: `${shortName(path)}: cannot be read (${(error as Error).message}); using the defaults` });
      return null;
    }
  };

  pointOutStrayFiles(vaultPaths, problems);

  const typeFiles = vaultPaths.filter((path) => isDirectChild(path, TYPES));
  const toolFiles = vaultPaths.filter((path) => isDirectChild(path, TOOLS));

  for (const path of typeFiles) {
    const text = await readSafely(path);
    if (text === null) continue;
    const type = parseTypeFile(path, text, problems);
    config.types.set(type.name, type);
  }

  // A file in .vault/tools/ that is not read as a tool (log.MD, sub/log.md) but asks for a guard
  // keeps the basic tools off the repository's notes, as a tool file left out does.
  for (const path of vaultPaths.filter((path) => path.startsWith(TOOLS) && !isDirectChild(path, TOOLS))) {
    const text = await readSafely(path);
    if (text !== null && asksForGuard(text)) (config.unreadGuards ??= []).push(path);
  }
  const tools: SpecialToolConfig[] = [];
  for (const path of toolFiles) {
    const text = await readSafely(path);
    if (text === null) {
      problems.push({
        file: path,
        message: `${shortName(path)}: is not a file that can be read (a symbolic link is never followed here); the tool is left out`,
      });
      continue;
    }
    const tool = parseToolFile(path, text, config.types, problems);
    if (tool !== null) tools.push(tool);
    else if (asksForGuard(text)) (config.unreadGuards ??= []).push(path);
  }

  if (has.has(SETTINGS)) {
    const text = await readSafely(SETTINGS);
    if (text !== null) config.settings = parseSettings(text, problems, { types: config.types, tools: tools.map((tool) => tool.name) });
  }

  if (config.settings.prompts.length > 0) {
    config.prompts = await loadPrompts(
      config.settings.prompts,
      async (path) => (has.has(path) ? await readSafely(path) : null),
      (message) => problems.push({ file: SETTINGS, message: `settings.jsonc: ${message}` }),
    );
  }

  if (has.has(INSTRUCTIONS)) {
    const text = await readSafely(INSTRUCTIONS);
    const trimmed = text?.replace(/^\uFEFF/, '').trim() ?? '';
    config.instructions = trimmed === '' ? null : trimmed;
  }

  const rank = new Map(config.settings.order.map((name, i) => [name, i]));
  config.tools = tools.sort(
    (a, b) => (rank.get(a.name) ?? Infinity) - (rank.get(b.name) ?? Infinity) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return config;
}

// ---------------------------------------------------------------------------------------------
// settings.jsonc

interface SettingsContext {
  types: ReadonlyMap<string, NoteType>;
  tools: readonly string[];
}

const nonEmptyText = z.string().trim().min(1);
const stringList = z.array(z.string());

/**
 * Each key: the schema it must meet, how to say so, and whether the spec calls it required.
 * A key that breaks its rule keeps its default; the others still apply.
 */
const settingRules = {
  format: { schema: z.literal(3), expected: 'the number 3 (the format this server reads)', required: true },
  role: { schema: z.literal('root'), expected: '"root"', required: true },
  name: { schema: nonEmptyText, expected: 'a non-empty string', required: true },
  prompts: { schema: z.array(z.unknown()), expected: 'a list (it may be empty)', required: true },
  resources: { schema: z.array(z.unknown()), expected: 'a list (it may be empty)', required: true },
  summary: { schema: z.string().nullable(), expected: 'a string of at most 120 characters', required: false },
  folders: { schema: stringList.min(1), expected: 'a non-empty list of strings', required: false },
  typeField: { schema: nonEmptyText, expected: 'a non-empty string', required: false },
  summaryField: { schema: nonEmptyText, expected: 'a non-empty string', required: false },
  untyped: { schema: z.enum(['hint', 'error']), expected: '"hint" or "error"', required: false },
  frontmatterSchema: { schema: z.enum(['hint', 'warning']), expected: '"hint" or "warning"', required: false },
  exempt: { schema: stringList, expected: 'a list of strings', required: false },
  defaultType: { schema: nonEmptyText.nullable(), expected: 'the name of a type in .vault/types/', required: false },
  order: { schema: stringList, expected: 'a list of tool names', required: false },
  overview: {
    schema: z.strictObject({ topic: nonEmptyText.nullable().optional(), fields: stringList.optional() }).nullable(),
    expected: 'an object { "topic": "<field>", "fields": ["<field>", …] }',
    required: false,
  },
} as const;

type SettingKey = keyof typeof settingRules;

/** Parses the text of `.vault/settings.jsonc`; adds to `problems`, never throws. */
export function parseSettings(
  text: string,
  problems: ConfigProblem[],
  context: SettingsContext = { types: new Map(), tools: [] },
): VaultSettings {
  const settings = defaultSettings();
  const report = (message: string) => problems.push({ file: SETTINGS, message: `settings.jsonc: ${message}` });
  const errors: ParseError[] = [];
  const data: unknown = parseJsonc(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0]!;
    report(
      `is not valid JSON with comments (${printParseErrorCode(first.error)} at line ${lineAt(text, first.offset)}); using the default for every setting but folders, and no folder is open until it is fixed`,
    );
    return { ...settings, folders: [...CLOSED_FOLDERS] };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    report(
      'must be one object { … } holding the settings; using the default for every setting but folders, and no folder is open until it is fixed',
    );
    return { ...settings, folders: [...CLOSED_FOLDERS] };
  }
  const given = data as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(key in settingRules)) report(`"${key}" is not a setting (the settings are ${Object.keys(settingRules).join(', ')}); ignored`);
  }
  // "Folders" or "folder" for folders: the typo of a setting that closes, read as "open everything".
  const misspelt =
    'folders' in given
      ? undefined
      : Object.keys(given).find((key) => !(key in settingRules) && distance(key.toLowerCase(), 'folders') <= 2);
  if (misspelt !== undefined) {
    report(`"${misspelt}" reads as a misspelt "folders"; no folder is open until it is spelt "folders"`);
    given['folders'] = undefined;
  }
  const writable = settings as unknown as Record<SettingKey, unknown>;
  for (const [key, rule] of Object.entries(settingRules) as Array<[SettingKey, (typeof settingRules)[SettingKey]]>) {
    const fallback = describeDefault(settings[key]);
    if (!(key in given)) {
      if (rule.required) report(`${key} is required: ${rule.expected}; using ${fallback}`);
      continue;
    }
    const parsed = rule.schema.safeParse(given[key]);
    if (!parsed.success) {
      // A folders setting that cannot be read keeps everything closed, never opens the default "/".
      if (key === 'folders') {
        report(`folders must be ${rule.expected}; no folder is open until it is fixed`);
        writable[key] = [...CLOSED_FOLDERS];
        continue;
      }
      report(`${key} must be ${rule.expected}; using ${fallback}`);
      continue;
    }
    writable[key] = parsed.data;
  }

  settings.summary = checkSummary(settings.summary, report);
  if (!foldersClosed(settings.folders)) settings.folders = normaliseFolders(settings.folders, report);
  settings.exempt = normaliseExempt(settings.exempt, report);
  settings.prompts = parsePromptSettings(settings.prompts as unknown[], report);
  settings.resources = parseResourceSettings(settings.resources as unknown[], settings.folders, report);
  if (settings.overview !== null) {
    const overview = settings.overview as { topic?: string | null; fields?: string[] };
    settings.overview = { topic: overview.topic ?? null, fields: overview.fields ?? [] };
  }
  if (settings.defaultType !== null && !context.types.has(settings.defaultType)) {
    report(
      `defaultType "${settings.defaultType}" names no type: there is no .vault/types/${settings.defaultType}.md; using none (create_note then needs a type)`,
    );
    settings.defaultType = null;
  }
  const unknownTools = settings.order.filter((name) => !context.tools.includes(name));
  if (unknownTools.length > 0) {
    report(
      `order names ${unknownTools.map((name) => `"${name}"`).join(', ')}, which ${unknownTools.length > 1 ? 'are' : 'is'} not a tool in .vault/tools/; left out`,
    );
    settings.order = settings.order.filter((name) => context.tools.includes(name));
  }
  return settings;
}

/** One line for every reader's tool list: whitespace collapsed, at most 120 characters, else none. */
function checkSummary(summary: string | null, report: (message: string) => void): string | null {
  if (summary === null) return null;
  const line = summary.replace(/\s+/gu, ' ').trim();
  if (line === '') return null;
  const length = [...line].length;
  if (length > SUMMARY_MAX) {
    report(`summary is ${length} characters long, at most ${SUMMARY_MAX} are allowed; no summary is shown until it is shortened`);
    return null;
  }
  return line;
}

/** Folders relative to the root, each ending in "/"; "/" alone opens everything (spec: "Folders"). */
function normaliseFolders(folders: readonly string[], report: (message: string) => void): string[] {
  const result: string[] = [];
  for (const folder of folders) {
    // Only "/" itself opens the whole repository: "", "./" or "//" is a typo, not a choice.
    if (folder.trim() !== '/' && folder.trim().replace(/^(?:\.\/|\/)+/, '') === '') {
      report(`folders: ${JSON.stringify(folder)} names no folder (write "/" to open the whole repository); left out`);
      continue;
    }
    let path: string;
    try {
      path = normalizeVaultPath(folder.trim().replace(/^(?:\.\/|\/)+/, ''), 'folder');
    } catch {
      report(`folders: ${JSON.stringify(folder)} is not a folder of the repository (a relative path, no "..", no hidden folder); left out`);
      continue;
    }
    const normalised = path === '' ? '/' : `${path}/`;
    if (!result.includes(normalised)) result.push(normalised);
  }
  if (result.length === 0) {
    report('folders names no usable folder; no folder is open until it names one');
    return [...CLOSED_FOLDERS];
  }
  return result.includes('/') ? ['/'] : result;
}

/** Exempt paths as written, without a leading "/" or "./"; a folder keeps its trailing "/". */
function normaliseExempt(exempt: readonly string[], report: (message: string) => void): string[] {
  const result: string[] = [];
  for (const entry of exempt) {
    const clean = entry
      .trim()
      .normalize('NFC')
      .replace(/^(?:\.\/|\/)+/, '');
    if (clean === '' || clean.split('/').some((segment) => segment === '..') || clean.includes('\\')) {
      report(`exempt: ${JSON.stringify(entry)} is not a path of the repository; left out`);
      continue;
    }
    if (!result.includes(clean)) result.push(clean);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// types/<name>.md

const placeSchema = z.union([z.string(), z.array(z.string())]);
const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * Parses `.vault/types/<name>.md`: frontmatter `places` (a list of path patterns; one
 * string is taken as a list of one) and `frontmatter` (a JSON Schema that must compile with
 * Ajv for draft 2020-12), the body as the template. Whatever is wrong keeps its default
 * (`places: []`, `frontmatter: {}`) and is reported; the type itself always exists.
 */
export function parseTypeFile(path: string, text: string, problems: ConfigProblem[]): NoteType {
  const name = baseName(path);
  const report = (message: string) => problems.push({ file: path, message: `types/${name}.md: ${message}` });
  const frontmatter = splitFrontmatter(text);
  const template = text.slice(frontmatter.bodyOffset);
  const type: NoteType = { name, places: [], frontmatter: {}, template };
  if (frontmatter.error !== null) {
    report(`its frontmatter does not parse (${frontmatter.error}); the type has no places and no schema`);
    return type;
  }
  const data = frontmatter.data ?? {};
  for (const key of Object.keys(data)) {
    if (key !== 'places' && key !== 'frontmatter') report(`"${key}" is not a key of a type file (it has places and frontmatter); ignored`);
  }

  if (data.places !== undefined && data.places !== null) {
    const places = placeSchema.safeParse(data.places);
    if (!places.success) {
      report('places must be a list of paths such as "notes/{title:slug}.md"; the type has no places');
    } else {
      for (const place of typeof places.data === 'string' ? [places.data] : places.data) {
        const wrong = placeProblem(place);
        if (wrong === null) type.places.push(place);
        else report(`the place ${JSON.stringify(place)} ${wrong}; left out`);
      }
    }
  }

  if (data.frontmatter !== undefined && data.frontmatter !== null) {
    const schema = data.frontmatter;
    if (typeof schema !== 'object' || Array.isArray(schema)) {
      report('frontmatter must be a JSON Schema object such as { type: object, properties: … }; no schema is checked');
    } else {
      const compiled = schemaProblem(schema as Record<string, unknown>);
      if (compiled.error !== null) report(`frontmatter is not a valid JSON Schema (${compiled.error}); no schema is checked`);
      else {
        type.frontmatter = schema as Record<string, unknown>;
        if (compiled.hint !== null) report(`frontmatter: ${compiled.hint}; it is ignored`);
      }
    }
  }
  return type;
}

/** What is wrong with a place pattern, or null when it is usable. */
function placeProblem(place: string): string | null {
  if (place.trim() === '') return 'is empty';
  if (!place.endsWith('.md')) return 'must end in ".md" (a place is the path of a note)';
  if (place.startsWith('/')) return 'must be relative to the repository root, without a leading "/"';
  for (const match of place.matchAll(PLACEHOLDER)) {
    if (!/^[^{}:\s][^{}:]*(?::slug)?$/.test(match[1]!)) return `has the placeholder "${match[0]}"; write {field} or {field:slug}`;
  }
  const literal = place.replace(PLACEHOLDER, 'x');
  if (/[{}]/.test(literal)) return 'has an unmatched "{" or "}"';
  const segments = literal.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.' || segment === '')) return 'must not hold "..", "." or empty segments';
  if (segments.some((segment) => segment.startsWith('.'))) return 'goes through a hidden file or folder, which no tool opens';
  if (/[\\\u0000-\u001f\u007f]/.test(literal)) return 'must not hold a backslash or a control character';
  return null;
}

/**
 * Whether `schema` compiles as the write tools compile it (Ajv, draft 2020-12, formats, not
 * strict): `error` when it does not. `hint` names what strict mode would refuse (an unknown
 * keyword such as a misspelt `propertes`), which the lenient compile silently ignores.
 * A fresh Ajv each time, so two types may reuse an `$id`.
 */
function schemaProblem(schema: Record<string, unknown>): { error: string | null; hint: string | null } {
  const lenient = frontmatterAjv();
  try {
    lenient.compile(schema);
  } catch (error) {
    return { error: (error as Error).message, hint: null };
  }
  const strict = frontmatterAjv({ strict: true });
  try {
    strict.compile(schema);
    return { error: null, hint: null };
  } catch (error) {
    return { error: null, hint: (error as Error).message.replace(/^strict mode: /, '') };
  }
}

// ---------------------------------------------------------------------------------------------
// tools/<name>.md

const fieldsSchema = z.record(z.string(), z.string());

/**
 * Whether a tool file's text, read as lines and not as YAML (it may not parse), has a
 * `guard:` setting that is not plainly `false`/`no`/`off`: a guard it may switch on.
 */
export function asksForGuard(text: string): boolean {
  return [...text.matchAll(/^[ \t]*["']?([A-Za-z_-]+)["']?[ \t]*:[ \t]*([^#\r\n]*)/gm)].some(
    (match) => isGuardKey(match[1]!) && !/^["']?(false|no|off)["']?[ \t]*$/i.test(match[2]!.trim()),
  );
}

/** Whether a tool file's key is `guard` or reads as a misspelling of it (`Guard`, `gaurd`): a guard is asked for either way. */
export function isGuardKey(key: string): boolean {
  return key.length >= 4 && distance(key.toLowerCase(), 'guard') <= 2;
}

/**
 * Bounds of what a tool file gives every client in `tools/list` (characters): the description
 * (the body), the title, and each `fields` description. The basic tools' descriptions are
 * under 250; a few thousand is room for a workflow's explanation, and more would cost every
 * conversation of everyone who reads the repository.
 */
export const TOOL_TEXT_LIMITS = { description: 4000, title: 200, field: 1000 } as const;

/**
 * Parses `.vault/tools/<name>.md`: frontmatter `engine` (required), `title`, `type`,
 * `fields` and engine settings; the body is the description. A tool without an engine or
 * with a name that cannot be a tool name is left out and reported; a wrong `title`,
 * `fields` or `type` is dropped and reported, the tool kept.
 */
export function parseToolFile(
  path: string,
  text: string,
  types: ReadonlyMap<string, NoteType>,
  problems: ConfigProblem[],
): SpecialToolConfig | null {
  const name = baseName(path);
  const report = (message: string) => problems.push({ file: path, message: `tools/${name}.md: ${message}` });
  if (!TOOL_NAME.test(name)) {
    report(
      'the file name is the tool\'s name and may hold only letters, digits, "_" and "-" (at most 64), and no "__" (it separates the repository\'s name from the tool\'s); the tool is left out',
    );
    return null;
  }
  const frontmatter = splitFrontmatter(text);
  if (frontmatter.error !== null) {
    report(`its frontmatter does not parse (${frontmatter.error}); the tool is left out`);
    return null;
  }
  const { engine, title, ...settings } = frontmatter.data ?? {};
  if (typeof engine !== 'string' || engine.trim() === '') {
    report('engine is required: the frontmatter must name the engine, e.g. "engine: create"; the tool is left out');
    return null;
  }
  const description = text.slice(frontmatter.bodyOffset).trim();
  if (description.length > TOOL_TEXT_LIMITS.description) {
    report(
      `its description (the text below the frontmatter) is ${description.length} characters, more than ${TOOL_TEXT_LIMITS.description}: every client of everyone who reads the repository gets it in tools/list. Shorten it, and put the detail in instructions.md or a note it names; the tool is left out`,
    );
    return null;
  }
  let toolTitle: string | null = null;
  if (typeof title === 'string' && title.trim().length > TOOL_TEXT_LIMITS.title)
    report(`title is ${title.trim().length} characters, more than ${TOOL_TEXT_LIMITS.title}; the tool has no title`);
  else if (typeof title === 'string' && title.trim() !== '') toolTitle = title.trim();
  else if (title !== undefined && title !== null) report('title must be a string; the tool has no title');
  if (settings.fields !== undefined && !fieldsSchema.safeParse(settings.fields).success) {
    report('fields must map input field names to their descriptions, e.g. { title: "The decision, in one line." }; ignored');
    delete settings.fields;
  } else if (settings.fields !== undefined) {
    const fields = { ...(settings.fields as Record<string, string>) };
    for (const [field, text] of Object.entries(fields)) {
      if (text.length <= TOOL_TEXT_LIMITS.field) continue;
      report(`fields.${field} is ${text.length} characters, more than ${TOOL_TEXT_LIMITS.field}; the engine's own description is kept`);
      delete fields[field];
    }
    settings.fields = fields;
  }
  if (settings.type !== undefined) {
    if (typeof settings.type !== 'string') {
      report('type must be the name of a note type; ignored');
      delete settings.type;
    } else if (!types.has(settings.type)) {
      report(`type "${settings.type}" names no type: there is no .vault/types/${settings.type}.md`);
    }
  }
  if (description === '') report('has no description below its frontmatter; the model gets only the title');
  return { name, engine: engine.trim(), title: toolTitle, description, settings };
}

// ---------------------------------------------------------------------------------------------

/** Points out files in `.vault/` that look meant for it but are not read (e.g. `Settings.json`). */
function pointOutStrayFiles(vaultPaths: readonly string[], problems: ConfigProblem[]): void {
  for (const path of vaultPaths) {
    const rest = path.slice('.vault/'.length);
    const lower = rest.toLowerCase();
    let hint: string | null = null;
    if (rest !== 'settings.jsonc' && /^settings\.jsonc?$/.test(lower))
      hint = 'the settings are read from .vault/settings.jsonc, spelt exactly so';
    else if (rest !== 'instructions.md' && /^instructions(\.md|\.txt|\.markdown)?$/.test(lower))
      hint = 'the instructions are read from .vault/instructions.md, spelt exactly so';
    else if (/^(types?|tools?)\//.test(lower) && !rest.startsWith(TYPES.slice(7)) && !rest.startsWith(TOOLS.slice(7)))
      hint = 'note types live in .vault/types/ and special tools in .vault/tools/, spelt exactly so';
    else if (
      (rest.startsWith('types/') || rest.startsWith('tools/')) &&
      !baseName(path).startsWith('.') &&
      !(isDirectChild(path, TYPES) || isDirectChild(path, TOOLS))
    ) {
      hint = 'only <name>.md files directly inside .vault/types/ and .vault/tools/ are read';
    }
    if (hint !== null) problems.push({ file: path, message: `${rest}: is not read; ${hint}` });
  }
}

/** `.vault/types/decision.md` is a direct `.md` child of `.vault/types/`; a hidden or nested file is not. */
function isDirectChild(path: string, folder: string): boolean {
  if (!path.startsWith(folder)) return false;
  const rest = path.slice(folder.length);
  return rest.endsWith('.md') && rest.length > 3 && !rest.includes('/') && !rest.startsWith('.');
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');
}

function shortName(path: string): string {
  return path.replace(/^\.vault\//, '');
}

function describeDefault(value: unknown): string {
  if (value === null) return 'none';
  return `the default ${JSON.stringify(value)}`;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
