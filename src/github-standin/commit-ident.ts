// The identity GitHub writes on a person's commits.
import type { GitIdent } from './bare-repo.ts';
import { noreplyEmail } from './payloads.ts';
import type { Account } from './state.ts';

/** The commit identity GitHub gives a person: their name (or login) and public e-mail (or `<id>+<login>@users.noreply.github.com`). */
export function personIdent(account: Account): GitIdent {
  return { name: account.person?.name ?? account.login, email: account.person?.email ?? noreplyEmail(account) };
}
