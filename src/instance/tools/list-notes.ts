// list_notes: the notes under a folder, one line each, filtered by type or status, paged
// (spec: "list_notes").
import { fieldText } from '../../notes/field-text.ts';
import type { NoteIndex, NoteListing, Scope } from '../../note-index/note-index.ts';
import { implement, type Vault } from '../tool.ts';
import { listNotes as definition, type ListedNote } from '../../tools/list-notes.ts';
import { ANSWER_LIMIT, cutEcho, fitAnswer, pastTheEnd } from './answer-budget.ts';
import { answerPath, assertFolderExists, callTargets, folderScope, liveScopes } from './read-scope.ts';

/** The list_notes tool (spec: "list_notes"; contract: spec/acme-tools-list.json). */
export const listNotes = implement(definition, {
  async handler(input, ctx) {
    const { across, namedByPath, targets } = await callTargets(ctx, input.repo, input.folder, 'folder');
    const strict = !across || namedByPath;
    const scopes: Scope[] = liveScopes(targets.map(({ vault, path }) => folderScope(vault, path, strict)));
    const vaults = new Map<string, Vault>(targets.map(({ vault }) => [vault.name, vault]));
    const filter = {
      ...(input.type === undefined ? {} : { type: input.type }),
      ...(input.status === undefined ? {} : { status: input.status }),
    };
    const page = { limit: input.limit, offset: input.offset };
    let { notes, total } = await ctx.index.listNotes(scopes, filter, page);
    if (total === 0 && input.status !== undefined)
      ({ notes, total } = (await listedStatusMatches(ctx.index, scopes, input.type, input.status, page)) ?? { notes, total });

    const remarks: string[] = [];
    if (total === 0) {
      await assertFolderExists(ctx.index, targets, across);
      remarks.push(...(await emptyRemarks(ctx.index, scopes, input.type, input.status)));
    } else if (notes.length === 0 && input.offset >= total) {
      remarks.push(pastTheEnd(input.offset, total, 'notes', 'list_notes', input.limit));
    }
    const items = notes.map((note) =>
      listedNote(note, across, input.fields ?? vaults.get(note.repo)?.config.settings.overview?.fields ?? []),
    );
    const { answer } = fitAnswer(items, (kept, cut) => {
      const hasMore = input.offset + kept.length < total;
      const note = [...remarks];
      if (cut) note.push(`The page was cut at ${kept.length} notes to stay within ${ANSWER_LIMIT} characters.`);
      if (hasMore) note.push(`More notes follow: call list_notes again with offset ${input.offset + kept.length}.`);
      return {
        notes: [...kept],
        total,
        offset: input.offset,
        hasMore,
        ...(note.length > 0 ? { note: note.join(' ') } : {}),
        ...(across ? {} : { repo: targets[0]!.vault.name }),
      };
    });
    return answer;
  },
});

function listedNote(note: NoteListing, across: boolean, fields: readonly string[]): ListedNote {
  const item: ListedNote = { path: answerPath(note.repo, note.path, across), title: note.title };
  if (note.type !== null) item.type = note.type;
  if (note.summary !== null) item.summary = note.summary;
  const shown: Record<string, string> = {};
  for (const field of fields) {
    const value = note.frontmatter?.[field];
    if (value !== undefined && value !== null && note.frontmatter && Object.hasOwn(note.frontmatter, field))
      shown[field] = fieldText(value);
  }
  if (Object.keys(shown).length > 0) item.fields = shown;
  if (across) item.repo = note.repo;
  return item;
}

/**
 * The page of notes whose frontmatter `status` is a list holding `status` (kepano's vault
 * writes `status: ["[[Published]]"]`), which the index's filter, comparing the field as
 * written, does not find; null when no note's status is such a list. Reads the scope's
 * listing once, so it runs only after the exact filter found nothing.
 */
async function listedStatusMatches(
  index: NoteIndex,
  scopes: readonly Scope[],
  type: string | undefined,
  status: string,
  page: { limit: number; offset: number },
): Promise<{ notes: NoteListing[]; total: number } | null> {
  const values = await index.fieldValues(scopes, 'status');
  if (!values.some((v) => listItems(v.value)?.includes(status))) return null;
  const matches: NoteListing[] = [];
  const batch = 1000;
  for (let offset = 0; ; offset += batch) {
    const { notes } = await index.listNotes(scopes, type === undefined ? {} : { type }, { limit: batch, offset });
    for (const note of notes) {
      const value = note.frontmatter?.['status'];
      if (Array.isArray(value) && value.some((item) => fieldText(item) === status)) matches.push(note);
    }
    if (notes.length < batch) break;
  }
  return { notes: matches.slice(page.offset, page.offset + page.limit), total: matches.length };
}

/** The items' texts of a field value the index gives as JSON text of a list (`'["a","b"]'`); null for any other value. */
function listItems(value: string): string[] | null {
  if (!value.startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(fieldText) : null;
  } catch {
    return null;
  }
}

/** A field value as the index gives it (a list or mapping as JSON text), shown as list_notes shows fields. */
function valueText(value: string): string {
  if (!value.startsWith('[') && !value.startsWith('{')) return value;
  try {
    return fieldText(JSON.parse(value));
  } catch {
    return value;
  }
}

/** Why nothing matched, with the types or statuses there are (spec: "answered with the types there are"). */
async function emptyRemarks(index: NoteIndex, scopes: readonly Scope[], type?: string, status?: string): Promise<string[]> {
  const remarks: string[] = [];
  for (const [field, value] of [
    ['type', type],
    ['status', status],
  ] as const) {
    if (value === undefined) continue;
    const values = await index.fieldValues(scopes, field);
    if (values.some((v) => v.value === value || (field === 'status' && listItems(v.value)?.includes(value)))) continue;
    remarks.push(
      values.length === 0
        ? `No note here has a ${field} at all.`
        : `No note here has ${field} "${cutEcho(value)}". The ${field === 'type' ? 'types' : 'statuses'} there are: ${values
            .slice(0, 50)
            .map((v) => `${JSON.stringify(valueText(v.value))} (${v.notes})`)
            .join(', ')}.`,
    );
  }
  if (remarks.length === 0) {
    remarks.push(
      type === undefined && status === undefined
        ? 'There are no notes in this folder.'
        : 'No note here matches all of the filters together.',
    );
  }
  return remarks;
}
