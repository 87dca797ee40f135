// The `append` engine (issue 15): adds one entry to a note, or to one section of it (a log, a
// changelog, meeting minutes), from an entry template; with `guard: true` the entries there are
// append-only for edit_note and move_note.
import { z } from 'zod';
import { splitFrontmatter } from '../notes/frontmatter.ts';
import { findHeadings, sectionRange } from '../notes/headings.ts';
import { lineStarts } from '../notes/lines.ts';
import { isInFolders, normalizeVaultPath } from '../notes/vault-path.ts';
import { defineEngine, type Guard, type NoteChange, type Resolved } from './engine.ts';

/** The parameters of an append tool. */
export interface AppendParams {
  /** The one note entries go to; null when the caller names a note of `type`. */
  note: string | null;
  /** The type of the notes entries go to, when `note` is null. */
  type: string | null;
  typeField: string;
  /** The heading whose section holds the entries; null: the note's body. */
  section: string | null;
  /** The entry template: `{date}`, `{person}`, and a field per other placeholder. */
  entry: string;
  /** Where a new entry goes: after the last one (`end`) or before the first (`start`). */
  at: 'end' | 'start';
  guard: boolean;
  /** The template's placeholders that are input fields (all but `date` and `person`), in order. */
  inputs: string[];
}

/** The entry template when the tool file gives none: a list item with the date, the person and the text. */
export const DEFAULT_ENTRY = '- {date} {person}: {text}';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;
const FILLED = new Set(['date', 'person']);

/**
 * `append`: settings `note` (the path of the one note entries go to) or `type` (entries go to
 * the note of that type the caller names), `section` (the heading whose section holds the
 * entries; without it, the note's body), `entry` (the template, default
 * {@link DEFAULT_ENTRY}: `{date}` is today as YYYY-MM-DD (UTC), `{person}` the caller's name,
 * every other `{field}` an input field), `at` (`end`, the default, or `start`: newest first),
 * `guard` (default false). Input: `path` with `type`, then the template's fields.
 */
export const appendEngine = defineEngine({
  name: 'append',
  about: "Adds one entry to a note or to one section of it, with the person's name and the date; existing entries stay as written.",
  defaultTitle: 'Add an entry',
  settings: z
    .strictObject({
      note: z.string({ error: 'note must be the path of a note, e.g. "note: active/launch/log.md"' }).optional(),
      type: z.string({ error: 'type must name a note type of the repository' }).optional(),
      section: z.string({ error: 'section must be the text of a heading, e.g. "section: Log"' }).optional(),
      entry: z.string({ error: 'entry must be a template such as "- {date} {person}: {text}"' }).optional(),
      at: z.enum(['end', 'start'], { error: 'at must be "end" (after the last entry) or "start" (before the first)' }).optional(),
      guard: z.boolean({ error: 'guard must be true or false' }).optional(),
    })
    .refine((settings) => (settings.note === undefined) !== (settings.type === undefined), {
      error: 'give either note (the one note entries go to) or type (entries go to a note of that type the caller names), not both',
    }),
  writes: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  resolve(settings, config): Resolved<AppendParams> {
    let note: string | null = null;
    if (settings.note !== undefined) {
      try {
        note = normalizeVaultPath(settings.note.trim().replace(/^\/+/, ''), 'note');
      } catch {
        return { problem: `note ${JSON.stringify(settings.note)} is not a path of the repository (a relative path to a .md note)` };
      }
      if (!note.endsWith('.md')) return { problem: `note "${note}" must be the path of a note, ending in .md` };
      if (!isInFolders(note, config.settings.folders))
        return {
          problem: `note "${note}" lies outside the folders this repository opens to the tools (${config.settings.folders.join(', ')}), so the tool could never add an entry there`,
        };
    }
    if (settings.type !== undefined && !config.types.has(settings.type))
      return { problem: `type "${settings.type}" names no type: there is no .vault/types/${settings.type}.md` };
    const entry = settings.entry ?? DEFAULT_ENTRY;
    if (entry.trim() === '') return { problem: 'entry is empty: give a template such as "- {date} {person}: {text}"' };
    const inputs = [...new Set([...entry.matchAll(PLACEHOLDER)].map((match) => match[1]!))].filter((name) => !FILLED.has(name));
    if (settings.type !== undefined && inputs.includes('path'))
      return { problem: 'entry may not use {path}: it is the field naming the note' };
    return {
      params: {
        note,
        type: settings.type ?? null,
        typeField: config.settings.typeField,
        section: settings.section?.trim() || null,
        entry,
        at: settings.at ?? 'end',
        guard: settings.guard ?? false,
        inputs,
      },
    };
  },
  input(params) {
    const shape: Record<string, z.ZodType> = {};
    if (params.note === null)
      shape['path'] = z.string().describe(`The note of type "${params.type}" to add the entry to, relative to the repository root.`);
    for (const name of params.inputs)
      shape[name] = z.string().describe(name === 'text' ? 'The entry, in a line or a few.' : `Fills {${name}} in the entry.`);
    return z.object(shape);
  },
  output: () =>
    z.object({
      path: z.string().describe('The note the entry was added to.'),
      line: z.number().describe('The line the entry starts on, counting from 1.'),
      commit: z.string().describe('Hash of the commit that holds the entry, as Git recorded it.'),
    }),
  guards(params, tool) {
    return params.guard ? [appendGuard(params, tool)] : [];
  },
});

