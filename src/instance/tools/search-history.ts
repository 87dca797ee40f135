// search_history: commits by text (pickaxe), author, time and path, in one repository or
// across every readable one (spec: "search_history").
import { localMoment } from '../../history/local-time.ts';
import { openRoots } from '../../history/open-roots.ts';
import { assertInFolders } from '../../notes/vault-path.ts';
import type { CommitMatch, CommitSearch, FoundCommit } from '../../repo-host/history.ts';
import { VaultError } from '../../vault-error.ts';
import { implement } from '../tool.ts';
import { searchHistory as definition, type SearchHistoryAnswer, type ListedCommit } from '../../tools/search-history.ts';
import { fitAnswer, pastTheEnd } from './answer-budget.ts';
import { answerPath, callTargets } from './read-scope.ts';

/** How many files one commit lists at most; `files_total` counts them all. */
const FILES_PER_COMMIT = 20;

/**
 * The search_history tool (spec: "search_history"; contract: spec/acme-tools-list.json).
 * Each repository is searched by `RepoHistory.searchCommits` (one `git log` with pickaxe and
 * filters, then the page's files); without `repo`, every readable repository is searched and the
 * commits merged newest first, files named `<repo>/<path>` with their `repo`. Refuses
 * `since` after `until` and days that do not exist with `bad_arguments`, and a `path`
 * outside the open folders with `outside_folders`. Hidden and closed paths never appear,
 * not even in `files_total`; a commit that changed only such files is not listed. An offset
 * past the last match gets a note saying so and naming the first and last pages' offsets
 * (pastTheEnd, as list_notes), counting the matches with one more search.
 */
export const searchHistory = implement(definition, {
  async handler(input, ctx) {
    const since = input.since === undefined ? undefined : localMoment(input.since, 'start', 'since');
    const until = input.until === undefined ? undefined : localMoment(input.until, 'end', 'until');
    if (since !== undefined && until !== undefined && since > until) {
      throw new VaultError(
        'bad_arguments',
        `since ${input.since} is after until ${input.until}, so no commit can match. Give a since before until, or leave one out.`,
        {
          since: input.since,
          until: input.until,
        },
      );
    }
    const { across, targets } = await callTargets(ctx, input.repo, input.path, 'folder');
    const strict = !across || targets.length === 1;
    const end = input.offset + input.limit;

    // Each repository's commits in its own walk order; across repositories, merged newest
    // first (a k-way merge, so a longer list never reorders what a shorter one gave), and
    // files fetched only for the commits the page keeps.
    const searched = await Promise.all(
      targets.map(async ({ vault, path }) => {
        const folders = vault.config.settings.folders;
        const roots = openRoots(folders, path);
        if (roots === null) {
          if (strict) assertInFolders(path, folders);
          return null;
        }
        const history = await ctx.host.history(vault.name);
        const search: CommitSearch = {
          ...(input.text !== undefined ? { text: input.text } : {}),
          ...(input.author !== undefined ? { author: input.author } : {}),
          ...(since !== undefined ? { since } : {}),
          ...(until !== undefined ? { until } : {}),
          roots,
          openRoots: openRoots(folders) ?? [],
          skip: across ? 0 : input.offset,
          maxCount: across ? end + 1 : input.limit + 1,
          filesPerCommit: FILES_PER_COMMIT,
        };
        // One repository: the page's blobs are read while the walk finds the rest of it.
        const found = await history.searchCommits(search, { describeAhead: !across });
        // How many commits match in all (up to `atMost`): another walk, only for an offset past the end.
        const count = async (atMost: number) => {
          const all = await history.searchCommits({ ...search, skip: 0, maxCount: atMost }, { describeAhead: false });
          await all.describe([]);
          return all.matches.length;
        };
        return { repo: vault.name, found, commits: found.matches, count };
      }),
    );
    const lists = searched.filter((list) => list !== null);
    const chosen = across
      ? mergeNewestFirst(lists).slice(input.offset, end + 1)
      : lists.flatMap((list) => list.commits.map((commit) => ({ repo: list.repo, commit })));
    const described = await Promise.all(
      lists.map(async (list) => {
        const mine = chosen.filter((entry) => entry.repo === list.repo).map((entry) => entry.commit);
        return new Map((await list.found.describe(mine)).map((found) => [found.commit, found]));
      }),
    );
    const byRepo = new Map(lists.map((list, i) => [list.repo, described[i]]));
    const more = chosen.length > input.limit;
    // An empty page at an offset: how many commits match, to say the offset is past the end (as
    // list_notes does). Across repositories each list holds all its matches then (fewer than
    // end + 1); in one, the walk skipped them, so they are counted again.
    const total =
      chosen.length > 0 || input.offset === 0
        ? null
        : across
          ? lists.reduce((sum, list) => sum + list.commits.length, 0)
          : (await Promise.all(lists.map((list) => list.count(input.offset)))).reduce((sum, n) => sum + n, 0);
    // Offsets count the commits found, shown or not (one that changed only hidden or closed
    // paths, or symbolic links, is left out): `through` is how many a shown one ends.
    const merged = chosen.slice(0, input.limit).flatMap(({ repo, commit }, i) => {
      const found = byRepo.get(repo)?.get(commit.commit);
      return found === undefined ? [] : [{ repo, commit: found, through: i + 1 }];
    });
    const page = merged.map(({ repo, commit }) => listed(commit, repo, across));
    const pageLength = Math.min(chosen.length, input.limit);

    const { answer } = fitAnswer(page, (commits, cut): SearchHistoryAnswer => {
      const next = input.offset + (cut ? (merged[commits.length - 1]?.through ?? 0) : pageLength);
      const notes = [
        merged.slice(0, commits.length).some((entry) => entry.commit.filesCut)
          ? `A commit lists at most ${FILES_PER_COMMIT} files; files_total counts them all. Narrow with path to see others.`
          : null,
        commits.length === 0 && (input.offset === 0 || total === 0)
          ? 'No commit matches. Widen the search: fewer words in text, another author, a longer time span, or no path.'
          : null,
        total !== null && total > 0 ? pastTheEnd(input.offset, total, 'commits', 'search_history', input.limit) : null,
        more || cut ? `More commits follow: ask again with offset ${next}.` : null,
      ].filter((line): line is string => line !== null);
      return {
        commits: [...commits],
        offset: input.offset,
        hasMore: more || cut,
        ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
        ...(across ? {} : { repo: targets[0]?.vault.name ?? input.repo ?? '' }),
      };
    });
    return answer;
  },
});

