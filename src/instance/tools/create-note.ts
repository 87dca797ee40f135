// create_note: a new note at a path, or at its type's place, with frontmatter and body; idempotent.
import { posix } from 'node:path';
import type { NoteType, VaultConfig } from '../../config/vault-config.ts';
import { fieldText } from '../../notes/field-text.ts';
import { buildNoteText } from '../../notes/frontmatter-writer.ts';
import { buildPlace } from '../../notes/places.ts';
import { assertInFolders, isExempt, normalizeVaultPath } from '../../notes/vault-path.ts';
import { VaultError } from '../../vault-error.ts';
import { refuseGuarded } from '../../special-tools/guarded-change.ts';
import { commitChange, writableVault } from '../../writes/commit-change.ts';
import { sameFileAs } from '../../writes/same-path.ts';
import { assertPortablePath } from '../../writes/portable-path.ts';
import { linkRefusal } from '../../writes/symlinks.ts';
import { fitsPlace, placeRefusal, requireType, schemaProblems, schemaRefusal } from '../../writes/type-rules.ts';
import { implement, type ToolContext } from '../tool.ts';
import { createNote as definition } from '../../tools/create-note.ts';
import { withoutRepoPrefix } from './existing-path.ts';

/** How a refusal names what is in the way. */
const KIND_NAMES = { file: 'file', symlink: 'symbolic link', submodule: 'submodule', folder: 'folder' } as const;

/** Where a new note goes and what it holds, before the repository is looked at. */
export interface PlannedNote {
  path: string;
  content: Buffer;
}

/**
 * The `create_note` tool (spec: "create_note", "Note types"; issue 4).
 * - Without a type: `path` is the whole file path, ending in `.md`.
 * - With `type` (or the repository's `defaultType`; never for a README or an `exempt` path):
 *   the path is built from the type's first place, placeholders filled from the frontmatter
 *   (`{title:slug}` by the notes model's slug rule; a title that slugs to nothing is refused);
 *   `path` may name a folder below the type's folder (`meetings/{title:slug}.md` with path
 *   `2026` gives `meetings/2026/<slug>.md`), or a whole `.md` path that fits a place. The type
 *   field is set (first, when the caller did not give it), the frontmatter is checked against
 *   the type's JSON Schema (ajv, 2020-12) and the body fills the type's template: `{body}`
 *   takes the body, `{field}` a frontmatter field's text; a template without `{body}` gets the
 *   body after it.
 * - The frontmatter is written so it parses back to exactly the values given.
 * - Idempotent: when the same note is already there (same bytes), nothing is committed and the
 *   answer names the commit that last wrote it; a different file at that path, or at one that
 *   differs only by Unicode normalisation (or by case, on a case-insensitive checkout), is
 *   never overwritten: refused with `exists`, naming it. So is anything else there — a symbolic
 *   link, a submodule, a folder — and a file where a folder of the path should be (the host
 *   refuses that one at commit time), and a folder on the way that is a symbolic link
 *   (`not_a_note`, naming where it points). A new name must suit a checkout on macOS and
 *   Windows too (see {@link assertPortablePath}): a name or folder that differs from one
 *   there only in case is refused with `exists`, naming it; a name Windows cannot hold
 *   (`CON`, `a:b`, a trailing dot) with `invalid_path`. Only the folders on the way are
 *   looked at, not a snapshot.
 */
export const createNote = implement(definition, {
  async handler(input, ctx) {
    const vault = writableVault(ctx, input.repo);
    // A path written `<repo>/<path>` is read as every tool reads one (withoutRepoPrefix).
    const path =
      input.path === undefined ? undefined : await withoutRepoPrefix(ctx.host, input.repo, input.path, vault.config.settings.folders);
    const planned = planNote(vault.config, { ...input, path });
    const done = await commitNewNote(ctx, input.repo, planned, 'create_note', vault.config);
    return { path: done.path, commit: done.commit, repo: input.repo };
  },
});

/**
 * Commits the new note `planned` to `repo` as the tool `tool` (named in the commit subject and
 * in refusals), as create_note does (see {@link createNote}): never through a symbolic link,
 * never over anything at its path (refused with `exists`, naming it), idempotent when the same
 * note is already committed there (the commit that wrote it is answered), and never with what
 * a guard of `config` (the repository's configuration) owns (spec: "Guards"). `config`'s open
 * folders give a refusal's advice.
 */
