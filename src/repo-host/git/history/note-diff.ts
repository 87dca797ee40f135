// What changed in a note since the start of a day: a unified diff from the last commit before it to now.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NoteCommit, NoteDiff } from '../../history.ts';
import { runGit } from '../run-git.ts';
import type { Mirror } from '../mirror.ts';
import { gitDate } from '../../../history/local-time.ts';
import { mirrorGit } from './mirror-git.ts';
import { noteNameAt } from './note-log.ts';
import { decodeNoteText } from '../../../notes/note-text.ts';
import { noteBlobAt, readBlob } from './note-blobs.ts';

/**
 * Diffs the note at `path` from the last commit before `since` (epoch seconds) to `now`, its
 * content now from `noteNow` (null: absent), uncommitted changes included. `commits`
 * are the note's whole history from `noteCommits` (for its name at the base); a name at the
 * base that is not `visible` (hidden, or outside the open folders) counts as no note there,
 * so the diff shows all of the note as added and never the closed version. The diff is
 * `git diff --no-index` of the two texts, so it is Git's own unified diff (3 lines of
 * context). Throws GitError when git fails.
 */
export async function noteDiffSince(
  mirror: Mirror,
  path: string,
  since: number,
  commits: readonly NoteCommit[],
  now: Buffer | null,
  visible: (path: string) => boolean = () => true,
): Promise<NoteDiff> {
  const before = gitDate(since - 1);
  // Before 1970 there is no commit at all (Git's timestamps are unsigned).
  const listed =
    before === null
      ? null
      : await mirrorGit(mirror, ['rev-list', '-1', '--first-parent', `--before=${before}`, 'HEAD', '--'], { okCodes: [0, 128] });
  const base = listed?.stdout.toString('utf8').trim() || null;
  const namedAtBase = base === null ? path : ((await noteNameAt(mirror, commits, base)) ?? path);
  // A note that lay at a hidden or closed path then did not exist, as far as the caller can see.
  const basePath = visible(namedAtBase) ? namedAtBase : path;
  const baseBlob = base === null || basePath !== namedAtBase ? null : await noteBlobAt(mirror, base, basePath);
  const then = baseBlob === null ? null : await readBlob(mirror, baseBlob);
  const binary = [then, now].some((content) => content !== null && decodeNoteText(content) === null);
  return {
    base,
    basePath,
    existedAtBase: then !== null,
    hiddenAtBase: base !== null && basePath !== namedAtBase && (await noteBlobAt(mirror, base, namedAtBase)) !== null,
    existsNow: now !== null,
    binary,
    diff: binary ? '' : await unifiedDiff(then, now, basePath, path),
  };
}

/** Git's unified diff of two contents (null: absent), with headers naming the note's paths. */
async function unifiedDiff(before: Buffer | null, after: Buffer | null, beforePath: string, afterPath: string): Promise<string> {
  if (before !== null && after !== null && before.equals(after)) return '';
  const dir = await mkdtemp(join(tmpdir(), 'mv-diff-'));
  try {
    await writeFile(join(dir, 'a'), before ?? '');
    await writeFile(join(dir, 'b'), after ?? '');
    const { stdout } = await runGit(['diff', '--no-index', '--no-color', '--no-ext-diff', '--text', '-U3', '--', 'a', 'b'], {
      cwd: dir,
      okCodes: [0, 1],
    });
    const text = stdout.toString('utf8');
    const hunks = text.indexOf('\n@@');
    if (hunks === -1) return '';
    const header = `--- ${before === null ? '/dev/null' : `a/${beforePath}`}\n+++ ${after === null ? '/dev/null' : `b/${afterPath}`}\n`;
    return header + text.slice(hunks + 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
