// edit_note: replaces passages of one or several notes of a repository, in one commit.
import type { VaultConfig } from '../../config/vault-config.ts';
import { splitFrontmatter } from '../../notes/frontmatter.ts';
import { headingAnchor, headingRenames, relinkHeadings, wikiUnsafeHeading, type HeadingRename } from '../../notes/heading-links.ts';
import { LinkResolver } from '../../notes/link-resolver.ts';
import { applyEdits as applyLinkEdits } from '../../notes/link-rewrite.ts';
import { findLinks } from '../../notes/links.ts';
import { decodeNoteText } from '../../notes/note-text.ts';
import { escapeTablePipes } from '../../notes/passage-table-pipes.ts';
import { replacePassage } from '../../notes/passage.ts';
import { SplicedText } from '../../notes/text-splices.ts';
import { assertInFolders, isHiddenPath, isInFolders } from '../../notes/vault-path.ts';
import { isVaultError, VaultError } from '../../vault-error.ts';
import { commitChange, writableVault, type WriteRead } from '../../writes/commit-change.ts';
import { refuseGuarded } from '../../special-tools/guarded-change.ts';
import { linkRefusal } from '../../writes/symlinks.ts';
import { fitsPlace, isTypeExempt, placeRefusal, schemaProblems, schemaRefusal, typeNameOf } from '../../writes/type-rules.ts';
import { implement } from '../tool.ts';
import { editNote as definition } from '../../tools/edit-note.ts';
import { existingPath } from './existing-path.ts';

/** One replacement, as the tool takes it. */
interface Edit {
  path: string;
  old_text: string;
  new_text: string;
}

/**
 * The `edit_note` tool (spec: "edit_note"; issue 4): `old_text` must occur exactly once in the
 * note (overlaps count; CRLF matches LF); `new_text` is inserted literally, with the note's own
 * line endings. `more_edits` apply in order, each on the text the edits before it left, in the
 * same commit; if one cannot be made, none is and the refusal names it. On a table row a bare
 * `|` inside a wiki-link gets its backslash (said in `note`). Refused for what the change
 * itself breaks: frontmatter that stops parsing, a type schema problem it introduces, a new
 * type whose places do not include the note's path, a path outside `folders` or hidden, and
 * a symbolic link (or a path through one) with `not_a_note`, naming where it points.
 * Older problems of the note are reported in `note`. A heading the edits rename (see
 * {@link headingRenames}: changed in place, same level, one for one) keeps its links: every
 * link to it across the repository's open folders is rewritten in the same commit (see
 * {@link relinkHeadings}), and `note` says how many, in which notes. Answers the first
 * change's path and line, every change, and the commit.
 */
export const editNote = implement(definition, {
  async handler(input, ctx) {
    const vault = writableVault(ctx, input.repo);
    const config = vault.config;
    const edits: Edit[] = [{ path: input.path, old_text: input.old_text, new_text: input.new_text }, ...(input.more_edits ?? [])];
    // Each note by the spelling the repository holds: exactly as given first, then ignoring Unicode normalisation.
    const paths: string[] = [];
    for (const [i, edit] of edits.entries()) {
      try {
        const { path } = await existingPath(ctx.host, input.repo, edit.path, 'note', {
          repo: input.repo,
          lineBreaks: 'refuse',
          tool: 'edit_note',
          noteSuffix: false,
          folders: config.settings.folders,
        });
        assertInFolders(path, config.settings.folders);
        paths.push(path);
      } catch (error) {
        throw nameEdit(error, i, edits.length);
      }
    }
    // Every path of the repository, asked only when a heading was renamed (its links are searched for).
    const allPaths = async (read: WriteRead) => (read.snapshot ?? (await ctx.host.snapshot(input.repo))).files.map((file) => file.path);
    const done = await commitChange(ctx, input.repo, { tool: 'edit_note', summary: input.summary }, (read) =>
      applyEdits(read, input.repo, config, edits, paths, () => allPaths(read)),
    );
    const { changes, notes } = done.result;
    // The answer's commit is one this call made (outputSchema: commit required), so a change of nothing is refused.
    if (done.commit === null) throw unchangedRefusal(edits, changes);
    const note = [...notes, ...done.notes].join(' ');
    return {
      path: changes[0]!.path,
      line: changes[0]!.line,
      changes,
      commit: done.commit,
      ...(note === '' ? {} : { note }),
      repo: input.repo,
    };
  },
});

