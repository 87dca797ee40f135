// The sign-in port: who a credential belongs to and what they may read and write (DESIGN.md
// "Ports and adapters", RepoHost's sign-in side). Local: a users file, or one local person.
// Hosted: the person's GitHub token. Kept apart from repository access, so no tool reaches it.
import type { Access } from './person.ts';

/** Signs callers in; the front (HTTP) and the stdio root ask it, never a tool. */
export interface SignIn {
  /** Whether a bearer token is required at all (false: local single-person mode). */
  readonly requiresToken: boolean;
  /**
   * Who a bearer token belongs to and what they may read and write, with the credential
   * their writes carry to the host (`Access.credential`); null for an unknown or missing
   * token. The local adapter without a users file answers every call (token or none) with
   * its one person, who reads and writes everything.
   */
  authenticate(token: string | undefined): Promise<Access | null>;
}
