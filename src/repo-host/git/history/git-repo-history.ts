// The RepoHistory of one repository, answered by the `git` program on its mirror.
import type { CommitMatch, CommitSearch, CommitSearchResult, RepoHistory } from '../../history.ts';
import type { Mirror } from '../mirror.ts';
import { blame, startWholeBlame } from './blame.ts';
import { literalPathspec, mirrorGit } from './mirror-git.ts';
import { readBlob } from './note-blobs.ts';
import { noteDiffSince } from './note-diff.ts';
import { noteCommits } from './note-log.ts';
import type { LogCommit } from './parse-log.ts';
import { describeCommits, findCommits, pageFilesFor } from './search-commits.ts';

/**
 * The history of the repository at `mirror` (bare, or a `.git` folder with its work tree),
 * for any adapter that keeps a mirror the `git` program can read: each operation runs git
 * there as the modules of this folder describe (note-log.ts, search-commits.ts, blame.ts,
 * note-diff.ts). Errors: GitError when git fails.
 */
export function gitRepoHistory(mirror: Mirror): RepoHistory {
  return {
    noteCommits: (path, options) => noteCommits(mirror, path, options),
    hasFileHistory: (path) => hasFileHistory(mirror, path),
    resolveCommit: (revision) => resolveCommit(mirror, revision),
    readBlob: (blob) => readBlob(mirror, blob),
    emptyTree: () => emptyTree(mirror),
    noteDiffSince: (path, since, commits, now, visible) => noteDiffSince(mirror, path, since, commits, now, visible),
    startWholeBlame: (path) => startWholeBlame(mirror, path),
    blame: (path, content, fromLine, toLine, early, copies) => blame(mirror, path, content, fromLine, toLine, early, copies),
    searchCommits: (search, options) => searchCommits(mirror, search, options?.describeAhead ?? false),
  };
}

/** {@link RepoHistory.searchCommits}: `findCommits`, then `describeCommits` of the matches kept, with the page's files read ahead when asked. */
async function searchCommits(mirror: Mirror, search: CommitSearch, describeAhead: boolean): Promise<CommitSearchResult> {
  const page = describeAhead ? pageFilesFor(mirror, search) : undefined;
  const found = await findCommits(mirror, search, page);
  const byHash = new Map(found.map((commit) => [commit.commit, commit]));
  const logged = (match: CommitMatch): LogCommit => {
    const commit = byHash.get(match.commit);
    if (commit === undefined) throw new Error(`Commit ${match.commit} is not one this search found`);
    return commit;
  };
  return { matches: found, describe: (matches) => describeCommits(mirror, search, matches.map(logged), page) };
}

/** {@link RepoHistory.resolveCommit}: `git rev-parse --verify <revision>^{commit}`; only hex digits are asked for. */
async function resolveCommit(mirror: Mirror, revision: string): Promise<string | null> {
  if (!/^[0-9a-f]{4,64}$/.test(revision)) return null;
  const { stdout, code } = await mirrorGit(mirror, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { okCodes: [0, 1, 128] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/** {@link RepoHistory.emptyTree}: `git hash-object -t tree` of nothing. */
async function emptyTree(mirror: Mirror): Promise<string> {
  const { stdout } = await mirrorGit(mirror, ['hash-object', '-t', 'tree', '--stdin'], { input: '' });
  return stdout.toString('utf8').trim();
}

/**
 * {@link RepoHistory.hasFileHistory}: one `git log --raw --no-renames HEAD -- <path>`; a
 * commit counts when the path was a file (not mode 120000, not absent) before or after it.
 */
async function hasFileHistory(mirror: Mirror, path: string): Promise<boolean> {
  const { stdout, code } = await mirrorGit(mirror, ['log', '--format=', '--raw', '--no-renames', 'HEAD', '--', literalPathspec(path)], {
    okCodes: [0, 128],
  });
  if (code !== 0) return false;
  // Raw lines: `:<old mode> <new mode> <old id> <new id> <status>\t<path>`.
  return stdout
    .toString('utf8')
    .split('\n')
    .some((line) => {
      const modes = /^:(\d{6}) (\d{6}) /.exec(line);
      return modes !== null && [modes[1], modes[2]].some((mode) => mode !== '000000' && mode !== '120000');
    });
}
