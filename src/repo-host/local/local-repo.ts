// Where one local repository lives, and the small Git facts about it every part of the adapter asks.
import { lstat, stat } from 'node:fs/promises';
import type { ObjectFormat } from '../git/blob-id.ts';
import { runGit, splitNul } from '../git/run-git.ts';

/** Where one repository lives: `realWorkTree`/`realGitDir` are symlink-free, for containment checks. */
export interface LocalRepo {
  /** The name it is served as: its folder's name, without a final `.git` (repoNameOf in discover-repos.ts). */
  name: string;
  /** Its folder's name in `reposDir`. */
  folder: string;
  gitDir: string;
  workTree: string | null;
  realWorkTree: string | null;
  realGitDir: string;
}

/** A tracked file's entry as Git lists it (`ls-tree`, `ls-files -s`). */
export interface TreeEntry {
  mode: string;
  oid: string;
}

/** Pathspecs are literal everywhere: a `*` or `:` in a file name is just a character. */
export const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

/** The options that run git in a repository's work tree (its git dir, work tree and cwd). */
export function inWorkTree(repo: LocalRepo) {
  return { gitDir: repo.gitDir, workTree: repo.workTree!, cwd: repo.workTree! };
}

/** The ref HEAD names (`refs/heads/main`), or `HEAD` itself when detached. */
export async function headRef(repo: LocalRepo): Promise<string> {
  const { stdout, code } = await runGit(['symbolic-ref', '-q', 'HEAD'], { gitDir: repo.gitDir, okCodes: [0, 1] });
  return code === 0 ? stdout.toString('utf8').trim() : 'HEAD';
}

/** The commit `ref` points at (hex), or null when it names none (an empty branch). */
export async function resolveHead(repo: LocalRepo, ref: string): Promise<string | null> {
  const { stdout, code } = await runGit(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { gitDir: repo.gitDir, okCodes: [0, 1] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/** The entries of `paths` (exact, literal) in commit `commit`'s tree; paths not there are left out. */
export async function treeEntries(repo: LocalRepo, commit: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
  const entries = new Map<string, TreeEntry>();
  if (paths.length === 0) return entries;
  const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', commit, '--', ...paths], { gitDir: repo.gitDir, env: LITERAL });
  const wanted = new Set(paths);
  for (const record of splitNul(stdout)) {
    const parsed = parseTreeRecord(record);
    if (parsed && parsed.type === 'blob' && wanted.has(parsed.path)) entries.set(parsed.path, { mode: parsed.mode, oid: parsed.oid });
  }
  return entries;
}

/** Parses `<mode> <type> <oid>\t<path>` from `ls-tree -z`. */
export function parseTreeRecord(record: string): { mode: string; type: string; oid: string; path: string } | null {
  const tab = record.indexOf('\t');
  if (tab === -1) return null;
  const [mode = '', type = '', oid = ''] = record.slice(0, tab).split(' ');
  return { mode, type, oid, path: record.slice(tab + 1) };
}

/** Each repository's object format (SHA-1 or SHA-256), asked of git once per git dir. */
export class ObjectFormats {
  private readonly formats = new Map<string, Promise<ObjectFormat>>();

  /** The object format of `repo` (`git rev-parse --show-object-format`), cached. */
  of(repo: LocalRepo): Promise<ObjectFormat> {
    let format = this.formats.get(repo.gitDir);
    if (format === undefined) {
      format = runGit(['rev-parse', '--show-object-format'], { gitDir: repo.gitDir }).then((out) =>
        out.stdout.toString('utf8').trim() === 'sha256' ? 'sha256' : 'sha1',
      );
      this.formats.set(repo.gitDir, format);
    }
    return format;
  }
}

/** A file's stat data as one line (`mtime:size:ino:mode\0`, or `absent\0`): compared to see whether it moved. */
export async function statLine(path: string): Promise<string> {
  const info = await lstat(path).catch(() => null);
  return info === null ? 'absent\0' : `${info.mtimeMs}:${info.size}:${info.ino}:${info.mode}\0`;
}

/** Orders strings by UTF-16 code units (Git's order for ASCII names; no locale). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether anything is at `path` (following links). */
export async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

/** Whether `path` is a file (following links). */
export async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

/** Whether `path` is a folder (following links). */
export async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}
