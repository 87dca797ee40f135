// list_notes: the notes under a folder, one line each, filtered by type or status, paged
// (spec: "list_notes").
import { z } from 'zod';
import { fieldText } from '../../notes/field-text.ts';
import type { NoteIndex, NoteListing, Scope } from '../../note-index/note-index.ts';
import { defineTool, type Vault } from '../tool.ts';
import { fitAnswer } from './answer-budget.ts';
import { answerPath, callTargets, folderScope } from './read-scope.ts';

const output = z
  .object({
    notes: z.array(
      z
        .object({
          path: z.string().describe('Path of the note, relative to the vault root.'),
          title: z.string().describe('Its title from the frontmatter, or its file name.'),
          type: z.string().optional(),
          summary: z.string().optional(),
          fields: z.record(z.string(), z.string()).optional(),
          repo: z.string().optional(),
        })
        .strict(),
    ),
    total: z.number().describe('How many notes match, across all pages.'),
    offset: z.number().describe('How many notes were skipped before this page.'),
    hasMore: z.boolean().describe('True when more notes follow after this page.'),
    note: z.string().optional(),
    repo: z.string().optional(),
  })
  .strict();

type ListedNote = z.output<typeof output>['notes'][number];

/** The list_notes tool (spec: "list_notes"; contract: spec/acme-tools-list.json). */
export const listNotes = defineTool({
  name: 'list_notes',
  title: 'List the notes',
  description: 'Lists the notes under a folder, one line per note.',
  annotations: { readOnlyHint: true, openWorldHint: false },
  input: (repo) =>
    z.object({
      folder: z
        .string()
        .optional()
        .describe('Only notes below this folder, relative to the vault root, for example "projects/apollo". Leave it out for the whole vault.'),
      type: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Only notes whose frontmatter type is exactly this, for example "note" or "task". A type that matches nothing is answered with the types there are.',
        ),
      status: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Only notes whose frontmatter status is exactly this, for example "draft". A status that matches nothing is answered with the ones there are.',
        ),
      fields: z
        .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/))
        .max(10)
        .optional()
        .describe(
          'Extra frontmatter fields to show for each note, for example ["stand", "status"]. A note without the field just leaves it out. Dates come as YYYY-MM-DD, lists joined with commas.',
        ),
      limit: z.number().int().min(1).max(200).default(50).describe('How many notes to list on this page.'),
      offset: z.number().int().min(0).default(0).describe('How many notes to skip. An answer with more after it names the next offset.'),
      repo: repo.optional(),
    }),
  output,
  async handler(input, ctx) {
    const { across, namedByPath, targets } = await callTargets(ctx, input.repo, input.folder, 'folder');
    const strict = !across || namedByPath;
    const scopes: Scope[] = targets.map(({ vault, path }) => folderScope(vault, path, strict));
    const vaults = new Map<string, Vault>(targets.map(({ vault }) => [vault.name, vault]));
    const filter = { ...(input.type === undefined ? {} : { type: input.type }), ...(input.status === undefined ? {} : { status: input.status }) };
    const { notes, total } = await ctx.index.listNotes(scopes, filter, { limit: input.limit, offset: input.offset });

    const remarks: string[] = [];
    if (total === 0) remarks.push(...(await emptyRemarks(ctx.index, scopes, input.type, input.status)));
    const items = notes.map((note) => listedNote(note, across, input.fields ?? vaults.get(note.repo)?.config.settings.overview?.fields ?? []));
    const { answer } = fitAnswer(items, (kept, cut) => {
      const hasMore = input.offset + kept.length < total;
      const note = [...remarks];
      if (cut) note.push(`The page was cut at ${kept.length} notes to stay within 40000 characters.`);
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
    if (value !== undefined && value !== null && note.frontmatter && Object.hasOwn(note.frontmatter, field)) shown[field] = fieldText(value);
  }
  if (Object.keys(shown).length > 0) item.fields = shown;
  if (across) item.repo = note.repo;
  return item;
}

/** Why nothing matched, with the types or statuses there are (spec: "answered with the types there are"). */
async function emptyRemarks(index: NoteIndex, scopes: readonly Scope[], type?: string, status?: string): Promise<string[]> {
  const remarks: string[] = [];
  for (const [field, value] of [['type', type], ['status', status]] as const) {
    if (value === undefined) continue;
    const values = await index.fieldValues(scopes, field);
    if (values.some((v) => v.value === value)) continue;
    remarks.push(
      values.length === 0
        ? `No note here has a ${field} at all.`
        : `No note here has ${field} "${value}". The ${field === 'type' ? 'types' : 'statuses'} there are: ${values
            .slice(0, 50)
            .map((v) => `"${v.value}" (${v.notes})`)
            .join(', ')}.`,
    );
  }
  if (remarks.length === 0) {
    remarks.push(type === undefined && status === undefined ? 'There are no notes in this folder.' : 'No note here matches all of the filters together.');
  }
  return remarks;
}
