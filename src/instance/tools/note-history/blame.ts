// note_history with blame: who last changed each line of the note as it is now.
import { ANSWER_LIMIT } from '../../../answer-limit.ts';
import { jsonLength, jsonPrefix } from '../../../history/line-window.ts';
import { decodeNoteText } from '../../../notes/note-text.ts';
import { splitLines } from '../../../notes/lines.ts';
import type { BlameRun, EarlyBlame, NoteCommit, RepoHistory } from '../../../repo-host/history.ts';
import { VaultError } from '../../../vault-error.ts';
import type { BlameItem, NoteHistoryAnswer } from '../../../tools/note-history.ts';
import { joinNotes, notATextNote, NOTE_ROOM, type HistoryNote } from './answer.ts';

/**
 * The blame mode of note_history: `answer` with the blame of `note` as it is now, lines
 * `fromLine`–`toLine` (all of them when neither is given: then Git starts on the whole
 * note while its content is read, or has started already: `started`, from
 * {@link RepoHistory.startWholeBlame}, is taken when it is of the note's path, and
 * cancelled otherwise). Refuses a note that is not there now with `note_not_found`, binary
 * content with `not_a_note`, a from_line past the end with `bad_arguments`.
 */
export async function blameAnswer(
  answer: NoteHistoryAnswer,
  note: HistoryNote,
  fromLine: number | undefined,
  toLine: number | undefined,
  started?: EarlyBlame,
): Promise<NoteHistoryAnswer> {
  let early = started;
  if (early !== undefined && early.path !== note.path) {
    early.cancel();
    early = undefined;
  }
  // Git starts on the whole note while the note is read.
  if (early === undefined && fromLine === undefined && toLine === undefined) early = note.history.startWholeBlame(note.path);
  try {
    return await blameOf(answer, note.history, note.path, await note.now(), fromLine, toLine, note.visible, early);
  } finally {
    early?.cancel();
  }
}

/**
 * `runs` with every line last changed while the note lay at a hidden or closed path credited
 * instead to the commit that brought it from there to where it can be seen (the nearest
 * newer commit of its history with a visible path), and lines copied from a hidden or
 * closed file credited to the commit that brought them into the note (blamed again without
 * `-C`; by date when even that names a commit outside the note's history), so no commit,
 * author or subject of closed paths shows, as the list and `at` never show them either. Runs of one commit that then
 * touch are joined. The note's history is read only when some run needs it.
 */
async function creditVisibleCommits(
  history: RepoHistory,
  path: string,
  content: Buffer,
  runs: readonly BlameRun[],
  visible: (path: string) => boolean,
): Promise<BlameRun[]> {
  const hidden = (run: BlameRun) => run.commit !== null && !(run.path !== undefined && visible(run.path));
  if (!runs.some(hidden)) return [...runs];
  const commits = (await history.noteCommits(path)).commits;
  const inHistory = new Set(commits.map((commit) => commit.commit));
  // Lines copied from a hidden or closed file: blamed again without -C, they go to the commit
  // that brought them into the note.
  const rerun: BlameRun[] = [];
  for (const run of runs) {
    if (!hidden(run) || inHistory.has(run.commit ?? '')) rerun.push(run);
    else rerun.push(...((await history.blame(path, content, run.from_line, run.to_line, undefined, false))?.runs ?? [run]));
  }
  runs = rerun;
  const shown = (commit: NoteCommit) => !commit.symlink && visible(commit.path);
  const creditFor = (run: BlameRun): NoteCommit | undefined => {
    const at = commits.findIndex((commit) => commit.commit === run.commit);
    if (at !== -1) {
      for (let i = at - 1; i >= 0; i -= 1) if (shown(commits[i] as NoteCommit)) return commits[i];
      return undefined;
    }
    const time = Date.parse(run.date ?? '') / 1000;
    return [...commits].reverse().find((commit) => shown(commit) && commit.time >= time);
  };
  const credited: BlameRun[] = [];
  for (const run of runs) {
    let next = run;
    if (run.commit !== null && !(run.path !== undefined && visible(run.path))) {
      const credit = creditFor(run);
      next =
        credit === undefined
          ? { from_line: run.from_line, to_line: run.to_line, commit: null, content: run.content }
          : { ...run, commit: credit.commit, date: credit.date, author: credit.author, subject: credit.subject, path: credit.path };
    }
    const last = credited[credited.length - 1];
    if (last !== undefined && last.to_line === next.from_line - 1 && last.commit === next.commit && last.path === next.path) {
      credited[credited.length - 1] = { ...last, to_line: next.to_line, content: `${last.content}\n${next.content}` };
    } else credited.push(next);
  }
  return credited;
}

