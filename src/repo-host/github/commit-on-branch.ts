// A person's change as one commit on a GitHub branch: GraphQL createCommitOnBranch, compare-and-swap on the head.
import type { Octokit } from '@octokit/rest';
import { VaultError } from '../../vault-error.ts';
import { githubFailure, GitHubUnavailable, statusOf } from './github-failure.ts';

/** The files of one commit as GitHub's `FileChanges` take them: additions with base64 contents, deletions by path. */
export interface BranchFileChanges {
  additions: Array<{ path: string; contents: string }>;
  deletions: Array<{ path: string }>;
}

/** Where and what to commit: `owner/name`, the branch's short name, the head it must still be at, the files and the message. */
export interface BranchCommit {
  fullName: string;
  branch: string;
  expectedHeadOid: string;
  fileChanges: BranchFileChanges;
  message: string;
}

/** What the attempt gave: the new commit, or `stale` when the branch was no longer at `expectedHeadOid`. */
export type BranchCommitOutcome = { ok: true; commit: string } | { ok: false; stale: true };

const MUTATION = /* GraphQL */ `
  mutation CommitOnBranch($input: CreateCommitOnBranchInput!) {
    createCommitOnBranch(input: $input) {
      commit {
        oid
      }
    }
  }
`;

/**
 * Commits `commit` with GraphQL `createCommitOnBranch` as the person whose token `octokit`
 * carries: GitHub makes exactly one commit on top of `expectedHeadOid`, authored by that person
 * (committed, and signed, by GitHub as for a commit made on the web), and moves the branch only
 * if it is still there; else the whole mutation fails with a `STALE_DATA` error and nothing is
 * written. Errors: `stale` for STALE_DATA; VaultError `forbidden` for FORBIDDEN (the person
 * may not push) and NOT_FOUND (the repository or branch is out of the person's reach);
 * VaultError `unauthorized` for HTTP 401 (see githubFailure); any other GraphQL error, 5xx or
 * timeout {@link GitHubUnavailable} (after a timeout or 5xx the commit may have landed: the
 * caller looks).
 */
export async function commitOnBranch(octokit: Octokit, commit: BranchCommit): Promise<BranchCommitOutcome> {
  const { headline, body } = splitMessage(commit.message);
  try {
    const data = await octokit.graphql<{ createCommitOnBranch: { commit: { oid: string } | null } | null }>(MUTATION, {
      input: {
        branch: { repositoryNameWithOwner: commit.fullName, branchName: commit.branch },
        expectedHeadOid: commit.expectedHeadOid,
        message: body === '' ? { headline } : { headline, body },
        fileChanges: commit.fileChanges,
      },
    });
    const oid = data.createCommitOnBranch?.commit?.oid;
    if (typeof oid !== 'string')
      throw new GitHubUnavailable(`GitHub answered createCommitOnBranch for "${commit.fullName}" without a commit.`, undefined);
    return { ok: true, commit: oid };
  } catch (error) {
    const types = graphqlErrorTypes(error);
    if (types.includes('STALE_DATA')) return { ok: false, stale: true };
    const said = graphqlMessages(error);
    if (types.includes('FORBIDDEN') || types.includes('INSUFFICIENT_SCOPES'))
      throw new VaultError(
        'forbidden',
        `GitHub did not let you write to "${commit.fullName}" (${said}), so nothing was written. Ask an admin of the repository for write access.`,
        { repo: commit.fullName },
        { cause: error },
      );
    if (types.includes('NOT_FOUND'))
      throw new VaultError(
        'forbidden',
        `GitHub did not find the branch "${commit.branch}" of "${commit.fullName}" for you (${said}), so nothing was written. You may have lost access to it; sign in again, or ask an admin of the repository.`,
        { repo: commit.fullName },
        { cause: error },
      );
    if (types.length > 0)
      throw new GitHubUnavailable(`GitHub refused the commit to "${commit.fullName}": ${said}. Nothing was written.`, statusOf(error), {
        cause: error,
      });
    throw githubFailure(error, `commit to "${commit.fullName}"`);
  }
}

/**
 * A commit message as createCommitOnBranch's `CommitMessage` takes it: the headline (the first
 * line) and the body (the rest, without the blank line between). GitHub joins them with a blank line.
 */
export function splitMessage(message: string): { headline: string; body: string } {
  const newline = message.indexOf('\n');
  if (newline === -1) return { headline: message, body: '' };
  return { headline: message.slice(0, newline), body: message.slice(newline + 1).replace(/^\n+/, '') };
}

/** The `type` of each GraphQL error in a GraphqlResponseError (GitHub's STALE_DATA, FORBIDDEN, NOT_FOUND…); none for other errors. */
export function graphqlErrorTypes(error: unknown): string[] {
  const errors = (error as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((entry: unknown) => {
    const type = (entry as { type?: unknown } | null)?.type;
    return typeof type === 'string' ? [type] : [];
  });
}

function graphqlMessages(error: unknown): string {
  const errors = (error as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return '';
  return errors
    .map((entry: unknown) => (entry as { message?: unknown } | null)?.message)
    .filter((message): message is string => typeof message === 'string')
    .join('; ')
    .slice(0, 300);
}
