// The stand-in's bare repositories, driven with Git plumbing: GitHub's storage, not the product's.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The all-zero object id Git (and GitHub's push payloads) use for "no commit". */
export const ZERO_OID = '0000000000000000000000000000000000000000';

/** A Git identity with an optional date (ISO 8601 or Git's `<unix> <offset>`). */
export interface GitIdent {
  name: string;
  email: string;
  date?: string;
}

/** A failed `git` run: its arguments, exit code and standard error. */
export class GitCommandError extends Error {
  readonly args: string[];
  readonly code: number | null;
  readonly stderr: string;

  constructor(args: string[], code: number | null, stderr: string) {
    super(`git ${args.join(' ')} failed (${code}): ${stderr.trim()}`);
    this.args = args;
    this.code = code;
    this.stderr = stderr;
  }
}

/** The environment every stand-in `git` runs with: no user or system configuration, no prompts. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', ...extra };
}

/**
 * Runs `git` with `args` in `cwd`, writing `input` to its standard input; resolves with
 * standard output (untrimmed). Rejects with {@link GitCommandError} on a non-zero exit.
 */
export function runGit(
  cwd: string,
  args: string[],
  options: { input?: string | Buffer; env?: Record<string, string> } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new GitCommandError(args, code, Buffer.concat(err).toString('utf8')));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Makes a bare repository at `dir` whose HEAD names `defaultBranch`, refusing non-fast-forward pushes as a protected-from-rewrite GitHub branch would. */
export async function initBareRepo(dir: string, defaultBranch: string): Promise<void> {
  await runGit(tmpdir(), ['init', '-q', '--bare', '-b', defaultBranch, dir]);
  await runGit(dir, ['config', 'receive.denyNonFastForwards', 'true']);
  await runGit(dir, ['config', 'http.receivepack', 'true']);
}

/** Whether `path` can name a file in a Git tree: relative, no empty, `.`, `..` or `.git` segment. */
export function isRepoPath(path: string): boolean {
  return (
    path !== '' &&
    path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..' && segment.toLowerCase() !== '.git') &&
    !path.includes('\0')
  );
}

/** The commit a ref points at, or null when the ref does not exist. */
export async function resolveRef(dir: string, ref: string): Promise<string | null> {
  try {
    return (await runGit(dir, ['rev-parse', '--verify', '-q', `${ref}^{commit}`])).trim() || null;
  } catch {
    return null;
  }
}

/** Every branch of the repository: full ref name -> commit id. */
export function listBranches(dir: string): Promise<Map<string, string>> {
  return listRefs(dir, ['refs/heads/']);
}

/** The refs under `prefixes` (branches and tags by default): full ref name -> object id (an annotated tag's own id). */
export async function listRefs(dir: string, prefixes: string[] = ['refs/heads/', 'refs/tags/']): Promise<Map<string, string>> {
  const out = await runGit(dir, ['for-each-ref', '--format=%(refname) %(objectname)', ...prefixes]);
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [name, oid] = line.split(' ');
    if (name && oid) refs.set(name, oid);
  }
  return refs;
}

/** The type (`blob`, `tree`) of `path` in `commit`'s tree, or null when absent. */
export async function pathType(dir: string, commit: string, path: string): Promise<'blob' | 'tree' | 'commit' | null> {
  const out = await runGit(dir, ['ls-tree', '-z', commit, '--', path]);
  const entry = out.split('\0').find((line) => line.endsWith(`\t${path}`));
  if (!entry) return null;
  return entry.split(' ')[1] as 'blob' | 'tree' | 'commit';
}

/**
 * Writes one commit into the bare repository `dir` (objects only; no ref moves) with a
 * temporary index: `parent`'s tree (or empty), plus `files` (path -> content; null removes),
 * then `write-tree` and `commit-tree`. Returns the new commit id.
 */
