// What the commit log says about paths: the last commit that changed one, and what landed between two heads.
import { runGit } from '../git/run-git.ts';
import type { CommitLine, ConflictDescription } from '../repo-host.ts';
import { LITERAL_PATHSPECS } from './repo-place.ts';

/** `git log --format` of a {@link CommitLine}: fields apart by NUL, one commit a line. */
const LINE_FORMAT = '%h%x00%an%x00%s';

/** See RepoHost.lastCommit: `git log -1 at -- path`. */
export async function lastCommit(gitDir: string, at: string, path: string): Promise<string | null> {
  const out = await runGit(['log', '-1', '--format=%H', at, '--', path], { gitDir, env: LITERAL_PATHSPECS });
  const commit = out.stdout.toString('utf8').trim();
  return commit === '' ? null : commit;
}

/** See RepoHost.describeConflict: `git log -n 5 from..to` and `git diff --name-only from to -- paths`. */
export async function describeConflict(gitDir: string, from: string, to: string, paths: readonly string[]): Promise<ConflictDescription> {
  const log = await runGit(['log', `--format=${LINE_FORMAT}`, '-n', '5', `${from}..${to}`, '--'], { gitDir });
  const diff = await runGit(['diff', '--name-only', '-z', from, to, '--', ...paths], { gitDir, env: LITERAL_PATHSPECS });
  return { commits: commitLines(log.stdout), changed: diff.stdout.toString('utf8').split('\0').filter(Boolean) };
}

/** See RepoHost.commitsTouching: `git log -n 5 from..to -- path`. */
export async function commitsTouching(gitDir: string, from: string | null, to: string, path: string): Promise<CommitLine[]> {
  const range = from === null ? [to] : [`${from}..${to}`];
  const log = await runGit(['log', `--format=${LINE_FORMAT}`, '-n', '5', ...range, '--', path], { gitDir, env: LITERAL_PATHSPECS });
  return commitLines(log.stdout);
}

function commitLines(stdout: Buffer): CommitLine[] {
  return stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [shortId = '', author = '', subject = ''] = line.split('\0');
      return { shortId, author, subject };
    });
}
