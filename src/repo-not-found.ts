// The one refusal for a repository a call cannot use, whether it does not exist or the person cannot read it.
import { NO_READABLE_REPO } from './tools/tool.ts';
import { VaultError } from './vault-error.ts';

/**
 * VaultError `repo_not_found` for `repo`. A repository the person cannot read is answered
 * exactly like one that does not exist (spec: "Who sees what": it "appears nowhere"), so the
 * text never says which it is. `readable` names the caller's readable repositories, the only
 * ones it may list (`details.repos`); a host that does not know the caller gives none, and
 * the text then points to the tool list, never naming a repository. A person who can read none
 * is told so, and to ask whoever runs Major Vault for access ({@link NO_READABLE_REPO}).
 */
export function repoNotFound(repo: string, readable?: readonly string[]): VaultError {
  const advice =
    readable === undefined
      ? 'Use one of the names the tool list gives for "repo".'
      : readable.length === 0
        ? NO_READABLE_REPO
        : `Use one of: ${readable.map((name) => `"${name}"`).join(', ')}.`;
  return new VaultError('repo_not_found', `There is no repository "${repo}" among those you can read. ${advice}`, {
    repo,
    ...(readable === undefined ? {} : { repos: [...readable] }),
  });
}