export async function commitNewNote(
  ctx: ToolContext,
  repo: string,
  planned: PlannedNote,
  tool: string,
  config: VaultConfig,
): Promise<{ path: string; commit: string }> {
  refuseGuarded(
    repo,
    config,
    'create_note',
    [{ before: null, after: { path: planned.path, text: planned.content.toString('utf8') } }],
    tool,
  );
  const folders = config.settings.folders;
  const ignoreCase = await ctx.host.foldsCase(repo);
  const folder = posix.dirname(planned.path) === '.' ? '' : posix.dirname(planned.path);
  const done = await commitChange(ctx, repo, { tool, summary: `Created ${posix.basename(planned.path)}`.slice(0, 60) }, async (read) => {
    // A folder on the way that is a symbolic link: the note would land wherever it points.
    const link = (await read.links([planned.path])).get(planned.path);
    if (link !== undefined && link.link !== planned.path)
      throw linkRefusal(planned.path, link, tool, 'never writes through a link', 'Create the note at', folders);
    // The note's folder: the path and the names that would be the same file on this checkout
    // (Unicode normalisation, and case on a case-insensitive one).
    const entries = await read.folder(folder);
    const existing = sameFileAs(
      entries.map((entry) => entry.path),
      planned.path,
      ignoreCase,
    );
    if (existing === null) {
      // A new name must suit every checkout: the folders on the way are listed too.
      await assertPortablePath(
        planned.path,
        async (at) => (at === folder ? entries : await read.folder(at)).map((entry) => posix.basename(entry.path)),
        {
          what: 'note path',
          instead: (other) => `Change "${other}" with edit_note, or create the note under another title or path.`,
        },
      );
      return {
        files: [{ path: planned.path, content: planned.content }],
        result: { path: planned.path, holder: null as string | null },
      };
    }
    const kind = entries.find((entry) => entry.path === existing)!.kind;
    const content = kind === 'file' ? await read.file(existing) : null;
    if (content === null || !content.equals(planned.content)) {
      const what = kind === 'file' ? '' : ` as a ${KIND_NAMES[kind]}`;
      throw new VaultError(
        'exists',
        `"${existing}" already exists${what}${existing === planned.path ? '' : ` (the same path as "${planned.path}" for this repository)`}, and ${tool} never overwrites anything. ${kind === 'file' ? 'Change it with edit_note, or create' : 'Create'} the note under another title or path.`,
        { path: existing },
      );
    }
    // The same note is already there: the call was made before. Answer as it was answered.
    const holder = await committedBy(ctx, repo, read.head, existing);
    if (holder !== null) return { files: [], result: { path: existing, holder } };
    // The same text, but not committed: a person's file (untracked, or changed and not
    // committed). Taking it over would commit their work under the assistant's subject, and
    // the answer has no field to say so: refused.
    throw new VaultError(
      'exists',
      `"${existing}" already exists in the work tree with exactly this text, but it is not committed (someone's untracked file or uncommitted change), and ${tool} never commits a file it did not write. Leave it for its author to commit, or create the note under another title or path.`,
      { path: existing, committed: false },
    );
  });
  return { path: done.result.path, commit: done.result.holder ?? done.commit ?? done.parent ?? '' };
}

/** The path and bytes of the new note, from the call and the repository's types. */
function planNote(
  config: VaultConfig,
  input: { path?: string | undefined; type?: string | undefined; frontmatter?: Record<string, unknown> | undefined; body: string },
): PlannedNote {
  const values: Record<string, unknown> = { ...(input.frontmatter ?? {}) };
  const folders = config.settings.folders;
  const givenPath = input.path === undefined || input.path.trim() === '' ? null : input.path;
  const fullPath = givenPath !== null && /\.md$/i.test(givenPath.trim()) ? normalizeVaultPath(givenPath, 'note') : null;
  const untypedPlace = fullPath !== null && isExempt(fullPath, config.settings.exempt);
  const typeName = input.type ?? (untypedPlace ? null : defaultTypeOf(config));
  if (typeName === null || untypedPlace) {
    if (fullPath === null) {
      throw new VaultError(
        'bad_arguments',
        givenPath === null
          ? 'Give path: the whole file path of the new note, ending in .md, for example "projects/apollo/plan.md".'
          : `The path "${givenPath}" does not end in .md. Give the whole file path of the note, ${mdPathExamples(givenPath)}.`,
      );
    }
    assertInFolders(fullPath, folders);
    if (typeName !== null) {
      const type = requireType(config, typeName);
      withTypeField(values, config, type);
    }
    return { path: fullPath, content: Buffer.from(withFinalNewline(buildNoteText(values, input.body)), 'utf8') };
  }
  const type = requireType(config, typeName);
  withTypeField(values, config, type);
  const path = typedPath(type, values, givenPath, fullPath);
  assertInFolders(path, folders);
  const problems = schemaProblems(type, values);
  if (problems.length > 0) throw schemaRefusal(type, path, problems);
  return { path, content: Buffer.from(withFinalNewline(buildNoteText(values, fillTemplate(type.template, values, input.body))), 'utf8') };
}

/**
 * How a path given without `.md` could be written, as the refusal suggests it: a name with
 * another extension (`todo.txt`) as the same name in `.md`; a name without one as itself in
 * `.md`, or, for a folder, a note inside it (`ideas/new` → "ideas/new.md" or "ideas/new/plan.md").
 */
