// The files of a page of found commits, fetched while the commits are still being found:
// every visible file (`git diff-tree --stdin -M`) and the blobs that tell whether a file gained or lost a text.
import { startGit, type GitProcess } from '../repo-host/git/run-git.ts';
import type { Mirror } from '../repo-host/repo-host.ts';
import { parseDiffTree, type FileChange, type LogCommit } from './parse-log.ts';

/**
 * Collects, for the commits handed to {@link PageFiles.add} one by one, every file each
 * changed within `pathspecs` (one `git diff-tree --stdin -z -r --root --raw --no-abbrev -M`,
 * a merge against its first parent, started with the first commit) and, for a text search,
 * the old and new blobs of the files named with the commit that have both (one
 * `git cat-file --batch`, started with the first such file), to count the text in. Both processes read their input as it comes, so they work while
 * the search still runs. `finish` ends their input and waits for both. Throws GitError when
 * git fails.
 */
export class PageFiles {
  private diffTree: Feed | null = null;
  private catFile: Feed | null = null;
  private readonly asked = new Set<string>();

  constructor(
    private readonly mirror: Mirror,
    private readonly pathspecs: readonly string[],
    private readonly withBlobs: boolean,
  ) {}

  /** Asks for `commit`'s files, and the blobs of `listed` (its files whose text is counted). */
  add(commit: LogCommit, listed: readonly FileChange[]): void {
    this.diffTree ??= feed(this.mirror, ['diff-tree', '--stdin', '-z', '-r', '--root', '--raw', '--no-abbrev', '-M', '--', ...this.pathspecs]);
    this.diffTree.process.write(`${commit.parents.length > 1 ? `${commit.commit} ${commit.parents[0]}` : commit.commit}\n`);
    if (!this.withBlobs) return;
    // An added or deleted file that matched gained or lost the text without a count: only
    // files with both an old and a new blob are counted.
    const oids = listed
      .filter((file) => file.oldBlob !== null && file.newBlob !== null)
      .flatMap((file) => [file.oldBlob, file.newBlob])
      .filter((oid): oid is string => oid !== null && !this.asked.has(oid));
    if (oids.length === 0) return;
    for (const oid of oids) this.asked.add(oid);
    this.catFile ??= feed(this.mirror, ['cat-file', '--batch']);
    this.catFile.process.write(`${oids.join('\n')}\n`);
  }

  /**
   * Waits for both processes: every file of each commit added (by commit; a commit without
   * files within the pathspecs is absent) and the content of each blob asked (by id).
   */
  async finish(): Promise<{ files: Map<string, FileChange[]>; blobs: Map<string, Buffer> }> {
    const [tree, batch] = await Promise.all([this.diffTree?.output(), this.catFile?.output()]);
    return {
      files: new Map(tree === undefined ? [] : parseDiffTree(tree).map((diff) => [diff.commit, diff.files])),
      blobs: batch === undefined ? new Map() : parseBatch(batch),
    };
  }

  /** Stops both processes (the search failed): nothing is waited for. */
  stop(): void {
    this.diffTree?.process.stop();
    this.catFile?.process.stop();
  }
}

interface Feed {
  process: GitProcess;
  output(): Promise<Buffer>;
}

function feed(mirror: Mirror, args: string[]): Feed {
  const chunks: Buffer[] = [];
  const process = startGit(args, {
    gitDir: mirror.gitDir,
    ...(mirror.workTree ? { workTree: mirror.workTree, cwd: mirror.workTree } : { cwd: mirror.gitDir }),
    onStdout: (chunk) => chunks.push(chunk),
  });
  // A failure is reported by output(); until then it must not count as unhandled.
  process.done.catch(() => undefined);
  return {
    process,
    async output() {
      process.end();
      await process.done;
      return Buffer.concat(chunks);
    },
  };
}

/** The contents in `git cat-file --batch` output (`<oid> <type> <size>\n<content>\n`, or `<oid> missing\n`), by id. */
function parseBatch(stdout: Buffer): Map<string, Buffer> {
  const contents = new Map<string, Buffer>();
  let at = 0;
  while (at < stdout.length) {
    const lineEnd = stdout.indexOf(0x0a, at);
    if (lineEnd === -1) throw new Error('git cat-file --batch ended inside a header');
    const [oid = '', type = '', sizeText] = stdout.toString('utf8', at, lineEnd).split(' ');
    at = lineEnd + 1;
    if (type === 'missing' || type === 'ambiguous') continue;
    const size = Number(sizeText);
    if (!Number.isSafeInteger(size) || at + size > stdout.length) throw new Error(`git cat-file --batch answered a broken header for ${oid}`);
    contents.set(oid, stdout.subarray(at, at + size));
    at += size + 1; // the content is followed by one newline
  }
  return contents;
}

/**
 * Counts `text` in content the way Git's pickaxe (`-S… --regexp-ignore-case`) counts it:
 * non-overlapping occurrences from the left, ASCII letters matched in either case, every
 * other byte exactly. Returns a function of the content (null: absent, 0).
 */
export function occurrenceCounter(text: string): (content: Buffer | null | undefined) => number {
  let source = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    source += /[A-Za-z]/.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  // Over the bytes read as Latin-1 (one character per byte), so the match is byte for byte.
  const pattern = new RegExp(source, 'g');
  return (content) => (content ? (content.toString('latin1').match(pattern)?.length ?? 0) : 0);
}
