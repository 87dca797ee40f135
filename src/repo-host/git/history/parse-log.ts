// Parses `git log -z` / `git diff-tree --stdin -z` output with `--raw --numstat`: exact paths, no quoting.
import type { ChangeStatus } from '../../history.ts';

/**
 * One file of a commit's diff: `path` as after the commit (for a deletion, the path it
 * had), `oldPath` before it (differs for a rename or copy; null for an addition), the blob
 * ids before and after (null when absent; full ids with `--no-abbrev`), the tree entry modes
 * before and after (`100644`, `120000` for a symbolic link…; null when absent or when only
 * numstat was asked), and the line counts from `--numstat` (absent for binary files or when
 * numstat was not asked).
 */
export interface FileChange {
  path: string;
  oldPath: string | null;
  status: ChangeStatus;
  oldBlob: string | null;
  newBlob: string | null;
  oldMode: string | null;
  newMode: string | null;
  added?: number;
  removed?: number;
}

/** One commit of a log: header fields of {@link LOG_FORMAT} and its changed files, in Git's order. */
export interface LogCommit {
  commit: string;
  parents: string[];
  /** Committer date, ISO 8601 with offset (`%cI`). */
  date: string;
  /** Committer date in seconds since the epoch, for ordering across repositories. */
  time: number;
  author: string;
  authorEmail: string;
  subject: string;
  files: FileChange[];
}

/**
 * The `--format` every history query uses: a record separator, then hash, parents,
 * committer date (ISO and epoch), author name and e-mail, subject, NUL-separated. With
 * `-z` Git ends the record with a NUL, so every field is one NUL-terminated token.
 */
export const LOG_FORMAT = '--format=%x1e%H%x00%P%x00%cI%x00%ct%x00%an%x00%ae%x00%s';
const HEADER_FIELDS = 7;

const NUMSTAT = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/;
const RAW = /^:(\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])(\d*)$/;
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const NULL_ID = /^0+$/;
const NULL_MODE = /^0+$/;
/** The tree entry mode of a symbolic link: its blob is the link's target, not a note. */
export const SYMLINK_MODE = '120000';

/**
 * Whether a changed file is a symbolic link (after the change; for a deletion, before it).
 * Needs `--raw` output (the modes); such an entry is never a note.
 */
export function isSymlinkChange(file: FileChange): boolean {
  return file.newMode === null ? file.oldMode === SYMLINK_MODE : file.newMode === SYMLINK_MODE;
}

/**
 * Parses `git log -z LOG_FORMAT [--raw] [--numstat]` output into commits, newest first as
 * Git printed them. The raw and numstat lines of one file are merged into one FileChange.
 * Throws an Error on output it does not understand (a bug, never bad input: paths are
 * NUL-terminated tokens, never parsed for content).
 */
export function parseLog(stdout: Buffer): LogCommit[] {
  const parser = new LogParser();
  return [...parser.push(stdout), ...parser.end()];
}

/**
 * Parses `git log -z LOG_FORMAT [--raw] [--numstat]` output while it arrives, chunk by chunk
 * (cut anywhere, even inside a character): `push` returns the commits that are complete (a
 * commit is complete once the next one starts), `end` the last one. The same commits as
 * {@link parseLog} of the whole output, and the same errors.
 */
export class LogParser {
  private partial: Buffer[] = [];
  private tokens: string[] = [];
  private at = 0;
  private current: LogCommit | null = null;
  private files = new Map<string, FileChange>();
  /** Raw and numstat entries of the current commit, and whether {@link settled} gave it already. */
  private rawEntries = 0;
  private numstatEntries = 0;
  private given = false;

  /** Takes the next chunk of output; returns the commits it completed, in Git's order. */
  push(chunk: Buffer): LogCommit[] {
    let start = 0;
    for (let nul = chunk.indexOf(0, start); nul !== -1; nul = chunk.indexOf(0, start)) {
      this.partial.push(chunk.subarray(start, nul));
      this.tokens.push(Buffer.concat(this.partial).toString('utf8'));
      this.partial = [];
      start = nul + 1;
    }
    if (start < chunk.length) this.partial.push(Buffer.from(chunk.subarray(start)));
    return this.parse(false);
  }

  /** Ends the output; returns the commits still open (the last one). */
  end(): LogCommit[] {
    const rest = Buffer.concat(this.partial).toString('utf8');
    this.partial = [];
    if (rest.replace(/\n/g, '') !== '') this.tokens.push(rest);
    const completed = this.parse(true);
    if (this.current !== null && !this.given) completed.push(this.current);
    this.current = null;
    return completed;
  }

  /**
   * The commit being read, once it is known to be complete before the next one starts: with
   * `--raw --numstat` Git prints every file's raw entry and then every file's numstat entry,
   * so a commit whose files all have both is whole. Given once (later `push`/`end` leave it
   * out); null when the current commit may still grow, or has no files (a merge).
   */
  settled(): LogCommit | null {
    if (this.current === null || this.given || this.rawEntries === 0 || this.numstatEntries < this.rawEntries) return null;
    this.given = true;
    return this.current;
  }

