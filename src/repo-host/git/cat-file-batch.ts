// Reads many objects through one `git cat-file --batch` process: the fast path for blob contents.
import { runGit, startGit, type GitProcess, type RunGitOptions } from './run-git.ts';

/** One object as `cat-file --batch` answered: its content, or null when the object is missing. */
export type BatchObject = { oid: string; type: string; content: Buffer } | { oid: string; type: 'missing'; content: null };

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Asks one `git cat-file --batch` for every id in `oids` (lowercase hex, 40 or 64 digits) and
 * returns the answers in the same order; a missing object comes back as `type: 'missing'`.
 * Throws an Error for an id that is not hex (it would break the line protocol) and a GitError
 * when git fails. Output is parsed from the `<oid> <type> <size>\n<content>\n` records.
 */
export async function catFileBatch(gitDir: string, oids: readonly string[]): Promise<BatchObject[]> {
  if (oids.length === 0) return [];
  for (const oid of oids) {
    if (!OBJECT_ID.test(oid)) throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
  }
  const { stdout } = await runGit(['cat-file', '--batch'], { gitDir, input: oids.join('\n') + '\n' });
  return parseCatFileBatch(stdout, oids).map((found, i) => {
    const asked = oids[i]!;
    if (found === null) return { oid: asked, type: 'missing', content: null };
    if (found.oid !== asked) throw new Error(`git cat-file --batch answered ${found.oid} ${found.type} for ${asked}`);
    return found;
  });
}

/**
 * Parses what `git cat-file --batch` printed for `names` (object ids, or names such as
 * `HEAD:path` and `:0:path`), one answer per name in order: `<oid> <type> <size>\n<content>\n`
 * gives the object, `<name> missing` (or `ambiguous`) gives null. Throws an Error when the output
 * ends early or a header does not parse.
 */
export function parseCatFileBatch(stdout: Buffer, names: readonly string[]): Array<{ oid: string; type: string; content: Buffer } | null> {
  const answers: Array<{ oid: string; type: string; content: Buffer } | null> = [];
  let at = 0;
  for (const name of names) {
    const lineEnd = stdout.indexOf(0x0a, at);
    if (lineEnd === -1) throw new Error(`git cat-file --batch ended early, before ${JSON.stringify(name)}`);
    const header = stdout.toString('utf8', at, lineEnd);
    at = lineEnd + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      answers.push(null);
      continue;
    }
    const match = /^([0-9a-f]{40}|[0-9a-f]{64}) (blob|tree|commit|tag) (\d+)$/.exec(header);
    if (match === null) throw new Error(`git cat-file --batch answered ${JSON.stringify(header)} for ${JSON.stringify(name)}`);
    const size = Number(match[3]);
    answers.push({ oid: match[1]!, type: match[2]!, content: stdout.subarray(at, at + size) });
    at += size + 1; // the content is followed by one newline
  }
  return answers;
}

/**
 * One `git cat-file --batch` kept running, for objects asked for one after another while
 * other work goes on: {@link CatFileStream.read} writes an id and resolves with the object's
 * content (null when missing) as soon as git has printed it (without `--buffer` it flushes
 * after each object). `close` lets git exit once it has answered; `stop` ends it at once and
 * fails what is still unanswered. Throws like {@link catFileBatch}.
 */
export class CatFileStream {
  private readonly process: GitProcess;
  private readonly queue: { oid: string; resolve(content: Buffer | null): void; reject(error: unknown): void }[] = [];
  private buffer: Buffer = Buffer.alloc(0);

  constructor(options: Pick<RunGitOptions, 'gitDir' | 'workTree' | 'cwd'>) {
    this.process = startGit(['cat-file', '--batch'], {
      ...options,
      timeoutMs: 10 * 60_000,
      onStdout: (chunk) => this.take(chunk),
    });
    this.process.done.then(
      () => this.failAll(new Error('git cat-file --batch ended before it answered')),
      (error: unknown) => this.failAll(error),
    );
  }

  /** The content of the object `oid` (lowercase hex), or null when the repository lacks it. */
  read(oid: string): Promise<Buffer | null> {
    if (!OBJECT_ID.test(oid)) return Promise.reject(new Error(`Not an object id: ${JSON.stringify(oid)}`));
    return new Promise((resolve, reject) => {
      this.queue.push({ oid, resolve, reject });
      this.process.write(`${oid}\n`);
    });
  }

  close(): void {
    this.process.end();
  }

  stop(): void {
    this.process.stop();
  }

  private take(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (let asked = this.queue[0]; asked !== undefined; asked = this.queue[0]) {
      const lineEnd = this.buffer.indexOf(0x0a);
      if (lineEnd === -1) return;
      const header = this.buffer.toString('utf8', 0, lineEnd);
      const [oid = '', type = '', sizeText] = header.split(' ');
      if (type === 'missing' || type === 'ambiguous') {
        this.buffer = this.buffer.subarray(lineEnd + 1);
        this.queue.shift();
        asked.resolve(null);
        continue;
      }
      const size = Number(sizeText);
      if (oid !== asked.oid || !Number.isSafeInteger(size)) {
        this.failAll(new Error(`git cat-file --batch answered ${JSON.stringify(header)} for ${asked.oid}`));
        this.process.stop();
        return;
      }
      // The content is followed by one newline.
      if (this.buffer.length < lineEnd + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(lineEnd + 1, lineEnd + 1 + size));
      this.buffer = this.buffer.subarray(lineEnd + 1 + size + 1);
      this.queue.shift();
      asked.resolve(content);
    }
  }

  private failAll(error: unknown): void {
    for (const asked of this.queue.splice(0)) asked.reject(error);
  }
}