function listed(commit: FoundCommit, repo: string, across: boolean): ListedCommit {
  return {
    commit: commit.commit,
    date: commit.date,
    author: commit.author,
    subject: commit.subject,
    files: commit.files.map((file) => ({
      path: answerPath(repo, file.path, across),
      ...(file.added !== undefined ? { added: file.added } : {}),
      ...(file.removed !== undefined ? { removed: file.removed } : {}),
      ...(file.text !== undefined ? { text: file.text } : {}),
      ...(across ? { repo } : {}),
    })),
    files_total: commit.filesTotal,
  };
}

/**
 * The commits of several repositories, each list in its own walk order (newest first, as
 * Git gives it), merged into one: at each step the newest of the lists' next commits (ties
 * by repository name). Each list's order is kept, so a page taken from longer lists starts
 * with the same commits as one taken from shorter lists.
 */
function mergeNewestFirst(lists: readonly { repo: string; commits: readonly CommitMatch[] }[]): { repo: string; commit: CommitMatch }[] {
  const at = lists.map(() => 0);
  const merged: { repo: string; commit: CommitMatch }[] = [];
  for (;;) {
    let best = -1;
    for (let i = 0; i < lists.length; i += 1) {
      const next = lists[i]?.commits[at[i] ?? 0];
      if (next === undefined) continue;
      const chosen = best === -1 ? undefined : lists[best]?.commits[at[best] ?? 0];
      if (
        chosen === undefined ||
        next.time > chosen.time ||
        (next.time === chosen.time && (lists[i]?.repo ?? '') < (lists[best]?.repo ?? ''))
      )
        best = i;
    }
    if (best === -1) return merged;
    const list = lists[best] as { repo: string; commits: readonly CommitMatch[] };
    merged.push({ repo: list.repo, commit: list.commits[at[best] ?? 0] as CommitMatch });
    at[best] = (at[best] ?? 0) + 1;
  }
}
