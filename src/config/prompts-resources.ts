// The `prompts` and `resources` settings of `.vault/settings.jsonc` (spec: "Settings"; issue 15,
// "Prompts and resources"): each entry checked on its own, a bad one left out and reported.
import { z } from 'zod';
import { splitFrontmatter } from '../notes/frontmatter.ts';
import { isInFolders, normalizeVaultPath } from '../notes/vault-path.ts';
import type { Prompt, PromptArgument, PromptSetting, ResourceSetting } from './vault-config.ts';

/**
 * A prompt's name becomes part of an MCP prompt name (`<repo>__<name>`), as a special tool's
 * does; without `__` of its own, so two repositories' names never meet (`a__b` + `c` and `a`
 * + `b__c` would both be `a__b__c`).
 */
const PROMPT_NAME = /^(?!.*__)[A-Za-z0-9_-]{1,64}$/;
/** An argument's name, as `{name}` in the prompt's text. */
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
/** A placeholder in a prompt's text: `{name}` with a name an argument may have. */
// Single braces only: `{{date}}` (a template plugin's syntax, as Templater and Obsidian's core
// templates write it) is text, never the argument `date`.
export const PLACEHOLDER = /(?<!\{)\{([A-Za-z_][A-Za-z0-9_-]{0,63})\}(?!\})/g;

/** A title or description a client is given in a list: at most 1,000 characters (tools/list's own bound for a tool's field descriptions). */
const optionalText = z.string().trim().min(1).max(1000, 'a title or description holds at most 1,000 characters').nullable().optional();

const argumentSchema = z.strictObject({
  name: z.string().regex(ARGUMENT_NAME),
  description: optionalText,
  required: z.boolean().optional(),
});

const promptSchema = z.strictObject({
  name: z.string().regex(PROMPT_NAME, 'a prompt name holds only letters, digits, "_" and "-" (at most 64), and no "__"'),
  title: optionalText,
  description: optionalText,
  file: z.string().trim().min(1),
  arguments: z.array(argumentSchema).optional(),
});

const resourceSchema = z.union([
  z.strictObject({ note: z.string().trim().min(1), title: optionalText, description: optionalText }),
  z.strictObject({ folder: z.string(), title: optionalText, description: optionalText }),
]);

const PROMPT_EXAMPLE =
  '{ "name": "weekly_update", "file": ".vault/prompts/weekly-update.md", "arguments": [{ "name": "project", "description": "…", "required": true }] }';
const RESOURCE_EXAMPLE = '{ "note": "active/plan.md" } or { "folder": "active/" }';

/**
 * The entries of `prompts` (settings.jsonc), each `{ name, title?, description?, file,
 * arguments?: [{ name, description?, required? }] }`. `file` must be a Markdown file inside
 * `.vault/` (the server alone reads it, and a change to it reaches the next list as any
 * `.vault/` change does). An entry that does not fit, or repeats an earlier name, is left out
 * and `report` says why; the others stay.
 */
export function parsePromptSettings(entries: readonly unknown[], report: (message: string) => void): PromptSetting[] {
  const prompts: PromptSetting[] = [];
  entries.forEach((entry, i) => {
    const where = `prompts[${i}]`;
    const parsed = promptSchema.safeParse(entry);
    if (!parsed.success) {
      report(`${where} is left out: ${issueText(parsed.error)}; a prompt looks like ${PROMPT_EXAMPLE}`);
      return;
    }
    const { name, title, description, file } = parsed.data;
    if (prompts.some((prompt) => prompt.name === name)) {
      report(`${where} is left out: another prompt is already named "${name}"; give each prompt its own name`);
      return;
    }
    const path = file.replace(/^(?:\.\/|\/)+/, '');
    if (!path.startsWith('.vault/') || !path.endsWith('.md') || path.split('/').some((segment) => segment === '..' || segment === '')) {
      report(
        `${where} ("${name}") is left out: file ${JSON.stringify(file)} must be a Markdown file inside .vault/, e.g. ".vault/prompts/${name}.md"`,
      );
      return;
    }
    const args: PromptArgument[] = [];
    for (const argument of parsed.data.arguments ?? []) {
      if (args.some((known) => known.name === argument.name)) {
        report(`${where} ("${name}") is left out: it lists the argument "${argument.name}" twice`);
        return;
      }
      args.push({ name: argument.name, description: argument.description ?? null, required: argument.required ?? false });
    }
    prompts.push({ name, title: title ?? null, description: description ?? null, file: path, arguments: args });
  });
  return prompts;
}

/**
 * The prompts of `settings` with their text: the body of each one's file below any frontmatter,
 * trimmed. A prompt whose file is absent or empty, or whose text holds a `{placeholder}` that
 * names no argument, is left out and reported; an argument the text never uses is reported only.
 */
