// read_note: a note's lines (all, a range, or one section), with its headings, unconfirmed
// statements and any problems with its frontmatter or type (spec: "read_note").
import type { VaultConfig } from '../../config/vault-config.ts';
import { frontmatterValidator } from '../../notes/frontmatter-schema.ts';
import { sectionRange, type Heading } from '../../notes/headings.ts';
import { assertInFolders, isExempt } from '../../notes/vault-path.ts';
import type { IndexedNote, NoteIndex } from '../../note-index/note-index.ts';
import { VaultError } from '../../vault-error.ts';
import { implement, type ToolContext, type Vault } from '../tool.ts';
import { readNote as definition, type ReadNoteAnswer } from '../../tools/read-note.ts';
import { ANSWER_LIMIT } from './answer-budget.ts';
import { noteLineStarts } from './note-line-starts.ts';
import { callTargets, closestPaths } from './read-scope.ts';

/** The read_note tool (spec: "read_note"; contract: spec/acme-tools-list.json). */
export const readNote = implement(definition, {
  async handler(input, ctx) {
    const { targets } = await callTargets(ctx, input.repo, input.path, 'note');
    const { vault, path: asked } = targets[0]!;
    assertInFolders(asked, vault.config.settings.folders);
    const note = await findNote(ctx.index, ctx.host, vault, asked);
    if (input.heading !== undefined && (input.from_line !== undefined || input.to_line !== undefined)) {
      throw new VaultError(
        'bad_arguments',
        'Give either heading or from_line/to_line, not both: heading reads one whole section, from_line and to_line a range of lines.',
      );
    }
    const total = note.totalLines;
    let from = input.from_line ?? 1;
    let to = input.to_line ?? total;
    const remarks: string[] = [];
    if (input.heading !== undefined) {
      // No text given: counting a long note's lines here would hold the event loop, and the index has the count.
      const section = sectionRange('', note.headings, input.heading);
      if (section === null) {
        const there = note.headings.map((h) => `"${h.text}"`).join(', ');
        throw new VaultError(
          'heading_not_found',
          note.headings.length === 0
            ? `${note.path} has no heading "${input.heading}": it has no headings at all. Read it with from_line and to_line instead.`
            : `${note.path} has no heading "${input.heading}". Its headings are: ${there}.`,
          { path: note.path, heading: input.heading, headings: note.headings.map((h) => h.text) },
        );
      }
      from = section.fromLine;
      // Without the text, the last section ends at 0: it runs to the note's end.
      to = section.toLine === 0 ? total : section.toLine;
      const namesake = namesakeRemark(note.headings, section.heading, total);
      if (namesake !== null) remarks.push(namesake);
    }
    if (total > 0 && from > total) {
      throw new VaultError(
        'bad_arguments',
        `${note.path} has ${total} lines, so from_line ${from} is past its end. Ask for a from_line between 1 and ${total}.`,
        {
          total_lines: total,
        },
      );
    }
    if (to < from && total > 0) {
      throw new VaultError('bad_arguments', `to_line ${to} is before from_line ${from}. Give a to_line of at least ${from}.`);
    }
    to = Math.min(to, total);
    if (total === 0) {
      from = 1;
      to = 0;
    }

    const answer: ReadNoteAnswer = {
      path: note.path,
      title: note.title,
      ...(note.type === null ? {} : { type: note.type }),
      from_line: from,
      to_line: to,
      total_lines: total,
      content: '',
      truncated: false,
    };
    if (note.headings.length > 0) answer.headings = note.headings.map((h) => ({ line: h.line, level: h.level, text: h.text }));
    const unconfirmed = note.grades.filter((g) => g.line >= from && g.line <= to);
    if (unconfirmed.length > 0)
      answer.unconfirmed = unconfirmed.map((g) => ({ line: g.line, grade: g.grade, shorthand: g.shorthand, statement: g.statement }));
    remarks.push(...noteProblems(note, vault.config));
    if (remarks.length > 0) answer.note = remarks.join(' ');
    if (input.repo !== undefined) answer.repo = vault.name;

    // A note with thousands of headings keeps only those of the range, so the text fits.
    if (answer.headings && JSON.stringify(answer.headings).length > ANSWER_LIMIT / 4) {
      answer.headings = answer.headings.filter((h) => h.line >= from && h.line <= to);
      if (answer.headings.length === 0) delete answer.headings;
    }
    // Room for next_steps, which names the path.
    const budget = ANSWER_LIMIT - JSON.stringify(answer).length - 600 - 2 * note.path.length;
    const cut = cutLines(note.content, await noteLineStarts(note), from, to, budget);
    answer.content = cut.content;
    if (cut.lastLine < to || cut.lineCut) {
      answer.truncated = true;
      answer.to_line = cut.lastLine;
      // Only a call that succeeds is suggested: reading on exists only when lines follow in the range.
      const wanted = input.to_line !== undefined ? `, to_line ${to}` : '';
      const readOn = cut.lastLine < to ? `call read_note again with from_line ${cut.lastLine + 1}${wanted} to read on` : null;
      answer.next_steps = cut.lineCut
        ? `Line ${cut.lastLine} is ${cut.lineLength} characters long, longer than one answer carries, so only its first ${cut.content.length} characters are shown; read_note cannot show the rest of it. search_notes with path "${note.path}" shows the part of that line around a match.${readOn === null ? '' : ` The range goes on after it: ${readOn}.`}`
        : `The range goes on after line ${cut.lastLine}: ${readOn}.`;
    }
    return answer;
  },
});

