// The `append` engine's handler: one entry, from the tool's template, added to its note or section.
import { posix } from 'node:path';
import { lineEnding, lineStarts, lineOfOffset } from '../../notes/lines.ts';
import { assertInFolders } from '../../notes/vault-path.ts';
import {
  appendEngine,
  appendsTo,
  entriesName,
  entriesRegion,
  unclosedBlock,
  type AppendParams,
} from '../../special-tools/append-engine.ts';
import { VaultError } from '../../vault-error.ts';
import { commitChange, writableVault } from '../../writes/commit-change.ts';
import { implementEngine } from './engine-handler.ts';
import { ownNote } from './own-note.ts';
import { linkRefusal } from '../../writes/symlinks.ts';

/**
 * Adds one entry: the template with `{date}` (today, YYYY-MM-DD, UTC), `{person}` (the
 * caller's name) and the input's fields (each on one line: line breaks inside a field become
 * spaces unless the template puts it on its own lines), after the last entry (`at: end`) or
 * before the first (`at: start`) of the note's section, or of its body. Refused when the note
 * does not exist (`note_not_found`, saying create_note makes it), is not of the tool's type,
 * or has no such section (`heading_not_found`, saying which heading to add). One commit,
 * authored by the caller, its subject naming the tool.
 */
export const appendEngineHandler = implementEngine(appendEngine, {
  async handler(input, ctx, tool) {
    const params = tool.params;
    const vault = writableVault(ctx, tool.repo);
    const folders = vault.config.settings.folders;
    let path: string;
    if (params.note !== null) {
      path = params.note;
      assertInFolders(path, folders);
    } else {
      path = await ownNote(ctx, tool, String(input['path'] ?? ''), `note of type "${params.type}"`);
    }
    assertEntryFields(params, input, tool.name);
    const entry = fillEntry(params, input, ctx.access.person.name, new Date());
    const done = await commitChange(
      ctx,
      tool.repo,
      { tool: tool.name, summary: `Added an entry to ${posix.basename(path)}`.slice(0, 60) },
      async (read) => {
        // The note, or a folder on its way, is a symbolic link: never written through, and the
        // tool file is what names it, so the refusal says to fix that file.
        const link = (await read.links([path])).get(path);
        if (link !== undefined) {
          const refusal = linkRefusal(path, link, tool.name, 'never writes through a link', 'Add the entry with edit_note at', folders);
          throw new VaultError(
            refusal.code,
            `${refusal.message} ${tool.name} adds its entries to "${path}" as .vault/tools/${tool.spec.name}.md says: point its note at the note itself.`,
            refusal.details,
          );
        }
        const text = await read.text(path);
        if (text === null) {
          throw new VaultError(
            'note_not_found',
            params.note !== null
              ? `The note "${path}", where ${tool.name} adds entries, does not exist yet. Create it with create_note (repo "${tool.repo}"${params.section === null ? '' : `, with a heading "${params.section}"`}), then add the entry.`
              : `There is no note "${path}". Give the path of a note of type "${params.type}"; list_notes finds one.`,
            { path },
          );
        }
        if (params.note === null && !appendsTo(params, path, text))
          throw new VaultError(
            'bad_arguments',
            `"${path}" is not a note of type "${params.type}", and ${tool.name} adds entries only to those. Give the path of one; list_notes with type "${params.type}" lists them.`,
            { path },
          );
        const { text: next, offset } = withEntry(text, params, entry, path);
        return { files: [{ path, content: Buffer.from(next, 'utf8') }], result: { line: lineOfOffset(lineStarts(next), offset) } };
      },
    );
    return { path, line: done.result.line, commit: done.commit ?? '' };
  },
});

/** The most characters one field of an entry holds (an entry is a line or a few, not a document). */
export const ENTRY_FIELD_MAX = 10_000;

/**
 * Refuses (VaultError `bad_arguments`, nothing written) an entry's field that would reach past
 * its entry: longer than {@link ENTRY_FIELD_MAX}; leaving a comment, math or code block open
 * (unclosedBlock: `%%`, `<!--`, `$$`, a fence, `<pre>`…), which hides every entry after it;
 * and, for a field the template puts on a line of its own (its lines kept), a line outside a
 * code block that is a heading (it would end the section or start a forged entry) or is
 * shaped like the template's first line (another person's entry, another day).
 */
