// The local adapter's sign-in side: who a bearer token belongs to, from the users file (or one local person).
import { createHash, timingSafeEqual } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { UsersFile } from '../../config/users-file.ts';
import { cleanIdentPart } from '../git/commit-ident.ts';
import { runGit, splitNul } from '../git/run-git.ts';
import type { Access, Person } from '../person.ts';
import { isFile } from './local-repo.ts';

/** The one person when neither `as` nor git's global configuration names anyone. */
export const DEFAULT_PERSON: Person = { login: 'local', name: 'Major Vault user', email: 'major-vault@localhost' };

/** Options of {@link LocalSignIn}. */
export interface LocalSignInOptions {
  /** People, tokens and rights; null: one person reads and writes everything. */
  users: UsersFile | null;
  /** That one person when there is no users file; null: git's user.name/user.email, else {@link DEFAULT_PERSON}. */
  as: Person | null;
  /** The names of the installation's repositories, as listed now (what `*` in the users file means). */
  repoNames: () => Promise<string[]>;
}

/**
 * Sign-in over a users file (spec: "Who writes what"; DESIGN.md "Ports and adapters", the
 * sign-in side): a token is compared in constant time against every user's, and names the
 * repositories its user may read and write. Without a users file there is one person, who
 * reads and writes everything and needs no token.
 */
export class LocalSignIn {
  /** Whether a bearer token is required at all (false: single-person mode, no users file). */
  readonly requiresToken: boolean;
  private readonly users: UsersFile | null;
  private readonly as: Person | null;
  private readonly repoNames: () => Promise<string[]>;
  private localPerson: Promise<Person> | null = null;

  constructor(options: LocalSignInOptions) {
    this.users = options.users;
    this.as = options.as;
    this.repoNames = options.repoNames;
    this.requiresToken = this.users !== null;
  }

  /**
   * Who `token` belongs to and the repositories they may read and write (write implies read);
   * null for a missing or unknown token. Without a users file: the one person, for any token.
   */
  async authenticate(token: string | undefined): Promise<Access | null> {
    if (this.users === null) {
      // Both at once: each asks git, and the first answers of a start wait for this.
      const [names, person] = await Promise.all([this.repoNames(), this.onePerson()]);
      const all = new Set(names);
      return { person, read: all, write: new Set(all), credential: null };
    }
    const names = await this.repoNames();
    if (token === undefined || token === '') return null;
    // Compare against every user, always, in constant time per comparison: no early exit
    // that would tell how many tokens were tried before a match.
    const asked = sha256(token);
    let match: UsersFile['users'][number] | null = null;
    for (const user of this.users.users) {
      if (timingSafeEqual(asked, sha256(user.token)) && match === null) match = user;
    }
    if (match === null) return null;
    const pick = (list: readonly string[]) => new Set(list.includes('*') ? names : names.filter((name) => list.includes(name)));
    const write = pick(match.write);
    const read = new Set([...pick(match.read), ...write]);
    return { person: { login: match.login, name: match.name, email: match.email }, read, write, credential: token };
  }

  /**
   * Whether the one person was taken from git's configuration (no users file, no `as`): then a
   * commit's author is resolved as Git resolves it in each repository (see commit-author.ts).
   */
  get personFromGitConfig(): boolean {
    return this.users === null && this.as === null;
  }

  /**
   * Starts reading what the first {@link authenticate} needs besides the folder (the one
   * person, from git's configuration, in single-person mode), so that a server's first
   * request does not wait for git; read once, as ever. Never throws.
   */
  readAhead(): void {
    if (this.users === null) this.onePerson().catch(() => undefined);
  }

  /** The one person of single-person mode: `as`, else git's global user.name/user.email, else a default. */
  onePerson(): Promise<Person> {
    if (this.as !== null) return Promise.resolve(this.as);
    this.localPerson ??= (async () => {
      for (const file of [join(homedir(), '.gitconfig'), join(homedir(), '.config', 'git', 'config')]) {
        if (!(await isFile(file))) continue;
        const values = await userValues(file);
        const name = cleanIdentPart(values.get('user.name') ?? '');
        if (name === '') continue;
        const email = cleanIdentPart(values.get('user.email') ?? '') || DEFAULT_PERSON.email;
        return { login: email.split('@')[0] || DEFAULT_PERSON.login, name, email };
      }
      return DEFAULT_PERSON;
    })();
    return this.localPerson;
  }
}

/**
 * `user.name` and `user.email` of the git configuration file `file` as `git config --file
 * FILE --get KEY` answers each (the last value of a key set more than once, trimmed; no
 * includes followed), from one `git config` run instead of one per key: the first sign-in of
 * a start waits for it. A key without a value reads as `''`; an absent key is missing.
 */
async function userValues(file: string): Promise<Map<string, string>> {
  const listed = await runGit(['config', '--file', file, '-z', '--get-regexp', '^user\\.(name|email)$'], { okCodes: [0, 1] });
  const values = new Map<string, string>();
  // Each entry is `key` NL `value`, or `key` alone for a key written without a value.
  for (const entry of splitNul(listed.stdout)) {
    const newline = entry.indexOf('\n');
    if (newline === -1) values.set(entry, '');
    else values.set(entry.slice(0, newline), entry.slice(newline + 1).trim());
  }
  return values;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
