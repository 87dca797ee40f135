// The files of a page of found commits, fetched while the commits are still being found:
// every visible file (`git diff-tree --stdin -M`) and the blobs that tell whether a file gained or lost a text.
import { startGit, type GitProcess } from '../run-git.ts';
import type { Mirror } from '../mirror.ts';
import { CommitFiles } from './commit-files.ts';
import type { FileChange, LogCommit } from './parse-log.ts';

/**
 * Collects, for the commits handed to {@link PageFiles.add} one by one, every file each
 * changed within `pathspecs` ({@link CommitFiles}: one `git diff-tree --stdin -M` for those
 * not fetched before) and, for a text search, the old and new blobs of the files named with
 * the commit that have both (one `git cat-file --batch`, started with the first such file),
 * to count the text in. Both processes read their input as it comes, so they work while the
 * search still runs. `finish` ends their input and waits for both. Throws GitError when git
 * fails.
 */
export class PageFiles {
  private readonly commitFiles: CommitFiles;
  private readonly filesOf = new Map<string, Promise<FileChange[]>>();
  private catFile: Feed | null = null;
  private readonly asked = new Set<string>();

  private readonly mirror: Mirror;
  private readonly withBlobs: boolean;

  constructor(mirror: Mirror, pathspecs: readonly string[], withBlobs: boolean) {
    this.mirror = mirror;
    this.withBlobs = withBlobs;
    this.commitFiles = new CommitFiles(mirror, pathspecs);
  }

  /** Asks for `commit`'s files, and the blobs of `listed` (its files whose text is counted). */
  add(commit: LogCommit, listed: readonly FileChange[]): void {
    if (!this.filesOf.has(commit.commit)) {
      const files = this.commitFiles.files(commit);
      files.catch(() => undefined); // reported by finish
      this.filesOf.set(commit.commit, files);
    }
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
   * Waits for both: every file of each commit added (by commit; [] for a commit without
   * files within the pathspecs) and the content of each blob asked (by id).
   */
  async finish(): Promise<{ files: Map<string, FileChange[]>; blobs: Map<string, Buffer> }> {
    this.commitFiles.close();
    const commits = [...this.filesOf.keys()];
    const [files, batch] = await Promise.all([Promise.all(this.filesOf.values()), this.catFile?.output()]);
    return {
      files: new Map(commits.map((commit, i) => [commit, files[i] ?? []])),
      blobs: batch === undefined ? new Map() : parseBatch(batch),
    };
  }

  /** Stops the blob reading (the search failed); files asked for are still fetched, for whoever else waits for them. */
  stop(): void {
    this.commitFiles.close();
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
    if (!Number.isSafeInteger(size) || at + size > stdout.length)
      throw new Error(`git cat-file --batch answered a broken header for ${oid}`);
    contents.set(oid, stdout.subarray(at, at + size));
    at += size + 1; // the content is followed by one newline
  }
  return contents;
}

/**
 * The spellings of `text` that a search treats as one (issue 9, item 7: search ignores
 * Unicode normalisation): the text as given, its NFC and its NFD form, without repeats. One
 * entry for ASCII text and for text no normalisation changes.
 */
export function normalisationForms(text: string): string[] {
  return [...new Set([text, text.normalize('NFC'), text.normalize('NFD')])];
}

/**
 * The pickaxe arguments that find every commit changing how often `text` (any of its
 * {@link normalisationForms}) occurs: `-S<text>` when it has one form; otherwise
 * `-S<form|form> --pickaxe-regex`, each form escaped as a POSIX extended regular expression,
 * so `crème` finds `crème` stored decomposed (as macOS writes it). Case is ignored by the
 * caller's `--regexp-ignore-case` either way.
 */
export function pickaxeArgs(text: string): string[] {
  const forms = normalisationForms(text);
  if (forms.length === 1) return [`-S${text}`];
  return [`-S${forms.map((form) => form.replace(/[\\.[\](){}*+?|^$]/g, '\\$&')).join('|')}`, '--pickaxe-regex'];
}

/**
 * Counts `text` in content the way Git's pickaxe (`-S… --regexp-ignore-case`, in the C.UTF-8
 * locale, with the arguments of {@link pickaxeArgs}) counts it: non-overlapping occurrences
 * from the left. For ASCII text Git matches byte by byte with ASCII letters in either case
 * (its kwset), and so does this. For text with other characters Git uses glibc's
 * case-ignoring regular expression, which compares text and content character by character
 * after mapping each to its uppercase (Unicode's simple mapping, one character to one): `σ`,
 * `ς` and `Σ` are one letter, `ı` and `i` too (both `I`), but `ß` and `ẞ` are not (`ß` has no
 * one-character uppercase), nor `k` and the Kelvin sign. This maps both the same way, and
 * counts every one of the text's normalisation forms (composed and decomposed) as the
 * pickaxe's alternation does; the content itself is never normalised, as Git never does.
 * Returns a function of the content (null: absent, 0).
 */
export function occurrenceCounter(text: string): (content: Buffer | null | undefined) => number {
  if (/[^\x00-\x7f]/.test(text)) {
    // Longest first: at one position, the longer spelling is the one a POSIX regex takes.
    const needles = [...new Set(normalisationForms(text).map(simpleUpper))].sort((a, b) => b.length - a.length);
    const pattern = new RegExp(needles.map((needle) => needle.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'), 'gu');
    return (content) => (content ? (simpleUpper(content.toString('utf8')).match(pattern)?.length ?? 0) : 0);
  }
  let source = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    source += /[A-Za-z]/.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  // Over the bytes read as Latin-1 (one character per byte), so the match is byte for byte.
  const pattern = new RegExp(source, 'g');
  return (content) => (content ? (content.toString('latin1').match(pattern)?.length ?? 0) : 0);
}

/** Each character of `text` mapped to its uppercase where that is one character (as glibc's `towupper`), else kept. */
function simpleUpper(text: string): string {
  return text.replace(/[^\x00-\x60\x7b-\x7f]/gu, (char) => {
    const upper = char.toUpperCase();
    return [...upper].length === 1 ? upper : char;
  });
}