export async function loadPrompts(
  settings: readonly PromptSetting[],
  read: (path: string) => Promise<string | null>,
  report: (message: string) => void,
): Promise<Prompt[]> {
  const prompts: Prompt[] = [];
  for (const prompt of settings) {
    const text = await read(prompt.file);
    if (text === null) {
      report(`prompt "${prompt.name}" is left out: its file ${prompt.file} does not exist; add it or fix the path`);
      continue;
    }
    const body = text.slice(splitFrontmatter(text).bodyOffset).trim();
    if (body === '') {
      report(`prompt "${prompt.name}" is left out: ${prompt.file} has no text below its frontmatter`);
      continue;
    }
    const names = new Set(prompt.arguments.map((argument) => argument.name));
    const used = new Set([...body.matchAll(PLACEHOLDER)].map((match) => match[1]!));
    const unknown = [...used].filter((name) => !names.has(name));
    if (unknown.length > 0) {
      report(
        `prompt "${prompt.name}" is left out: ${prompt.file} uses ${unknown.map((name) => `{${name}}`).join(', ')}, which ${unknown.length > 1 ? 'are' : 'is'} not among its arguments; list ${unknown.length > 1 ? 'them' : 'it'} in "arguments"`,
      );
      continue;
    }
    const unused = prompt.arguments.filter((argument) => !used.has(argument.name));
    if (unused.length > 0) {
      report(
        `prompt "${prompt.name}": ${prompt.file} never uses ${unused.map((argument) => `{${argument.name}}`).join(', ')}; the value is ignored`,
      );
    }
    prompts.push({ ...prompt, text: body });
  }
  return prompts;
}

/** The most characters a filled prompt holds: a prompt is a message, not a document (a tool's answer holds at most 40,000). */
export const PROMPT_TEXT_MAX = 100_000;

/**
 * How many characters `prompt` filled with `values` would hold (as {@link fillPrompt} fills
 * it), counted without building it, and the argument that adds the most; so a caller's
 * values can be refused before a text of hundreds of megabytes is made.
 */
export function filledPromptLength(
  prompt: Pick<Prompt, 'text' | 'arguments'>,
  values: Readonly<Record<string, string | undefined>>,
): { length: number; largest: string | null } {
  const names = new Set(prompt.arguments.map((argument) => argument.name));
  let length = prompt.text.length;
  const added = new Map<string, number>();
  for (const match of prompt.text.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (!names.has(name)) continue;
    const grows = (values[name] ?? '').length - match[0].length;
    length += grows;
    added.set(name, (added.get(name) ?? 0) + grows);
  }
  const largest = [...added].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return { length, largest };
}

/**
 * A prompt's text with each `{argument}` of `prompt.arguments` replaced by its value in `values`
 * ("" for an optional one not given); other braces stay as written.
 */
export function fillPrompt(prompt: Pick<Prompt, 'text' | 'arguments'>, values: Readonly<Record<string, string | undefined>>): string {
  const names = new Set(prompt.arguments.map((argument) => argument.name));
  return prompt.text.replace(PLACEHOLDER, (whole, name: string) => (names.has(name) ? (values[name] ?? '') : whole));
}

/**
 * The entries of `resources` (settings.jsonc), each `{ note: "<path>.md" }` or
 * `{ folder: "<folder>/" }` ("/" for the whole repository), with an optional `title` and
 * `description`. The path must lie in the settings' `folders` (the tools read nowhere else);
 * an entry that does not fit, or repeats an earlier one, is left out and reported.
 */
export function parseResourceSettings(
  entries: readonly unknown[],
  folders: readonly string[],
  report: (message: string) => void,
): ResourceSetting[] {
  const resources: ResourceSetting[] = [];
  entries.forEach((entry, i) => {
    const where = `resources[${i}]`;
    const parsed = resourceSchema.safeParse(entry);
    if (!parsed.success) {
      // A title or description that is too long says so, not that the entry names nothing.
      const text = parsed.error.issues
        .flatMap((issue) => ('errors' in issue && Array.isArray(issue.errors) ? issue.errors.flat() : [issue]))
        .find((issue) => issue.code === 'too_big');
      report(
        text !== undefined
          ? `${where} is left out: ${text.path.join('.')}: ${text.message}`
          : `${where} is left out: it must name one note or one folder, e.g. ${RESOURCE_EXAMPLE}`,
      );
      return;
    }
    const kind = 'note' in parsed.data ? 'note' : 'folder';
    const given = 'note' in parsed.data ? parsed.data.note : parsed.data.folder;
    let path: string;
    try {
      path = normalizeVaultPath(given.trim().replace(/^(?:\.\/|\/)+/, ''), kind);
    } catch {
      report(
        `${where} is left out: ${JSON.stringify(given)} is not a ${kind} of the repository (a relative path, no "..", no hidden folder)`,
      );
      return;
    }
    if (kind === 'note' && !path.endsWith('.md')) {
      report(`${where} is left out: the note ${JSON.stringify(given)} must be a Markdown file ending in ".md"`);
      return;
    }
    if (kind === 'folder' && path !== '') path += '/';
    const inside =
      kind === 'note' ? isInFolders(path, folders) : folders.includes('/') || folders.some((folder) => `${path}`.startsWith(folder));
    if (!inside) {
      report(`${where} is left out: ${path === '' ? 'the root' : path} is outside the folders the tools read (${folders.join(', ')})`);
      return;
    }
    if (resources.some((known) => known.kind === kind && known.path === path)) {
      report(`${where} is left out: it repeats the ${kind} ${path === '' ? '/' : path}`);
      return;
    }
    resources.push({ kind, path, title: parsed.data.title ?? null, description: parsed.data.description ?? null });
  });
  return resources;
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const at = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${at}${issue.message}`;
}
