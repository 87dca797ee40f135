// note_history's list: a page of the note's commits, newest first, following its moves.
import { ANSWER_LIMIT } from '../../../answer-limit.ts';
import { jsonPrefix } from '../../../history/line-window.ts';
import { localMoment } from '../../../history/local-time.ts';
import type { NoteCommit } from '../../../repo-host/history.ts';
import type { ListedCommit, NoteHistoryAnswer } from '../../../tools/note-history.ts';
import { joinNotes, NOTE_ROOM, type HistoryNote } from './answer.ts';
import { diffAnswer } from './diff.ts';
import { pastTheEnd } from '../answer-budget.ts';

/** What the list mode reads of the call: the page, the day to start at, and (with `diff`) the lines of the diff to give. */
export interface LogRequest {
  since?: string;
  diff: boolean;
  offset: number;
  limit: number;
  from_line?: number;
  to_line?: number;
}

/**
 * The list mode of note_history: `answer` with the page of the note's commits (from
 * `since`'s day on, when given) that fits in one answer, and with `diff` the change since
 * that day ({@link diffAnswer}). An offset past the last commit gets a note saying so and
 * naming the offsets of the first and last pages (pastTheEnd, as list_notes); one where the
 * note has no commit at all gets the note an offset of 0 gets. Refuses a path with no commits and no file with
 * `note_not_found`.
 */
export async function logAnswer(answer: NoteHistoryAnswer, note: HistoryNote, input: LogRequest): Promise<NoteHistoryAnswer> {
  const { history, path, isNoteCommit } = note;
  const since = input.since === undefined ? undefined : localMoment(input.since, 'start', 'since');
  const end = input.offset + input.limit;
  // The whole list is read: a rename anywhere in it decides the order of every page.
  const log = await history.noteCommits(path, { since });
  const shown = log.commits.filter(isNoteCommit);
  const page = shown.slice(input.offset, end).map(listed);
  // With a diff, the page takes at most half an answer: the diff gets the rest.
  answer.commits = fitCommits(answer, page, input.diff ? ANSWER_LIMIT / 2 : ANSWER_LIMIT);
  answer.offset = input.offset;
  answer.hasMore = shown.length > end || answer.commits.length < page.length;
  const next = input.offset + answer.commits.length;

  // An offset past the end says so, as list_notes does (pastTheEnd), in either mode.
  const pastEnd =
    page.length === 0 && shown.length > 0 ? pastTheEnd(input.offset, shown.length, 'commits', 'note_history', input.limit) : null;
  const whole = input.diff || shown.length === 0 ? (since === undefined ? log : await history.noteCommits(path)) : null;
  if (shown.length === 0 && whole !== null && !whole.commits.some(isNoteCommit) && (await note.now()) === null) throw note.noNote();
  if (input.diff && input.since !== undefined && since !== undefined && whole !== null) {
    return await diffAnswer(answer, note, {
      day: input.since,
      since,
      commits: whole.commits,
      next,
      pastEnd,
      fromLine: input.from_line,
      toLine: input.to_line,
    });
  }
  const notes: string[] = [];
  if (shown.length === 0) {
    notes.push(
      input.since !== undefined
        ? `No commit changed the note from ${input.since} on.`
        : 'The note has not been committed yet: it exists only in the work tree.',
    );
  }
  if (pastEnd !== null) notes.push(pastEnd);
  if (answer.hasMore) notes.push(`More commits follow: ask again with offset ${next}.`);
  return { ...answer, ...joinNotes(notes) };
}

/** One commit of the list, as the answer shows it. */
function listed(commit: NoteCommit): ListedCommit {
  return {
    commit: commit.commit,
    date: commit.date,
    author: commit.author,
    subject: commit.subject,
    path: commit.path,
    ...(commit.added !== undefined ? { added: commit.added } : {}),
    ...(commit.removed !== undefined ? { removed: commit.removed } : {}),
  };
}

/**
 * The commits of `page` (from the front) that fit in `limit` characters of JSON beside the
 * rest of `answer`; at least one, its subject cut when even that one alone is too long.
 */
function fitCommits(answer: NoteHistoryAnswer, page: readonly ListedCommit[], limit: number): ListedCommit[] {
  const room = limit - JSON.stringify({ ...answer, commits: [], hasMore: false }).length - NOTE_ROOM;
  const kept: ListedCommit[] = [];
  let used = 0;
  for (const commit of page) {
    const size = JSON.stringify(commit).length + (kept.length > 0 ? 1 : 0);
    if (used + size > room) break;
    kept.push(commit);
    used += size;
  }
  const first = page[0];
  if (kept.length === 0 && first !== undefined) {
    kept.push({ ...first, subject: jsonPrefix(first.subject, room - JSON.stringify({ ...first, subject: '' }).length) });
  }
  return kept;
}