export async function writeCommit(
  dir: string,
  parent: string | null,
  files: Record<string, string | Buffer | null>,
  message: string,
  author: GitIdent,
  committer: GitIdent,
): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'standin-index-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    if (parent) await runGit(dir, ['read-tree', parent], { env });
    // All blobs in one `hash-object --stdin-paths` run: a commit of thousands of files stays one process.
    const entries = Object.entries(files);
    const written = entries.filter((entry): entry is [string, string | Buffer] => entry[1] !== null);
    const blobPaths: string[] = [];
    for (const [index, [, content]] of written.entries()) {
      const file = join(scratch, `blob-${index}`);
      await writeFile(file, content);
      blobPaths.push(file);
    }
    const oids =
      written.length > 0
        ? (await runGit(dir, ['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: blobPaths.join('\n') + '\n' }))
            .trim()
            .split('\n')
        : [];
    const lines: string[] = [];
    let next = 0;
    for (const [path, content] of entries) {
      if (content === null) lines.push(`0 ${ZERO_OID}\t${path}`);
      else lines.push(`100644 ${oids[next++]}\t${path}`);
    }
    if (lines.length > 0) await runGit(dir, ['update-index', '-z', '--index-info'], { env, input: lines.join('\0') + '\0' });
    const tree = (await runGit(dir, ['write-tree'], { env })).trim();
    const identEnv: Record<string, string> = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
    };
    if (author.date) identEnv.GIT_AUTHOR_DATE = author.date;
    if (committer.date) identEnv.GIT_COMMITTER_DATE = committer.date;
    const args = ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'];
    return (await runGit(dir, args, { input: message, env: identEnv })).trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Moves `ref` from `expected` (null: must not exist) to `next` atomically, as
 * `git update-ref <ref> <new> <old>` does. Resolves false when the ref was not at `expected`.
 */
export async function compareAndSwapRef(dir: string, ref: string, next: string, expected: string | null): Promise<boolean> {
  try {
    await runGit(dir, ['update-ref', ref, next, expected ?? ZERO_OID]);
    return true;
  } catch (error) {
    if (error instanceof GitCommandError) return false;
    throw error;
  }
}

/** What a commit says of itself, as a push payload lists it. */
export interface CommitInfo {
  id: string;
  treeId: string;
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  added: string[];
  removed: string[];
  modified: string[];
}

/** Reads the commit `oid` names (any revision, e.g. `<tag>^{commit}`): its metadata and the paths it changed against its first parent (all added for a root). */
export async function readCommit(dir: string, oid: string): Promise<CommitInfo> {
  const sep = '\x1f';
  const out = await runGit(dir, ['show', '-s', `--format=%H${sep}%T${sep}%an${sep}%ae${sep}%aI${sep}%cn${sep}%ce${sep}%cI${sep}%B`, oid]);
  const [id = '', treeId = '', an = '', ae = '', ad = '', cn = '', ce = '', cd = '', ...rest] = out.split(sep);
  const message = rest.join(sep).replace(/\n+$/, '');
  const diff = await runGit(dir, ['diff-tree', '-r', '-z', '--no-commit-id', '--name-status', '--no-renames', '--root', id]);
  const parts = diff.split('\0').filter((part) => part !== '');
  const added: string[] = [];
  const removed: string[] = [];
  const modified: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i];
    const path = parts[i + 1] as string;
    if (status === 'A') added.push(path);
    else if (status === 'D') removed.push(path);
    else modified.push(path);
  }
  return {
    id,
    treeId,
    message,
    author: { name: an, email: ae, date: ad },
    committer: { name: cn, email: ce, date: cd },
    added,
    removed,
    modified,
  };
}

/** Commits reachable from `after` but not from any of `exclude`, oldest first. */
export async function commitsBetween(dir: string, after: string, exclude: string[]): Promise<string[]> {
  const out = await runGit(dir, ['rev-list', '--reverse', after, ...exclude.map((oid) => `^${oid}`)]);
  return out.split('\n').filter((line) => line !== '');
}

/** The repository's size in KiB, as GitHub's `size` reports it (loose plus packed objects). */
export async function repoSizeKiB(dir: string): Promise<number> {
  const out = await runGit(dir, ['count-objects', '-v']);
  let size = 0;
  for (const line of out.split('\n')) {
    const [key, value] = line.split(': ');
    if (key === 'size' || key === 'size-pack') size += Number(value);
  }
  return size;
}
