// The one refusal for a repository a call cannot use, whether it does not exist or the person cannot read it.
import { VaultError } from './vault-error.ts';

/**
 * VaultError `repo_not_found` for `repo`. A repository the person cannot read is answered
 * exactly like one that does not exist (spec: "Who sees what": it "appears nowhere"), so the
 * text never says which it is. `readable` names the caller's readable repositories, the only
 * ones it may list (`details.repos`); a host that does not know the caller gives none, and
 * the text then points to the tool list, never naming a repository.
 */
export function repoNotFound(repo: string, readable?: readonly string[]): VaultError {
  const advice =
    readable === undefined
      ? 'Use one of the names the tool list gives for "repo".'
      : `Use one of: ${readable.map((name) => `"${name}"`).join(', ') || '(none)'}.`;
  return new VaultError('repo_not_found', `There is no repository "${repo}" among those you can read. ${advice}`, {
    repo,
    ...(readable === undefined ? {} : { repos: [...readable] }),
  });
}
