// A commit on top of a partly staged file (git status `MM`) keeps the person's staging: the
// index entry becomes their staged text with the commit's change merged in, not the committed
// blob, so what they staged stays staged and what they had not staged stays unstaged.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit, splitNul } from '../git/run-git.ts';
import { commitEntries } from './interrupted-commit.ts';
import type { IndexEntry } from './write-index-entries.ts';

/**
 * The index entries to write after committing `written` on `parent`: each as given (the
 * committed blob), except a path whose stage-0 index blob differs from both the parent's
 * blob and the new one (a staged, uncommitted change): there the entry holds the staged
 * text with the commit's change merged in (`git merge-file`: base the parent's blob, ours
 * the staged one, theirs the committed one), when that merges cleanly. When it does not,
 * the committed blob is staged, as before. Reads the real index (the caller holds its lock),
 * unless `known` gives every path's index blob and parent entry already. A merge first waits
 * for `written` (the promise that writes the committed blobs, when they may not be in the object
 * database yet). Throws what git throws.
 */
export async function keepStagedChanges(
  where: { gitDir: string; workTree: string },
  parent: string | null,
  written: readonly IndexEntry[],
  known?: KnownEntries,
  blobsWritten?: Promise<unknown>,
): Promise<IndexEntry[]> {
  if (parent === null || written.length === 0) return [...written];
  const paths = written.map((entry) => entry.path);
  let staged = new Map<string, string>();
  let base: ReadonlyMap<string, { oid: string }>;
  if (known !== undefined && paths.every((path) => known.staged.has(path))) {
    for (const path of paths) {
      const oid = known.staged.get(path);
      if (oid) staged.set(path, oid);
    }
    base = known.parent;
  } else {
    staged = await stagedOids(where, paths);
    base = await commitEntries(where.gitDir, parent, paths);
  }
  const result: IndexEntry[] = [];
  for (const entry of written) {
    const ours = staged.get(entry.path);
    const before = base.get(entry.path)?.oid;
    if (ours === undefined || before === undefined || ours === before || ours === entry.oid) {
      result.push(entry);
      continue;
    }
    await blobsWritten;
    const merged = await mergeBlobs(where.gitDir, before, ours, entry.oid);
    result.push(merged === null ? entry : { ...entry, oid: merged });
  }
  return result;
}

/**
 * What the caller read already, with the index lock held (path-look.ts): each path's stage-0
 * index blob (null: none) and its entry in the parent's tree (absent: none there).
 */
export interface KnownEntries {
  staged: ReadonlyMap<string, string | null>;
  parent: ReadonlyMap<string, { oid: string }>;
}

/** Each path's stage-0 blob id in the work tree's index (`ls-files -s`); paths without one are left out. */
async function stagedOids(where: { gitDir: string; workTree: string }, paths: readonly string[]): Promise<Map<string, string>> {
  const listed = await runGit(['ls-files', '-s', '-z', '--', ...paths], {
    gitDir: where.gitDir,
    workTree: where.workTree,
    cwd: where.workTree,
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
  const staged = new Map<string, string>();
  for (const line of splitNul(listed.stdout)) {
    const tab = line.indexOf('\t');
    const [, oid, stage] = line.slice(0, tab).split(' ');
    if (stage === '0' && oid !== undefined) staged.set(line.slice(tab + 1), oid);
  }
  return staged;
}

/** The blob id of `ours` and `theirs` merged over `base` (written to the object store), or null on a conflict. */
async function mergeBlobs(gitDir: string, base: string, ours: string, theirs: string): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), 'mv-staged-'));
  try {
    const files = [];
    for (const [name, oid] of [
      ['ours', ours],
      ['base', base],
      ['theirs', theirs],
    ] as const) {
      const blob = await runGit(['cat-file', 'blob', oid], { gitDir });
      await writeFile(join(dir, name), blob.stdout);
      files.push(join(dir, name));
    }
    // Exit code: 0 clean, the number of conflicts otherwise (negative on an error).
    const merged = await runGit(['merge-file', '-p', '--', ...files], { gitDir, okCodes: Array.from({ length: 128 }, (_, i) => i) });
    if (merged.code !== 0) return null;
    const written = await runGit(['hash-object', '-w', '--stdin'], { gitDir, input: merged.stdout });
    return written.stdout.toString('utf8').trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