/**
 * Applies every edit on the texts read; the files to commit, each with its passages as splices
 * of the text read (so the write flow can tell whether a newer version still has them, and carry
 * them onto the branch head under uncommitted edits), and what to answer.
 */
async function applyEdits(
  read: WriteRead,
  repo: string,
  config: VaultConfig,
  edits: readonly Edit[],
  paths: readonly string[],
  allPaths: () => Promise<string[]>,
) {
  const texts = new Map<string, SplicedText>();
  const changes: Array<{ path: string; line: number }> = [];
  const notes: string[] = [];
  // A symbolic link is not a note: writing its text would replace the link with a file.
  const links = await read.links([...new Set(paths)]);
  for (const [i, edit] of edits.entries()) {
    const path = paths[i]!;
    try {
      const link = links.get(path);
      if (link !== undefined)
        throw linkRefusal(path, link, 'edit_note', 'would replace the link with a file of its own', 'Edit', config.settings.folders);
      if (!texts.has(path)) {
        const text = await read.text(path);
        if (text === null) {
          if (read.oid(path) !== null)
            throw new VaultError('not_a_note', `"${path}" is not a text file, so it has no passage to replace.`, { path });
          throw new VaultError(
            'note_not_found',
            `There is no note "${path}". Check the path with list_notes or search_notes; create_note makes a new one.`,
            { path },
          );
        }
        texts.set(path, new SplicedText(text));
      }
      const spliced = texts.get(path)!;
      const current = spliced.text;
      const replaced = replacePassage(current, edit.old_text, edit.new_text, path);
      const piped = escapeTablePipes(replaced.text, replaced.start, replaced.end);
      for (const escaped of piped.escaped) {
        notes.push(
          `On line ${escaped.line} of "${path}", the | inside a link on a table row got its backslash so the row keeps its cells: ${escaped.link}.`,
        );
      }
      // The passage stood at [start, end of the old text); the text inserted there is what the pipes left.
      const passageEnd = replaced.end + current.length - replaced.text.length;
      spliced.replace(replaced.start, passageEnd, piped.text.slice(replaced.start, piped.end));
      changes.push({ path, line: replaced.line });
    } catch (error) {
      throw nameEdit(error, i, edits.length);
    }
  }
  const files = [];
  for (const [path, spliced] of texts) {
    if (spliced.text === spliced.base) continue;
    if (path.endsWith('.md')) notes.push(...checkNote(config, path, spliced.base, spliced.text));
  }
  const relinked = await keepHeadingLinks(read, config, texts, allPaths);
  notes.push(...relinked.notes);
  // A guard of this repository's special tools may own a passage the edits change, or a link
  // the heading renames rewrite in another note (spec: "Guards"; move_note checks its too).
  refuseGuarded(
    repo,
    config,
    'edit_note',
    [...texts]
      .filter(([, spliced]) => spliced.text !== spliced.base)
      .map(([path, spliced]) => ({ before: { path, text: spliced.base }, after: { path, text: spliced.text } })),
  );
  try {
    refuseGuarded(
      repo,
      config,
      'edit_note',
      [...relinked.others].map(([path, text]) => ({ before: { path, text: relinked.before.get(path)! }, after: { path, text } })),
    );
  } catch (error) {
    // The person's own edit was allowed: say that it is the link rewrite that is not.
    if (!isVaultError(error, 'guarded')) throw error;
    const path = String(error.details?.['path'] ?? '');
    throw new VaultError(
      'guarded',
      `The edit renames a heading, and keeping its links would rewrite a link in "${path}" where a guard keeps the text as written, so the heading keeps its name. ${error.message} Leave the heading as it is and edit the rest of the note.`,
      { ...error.details },
    );
  }
  for (const [path, spliced] of texts) {
    if (spliced.text === spliced.base) continue;
    files.push({ path, content: Buffer.from(spliced.text, 'utf8'), splices: spliced.splices });
  }
  for (const [path, text] of relinked.others) files.push({ path, content: Buffer.from(text, 'utf8') });
  return { files, result: { changes, notes } };
}

/**
 * Headings keep their links (issue 15): for each heading the edits renamed in a note
 * ({@link headingRenames}), every link to it in the notes of the open folders (hidden files and
 * symbolic links left out) is rewritten to the new text ({@link relinkHeadings}). The edited
 * notes get the rewrites as further splices; `others` are the other notes' new texts and
 * `before` their texts as read. `notes` says how many links were rewritten, in which notes,
 * per renamed heading.
 */
