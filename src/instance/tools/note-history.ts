// note_history: a note's commits (following its moves), its change since a day, an earlier
// version, or who last changed each line (spec: "note_history").
import { noteNow } from '../../history/note-text.ts';
import { assertInFolders, isHiddenPath, isInFolders, isReadable } from '../../notes/vault-path.ts';
import { VaultError } from '../../vault-error.ts';
import { implement } from '../tool.ts';
import { noteHistory as definition, type NoteHistoryAnswer } from '../../tools/note-history.ts';
import { historyPath } from './existing-path.ts';
import type { HistoryNote } from './note-history/answer.ts';
import { blameAnswer } from './note-history/blame.ts';
import { logAnswer } from './note-history/log.ts';
import { textAtAnswer } from './note-history/text-at.ts';
import { lookupVault } from './read-scope.ts';

/**
 * The note_history tool (spec: "note_history"; contract: spec/acme-tools-list.json), one
 * mode per file in note-history/: the list (log.ts) from the port's `noteCommits` (git log
 * --follow), `diff` (diff.ts) from `noteDiffSince`, `at` (text-at.ts) from the note's blob
 * in that commit, `blame` (blame.ts) from `git blame -M -C`. Refuses the combinations
 * the description forbids with `bad_arguments`, an unknown commit with `unknown_commit`, a
 * commit that did not change the note with `commit_not_for_note` (listing its commits), a
 * path with no history and no file with `note_not_found`, binary content in diff, at and
 * blame with `not_a_note` (the list still works). A symbolic link, or a path through one
 * (committed or only on disk), is no note: refused like a missing one in every mode, and a
 * commit where the path was a link is no version of it. The note's text now comes from
 * `ctx.host.readFile` and reaches blame on standard input, so Git never reads it from disk.
 * Hidden paths and paths outside the open folders never appear: commits of the note made
 * while it lay there are left out. Every answer's JSON fits in 40,000 characters: the page
 * of commits, the diff, the version and the blame runs are cut, and the note says how to go on.
 */
export const noteHistory = implement(definition, {
  async handler(input, ctx) {
    refuseCombinations(input);
    const vault = await lookupVault(ctx, input.repo);
    const folders = vault.config.settings.folders;
    const history = await ctx.host.history(vault.name);
    // The blame of a whole note starts on the path as given (a path read off a listing names
    // the note exactly) while the path is looked up; blameAnswer takes it only when that is the path found.
    const whole = input.blame && input.from_line === undefined && input.to_line === undefined && isReadable({ path: input.path }, folders);
    // Its content is read meanwhile too (started first: its file system calls run while the
    // spawn of Git holds the thread), and handed to Git as soon as it is there (Git waits for
    // it before it reads the history); it is the note's content now when that path is found.
    const read = whole ? noteNow(ctx.host, vault.name, input.path).catch(() => undefined) : undefined;
    const early = whole ? history.startWholeBlame(input.path) : undefined;
    const readAhead = read?.then((content) => {
      if (content !== null && content !== undefined) early?.feed(content);
      return content;
    });
    try {
      // Exact Unicode, as Git holds it: a file there now or in the history, .md added only when the path as given has none.
      const path = await historyPath(ctx.host, history, vault.name, input.path, folders);
      assertInFolders(path, folders);
      const visible = (p: string) => !isHiddenPath(p) && isInFolders(p, folders);
      let current: Promise<Buffer | null> | undefined =
        readAhead !== undefined && path === input.path
          ? readAhead.then((content) => (content === undefined ? noteNow(ctx.host, vault.name, path) : content))
          : undefined;
      const note: HistoryNote = {
        history,
        path,
        visible,
        // A commit where the path was a symbolic link made no version of a note: its blob is a link target.
        isNoteCommit: (commit) => !commit.symlink && visible(commit.path),
        now: () => (current ??= noteNow(ctx.host, vault.name, path)),
        noNote: () =>
          new VaultError(
            'note_not_found',
            `There is no note ${path} in ${vault.name}, and no note had that path in its history. Check the path with list_notes, or find the note's old name with search_history.`,
            { path },
          ),
      };
      const answer: NoteHistoryAnswer = { path, commits: [], offset: 0, hasMore: false, repo: vault.name };
      if (input.blame) return await blameAnswer(answer, note, input.from_line, input.to_line, early);
      if (input.at !== undefined) return await textAtAnswer(answer, note, input.at, input.from_line, input.to_line);
      return await logAnswer(answer, note, input);
    } finally {
      early?.cancel();
    }
  },
});

/** The combinations the schema's descriptions forbid, refused with what to drop. */
function refuseCombinations(input: {
  since?: string;
  diff: boolean;
  at?: string;
  blame: boolean;
  from_line?: number;
  to_line?: number;
}): void {
  const refuse = (message: string): never => {
    throw new VaultError('bad_arguments', message);
  };
  if (input.blame && (input.since !== undefined || input.diff || input.at !== undefined)) {
    const extra = [input.since !== undefined ? 'since' : null, input.diff ? 'diff' : null, input.at !== undefined ? 'at' : null]
      .filter(Boolean)
      .join(' and ');
    refuse(
      `blame shows who last changed each line of the note as it is now, and does not go together with ${extra}: drop ${extra} to get the blame, or drop blame.`,
    );
  }
  if (input.at !== undefined && (input.since !== undefined || input.diff)) {
    const extra = [input.since !== undefined ? 'since' : null, input.diff ? 'diff' : null].filter(Boolean).join(' and ');
    refuse(
      `at gives the note as it was right after one commit, and does not go together with ${extra}: drop ${extra} to see that version, or drop at to list the commits.`,
    );
  }
  if (input.diff && input.since === undefined) {
    refuse(
      'diff needs since: add since, a day as YYYY-MM-DD, to get what changed since the start of that day, or drop diff to list the commits.',
    );
  }
  if ((input.from_line !== undefined || input.to_line !== undefined) && !input.diff && input.at === undefined && !input.blame) {
    refuse(
      'from_line and to_line narrow the text of diff, at or blame: drop them to list the commits, or add diff (with since), at or blame.',
    );
  }
  if (input.from_line !== undefined && input.to_line !== undefined && input.to_line < input.from_line) {
    refuse(`to_line ${input.to_line} is before from_line ${input.from_line}. Give a to_line of at least ${input.from_line}.`);
  }
}