function mdPathExamples(givenPath: string): string {
  const path = givenPath.trim().replace(/\/+$/, '');
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  if (dot > 0) return `for example "${path.slice(0, slash + 1)}${name.slice(0, dot)}.md"`;
  if (path === '') return 'for example "plan.md"';
  return givenPath.trim().endsWith('/')
    ? `for example "${path}/plan.md"`
    : `for example "${path}.md", or "${path}/plan.md" for a note in that folder`;
}

/**
 * `text` ending in exactly one line break, as a text file does (POSIX; Git marks a file without
 * one), whether or not the body and the template ended in one: one `\n` added when there was
 * none, trailing blank lines dropped (a body ending in a line break put into a template line
 * would otherwise end in two), the last break's own style (`\r\n` or `\n`) kept. An empty
 * note stays empty.
 */
export function withFinalNewline(text: string): string {
  if (text === '') return text;
  const end = /(\r?\n)(?:\r?\n)*$/.exec(text);
  return end === null ? `${text}\n` : `${text.slice(0, end.index)}${end[1]}`;
}

/** The repository's `defaultType` when it names a type it has; null otherwise. */
function defaultTypeOf(config: VaultConfig): string | null {
  const name = config.settings.defaultType;
  return name !== null && config.types.has(name) ? name : null;
}

/** Sets the type field (first among the keys) or refuses a different one given by the caller. */
export function withTypeField(values: Record<string, unknown>, config: VaultConfig, type: NoteType): void {
  const field = config.settings.typeField;
  if (field in values) {
    if (values[field] !== type.name) {
      throw new VaultError(
        'bad_arguments',
        `The frontmatter says ${field}: ${JSON.stringify(values[field])}, but the note is made as "${type.name}". Leave ${field} out of the frontmatter, or give the same type.`,
      );
    }
    return;
  }
  const rest = { ...values };
  for (const key of Object.keys(values)) delete values[key];
  Object.assign(values, { [field]: type.name }, rest);
}

/** The path of a typed note: its first place built from the fields, moved below `path` when that names a folder. */
function typedPath(type: NoteType, values: Record<string, unknown>, givenPath: string | null, fullPath: string | null): string {
  if (fullPath !== null) {
    if (type.places.length > 0 && !fitsPlace(type, fullPath)) throw placeRefusal(type, fullPath);
    return fullPath;
  }
  const place = type.places[0];
  if (place === undefined) {
    throw new VaultError(
      'bad_arguments',
      `The type "${type.name}" names no places, so the note's path cannot be built. Give path: the whole file path, ending in .md.`,
      { type: type.name },
    );
  }
  const built = buildPlace(place, values);
  if (givenPath === null) return built;
  const folder = normalizeVaultPath(givenPath, 'folder');
  const typeFolder = posix.dirname(built) === '.' ? '' : posix.dirname(built);
  const below = folder === typeFolder || folder.startsWith(`${typeFolder}/`) || typeFolder === '' ? folder : `${typeFolder}/${folder}`;
  return normalizeVaultPath(below === '' ? posix.basename(built) : `${below}/${posix.basename(built)}`, 'note');
}

/**
 * The type's template with `{body}` replaced by `body` and `{field}` by the frontmatter
 * field's text (a placeholder naming no field stays as written, and so does one in double
 * braces, such as Obsidian's `{{date}}`; a field beside other text on its line, as in
 * `# {title}`, has its line breaks made spaces); the body is inserted once, never scanned for
 * placeholders. A template without `{body}` is followed by the body.
 */
export function fillTemplate(template: string, values: Record<string, unknown>, body: string): string {
  if (template.trim() === '') return body;
  let sawBody = false;
  // An Obsidian placeholder in double braces (`{{date}}`, `{{title}}`) is not ours: kept whole.
  const filled = template.replace(/\{\{[^{}]*\}\}|\{([^{}\s:]+)\}/g, (whole, name: string | undefined, offset: number) => {
    if (name === undefined) return whole;
    if (name === 'body') {
      sawBody = true;
      return body;
    }
    if (!(name in values)) return whole;
    // A field beside other text (`# {title}`) stays on that line: its line breaks become spaces,
    // so a value cannot add a heading or a line of its own there.
    const lineStart = template.lastIndexOf('\n', offset - 1) + 1;
    const lineEnd = template.indexOf('\n', offset);
    const line = template.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
    const text = fieldText(values[name]);
    return line.trim() === whole ? text : text.replace(/\s*\r?\n\s*/g, ' ');
  });
  if (sawBody || body === '') return filled;
  return `${filled.replace(/\n*$/, '\n\n')}${body}`;
}

/**
 * The commit that last wrote `path` on `head` (RepoHost.lastCommit), or null when the file is
 * not in `head`'s tree (only in the current state, uncommitted).
 */
async function committedBy(ctx: ToolContext, repo: string, head: string | null, path: string): Promise<string | null> {
  if (head === null) return null;
  const commit = await ctx.host.lastCommit(repo, head, path);
  if (commit === null) return null;
  return (await ctx.host.filesAt(repo, head, [path])).has(path) ? commit : null;
}
