// One `git cat-file --batch` kept running per repository, for the small reads of objects that
// never change (blobs by id, `<commit>:<path>`): no process to start per read.
import { parseCatFileBatch } from './cat-file-batch.ts';
import { runGit, startGit, type GitProcess } from './run-git.ts';

/** An object as `cat-file --batch` answered it; null when git answered `missing` (or `ambiguous`). */
export type KeptObject = { oid: string; type: string; content: Buffer } | null;

/** How long a kept process may sit unused before it is ended (ms). */
const IDLE_MS = 15_000;

/** Batches larger than this go to a process of their own (one spawn is nothing beside them). */
const KEPT_BATCH_MAX = 512;

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (blob|tree|commit|tag) (\d+)$/;

/**
 * Names a kept process may answer: object ids, and `<commit id>:<path>` / `<id>^{tree}`, whose
 * answers never change. Never `HEAD`, a branch or `:0:<path>`: a running cat-file reads the
 * index once, and a ref answer is only as fresh as what it read last.
 */
const STABLE_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})(?:$|:[^\n\r]*$|\^\{tree\}$)/;

interface Asked {
  name: string;
  resolve(object: KeptObject): void;
  reject(error: unknown): void;
}

/** One running `cat-file --batch` and the names it has still to answer, in order. */
class KeptProcess {
  private readonly process: GitProcess;
  private readonly queue: Asked[] = [];
  private chunks: Buffer[] = [];
  private buffered = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly onEnd: () => void;
  ended = false;

  constructor(gitDir: string, onEnd: () => void) {
    this.onEnd = onEnd;
    this.process = startGit(['cat-file', '--batch'], {
      gitDir,
      // Ended when idle (IDLE_MS) or at close, never by a clock of its own.
      timeoutMs: 2 ** 31 - 1,
      onStdout: (chunk) => this.take(chunk),
    });
    this.process.done.then(
      () => this.end(new Error('git cat-file --batch ended before it answered')),
      (error: unknown) => this.end(error),
    );
  }

  read(names: readonly string[]): Promise<KeptObject[]> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.process.holdOpen(true);
    const answers = names.map((name) => new Promise<KeptObject>((resolve, reject) => this.queue.push({ name, resolve, reject })));
    this.process.write(`${names.join('\n')}\n`);
    return Promise.all(answers);
  }

  stop(): void {
    this.end(new Error('git cat-file --batch was stopped'));
  }

  private take(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    let buffer = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    let at = 0;
    for (let asked = this.queue[0]; asked !== undefined; asked = this.queue[0]) {
      const lineEnd = buffer.indexOf(0x0a, at);
      if (lineEnd === -1) break;
      const header = buffer.toString('utf8', at, lineEnd);
      const match = HEADER.exec(header);
      if (match === null) {
        if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
          at = lineEnd + 1;
          this.queue.shift();
          asked.resolve(null);
          continue;
        }
        this.end(new Error(`git cat-file --batch answered ${JSON.stringify(header)} for ${JSON.stringify(asked.name)}`));
        return;
      }
      const size = Number(match[3]);
      // The content is followed by one newline.
      if (buffer.length < lineEnd + 1 + size + 1) break;
      const content = Buffer.from(buffer.subarray(lineEnd + 1, lineEnd + 1 + size));
      at = lineEnd + 1 + size + 1;
      this.queue.shift();
      asked.resolve({ oid: match[1]!, type: match[2]!, content });
    }
    buffer = buffer.subarray(at);
    this.chunks = buffer.length === 0 ? [] : [buffer];
    this.buffered = buffer.length;
    if (this.queue.length === 0 && !this.ended) {
      this.process.holdOpen(false);
      this.timer = setTimeout(() => this.stop(), IDLE_MS);
      this.timer.unref();
    }
  }

  private end(error: unknown): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.ended) {
      this.ended = true;
      this.onEnd();
      this.process.stop();
    }
    for (const asked of this.queue.splice(0)) asked.reject(error);
  }
}

/**
 * Reads objects through one `git cat-file --batch` kept running per repository (by git
 * directory), ended after {@link IDLE_MS} unused and at {@link close}: a small read costs a
 * line written to a running process instead of a process started (~5–40 ms each, more on a
 * busy machine). Only names whose answers never change go there (see STABLE_NAME); others,
 * batches of more than {@link KEPT_BATCH_MAX} names, and every name the kept process answered
 * as missing (an object written since in a way it did not see) are asked of a new `cat-file`,
 * so the answers are exactly those of a fresh process. Errors: as {@link runGit}'s.
 */
export class KeptCatFiles {
  private readonly running = new Map<string, KeptProcess>();
  private closed = false;

  /** The answers for `names` (no line breaks), in order: null for a missing object. */
  async objects(gitDir: string, names: readonly string[]): Promise<KeptObject[]> {
    if (names.length === 0) return [];
    if (this.closed || names.length > KEPT_BATCH_MAX || !names.every((name) => STABLE_NAME.test(name))) return fresh(gitDir, names);
    let answers: KeptObject[];
    try {
      answers = await this.process(gitDir).read(names);
    } catch {
      return fresh(gitDir, names); // the kept process ended (idle, stopped, failed): ask a new one
    }
    const missing = names.filter((_, i) => answers[i] === null);
    if (missing.length === 0) return answers;
    const again = await fresh(gitDir, missing);
    let next = 0;
    return answers.map((answer) => answer ?? again[next++] ?? null);
  }

  /** Ends every kept process; later reads each start their own. */
  close(): void {
    this.closed = true;
    for (const kept of this.running.values()) kept.stop();
    this.running.clear();
  }

  private process(gitDir: string): KeptProcess {
    const kept = this.running.get(gitDir);
    if (kept !== undefined && !kept.ended) return kept;
    const started: KeptProcess = new KeptProcess(gitDir, () => {
      if (this.running.get(gitDir) === started) this.running.delete(gitDir);
    });
    this.running.set(gitDir, started);
    return started;
  }
}

/** `names` asked of a `cat-file --batch` of their own. */
async function fresh(gitDir: string, names: readonly string[]): Promise<KeptObject[]> {
  const { stdout } = await runGit(['cat-file', '--batch'], { gitDir, input: `${names.join('\n')}\n` });
  return parseCatFileBatch(stdout, names);
}
