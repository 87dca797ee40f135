// Builds the demo installation `acme`: two real Git repositories, `handbook` and `projects`,
// with a history by Acme's people at fixed dates, and an example users file.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runGit } from '../repo-host/git/run-git.ts';
import { handbookCommits } from './acme-handbook.ts';
import { projectsCommits } from './acme-projects.ts';
import { maya, tom, type DemoCommit } from './demo-commit.ts';

/** Where the demo's parts are, below its folder. */
export interface DemoLayout {
  /** The demo folder itself. */
  dir: string;
  /** `<dir>/acme`: the repositories folder; its name is the installation's name. */
  reposDir: string;
  /** `<dir>/users.example.jsonc`: Maya reads and writes everything, Tom reads the handbook only. */
  usersFile: string;
}

/** The demo's repositories and their histories, by name. */
const demoRepos: ReadonlyArray<{ name: string; commits: DemoCommit[] }> = [
  { name: 'handbook', commits: handbookCommits },
  { name: 'projects', commits: projectsCommits },
];

/** The example tokens of the users file: for trying `--users` locally, never for real use. */
export const demoTokens = { maya: 'demo-token-maya', tom: 'demo-token-tom' } as const;

/** The paths of the demo in `dir`. */
export function demoLayout(dir: string): DemoLayout {
  return { dir, reposDir: join(dir, 'acme'), usersFile: join(dir, 'users.example.jsonc') };
}

/** Whether `dir` holds a built demo (both repositories and the users file). */
export function isDemoBuilt(dir: string): boolean {
  const layout = demoLayout(dir);
  return existsSync(layout.usersFile) && demoRepos.every((repo) => existsSync(join(layout.reposDir, repo.name, '.git')));
}

/**
 * Builds the demo in `dir` unless it is built already (`rebuild: true` replaces it).
 * It is built in a temporary folder beside and moved into place, so an interrupted build
 * never leaves half a demo. The same input gives the same commits every time.
 */
export async function buildDemo(dir: string, options: { rebuild?: boolean } = {}): Promise<DemoLayout> {
  const layout = demoLayout(dir);
  if (isDemoBuilt(dir) && !options.rebuild) return layout;
  mkdirSync(dir, { recursive: true });
  const staging = mkdtempSync(join(dir, '.building-'));
  try {
    for (const repo of demoRepos) await buildRepo(join(staging, 'acme', repo.name), repo.commits);
    writeFileSync(join(staging, 'users.example.jsonc'), usersExample());
    rmSync(layout.reposDir, { recursive: true, force: true });
    rmSync(layout.usersFile, { force: true });
    renameSync(join(staging, 'acme'), layout.reposDir);
    renameSync(join(staging, 'users.example.jsonc'), layout.usersFile);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return layout;
}

/** A repository with a work tree on `main`, made of `commits` in order. */
async function buildRepo(dir: string, commits: readonly DemoCommit[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await runGit(['init', '-q', '-b', 'main'], { cwd: dir });
  await runGit(['config', 'core.autocrlf', 'false'], { cwd: dir });
  for (const commit of commits) {
    for (const [from, to] of Object.entries(commit.renames ?? {})) {
      mkdirSync(dirname(join(dir, to)), { recursive: true });
      await runGit(['mv', '--', from, to], { cwd: dir });
    }
    for (const [path, content] of Object.entries(commit.files)) {
      const full = join(dir, path);
      if (content === null) {
        rmSync(full, { force: true });
      } else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
    }
    await runGit(['add', '-A'], { cwd: dir });
    const env = {
      GIT_AUTHOR_NAME: commit.author.name,
      GIT_AUTHOR_EMAIL: commit.author.email,
      GIT_AUTHOR_DATE: commit.date,
      GIT_COMMITTER_NAME: commit.author.name,
      GIT_COMMITTER_EMAIL: commit.author.email,
      GIT_COMMITTER_DATE: commit.date,
    };
    await runGit(['commit', '-q', '--no-verify', '-F', '-'], { cwd: dir, env, input: commit.message });
  }
}

function usersExample(): string {
  const user = (person: typeof maya, token: string, read: string[], write: string[]) =>
    `    { "login": "${person.login}", "name": "${person.name}", "email": "${person.email}", "token": "${token}", "read": ${JSON.stringify(read)}, "write": ${JSON.stringify(write)} }`;
  return `// People for trying the demo with sign-in: major-vault serve --repos demo/acme --users demo/users.example.jsonc
// Each person sends "Authorization: Bearer <token>". These tokens are examples: never use them for real data.
// Maya reads and writes both repositories; Tom reads the handbook only, so "projects" does not exist for him.
{
  "users": [
${user(maya, demoTokens.maya, ['*'], ['*'])},
${user(tom, demoTokens.tom, ['handbook'], [])}
  ]
}
`;
}
