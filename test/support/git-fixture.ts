// Builds real Git repositories for tests: commits with chosen authors, dates and files,
// made by the `git` program itself (no mocks of Git anywhere in the suite).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, unlinkSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** An author as Git records one. */
export interface FixtureAuthor {
  name: string;
  email: string;
}

export const alice: FixtureAuthor = { name: 'Alice Arden', email: 'alice@acme.example' };
export const bob: FixtureAuthor = { name: 'Bob Brandt', email: 'bob@acme.example' };
export const chloe: FixtureAuthor = { name: 'Chloé Çelik', email: 'chloe@acme.example' };

/**
 * One commit: files to write (string or Buffer) or delete (null), renames (`from → to`,
 * done with `git mv` so history can follow them), the message, the author and the date
 * (ISO 8601 with offset, used for author and committer date). `allowEmpty` makes an empty commit.
 */
export interface FixtureCommit {
  files?: Record<string, string | Buffer | null>;
  renames?: Record<string, string>;
  message: string;
  author?: FixtureAuthor;
  date?: string;
  allowEmpty?: boolean;
}

/** Runs git in `cwd` with a clean, deterministic environment; returns stdout trimmed. */
export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      ...env,
    },
    maxBuffer: 256 * 1024 * 1024,
  }).trim();
}

/** A fresh temporary folder, removed by the returned `cleanup`. */
export function tempDir(prefix = 'mv-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Makes an empty repository with a work tree at `dir` on branch `main`. */
export function initRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.name', 'Fixture']);
  git(dir, ['config', 'user.email', 'fixture@example.com']);
  git(dir, ['config', 'core.quotepath', 'false']);
  git(dir, ['config', 'core.autocrlf', 'false']);
}

/** Writes, deletes and renames in the work tree and commits them; returns the commit id. */
export function commit(dir: string, c: FixtureCommit): string {
  for (const [from, to] of Object.entries(c.renames ?? {})) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    git(dir, ['mv', '--', from, to]);
  }
  const removed: string[] = [];
  const added: string[] = [];
  for (const [path, content] of Object.entries(c.files ?? {})) {
    const full = join(dir, path);
    if (content === null) {
      unlinkSync(full);
      removed.push(path);
    } else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      added.push(path);
    }
  }
  // One git process per few hundred paths, not one per path: a 2,000-file commit took seconds.
  for (let i = 0; i < removed.length; i += 500) git(dir, ['rm', '-q', '--cached', '--ignore-unmatch', '--', ...removed.slice(i, i + 500)]);
  for (let i = 0; i < added.length; i += 500) git(dir, ['add', '--', ...added.slice(i, i + 500)]);
  const author = c.author ?? alice;
  const date = c.date ?? '2026-01-15T10:00:00+01:00';
  const env = {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
    GIT_COMMITTER_DATE: date,
  };
  git(dir, ['commit', '-q', ...(c.allowEmpty ? ['--allow-empty'] : []), '-m', c.message], env);
  return git(dir, ['rev-parse', 'HEAD']);
}

/** Makes a repository at `dir` and applies `commits` in order; returns their ids. */
export function makeRepo(dir: string, commits: FixtureCommit[]): string[] {
  initRepo(dir);
  return commits.map((c) => commit(dir, c));
}

/** Turns a repository with a work tree into a bare clone at `bareDir` (for bare-repo tests). */
export function cloneBare(fromDir: string, bareDir: string): void {
  execFileSync('git', ['clone', '-q', '--bare', fromDir, bareDir]);
}

/** Renames a file in the work tree without committing (to test uncommitted changes). */
export function moveInWorkTree(dir: string, from: string, to: string): void {
  mkdirSync(dirname(join(dir, to)), { recursive: true });
  renameSync(join(dir, from), join(dir, to));
}

/** Where the shared corpora live, or null when `../shared` is absent (tests then skip). */
export function corpusBundle(name: 'obsidian-help' | 'kepano-obsidian'): string | null {
  const path = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpora', `${name}.bundle`);
  try {
    execFileSync('test', ['-f', path]);
    return path;
  } catch {
    return null;
  }
}

/** Clones a corpus bundle into `dir` (with a work tree); returns false when the corpus is absent. */
export function cloneCorpus(name: 'obsidian-help' | 'kepano-obsidian', dir: string): boolean {
  const bundle = corpusBundle(name);
  if (bundle === null) return false;
  execFileSync('git', ['clone', '-q', bundle, dir]);
  return true;
}
