// Writes a change's blobs, trees and commit with one `git fast-import`, without moving any ref.
import { runGit } from '../git/run-git.ts';

/** One path of the commit: its new content and mode, or `content: null` to delete it. */
export interface CommitFile {
  path: string;
  content: Buffer | null;
  /** `100644` or `100755`; ignored for a deletion. */
  mode: string;
}

/** What the commit object says besides its tree. */
export interface CommitMeta {
  parent: string | null;
  /** Author and committer, already cleaned of `<`, `>` and control characters. */
  name: string;
  email: string;
  /** Git's raw date: `<unix seconds> <+hhmm>`. */
  date: string;
  /** The whole message, ending in a newline. */
  message: string;
}

/** The throwaway branch name fast-import builds on; `reset` at the end keeps it from being written. */
const SCRATCH_REF = 'refs/major-vault/fast-import';

/**
 * Creates the commit of `files` on top of `meta.parent` (its tree with these paths replaced or
 * removed; Git builds the trees) and returns its id; no ref is created or moved (the caller lands
 * it with `update-ref`). Blobs are written exactly as given (fast-import applies no filters).
 * One process instead of hash-object, read-tree, update-index, write-tree and commit-tree; small
 * imports are written as loose objects (`fastimport.unpackLimit`, default 100), as those would be.
 * Input format: git-fast-import(1) — `blob`/`data`, `commit` with `from`, `M`/`D` with C-style
 * quoted paths, `get-mark` for the id, `reset` without `from` so the scratch branch is never
 * written, and `done`, so a cut-off input fails instead of committing part of it.
 */
export async function fastImportCommit(gitDir: string, files: readonly CommitFile[], meta: CommitMeta): Promise<string> {
  const parts: Buffer[] = [];
  const text = (value: string) => parts.push(Buffer.from(value, 'utf8'));
  const data = (bytes: Buffer) => {
    text(`data ${bytes.length}\n`);
    parts.push(bytes);
    text('\n');
  };
  let mark = 0;
  const marks = new Map<string, number>();
  for (const file of files) {
    if (file.content === null) continue;
    mark += 1;
    marks.set(file.path, mark);
    text(`blob\nmark :${mark}\n`);
    data(file.content);
  }
  const commitMark = mark + 1;
  // Reset first, so a root commit never builds on whatever a crashed import left there.
  text(`reset ${SCRATCH_REF}\n\ncommit ${SCRATCH_REF}\nmark :${commitMark}\n`);
  text(`author ${meta.name} <${meta.email}> ${meta.date}\n`);
  text(`committer ${meta.name} <${meta.email}> ${meta.date}\n`);
  data(Buffer.from(meta.message, 'utf8'));
  if (meta.parent !== null) text(`from ${meta.parent}\n`);
  for (const file of files) {
    if (file.content === null) text(`D ${quotePath(file.path)}\n`);
    else text(`M ${file.mode} :${marks.get(file.path)} ${quotePath(file.path)}\n`);
  }
  text(`\nget-mark :${commitMark}\nreset ${SCRATCH_REF}\ndone\n`);
  const { stdout } = await runGit(['fast-import', '--quiet', '--done', '--date-format=raw'], { gitDir, input: Buffer.concat(parts) });
  const commit = stdout.toString('utf8').trim();
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(commit))
    throw new Error(`git fast-import answered ${JSON.stringify(commit.slice(0, 200))} instead of a commit id`);
  return commit;
}

/** A path in C-style quotes, as fast-import reads it: `"` and `\` escaped, control characters as octal. */
export function quotePath(path: string): string {
  let quoted = '"';
  for (const char of path) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') quoted += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) quoted += `\\${code.toString(8).padStart(3, '0')}`;
    else quoted += char;
  }
  return `${quoted}"`;
}
