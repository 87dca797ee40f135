// The first commit of an empty GitHub repository: made in the mirror, pushed with the person's token.
import { cleanIdentPart } from '../git/commit-ident.ts';
import { GitError, runGit } from '../git/run-git.ts';
import { fastImportCommit } from '../local/fast-import-commit.ts';
import type { Person } from '../person.ts';
import { GitHubUnavailable } from './github-failure.ts';
import { gitAuthEnv, repositoryUrl } from './github-mirrors.ts';

/** Where and what: the mirror (holds the objects), GitHub's web URL, `owner/name`, the branch, the files, author and message. */
export interface FirstCommit {
  gitDir: string;
  webUrl: string;
  fullName: string;
  branch: string;
  files: ReadonlyArray<{ path: string; content: Buffer }>;
  author: Person;
  message: string;
  /** The person's GitHub token: GitHub checks their push right with it. */
  credential: string;
}

/** What the push gave: the new commit, or `stale` when the branch exists by now (the repository is no longer empty). */
export type FirstCommitOutcome = { ok: true; commit: string } | { ok: false; stale: true };

/**
 * Makes the root commit of `files` in the mirror's object store (fast-import, as the local
 * adapter does; authored and committed by `author`, the signed-in person GitHub named at
 * sign-in) and pushes it to the branch with the person's token, not forced. createCommitOnBranch
 * cannot do this: it appends to a branch, and an empty repository has none. The push creates
 * the branch only where there is none: if someone else's commit made it meanwhile, Git refuses
 * ours as not a fast-forward (compare-and-swap on "no branch yet"), answered `stale`. Any other
 * failure (the token refused, no push right, GitHub down) throws {@link GitHubUnavailable}
 * with git's words; the caller tells a refused credential apart by asking GitHub.
 */
export async function pushFirstCommit(first: FirstCommit): Promise<FirstCommitOutcome> {
  const name = cleanIdentPart(first.author.name) || cleanIdentPart(first.author.login) || 'Major Vault user';
  const commit = await fastImportCommit(
    first.gitDir,
    first.files.map((file) => ({ path: file.path, content: file.content, mode: '100644' })),
    {
      parent: null,
      name,
      email: cleanIdentPart(first.author.email),
      date: `${Math.floor(Date.now() / 1000)} +0000`,
      message: first.message.endsWith('\n') ? first.message : `${first.message}\n`,
    },
  );
  const ref = `refs/heads/${first.branch}`;
  const pushed = await runGit(['push', '--porcelain', repositoryUrl(first.webUrl, first.fullName), `${commit}:${ref}`], {
    gitDir: first.gitDir,
    env: gitAuthEnv(first.webUrl, first.credential),
    okCodes: [0, 1, 128],
    timeoutMs: 120_000,
  });
  // `--porcelain`: one line per ref, `<flag>\t<from>:<to>\t<summary>`; `!` is a rejection.
  const line = pushed.stdout
    .toString('utf8')
    .split('\n')
    .find((entry) => entry.split('\t')[1] === `${commit}:${ref}`);
  // `*`: the branch was made by this push. `=`: it was there already, at the very same commit
  // (made by the same person, with the same files and message, in the same second): not ours.
  if (pushed.code === 0 && line?.startsWith('*')) return { ok: true, commit };
  if (line?.startsWith('=') || (line?.startsWith('!') && /\[rejected\]/.test(line))) return { ok: false, stale: true };
  const said = pushed.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
  throw new GitHubUnavailable(
    `Could not push the first commit of "${first.fullName}" to GitHub: ${said || line || 'git failed'}.`,
    undefined,
    {
      cause: new GitError(['push'], pushed.code, pushed.stderr),
    },
  );
}
