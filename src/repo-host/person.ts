// Who is calling, and what they may touch: the answer of SignIn.authenticate (sign-in.ts).

/**
 * A signed-in person. `name` and `email` become the author of every commit they cause
 * (spec: "Who writes what"); `login` is their account name (GitHub login, or the users
 * file's `login` locally).
 */
export interface Person {
  login: string;
  name: string;
  email: string;
}

/**
 * A person and their rights within one installation, as the host says: the repositories
 * they may read and those they may write (write implies read). Kept at most 15 minutes
 * (spec: "A change of access takes effect within 15 minutes").
 */
export interface Access {
  person: Person;
  /** Names of the installation's repositories this person can read. */
  read: ReadonlySet<string>;
  /** Names of the installation's repositories this person can write. */
  write: ReadonlySet<string>;
  /**
   * The credential this person signed in with, which their writes carry to the host
   * (`Change.credential`): hosted, their GitHub token; locally, their bearer token from the
   * users file, or null for the one local person. Absent: null. A tool never sees it: its
   * ToolContext leaves it out, and only the host bound to the caller sends it along.
   */
  credential?: string | null;
}