export function assertEntryFields(params: AppendParams, input: Record<string, unknown>, tool: string): void {
  const refuse = (field: string, why: string) => {
    throw new VaultError('bad_arguments', `${field} ${why}; nothing was written. Send the entry without it.`, { field });
  };
  const shape = entryShape(params.entry);
  for (const name of params.inputs) {
    const value = String((Object.hasOwn(input, name) ? input[name] : null) ?? '');
    const length = [...value].length;
    if (length > ENTRY_FIELD_MAX)
      refuse(
        name,
        `holds ${length} characters, and an entry's field at most ${ENTRY_FIELD_MAX} (${tool} adds a line or a few): put the longer text in a note of its own with create_note and name it in the entry`,
      );
    const opened = unclosedBlock(value);
    if (opened !== null) refuse(name, `opens ${opened} it does not close, which would hide every entry after it`);
    if (!onLineOfItsOwn(params.entry, name)) continue;
    let fence: string | null = null;
    let previous = '';
    for (const [i, line] of value.split(/\r?\n/).entries()) {
      const at = `line ${i + 1} of ${name} ("${line.trim().slice(0, 60)}")`;
      const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1] ?? null;
      if (fence !== null) {
        if (opener !== null && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = null;
      } else if (opener !== null) {
        fence = opener;
      } else if (/^ {0,3}#{1,6}(?:[ \t]|$)/.test(line) || (previous.trim() !== '' && /^ {0,3}(?:=+|-{2,})[ \t]*$/.test(line))) {
        refuse(
          at,
          `is a heading, which would end the entries' section or read as an entry of its own (write it as plain text, or as **bold**)`,
        );
      } else if (shape !== null && shape.test(line)) {
        refuse(
          at,
          `reads as an entry of its own (the entries start "${params.entry.split('\n')[0]}"), which would put words under another name or day`,
        );
      }
      previous = line;
    }
  }
}

/** Whether `{name}` stands on a line of its own in `template` (its field then keeps its lines). */
function onLineOfItsOwn(template: string, name: string): boolean {
  return template.split('\n').some((line) => line.trim() === `{${name}}`);
}

/**
 * A pattern of the template's first line (each placeholder any text), when that line holds
 * text of its own besides placeholders: a line of a field it matches reads as another entry.
 */
function entryShape(template: string): RegExp | null {
  const first =
    template
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  const fixed = first.replace(/\{[A-Za-z_][A-Za-z0-9_-]*\}/g, '').trim();
  if (fixed === '' || fixed === first) return null;
  const parts = first.split(/\{[A-Za-z_][A-Za-z0-9_-]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\s*${parts.join('.+?')}\\s*$`, 'u');
}

/**
 * The entry's text: the template filled; the caller's fields trimmed. A field that stands on a
 * line of its own in the template keeps its lines; anywhere else its line breaks become spaces,
 * so a field cannot add a line that reads as another entry (another person, another day) or a
 * heading that ends the section.
 */
export function fillEntry(params: AppendParams, input: Record<string, unknown>, person: string, now: Date): string {
  const values = new Map<string, string>([
    ['date', now.toISOString().slice(0, 10)],
    ['person', person.replace(/\s+/g, ' ')],
  ]);
  for (const name of params.inputs) values.set(name, String((Object.hasOwn(input, name) ? input[name] : null) ?? '').trim());
  const template = params.entry;
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_-]*)\}/g, (whole, name: string, offset: number) => {
    const value = values.get(name);
    if (value === undefined) return whole;
    const lineStart = template.lastIndexOf('\n', offset - 1) + 1;
    const lineEnd = template.indexOf('\n', offset);
    const line = template.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
    return line.trim() === whole ? value : value.replace(/\s*\r?\n\s*/g, ' ');
  });
}

/** `text` with `entry` added where the tool's entries go, and the offset the entry starts at. */
function withEntry(text: string, params: AppendParams, entry: string, path: string): { text: string; offset: number } {
  const region = entriesRegion(text, params.section);
  if (region === null) {
    throw new VaultError(
      'heading_not_found',
      `${entriesName(params, path)} does not exist: the note has no heading "${params.section}". Add the heading with edit_note, then add the entry.`,
      { path, heading: params.section },
    );
  }
  const eol = lineEnding(text);
  const lines = entry.replace(/\r?\n/g, eol).replace(/\s+$/u, '');
  const empty = region.end <= region.start;
  if (params.at === 'start' || empty) {
    // Before the first entry, or, with none yet, right below the heading (at the body's start).
    const before = text.slice(0, region.start);
    const after = text.slice(region.start);
    const lead = before === '' || before.endsWith('\n') ? '' : eol;
    const gap = after === '' || !empty || /^\r?\n/.test(after) ? '' : eol;
    return { text: `${before}${lead}${lines}${eol}${gap}${after}`, offset: before.length + lead.length };
  }
  const before = text.slice(0, region.end);
  const after = text.slice(region.end);
  const joined = `${before}${eol}${lines}${after === '' ? eol : after}`;
  return { text: joined, offset: before.length + eol.length };
}
