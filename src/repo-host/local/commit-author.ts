// The author a local commit gets: the caller, or in single-person mode the repository's own Git identity.
import { join } from 'node:path';
import { cleanIdentPart } from '../git/commit-ident.ts';
import { runGit, splitNul } from '../git/run-git.ts';
import type { Person } from '../person.ts';
import { statLine, type LocalRepo } from './local-repo.ts';
import { DEFAULT_PERSON, type LocalSignIn } from './local-sign-in.ts';

/** Resolves commit authors, caching each repository's Git identity until its config file changes. */
export class CommitAuthors {
  /** Per repository (git dir): the author its own Git configuration gives, and the stat data of its config file then. */
  private readonly repoPeople = new Map<string, { key: string; person: Person }>();

  private readonly signIn: LocalSignIn;

  constructor(signIn: LocalSignIn) {
    this.signIn = signIn;
  }

  /**
   * The author of a commit: `author` as given, except in single-person mode without `--as`
   * (spec/README: "the name and e-mail from your Git configuration"), where the one person is
   * resolved as Git resolves it for this repository — its own config, then the global, then the
   * system one — by `git config` run in the repository with the person's configuration (not the
   * neutral environment of every other git call); cached per repository until its config file
   * changes. Falls back to the one person when the repository's Git has no user.name.
   */
  async authorOf(repo: LocalRepo, author: Person): Promise<Person> {
    if (!this.signIn.personFromGitConfig) return author;
    const one = await this.signIn.onePerson();
    if (author.name !== one.name || author.email !== one.email || author.login !== one.login) return author;
    const key = await statLine(join(repo.gitDir, 'config'));
    const cached = this.repoPeople.get(repo.gitDir);
    if (cached !== undefined && cached.key === key) return cached.person;
    const person = (await gitConfigPerson(repo)) ?? one;
    this.repoPeople.set(repo.gitDir, { key, person });
    return person;
  }
}

/**
 * user.name and user.email as Git resolves them in `repo` for the person (repository config, then
 * global, then system): `git config` without the neutral environment's GIT_CONFIG_GLOBAL and
 * GIT_CONFIG_NOSYSTEM (given the values the process itself has; an undefined value leaves the
 * variable out of the child's environment, as Node documents). Null without a user.name.
 */
async function gitConfigPerson(repo: LocalRepo): Promise<Person | null> {
  const personal = {
    GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL,
    GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM,
  } as unknown as Record<string, string>;
  const { stdout } = await runGit(['config', '-z', '--get-regexp', '^user\\.(name|email)$'], {
    gitDir: repo.gitDir,
    cwd: repo.workTree ?? repo.gitDir,
    env: personal,
    okCodes: [0, 1],
  });
  const values = new Map<string, string>();
  for (const record of splitNul(stdout)) {
    const newline = record.indexOf('\n');
    if (newline !== -1) values.set(record.slice(0, newline).toLowerCase(), record.slice(newline + 1)); // the last value wins, as in Git
  }
  const name = cleanIdentPart(values.get('user.name') ?? '');
  if (name === '') return null;
  const email = cleanIdentPart(values.get('user.email') ?? '') || DEFAULT_PERSON.email;
  return { login: email.split('@')[0] || DEFAULT_PERSON.login, name, email };
}