async function keepHeadingLinks(
  read: WriteRead,
  config: VaultConfig,
  texts: Map<string, SplicedText>,
  allPaths: () => Promise<string[]>,
): Promise<{ others: Map<string, string>; before: Map<string, string>; notes: string[] }> {
  const renamed: Array<{ path: string; renames: HeadingRename[] }> = [];
  for (const [path, spliced] of texts) {
    if (!path.endsWith('.md') || spliced.text === spliced.base) continue;
    const renames = headingRenames(spliced.base, spliced.text);
    if (renames.length > 0) renamed.push({ path, renames });
  }
  const others = new Map<string, string>();
  if (renamed.length === 0) return { others, before: new Map(), notes: [] };
  const paths = await allPaths();
  const resolver = new LinkResolver(paths);
  const folders = config.settings.folders;
  const needles = renamed.flatMap(({ renames }) => renames.flatMap((rename) => needlesOf(rename.from)));
  const candidates = paths.filter((path) => path.endsWith('.md') && !isHiddenPath(path) && isInFolders(path, folders) && !texts.has(path));
  const contents = await read.files(candidates);
  for (const path of candidates) {
    const content = contents.get(path);
    const text = content === undefined ? null : decodeNoteText(content);
    if (text === null) continue;
    const lower = text.toLowerCase();
    if (needles.some((needle) => lower.includes(needle))) others.set(path, text);
  }
  for (const path of (await read.links([...others.keys()])).keys()) others.delete(path);
  const before = new Map(others);

  const notes: string[] = [];
  const changed = new Set<string>();
  for (const { path: target, renames } of renamed) {
    const counts = new Map<string, number>();
    const unwritable: string[] = [];
    for (const [path, spliced] of texts) {
      const relinked = relinkHeadings(findLinks(spliced.text), path, target, renames, resolver);
      unwritable.push(...relinked.unwritable.map((raw) => `${raw} in "${path}"`));
    }
    for (const [path, text] of others) {
      unwritable.push(...relinkHeadings(findLinks(text), path, target, renames, resolver).unwritable.map((raw) => `${raw} in "${path}"`));
    }
    if (unwritable.length > 0) throw unwritableLinks(target, renames, unwritable);
    for (const [path, spliced] of texts) {
      const { edits } = relinkHeadings(findLinks(spliced.text), path, target, renames, resolver);
      // From the end, so each offset still stands where findLinks found it.
      for (const edit of [...edits].sort((a, b) => b.start - a.start)) spliced.replace(edit.start, edit.end, edit.raw);
      if (edits.length > 0) counts.set(path, edits.length);
    }
    for (const [path, text] of others) {
      const { edits } = relinkHeadings(findLinks(text), path, target, renames, resolver);
      if (edits.length === 0) continue;
      others.set(path, applyLinkEdits(text, edits));
      changed.add(path);
      counts.set(path, edits.length);
    }
    const names = renames.map((rename) => `"${rename.from}" → "${rename.to}"`).join(', ');
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    notes.push(
      total === 0
        ? `Renamed the heading${renames.length > 1 ? 's' : ''} ${names} of "${target}"; no link pointed at ${renames.length > 1 ? 'them' : 'it'}.`
        : `Renamed the heading${renames.length > 1 ? 's' : ''} ${names} of "${target}" and rewrote ${total} link${total > 1 ? 's' : ''} to ${renames.length > 1 ? 'them' : 'it'} in the same commit: ${[
            ...counts,
          ]
            .map(([path, n]) => `${n} in "${path}"`)
            .join(', ')}.`,
    );
  }
  return { others: new Map([...others].filter(([path]) => changed.has(path))), before, notes };
}

/**
 * The refusal of a rename to a heading text that wiki-links cannot hold ({@link
 * wikiUnsafeHeading}): VaultError `bad_arguments` naming the characters, the links (at most
 * five), and how to succeed. Nothing is written: a rename that left those links behind would
 * break them, and one that rewrote them would write links that end early.
 */
function unwritableLinks(target: string, renames: readonly HeadingRename[], links: readonly string[]): VaultError {
  const unsafe = renames.filter((rename) => wikiUnsafeHeading(rename.to).length > 0);
  const headings = unsafe.map((rename) => `"${rename.from}" → "${rename.to}" (${wikiUnsafeHeading(rename.to).join(' ')})`).join(', ');
  const shown = links.slice(0, 5).join(', ') + (links.length > 5 ? `, and ${links.length - 5} more` : '');
  return new VaultError(
    'bad_arguments',
    `This edit renames the heading ${headings} of "${target}", but a wiki-link cannot name a heading holding [ ] | # or a leading ^, and ${links.length} wiki-link${links.length > 1 ? 's' : ''} point${links.length > 1 ? '' : 's'} at it: ${shown}. Nothing was written. Give the heading a text without those characters, or change those links first (to a Markdown link such as [text](note.md#anchor), which can name it).`,
    { path: target, links: links.length },
  );
}