/**
 * The blame of the note as it is now (`content`, from noteNow; null: there is none), its
 * runs cut by line so the whole answer's JSON fits in {@link ANSWER_LIMIT}: a run longer
 * than the room left is split, a single line longer than a whole answer is cut inside, and
 * the note names the from_line to ask for next (with `hasMore`).
 */
async function blameOf(
  answer: NoteHistoryAnswer,
  history: RepoHistory,
  path: string,
  content: Buffer | null,
  fromLine: number | undefined,
  toLine: number | undefined,
  visible: (path: string) => boolean,
  early?: EarlyBlame,
): Promise<NoteHistoryAnswer> {
  if (content === null) {
    throw new VaultError(
      'note_not_found',
      `There is no note ${path} now, so there is nothing to blame. Leave out blame to list its history, and pass one of its commits as at to see an older version.`,
      { path },
    );
  }
  const text = decodeNoteText(content);
  if (text === null) throw notATextNote(path);
  const lines = splitLines(text);
  if (fromLine !== undefined && fromLine > lines.length) {
    throw new VaultError(
      'bad_arguments',
      `from_line ${fromLine} is past the end: the note has ${lines.length} lines. Give a from_line from 1 to ${lines.length}.`,
      {
        from_line: fromLine,
        total_lines: lines.length,
      },
    );
  }
  // Git blames only the lines whose text alone could still fit in one answer.
  const from = fromLine ?? 1;
  const wanted = Math.min(toLine ?? lines.length, lines.length);
  let to = Math.min(from, wanted);
  for (let used = jsonLength(lines[to - 1] ?? ''); to < wanted && used <= ANSWER_LIMIT; to += 1) used += jsonLength(lines[to] ?? '') + 2;
  const result = await history.blame(path, content, from, to, early);
  if (result === null) throw notATextNote(path);
  const shownRuns = await creditVisibleCommits(history, path, content, result.runs, visible);

  const room = ANSWER_LIMIT - JSON.stringify({ ...answer, blame: [], hasMore: false }).length - NOTE_ROOM;
  const runs: BlameItem[] = [];
  let used = 0;
  let next: number | null = null;
  let cutLine: number | null = null;
  for (const run of shownRuns) {
    const item: BlameItem = {
      from_line: run.from_line,
      to_line: run.to_line,
      ...(run.commit !== null ? { commit: run.commit, date: run.date, author: run.author, subject: run.subject } : {}),
      ...(run.commit !== null && run.path !== undefined ? { path: run.path } : {}),
      content: run.content,
    };
    const comma = runs.length > 0 ? 1 : 0;
    const size = JSON.stringify(item).length + comma;
    if (used + size <= room) {
      runs.push(item);
      used += size;
      continue;
    }
    // Split the run: as many of its lines as fit, or (first of all) the start of its first line.
    const runLines = run.content.split('\n');
    const left = room - used - comma - JSON.stringify({ ...item, content: '' }).length;
    let count = 0;
    for (let taken = 0; count < runLines.length; count += 1) {
      taken += jsonLength(runLines[count] ?? '') + (count > 0 ? 2 : 0);
      if (taken > left) break;
    }
    if (count > 0) {
      runs.push({ ...item, to_line: run.from_line + count - 1, content: runLines.slice(0, count).join('\n') });
      next = run.from_line + count;
    } else if (runs.length === 0) {
      runs.push({ ...item, to_line: run.from_line, content: jsonPrefix(runLines[0] ?? '', left) });
      cutLine = run.from_line;
      next = run.from_line + 1;
    } else {
      next = run.from_line;
    }
    break;
  }
  if (next === null && to < wanted) next = to + 1;
  if (next !== null && next > wanted) next = null;
  return {
    ...answer,
    blame: runs,
    hasMore: next !== null,
    ...joinNotes([
      cutLine !== null ? `Line ${cutLine} is longer than one answer carries (${ANSWER_LIMIT} characters) and was cut.` : null,
      next !== null ? `The blame goes on after line ${next - 1}: ask again with from_line ${next} to read on.` : null,
    ]),
  };
}
