// note_history with at: the note as it was right after one commit.
import { lineWindow } from '../../../history/line-window.ts';
import { decodeNoteText } from '../../../notes/note-text.ts';
import type { NoteCommit, RepoHistory } from '../../../repo-host/history.ts';
import { VaultError } from '../../../vault-error.ts';
import type { NoteHistoryAnswer } from '../../../tools/note-history.ts';
import { fitText, notATextNote, windowNote, type HistoryNote } from './answer.ts';

/** How many of a note's commits a refusal of `at` lists. */
const COMMITS_IN_REFUSAL = 20;

/**
 * The at mode of note_history: `answer` with the note's text right after commit `at` (one
 * that changed it), lines `fromLine`–`toLine`, cut to fit one answer. Refuses an unknown
 * commit with `unknown_commit`, one that did not change the note with `commit_not_for_note`,
 * a deletion or a note with no history and no file with `note_not_found`, binary content
 * with `not_a_note`.
 */
export async function textAtAnswer(
  answer: NoteHistoryAnswer,
  note: HistoryNote,
  at: string,
  fromLine: number | undefined,
  toLine: number | undefined,
): Promise<NoteHistoryAnswer> {
  const version = await versionAt(note.history, note.path, at, note.isNoteCommit, async () =>
    (await note.now()) === null ? note.noNote() : null,
  );
  return fitText((maxChars) => {
    const window = lineWindow(version.text, fromLine, toLine, `the note in commit ${at}`, maxChars);
    const cut = windowNote(window, `the note in commit ${at}`, 'the same at');
    return {
      ...answer,
      version: { commit: version.commit, date: version.date, path: version.path, ...window },
      ...(cut !== null ? { note: cut } : {}),
    };
  });
}

/**
 * The note as it was right after commit `at` (which must have changed it): the commit, its
 * date, the note's path then and its text. `missing()` gives the refusal when the note has no
 * commit at all (null: it exists now, uncommitted).
 */
async function versionAt(
  history: RepoHistory,
  path: string,
  at: string,
  isNoteCommit: (commit: NoteCommit) => boolean,
  missing: () => Promise<VaultError | null>,
) {
  const commit = await history.resolveCommit(at);
  if (commit === null) {
    throw new VaultError(
      'unknown_commit',
      `There is no commit ${at} in this repository${at.length < 40 ? ' (or several start with these digits: give more of them)' : ''}. Ask note_history without at to list the note's commits.`,
      { at },
    );
  }
  const commits = (await history.noteCommits(path)).commits.filter(isNoteCommit);
  const index = commits.findIndex((c) => c.commit === commit);
  const found = commits[index];
  if (!found) {
    if (commits.length === 0) {
      const refusal = await missing();
      if (refusal !== null) throw refusal;
    }
    const list = commits.slice(0, COMMITS_IN_REFUSAL).map((c) => `${c.commit.slice(0, 12)} (${c.date}, ${c.subject})`);
    throw new VaultError(
      'commit_not_for_note',
      commits.length === 0
        ? `Commit ${at} did not change ${path}, and ${path} has no commits in its history. Check the path with list_notes.`
        : `Commit ${at} did not change ${path}. Pass one of the commits that did as at: ${list.join('; ')}${commits.length > list.length ? `; and ${commits.length - list.length} older ones (list them with offset)` : ''}.`,
      { at, path, commits: commits.slice(0, COMMITS_IN_REFUSAL).map((c) => c.commit) },
    );
  }
  if (found.blob === null) {
    const before = commits[index + 1];
    throw new VaultError(
      'note_not_found',
      before
        ? `Commit ${at} deleted ${found.path}, so there is no version right after it. Pass the commit before it, ${before.commit.slice(0, 12)}, as at to see the note's last version.`
        : `Commit ${at} deleted ${found.path}, so there is no version right after it.`,
      { at, path: found.path },
    );
  }
  const text = decodeNoteText(await history.readBlob(found.blob));
  if (text === null) throw notATextNote(found.path, at);
  return { commit, date: found.date, path: found.path, text };
}