/** Lower-case texts one of which a note holds when it may link to the heading `text`. */
function needlesOf(text: string): string[] {
  const lower = text.toLowerCase();
  return [...new Set([lower, headingAnchor(text), encodeURI(lower).toLowerCase()])];
}

/**
 * Refuses what the edit breaks in a note's frontmatter and type; returns older problems as
 * notes (issue 4: "Checks only the change").
 */
function checkNote(config: VaultConfig, path: string, oldText: string, newText: string): string[] {
  const oldFm = splitFrontmatter(oldText);
  const newFm = splitFrontmatter(newText);
  const notes: string[] = [];
  if (newFm.error !== null) {
    if (oldFm.error === null) {
      const colon = (newFm.raw ?? '').split('\n').some((line) => /:\s.*:\s/.test(line));
      throw new VaultError(
        'invalid_frontmatter',
        `After this edit the frontmatter of "${path}" would be broken: ${newFm.error}${colon ? ' A value holding ": " must be quoted, for example title: \'Plan: phase 2\'.' : ''} Nothing was written.`,
        { path },
      );
    }
    notes.push(`The frontmatter of "${path}" was already broken before this edit: ${oldFm.error}`);
    return notes;
  }
  if (oldFm.error !== null) notes.push(`This edit repaired the frontmatter of "${path}".`);
  if (isTypeExempt(config, path)) return notes;
  const newType = typeNameOf(config, newFm.data);
  const oldType = typeNameOf(config, oldFm.data);
  if (newType === null) return notes;
  const type = config.types.get(newType);
  if (type === undefined) {
    if (newType !== oldType && config.types.size > 0) {
      const names = [...config.types.keys()].sort();
      throw new VaultError(
        'unknown_type',
        `"${newType}" is not a note type of this repository. Its types: ${names.map((n) => `"${n}"`).join(', ')}. Nothing was written.`,
        {
          path,
          type: newType,
          types: names,
        },
      );
    }
    if (config.types.size > 0) notes.push(`"${path}" has the type "${newType}", which this repository does not define.`);
    return notes;
  }
  const problems = schemaProblems(type, newFm.data ?? {});
  if (newType !== oldType) {
    if (type.places.length > 0 && !fitsPlace(type, path)) throw placeRefusal(type, path);
    if (problems.length > 0) throw schemaRefusal(type, path, problems);
    return notes;
  }
  const older = new Set(schemaProblems(type, oldFm.data ?? {}));
  const introduced = problems.filter((problem) => !older.has(problem));
  if (introduced.length > 0) throw schemaRefusal(type, path, introduced);
  if (problems.length > 0) notes.push(`"${path}" already did not fit its type "${newType}" before this edit: ${problems.join('; ')}.`);
  return notes;
}

/**
 * The refusal of edits that leave every note as it was (new_text equal to old_text, or edits
 * that undo each other): nothing was committed, and the head is not named as if it were the
 * edit's commit. `changes`: where each passage was found.
 */
function unchangedRefusal(edits: readonly Edit[], changes: ReadonlyArray<{ path: string; line: number }>): VaultError {
  const first = changes[0]!;
  const same = edits.every((edit) => edit.old_text === edit.new_text);
  const why =
    edits.length === 1
      ? `new_text is the same as old_text, so the edit of "${first.path}" (line ${first.line}) would change nothing`
      : same
        ? `every new_text is the same as its old_text, so the ${edits.length} edits would change nothing`
        : `the ${edits.length} edits together leave every note as it was`;
  return new VaultError('bad_arguments', `Nothing was committed: ${why}. To change the passage, give new_text as it should read.`, {
    path: first.path,
    line: first.line,
    unchanged: true,
  });
}

/** Prefixes a refusal with which edit it is about, when there are several. */
function nameEdit(error: unknown, index: number, count: number): unknown {
  if (count === 1 || !isVaultError(error)) return error;
  const which = index === 0 ? 'The first edit' : `more_edits[${index - 1}] (edit ${index + 1} of ${count})`;
  return new VaultError(error.code, `${which} cannot be made, so none of the ${count} edits was: ${error.message}`, {
    ...error.details,
    edit: index,
  });
}