/**
 * The note at `path`, or a refusal: `not_a_note` for a file that is not a text `.md` file,
 * `note_not_found` with the closest paths by name. A path without `.md` finds the note with it.
 */
async function findNote(index: NoteIndex, host: ToolContext['host'], vault: Vault, path: string): Promise<IndexedNote> {
  // A long note's text comes from Git (a child process), not out of PGlite on the event loop.
  const readBlob = async (oid: string) => (await host.readBlobs(vault.name, [oid]))[0] ?? null;
  const note =
    (await index.getNote(vault.name, path, readBlob)) ??
    (path.endsWith('.md') ? null : await index.getNote(vault.name, `${path}.md`, readBlob));
  if (note) return note;
  const file = await index.getFile(vault.name, path);
  if (file) {
    throw new VaultError(
      'not_a_note',
      path.endsWith('.md')
        ? `${path} is not a note: it is not text (a binary file named .md), so read_note cannot show it.`
        : `${path} is not a note: read_note reads Markdown notes (.md files).${/\.base$/i.test(path) ? ` Use base_view with path "${path}" to see its table.` : ''} Use find_references with path "${path}" to see which notes point at it, or note_history to see its versions.`,
      { path },
    );
  }
  const closest = closestPaths(await index.notePaths(vault.name), path, vault.config.settings.folders);
  throw new VaultError(
    'note_not_found',
    closest.length > 0
      ? `There is no note ${path} in ${vault.name}. The closest by name: ${closest.map((p) => `"${p}"`).join(', ')}. Or use list_notes or search_notes to find it.`
      : `There is no note ${path} in ${vault.name}. Use list_notes to see the notes of a folder, or search_notes to find one by its words.`,
    { path, closest },
  );
}

/**
 * The remark on a section read by heading when other headings have the same text (compared
 * as read_note matches them: case and spacing ignored): which one was read, where the others
 * are, and the from_line/to_line that read each; null when the heading is the only one.
 */
function namesakeRemark(headings: readonly Heading[], read: Heading, totalLines: number): string | null {
  const loose = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const namesakes = headings.flatMap((heading, index) => (loose(heading.text) === loose(read.text) ? [{ heading, index }] : []));
  if (namesakes.length < 2) return null;
  const others = namesakes
    .filter(({ heading }) => heading.line !== read.line)
    .map(({ heading, index }) => {
      const next = headings.slice(index + 1).find((h) => h.level <= heading.level);
      return `from_line ${heading.line}, to_line ${next ? next.line - 1 : totalLines} for the one on line ${heading.line}`;
    });
  return `There are ${namesakes.length} headings "${read.text}" (lines ${namesakes.map(({ heading }) => heading.line).join(', ')}); this is the one on line ${read.line}. To read another, call read_note with ${others.join('; ')}.`;
}

