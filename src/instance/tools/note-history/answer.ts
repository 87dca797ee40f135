// What the modes of note_history share: the note asked about, and how an answer is cut and told.
import { ANSWER_LIMIT } from '../../../answer-limit.ts';
import type { LineWindow } from '../../../history/line-window.ts';
import type { NoteCommit, RepoHistory } from '../../../repo-host/history.ts';
import { VaultError } from '../../../vault-error.ts';
import type { NoteHistoryAnswer } from '../../../tools/note-history.ts';

/**
 * The note a note_history call is about, as every mode sees it: the repository's `history`,
 * the note's `path` (exact, as Git holds it), whether a path may be shown (`visible`: not
 * hidden, inside the open folders), whether a commit of its log made a version of the note
 * that may be shown (`isNoteCommit`: not a symbolic link, at a visible path), its content
 * now (`now`, read once; null when there is none), and the refusal of a path that has no
 * note now and none in its history (`noNote`).
 */
export interface HistoryNote {
  history: RepoHistory;
  path: string;
  visible: (path: string) => boolean;
  isNoteCommit: (commit: NoteCommit) => boolean;
  now: () => Promise<Buffer | null>;
  noNote: () => VaultError;
}

/** The refusal of a binary file, the same sentence whichever mode met it. */
export function notATextNote(path: string, at?: string): VaultError {
  return new VaultError(
    'not_a_note',
    `${path} is not a text note: it holds binary data, so note_history cannot show its text. Leave out diff, at and blame to list its commits.`,
    { path, ...(at !== undefined ? { at } : {}) },
  );
}

/** `{ note }` of the sentences given (nulls left out), or nothing when there are none. */
export function joinNotes(sentences: readonly (string | null)[]): { note?: string } {
  const note = sentences.filter((sentence): sentence is string => sentence !== null && sentence !== '').join(' ');
  return note === '' ? {} : { note };
}

/**
 * The answer `build(maxChars)` makes with its text cut to `maxChars` characters of JSON,
 * shrunk until the whole answer's JSON fits in {@link ANSWER_LIMIT} (spec: "Answers").
 */
export function fitText(build: (maxChars: number) => NoteHistoryAnswer): NoteHistoryAnswer {
  let maxChars = ANSWER_LIMIT;
  for (;;) {
    const answer = build(maxChars);
    const over = JSON.stringify(answer).length - ANSWER_LIMIT;
    if (over <= 0 || maxChars === 0) return answer;
    maxChars = Math.max(0, maxChars - over);
  }
}

/**
 * What to say when a window of `what` was cut: where it stopped, and the from_line to ask for
 * next (`again` names the other arguments to repeat, e.g. "the same at").
 */
export function windowNote(window: LineWindow, what: string, again: string): string | null {
  if (!window.truncated) return null;
  const next = window.to_line + 1;
  const askAgain = next <= window.total_lines ? `ask again with ${again} and from_line ${next}` : null;
  if (!window.content.endsWith('\n')) {
    // Cut inside a line: the rest of that line cannot be given.
    return `Line ${window.to_line} of ${what} is longer than one answer carries (${ANSWER_LIMIT} characters) and was cut.${askAgain !== null ? ` To read the lines after it, ${askAgain}.` : ''}`;
  }
  return `${capitalized(what)} goes on after line ${window.to_line}: ${askAgain ?? 'ask again with a later from_line'} to read on.`;
}

/** `text` with its first letter in upper case. */
function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Room for the notes an answer may carry, kept free when fitting commits and blame runs. */
export const NOTE_ROOM = 400;
