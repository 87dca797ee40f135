// note_history with diff: what changed in the note since the start of a day, uncommitted changes included.
import { lineWindow } from '../../../history/line-window.ts';
import type { NoteCommit } from '../../../repo-host/history.ts';
import type { NoteHistoryAnswer } from '../../../tools/note-history.ts';
import { fitText, joinNotes, notATextNote, windowNote, type HistoryNote } from './answer.ts';

/**
 * What the diff mode needs: the `day` asked (YYYY-MM-DD) and its start (`since`, epoch
 * seconds), the note's whole history (`commits`, for its name at the base), the offset of
 * the page after the list's (`next`) and the lines of the diff to give.
 */
export interface DiffRequest {
  day: string;
  since: number;
  commits: readonly NoteCommit[];
  next: number;
  /** The note saying the list's offset is past its end (pastTheEnd); null when it is not. */
  pastEnd: string | null;
  fromLine: number | undefined;
  toLine: number | undefined;
}

/**
 * `answer` (its page of commits already listed) with the unified diff of the note from the
 * last commit before the start of `request.day` to now, cut to fit one answer, and notes
 * saying what the diff starts from. Refuses binary content with `not_a_note`.
 */
export async function diffAnswer(answer: NoteHistoryAnswer, note: HistoryNote, request: DiffRequest): Promise<NoteHistoryAnswer> {
  const { history, path, visible } = note;
  const { day, next } = request;
  const notes: string[] = [];
  const change = await history.noteDiffSince(path, request.since, request.commits, await note.now(), visible);
  if (change.binary) throw notATextNote(path);
  const text = change.diff;
  const base = change.base ?? (await history.emptyTree());
  if (change.base === null) notes.push(`The repository has no commit before ${day}: the diff starts from nothing.`);
  else if (!change.existedAtBase && !change.existsNow)
    notes.push(`The note did not exist before ${day} and does not exist now: there is nothing to diff.`);
  else if (change.hiddenAtBase)
    notes.push(`Before ${day} the note lay at a path that is hidden or outside the open folders: the diff shows all of it as added.`);
  else if (!change.existedAtBase) notes.push(`The note did not exist before ${day}: the diff shows all of it as added.`);
  else if (change.diff === '') notes.push(`The note has not changed since the start of ${day}.`);
  if (!change.existsNow && change.diff !== '') notes.splice(0, notes.length, 'The note no longer exists: the diff shows it removed.');
  if (request.pastEnd !== null) notes.push(request.pastEnd);
  if (answer.hasMore) notes.push(`More commits follow: ask again with offset ${next}.`);
  return fitText((maxChars) => {
    const window = lineWindow(text, request.fromLine, request.toLine, 'the diff', maxChars);
    const cut = windowNote(window, 'the diff', 'the same since and diff');
    return { ...answer, diff: { since: day, base, base_path: change.basePath, ...window }, ...joinNotes([...notes, cut]) };
  });
}