/**
 * Where the entries of `text` are, as offsets [start, end): the section under `section` below
 * its heading line (to the next heading of the same or a higher level), or the body below the
 * frontmatter; leading blank lines and trailing white space left out (the first line's
 * indentation is part of it: an entry re-indented into a code block is an entry changed).
 * Null when the note has no such section.
 */
export function entriesRegion(text: string, section: string | null): { start: number; end: number } | null {
  const starts = lineStarts(text);
  let start: number;
  let end: number;
  if (section === null) {
    start = splitFrontmatter(text).bodyOffset;
    end = text.length;
  } else {
    const range = sectionRange(text, findHeadings(text), section);
    if (range === null) return null;
    start = range.fromLine < starts.length ? starts[range.fromLine]! : text.length;
    end = range.toLine < starts.length ? starts[range.toLine]! : text.length;
  }
  const inside = text.slice(start, end);
  const trimmedEnd = start + inside.replace(/\s+$/u, '').length;
  const leading = /^(?:[ \t]*\r?\n)*/u.exec(inside)![0].length;
  return { start: Math.min(start + leading, trimmedEnd), end: trimmedEnd };
}

/** Whether `path` with `text` (its frontmatter) is a note the tool adds entries to. */
export function appendsTo(params: AppendParams, path: string, text: string): boolean {
  if (params.note !== null) return path === params.note;
  const data = splitFrontmatter(text).data;
  return data?.[params.typeField] === params.type;
}

/** Where the entries are, as a refusal names them: `"log.md"` or `the section "Log" of "log.md"`. */
export function entriesName(params: AppendParams, path: string): string {
  return params.section === null ? `"${path}"` : `the section "${params.section}" of "${path}"`;
}

/**
 * The append-only guard: a change of a note the tool adds to must keep the entries there as
 * written, newer ones only added (after them with `at: end`, before them with `at: start`);
 * a note holding entries may not be removed, nor moved away from the one `note`.
 */
function appendGuard(params: AppendParams, tool: string): Guard {
  return {
    tool,
    tools: ['edit_note', 'move_note'],
    check(change: NoteChange, writer) {
      const before = change.before;
      if (before === null || !appendsTo(params, before.path, before.text)) return null;
      const region = entriesRegion(before.text, params.section);
      if (region === null || region.end <= region.start) return null;
      const entries = before.text.slice(region.start, region.end);
      const where = entriesName(params, before.path);
      const rule = `The entries of ${where} are append-only: ${writer} may not change or remove one, nor put anything ${params.at === 'end' ? 'before' : 'after'} one. Add an entry with ${tool}`;
      if (change.after === null) return `${rule}; the note itself stays.`;
      if (params.note !== null && change.after.path !== params.note)
        return `${rule}, which adds them to "${params.note}"; that note stays where it is. Move other notes freely.`;
      // A note of the type that stopped being one would take its entries out of the guard.
      if (params.note === null && !appendsTo(params, change.after.path, change.after.text))
        return `${rule}; the note stays a ${params.type} note (${params.typeField}: ${params.type}) while it holds entries, so leave its type as it is.`;
      const after = entriesRegion(change.after.text, params.section);
      const now = after === null ? '' : change.after.text.slice(after.start, after.end);
      // Kept whole lines: text glued onto the last entry's line (or before the first's) changes that entry.
      const kept =
        params.at === 'end'
          ? now.startsWith(entries) && (now.length === entries.length || /^\r?\n/.test(now.slice(entries.length)))
          : now.endsWith(entries) && (now.length === entries.length || now[now.length - entries.length - 1] === '\n');
      if (!kept)
        return `${rule}; change the rest of the note as you like, leaving ${params.section === null ? 'the entries' : 'that section'} as it stands.`;
      // Text that leaves a comment or block open above or among the entries hides them all.
      const opened = unclosedBlock(change.after.text.slice(0, after!.end));
      if (opened !== null && unclosedBlock(before.text.slice(0, region.end)) === null)
        return `The entries of ${where} are append-only, and this change leaves ${opened} open above or among them, which would hide every entry in rendered views. Close it, or leave it out; add an entry with ${tool}.`;
      return null;
    },
  };
}

/**
 * The first construct `text` leaves open that runs on to the end of a note in rendered views,
 * as a phrase ("a %% comment"), or null: an odd number of Obsidian's `%%` comment marks, an
 * HTML comment `<!--` with no `-->` after it, an odd number of `$$` math marks, a code fence
 * not closed, or an HTML block of CommonMark's first kind (`<pre>`, `<script>`, `<style>`,
 * `<textarea>`) without its closing tag.
 */
export function unclosedBlock(text: string): string | null {
  if ((text.match(/%%/g)?.length ?? 0) % 2 === 1) return 'a %% comment';
  if (text.lastIndexOf('<!--') > text.lastIndexOf('-->')) return 'an HTML comment (<!--)';
  if ((text.match(/\$\$/g)?.length ?? 0) % 2 === 1) return 'a $$ math block';
  let fence: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1] ?? null;
    if (opener === null) continue;
    if (fence === null) fence = opener;
    else if (opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = null;
  }
  if (fence !== null) return `a code block (${fence})`;
  for (const tag of ['pre', 'script', 'style', 'textarea']) {
    const opened = text.match(new RegExp(`<${tag}(?=[\\s>]|$)`, 'gi'))?.length ?? 0;
    if (opened > (text.match(new RegExp(`</${tag}>`, 'gi'))?.length ?? 0)) return `a <${tag}> block`;
  }
  return null;
}
