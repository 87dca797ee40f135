// Every file a commit changed, within a repository's visible pathspecs: fetched from Git as
// commits are asked for, answered one by one, and kept, since a commit's changes never change.
import { estimateBytes, PromiseByteCache } from '../../../byte-cache.ts';
import { startGit, type GitProcess } from '../run-git.ts';
import type { Mirror } from '../mirror.ts';
import { parseDiffTree, type FileChange, type LogCommit } from './parse-log.ts';

/**
 * A line `git diff-tree --stdin` cannot read as an object id: it prints it back as it is, after
 * all the output of the commit written before it, so it marks where that commit's files end.
 */
const END = '~end\n';
const END_BYTES = Buffer.from(END);
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const RAW_HEADER = /^:\d+ \d+ [0-9a-f]+ [0-9a-f]+ ([A-Z])\d*$/;

interface Waiter {
  resolve(files: FileChange[]): void;
  reject(error: unknown): void;
}

/**
 * One `git diff-tree --stdin -z -r --root --raw --no-abbrev -M -- <pathspecs>`, kept running:
 * each commit asked for is written to it (a merge against its first parent) with an
 * {@link END} line after it, and its files are answered as soon as git has printed them
 * (diff-tree flushes after each line it reads). Output is read record by record (a commit
 * id, or a raw entry and its one or two paths, all NUL-terminated), so a path is never
 * taken for the end mark, whatever it holds.
 */
class Batch {
  private readonly process: GitProcess;
  private readonly waiting: { commit: string; waiter: Waiter }[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  /** Where the next record starts in `buffer`. */
  private at = 0;
  closed = false;

  constructor(mirror: Mirror, pathspecs: readonly string[]) {
    this.process = startGit(['diff-tree', '--stdin', '-z', '-r', '--root', '--raw', '--no-abbrev', '-M', '--', ...pathspecs], {
      gitDir: mirror.gitDir,
      ...(mirror.workTree ? { workTree: mirror.workTree, cwd: mirror.workTree } : { cwd: mirror.gitDir }),
      timeoutMs: 10 * 60_000,
      onStdout: (chunk) => this.read(chunk),
    });
    this.process.done.then(
      ({ stopped }) =>
        this.failAll(
          stopped
            ? new Error('Fetching the files of a commit was stopped')
            : new Error('git diff-tree ended before it answered for every commit'),
        ),
      (error: unknown) => this.failAll(error),
    );
  }

  /** The files of `commit` within the pathspecs ([] when it changed none of them). */
  add(commit: LogCommit): Promise<FileChange[]> {
    const files = new Promise<FileChange[]>((resolve, reject) => this.waiting.push({ commit: commit.commit, waiter: { resolve, reject } }));
    this.process.write(`${commit.parents.length > 1 ? `${commit.commit} ${commit.parents[0]}` : commit.commit}\n${END}`);
    return files;
  }

  /** Ends git's input: it answers for what it was given, then exits. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.process.end();
  }

  /** Stops git unless every commit given was answered. */
  stop(): void {
    this.closed = true;
    if (this.waiting.length > 0) this.process.stop();
    else this.process.end();
  }

  /** Reads git's output: `buffer` holds what is not answered yet, from the first record of the commit being printed. */
  private read(chunk: Buffer): void {
    try {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      for (;;) {
        if (
          this.buffer.length - this.at >= END_BYTES.length &&
          this.buffer.subarray(this.at, this.at + END_BYTES.length).equals(END_BYTES)
        ) {
          this.answer(this.buffer.subarray(0, this.at));
          this.buffer = this.buffer.subarray(this.at + END_BYTES.length);
          this.at = 0;
          continue;
        }
        const next = this.recordEnd(this.at);
        if (next === null) break;
        this.at = next;
      }
    } catch (error) {
      this.failAll(error);
      this.process.stop();
    }
  }

  /** Where the record starting at `from` ends (after its last NUL), or null when it is not all here. */
  private recordEnd(from: number): number | null {
    const first = this.buffer.indexOf(0, from);
    if (first === -1) return null;
    const token = this.buffer.toString('latin1', from, first);
    if (COMMIT_ID.test(token)) return first + 1;
    const raw = RAW_HEADER.exec(token);
    if (raw === null) throw new Error(`Unexpected git diff-tree output: ${JSON.stringify(token.slice(0, 80))}`);
    let end = first + 1;
    for (let paths = raw[1] === 'R' || raw[1] === 'C' ? 2 : 1; paths > 0; paths -= 1) {
      const nul = this.buffer.indexOf(0, end);
      if (nul === -1) return null;
      end = nul + 1;
    }
    return end;
  }

  private answer(records: Buffer): void {
    const next = this.waiting.shift();
    if (next === undefined) throw new Error('git diff-tree answered for a commit it was not given');
    try {
      const [diff] = parseDiffTree(records);
      next.waiter.resolve(diff === undefined ? [] : diff.files);
    } catch (error) {
      next.waiter.reject(error);
    }
  }

  private failAll(error: unknown): void {
    for (const { waiter } of this.waiting.splice(0)) waiter.reject(error);
  }
}

/** The bound of {@link kept}, in bytes (estimated: README "Memory"). */
export const COMMIT_FILES_CACHE_BYTES = 8 * 1024 * 1024;
/** Files of commits fetched before, by repository, pathspecs and commit; the least recently asked for go first. */
const kept = new PromiseByteCache<string, FileChange[]>({
  maxBytes: COMMIT_FILES_CACHE_BYTES,
  sizeOf: (files, key) => estimateBytes(key) + estimateBytes(files),
});

/**
 * Fetches the files of commits within `pathspecs` (every visible root, hidden paths left
 * out), keeping them for later calls: `files` answers from what was kept, joins a fetch
 * under way (by anyone), or hands the commit to this fetcher's `git diff-tree`, which
 * answers each commit as soon as it has its files. `close` lets that git exit once it has
 * answered (a later `files` starts another).
 */
export class CommitFiles {
  private batch: Batch | null = null;
  private readonly batches: Batch[] = [];

  private readonly mirror: Mirror;
  private readonly pathspecs: readonly string[];

  constructor(mirror: Mirror, pathspecs: readonly string[]) {
    this.mirror = mirror;
    this.pathspecs = pathspecs;
  }

  /** The files `commit` changed within the pathspecs (a merge: against its first parent). Rejects with GitError when git fails. */
  files(commit: LogCommit): Promise<FileChange[]> {
    const key = `${this.mirror.gitDir}\0${this.pathspecs.join('\0')}\0${commit.commit}`;
    const before = kept.get(key);
    if (before !== undefined) return before;
    if (this.batch === null || this.batch.closed) {
      this.batch = new Batch(this.mirror, this.pathspecs);
      this.batches.push(this.batch);
    }
    const files = this.batch.add(commit);
    kept.set(key, files);
    return files;
  }

  /** Lets git exit once it has answered for every commit given. */
  close(): void {
    this.batch?.close();
    this.batch = null;
  }

  /** Stops git where commits are still unanswered; those are fetched again when asked for. */
  stop(): void {
    for (const batch of this.batches.splice(0)) batch.stop();
    this.batch = null;
  }
}

/** Forgets every commit's files kept (for benchmarks that measure from cold). */
export function forgetCommitFiles(): void {
  kept.clear();
}