/**
 * The lines `from`..`to` of `text`, exactly as in the file (line breaks as written, the last
 * line's own break left off), as many as fit in `budget` characters of JSON. At least part
 * of the first line is always given (`lineCut` when even that had to be cut; `lineLength`
 * is then that line's length in UTF-16 code units). `starts`: the text's line starts.
 */
function cutLines(
  text: string,
  starts: ArrayLike<number>,
  from: number,
  to: number,
  budget: number,
): { content: string; lastLine: number; lineCut: boolean; lineLength: number } {
  if (to < from) return { content: '', lastLine: to, lineCut: false, lineLength: 0 };
  const lineEnd = (line: number) => {
    let end = starts[line] ?? text.length;
    if (text[end - 1] === '\n') end--;
    if (text[end - 1] === '\r' && end < (starts[line] ?? text.length)) end--;
    return end;
  };
  const begin = starts[from - 1] ?? 0;
  let used = 0;
  let last = from - 1;
  for (let line = from; line <= to; line++) {
    const piece = text.slice(starts[line - 1] ?? 0, starts[line] ?? text.length);
    const cost = JSON.stringify(piece).length - 2;
    if (used + cost > budget) break;
    used += cost;
    last = line;
  }
  if (last < from) {
    // One line longer than an answer: give its start, cut at a safe character boundary.
    const line = text.slice(begin, lineEnd(from));
    let keep = Math.max(0, budget);
    while (keep > 0 && JSON.stringify(line.slice(0, keep)).length - 2 > budget) keep = Math.floor(keep * 0.9);
    if (keep > 0 && /[\uD800-\uDBFF]/.test(line[keep - 1] ?? '')) keep--;
    return { content: line.slice(0, keep), lastLine: from, lineCut: true, lineLength: line.length };
  }
  return { content: text.slice(begin, lineEnd(last)), lastLine: last, lineCut: false, lineLength: 0 };
}

/**
 * What read_note says about a note's frontmatter and type (spec: "Unknown and missing
 * types", settings `untyped`, `frontmatterSchema`, `exempt`). Reported, never blocking.
 * Type rules apply only in a repository that defines types, and never to exempt paths.
 */
export function noteProblems(note: IndexedNote, config: VaultConfig): string[] {
  const problems: string[] = [];
  if (note.frontmatterError !== null) {
    problems.push(
      `Error: the frontmatter does not parse (${note.frontmatterError}); its fields are ignored until it is fixed with edit_note.`,
    );
  }
  const { settings, types } = config;
  if (types.size === 0 || isExempt(note.path, settings.exempt) || note.frontmatterError !== null) return problems;
  const known = [...types.keys()].map((name) => `"${name}"`).join(', ');
  if (note.type === null) {
    const label = settings.untyped === 'error' ? 'Error' : 'Hint';
    problems.push(`${label}: this note has no type (frontmatter field "${settings.typeField}"). The types are: ${known}.`);
    return problems;
  }
  const type = types.get(note.type);
  if (!type) {
    problems.push(`Warning: the type "${note.type}" is not one of this repository's types: ${known}.`);
    return problems;
  }
  const validator = frontmatterValidator(type.frontmatter);
  if (typeof validator === 'string') return problems;
  if (!validator(note.frontmatter ?? {})) {
    const label = settings.frontmatterSchema === 'warning' ? 'Warning' : 'Hint';
    const errors = (validator.errors ?? []).map(
      (e) => `${e.instancePath === '' ? 'frontmatter' : e.instancePath.slice(1).replace(/\//g, '.')} ${e.message ?? 'is invalid'}`,
    );
    problems.push(`${label}: the frontmatter does not meet the type "${note.type}": ${errors.join('; ')}.`);
  }
  return problems;
}