  private parse(final: boolean): LogCommit[] {
    const completed: LogCommit[] = [];
    const tokens = this.tokens;
    while (this.at < tokens.length) {
      const token = (tokens[this.at] ?? '').replace(/^\n+/, '');
      if (token.startsWith('\x1e')) {
        if (!final && this.at + HEADER_FIELDS > tokens.length) break;
        const [commit = '', parents = '', date = '', time = '', author = '', authorEmail = '', subject = ''] = [
          token.slice(1),
          ...tokens.slice(this.at + 1, this.at + HEADER_FIELDS),
        ];
        if (this.current !== null && !this.given) completed.push(this.current);
        this.rawEntries = 0;
        this.numstatEntries = 0;
        this.given = false;
        this.current = {
          commit,
          parents: parents === '' ? [] : parents.split(' '),
          date,
          time: Number(time),
          author,
          authorEmail,
          subject,
          files: [],
        };
        this.files = new Map();
        this.at += HEADER_FIELDS;
        continue;
      }
      if (this.current === null)
        throw new Error(`Unexpected git log output before the first commit: ${JSON.stringify(token.slice(0, 80))}`);
      if (!final && this.at + tokensOfEntry(token) > tokens.length) break;
      if (RAW.test(token)) this.rawEntries += 1;
      else this.numstatEntries += 1;
      this.at = parseFileToken(tokens, this.at, token, this.current.files, this.files);
    }
    // Drop the tokens read, so a long log is not kept twice.
    if (this.at > 0) {
      this.tokens = tokens.slice(this.at);
      this.at = 0;
    }
    return completed;
  }
}

/** How many tokens the raw or numstat entry starting with `token` takes (1 when unknown: parseFileToken refuses it). */
function tokensOfEntry(token: string): number {
  const raw = RAW.exec(token);
  if (raw) return raw[5] === 'R' || raw[5] === 'C' ? 3 : 2;
  const numstat = NUMSTAT.exec(token);
  if (numstat) return numstat[3] === '' ? 3 : 1;
  return 1;
}

/** One commit's files as `git diff-tree --stdin -z -r --raw --numstat` printed them. */
export interface TreeDiff {
  commit: string;
  files: FileChange[];
}

/**
 * Parses `git diff-tree --stdin -z -r [--raw] [--numstat]` output: each commit id (printed
 * only for commits with changes) followed by its files.
 */
export function parseDiffTree(stdout: Buffer): TreeDiff[] {
  const tokens = splitTokens(stdout);
  const diffs: TreeDiff[] = [];
  let current: TreeDiff | null = null;
  let files = new Map<string, FileChange>();
  let i = 0;
  while (i < tokens.length) {
    const token = (tokens[i] ?? '').replace(/^\n+/, '');
    if (OBJECT_ID.test(token)) {
      current = { commit: token, files: [] };
      files = new Map();
      diffs.push(current);
      i += 1;
      continue;
    }
    if (current === null) throw new Error(`Unexpected git diff-tree output before the first commit: ${JSON.stringify(token.slice(0, 80))}`);
    i = parseFileToken(tokens, i, token, current.files, files);
  }
  return diffs;
}

function splitTokens(stdout: Buffer): string[] {
  const tokens = stdout.toString('utf8').split('\0');
  if (tokens.length > 0 && tokens[tokens.length - 1]?.replace(/\n/g, '') === '') tokens.pop();
  return tokens;
}

/** Reads one raw or numstat entry starting at `tokens[i]`; returns the index after it. */
function parseFileToken(tokens: string[], i: number, token: string, list: FileChange[], byPath: Map<string, FileChange>): number {
  const raw = RAW.exec(token);
  if (raw) {
    const status = raw[5] as ChangeStatus;
    const twoPaths = status === 'R' || status === 'C';
    const first = tokens[i + 1] ?? '';
    const path = twoPaths ? (tokens[i + 2] ?? '') : first;
    const change = entry(list, byPath, path);
    change.status = status;
    change.oldPath = twoPaths ? first : status === 'A' ? null : path;
    change.oldBlob = NULL_ID.test(raw[3] ?? '0') ? null : (raw[3] ?? null);
    change.newBlob = NULL_ID.test(raw[4] ?? '0') ? null : (raw[4] ?? null);
    change.oldMode = NULL_MODE.test(raw[1] ?? '0') ? null : (raw[1] ?? null);
    change.newMode = NULL_MODE.test(raw[2] ?? '0') ? null : (raw[2] ?? null);
    return i + (twoPaths ? 3 : 2);
  }
  const numstat = NUMSTAT.exec(token);
  if (numstat) {
    const renamed = numstat[3] === '';
    const path = renamed ? (tokens[i + 2] ?? '') : (numstat[3] ?? '');
    const change = entry(list, byPath, path);
    if (renamed) change.oldPath = tokens[i + 1] ?? null;
    if (numstat[1] !== '-') change.added = Number(numstat[1]);
    if (numstat[2] !== '-') change.removed = Number(numstat[2]);
    return i + (renamed ? 3 : 1);
  }
  throw new Error(`Unexpected git output: ${JSON.stringify(token.slice(0, 80))}`);
}

function entry(list: FileChange[], byPath: Map<string, FileChange>, path: string): FileChange {
  let change = byPath.get(path);
  if (!change) {
    change = { path, oldPath: path, status: 'M', oldBlob: null, newBlob: null, oldMode: null, newMode: null };
    byPath.set(path, change);
    list.push(change);
  }
  return change;
}
