// A pickaxe walk kept between the pages of a text search: it answers a page as soon as the
// page's commits are found and reads on ahead at low priority, so that paging through a long
// history runs Git's pickaxe over it once.
import { isHiddenPath } from '../../../notes/vault-path.ts';
import { CatFileStream } from '../cat-file-batch.ts';
import { startGit, type GitProcess } from '../run-git.ts';
import type { Mirror } from '../mirror.ts';
import { CommitFiles } from './commit-files.ts';
import { literalPathspec, mirrorGit } from './mirror-git.ts';
import { occurrenceCounter, pickaxeArgs } from './page-files.ts';
import { isSymlinkChange, LOG_FORMAT, LogParser, type FileChange, type LogCommit } from './parse-log.ts';

/**
 * What a scan looks for: `text` for `-S` (case ignored: `walk` holds `--regexp-ignore-case`),
 * the other walk filters (`--author=…`, `--since=…`, `--until=…`), the pathspecs the commits
 * must touch (`where`; none: the whole repository, where hidden files are dropped from each
 * commit instead, and a commit that matched only in them is left out; symbolic links are
 * dropped either way, so a commit that matched only in a link's target path is left out), and `visible`: the
 * pathspecs of every visible root, within which a commit's renames are paired.
 */
export interface PickaxeQuery {
  text: string;
  walk: readonly string[];
  where: readonly string[];
  visible: readonly string[];
}

/**
 * How far a scan reads past the last page asked for: at most `matches` more commits, and for
 * at most `ms` milliseconds after that page was answered. Tests and benchmarks may change it.
 */
export const readAhead = { matches: 300, ms: 10_000 };

interface Waiter {
  count: number;
  resolve(): void;
  reject(error: unknown): void;
}

interface Walk {
  process: GitProcess;
  /** The walk stops once this many commits are found or being checked. */
  target: number;
  /** Reading ahead of the pages asked for (at low priority), rather than for a caller who waits. */
  ahead: boolean;
}

/** A commit the pickaxe printed, until its renames are checked: `checked` is then the commit as found, or null when only a rename matched. */
interface Candidate {
  commit: LogCommit;
  checked?: LogCommit | null;
}

/**
 * One text search of one repository at one head commit: the matching commits found so far
 * (newest first, as Git's walk gives them) and the walk that finds more.
 *
 * The walk is `git log -z --raw --numstat -S<text> <walk> <head> -- <where>`, read while it
 * runs, so a page is answered as soon as its commits are printed. Over the whole repository
 * it runs with `--no-renames`: without rename detection the pickaxe walks a third faster and
 * finds every commit it finds with it, and some more: a note moved with the text in it
 * shows as a deletion and an addition that each changed the count. So every commit printed
 * has its files fetched at once ({@link CommitFiles}, renames paired within `visible`; the
 * page needs them for `files_total` anyway), and where a matched addition or deletion is
 * half of a rename, the text is counted in the two blobs: a rename that kept the count is
 * no match, one that changed it is listed as one file (with `git diff-tree --numstat -M` of
 * the pair). A commit left with no match is dropped. The result is what `git log -S` finds
 * with renames, hidden files left out. Limited to `where`, the walk pairs renames itself,
 * within `where` (a note moved into the folder brought its text in, as seen from there).
 *
 * Once the page is found ({@link PickaxeScan.readOn}) the walk goes on in the background
 * (nice 10) for {@link readAhead}, then stops. A later page that needs more waits for the running
 * walk, or resumes after the last commit printed: the commits of the same walk
 * (`git rev-list`, read once per scan) after it, fed to `git log --no-walk=unsorted --stdin
 * -S…`. Git's pickaxe thus looks at each commit once per scan. Caller values travel only
 * inside `-S…`/`--author=…` or after `--`.
 */
export class PickaxeScan {
  /** Commits found so far, in Git's order. */
  readonly found: LogCommit[] = [];
  private readonly pending: Candidate[] = [];
  private last: string | null = null;
  private ended = false;
  private order: string | null = null;
  private walk: Walk | null = null;
  private readonly waiters = new Set<Waiter>();
  private readonly watchers = new Set<(commit: LogCommit, index: number) => void>();
  private idleTimer: NodeJS.Timeout | null = null;
  private retired = false;
  private failure: { error: unknown } | null = null;
  private readonly files: CommitFiles;
  /** Reads the blobs of renames to count the text in; started when first needed. */
  private blobs: CatFileStream | null = null;
  private readonly count: (content: Buffer | null | undefined) => number;

  private readonly mirror: Mirror;
  /** The commit the walk starts from (40 or 64 hex digits). */
  readonly head: string;
  private readonly query: PickaxeQuery;

  constructor(mirror: Mirror, head: string, query: PickaxeQuery) {
    this.mirror = mirror;
    this.head = head;
    this.query = query;
    this.files = new CommitFiles(mirror, query.visible);
    this.count = occurrenceCounter(query.text);
  }

  /** Whether git failed under this scan: it is then of no more use. */
  get broken(): boolean {
    return this.failure !== null;
  }

  /** Every commit of the history has been looked at and checked. */
  private get complete(): boolean {
    return this.ended && this.pending.length === 0;
  }

  /**
   * Waits until `count` commits are found or the history has no more, starting or resuming
   * the walk when it needs to. `onFound` is called for each commit found, with its index
   * from 0: first for those found before, then for each new one as it arrives (so the
   * caller can fetch a page's files while the walk goes on), until this call settles.
   * Throws GitError when git fails.
   */
  async reach(count: number, onFound?: (commit: LogCommit, index: number) => void): Promise<void> {
    if (this.failure !== null) throw this.failure.error;
    if (onFound) this.found.forEach(onFound);
    if (this.found.length >= count || this.complete) return;
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (onFound) this.watchers.add(onFound);
    try {
      await new Promise<void>((resolve, reject) => {
        this.waiters.add({ count, resolve, reject });
        this.pump();
      });
    } finally {
      if (onFound) this.watchers.delete(onFound);
    }
  }

  /**
   * Called once the caller has its page: the walk goes on reading ahead at low priority
   * (nice 10) for {@link readAhead}; a retired scan stops instead.
   */
  readOn(): void {
    if (this.waiters.size > 0 || this.walk === null) return;
    if (this.retired) return this.stopWalk();
    this.walk.ahead = true;
    this.walk.process.background();
    this.stopWhenIdle();
  }

  /** Stops the walk now (the scan is forgotten); a caller still waiting gets an error. */
  stop(): void {
    this.retired = true;
    this.stopWalk();
    this.files.stop();
    this.blobs?.stop();
    this.fail(new Error('The history search was stopped before it finished; ask again.'));
  }

  /** Stops reading ahead once no caller waits (the scan is no longer kept). */
  retire(): void {
    this.retired = true;
    if (this.waiters.size === 0) this.stopWalk();
  }

  /**
   * Moves the checked candidates at the front to `found`, in order; answers the waiters it
   * can; then has the walk serve the rest: raises its target and lets it go on, or starts
   * it.
   */
  private pump(): void {
    for (let next = this.pending[0]; next !== undefined && next.checked !== undefined; next = this.pending[0]) {
      this.pending.shift();
      if (next.checked === null) continue;
      const index = this.found.push(next.checked) - 1;
      for (const watch of this.watchers) watch(next.checked, index);
    }
    for (const waiter of this.waiters) {
      if (this.found.length >= waiter.count || this.complete) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
    if (this.walk === null && this.pending.length === 0) this.closeReaders();
    if (this.waiters.size === 0) return;
    const wanted = Math.max(...[...this.waiters].map((waiter) => waiter.count));
    if (this.walk !== null) {
      this.walk.target = Math.max(this.walk.target, wanted + readAhead.matches);
    } else if (!this.ended && this.found.length + this.pending.length < wanted) {
      this.startWalk(wanted + readAhead.matches);
    }
  }

  /** Stops the walk if no caller asks for more within {@link readAhead}'s time. */
  private stopWhenIdle(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.waiters.size === 0) this.stopWalk();
    }, readAhead.ms);
    this.idleTimer.unref();
  }

  private stopWalk(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const walk = this.walk;
    this.walk = null;
    walk?.process.stop();
    if (this.pending.length === 0) this.closeReaders();
  }

  /** Lets the processes that read files and blobs exit (a later check starts them again). */
  private closeReaders(): void {
    this.files.close();
    this.blobs?.close();
    this.blobs = null;
  }

  /** Starts the first walk, or one that goes on after the last commit printed. */
  private startWalk(target: number): void {
    const pathspec = ['--', ...this.query.where];
    const renames = this.query.where.length === 0 ? ['--no-renames'] : [];
    const pickaxe = ['-z', LOG_FORMAT, '--raw', '--numstat', '--no-abbrev', ...renames, ...pickaxeArgs(this.query.text)];
    if (this.last === null && this.order === null) {
      this.run(['log', ...pickaxe, ...this.query.walk, this.head, ...pathspec], undefined, target);
      return;
    }
    const resumeFrom = this.last;
    const ordered =
      this.order !== null
        ? Promise.resolve(this.order)
        : mirrorGit(this.mirror, ['rev-list', ...this.query.walk, this.head, ...pathspec]).then(({ stdout }) => stdout.toString('latin1'));
    // Until the rev-list is read, a placeholder walk holds the place so no second one starts.
    const pending: Walk = { process: placeholder(), target, ahead: false };
    this.walk = pending;
    ordered.then(
      (order) => {
        this.order = order;
        if (this.walk !== pending) return; // stopped meanwhile
        const rest = resumeFrom === null ? order : order.slice(order.indexOf(`${resumeFrom}\n`) + resumeFrom.length + 1);
        this.walk = null;
        // Without any commit on its input, git log would show HEAD.
        if (rest === '') {
          this.ended = true;
          return this.pump();
        }
        const regexpIgnoreCase = this.query.walk.includes('--regexp-ignore-case') ? ['--regexp-ignore-case'] : [];
        const walk = this.run(['log', '--no-walk=unsorted', '--stdin', ...pickaxe, ...regexpIgnoreCase, ...pathspec], rest, pending.target);
        if (pending.ahead) {
          walk.ahead = true;
          walk.process.background();
        }
      },
      (error: unknown) => {
        if (this.walk === pending) this.walk = null;
        this.breakDown(error);
      },
    );
  }

  private run(args: string[], input: string | undefined, target: number): Walk {
    const parser = new LogParser();
    const walk: Walk = {
      target,
      ahead: false,
      process: startGit(args, {
        gitDir: this.mirror.gitDir,
        ...(this.mirror.workTree ? { workTree: this.mirror.workTree, cwd: this.mirror.workTree } : { cwd: this.mirror.gitDir }),
        ...(input !== undefined ? { input } : {}),
        timeoutMs: 10 * 60_000,
        onStdout: (chunk) => {
          if (this.walk !== walk) return;
          try {
            const settled = [...parser.push(chunk)];
            const whole = parser.settled();
            if (whole !== null) settled.push(whole);
            this.takeAll(walk, settled);
          } catch (error) {
            this.breakDown(error);
          }
        },
      }),
    };
    this.walk = walk;
    walk.process.end();
    walk.process.done.then(
      ({ stopped }) => {
        if (stopped || this.walk !== walk) return;
        const tail = parser.end();
        this.takeAll(walk, tail);
        // Git printed all there is; if the target stopped the taking early, some is left.
        if (tail.length === 0 || this.last === tail[tail.length - 1]?.commit) this.ended = true;
        if (this.walk === walk) this.walk = null;
        this.pump();
      },
      (error: unknown) => {
        if (this.walk === walk) this.breakDown(error);
      },
    );
    return walk;
  }

  /** Takes commits the walk printed, in order, until the walk's target is reached (then stops it). */
  private takeAll(walk: Walk, commits: readonly LogCommit[]): void {
    for (const commit of commits) {
      if (this.walk !== walk) break;
      this.last = commit.commit;
      // A symbolic link's blob is its target's path, never a note's text: a match there is none.
      const files = commit.files.filter((file) => !isSymlinkChange(file) && (this.query.where.length > 0 || !isHiddenPath(file.path)));
      const shown = files.length === commit.files.length ? commit : { ...commit, files };
      if (shown.files.length > 0) this.check(shown);
      if (this.found.length + this.pending.length >= walk.target) {
        this.walk = null;
        walk.process.stop();
      }
    }
    this.pump();
  }

  /** Queues `commit` to be found once its renames are checked (at once when it has none to check). */
  private check(commit: LogCommit): void {
    const candidate: Candidate = { commit };
    this.pending.push(candidate);
    const files = this.files.files(commit);
    files.catch(() => undefined); // reported where it is awaited
    if (this.query.where.length > 0 || !commit.files.some((file) => file.status === 'A' || file.status === 'D')) {
      candidate.checked = commit;
      return;
    }
    this.pairRenames(commit, files).then(
      (checked) => {
        candidate.checked = checked;
        this.pump();
      },
      (error: unknown) => this.breakDown(error),
    );
  }

  /**
   * `commit` as `git log -S` with rename detection would have found it: each matched
   * addition or deletion that is half of a rename in `files` (the commit's files with renames
   * paired) becomes that rename, kept only when the text's count differs between its two
   * blobs, with its own line counts. Null when no match is left.
   */
  private async pairRenames(commit: LogCommit, files: Promise<FileChange[]>): Promise<LogCommit | null> {
    const renames = (await files).filter((file) => file.status === 'R' && file.oldPath !== null);
    const byNew = new Map(renames.map((rename) => [rename.path, rename]));
    const byOld = new Map(renames.map((rename) => [rename.oldPath ?? '', rename]));
    const paired = new Set<FileChange>();
    const listed: FileChange[] = [];
    for (const file of commit.files) {
      const rename = file.status === 'A' ? byNew.get(file.path) : file.status === 'D' ? byOld.get(file.path) : undefined;
      if (rename === undefined) listed.push(file);
      else if (!paired.has(rename)) {
        paired.add(rename);
        listed.push(rename);
      }
    }
    if (paired.size === 0) return commit;
    this.blobs ??= new CatFileStream({ gitDir: this.mirror.gitDir, cwd: this.mirror.workTree ?? this.mirror.gitDir });
    const reader = this.blobs;
    const counts = await Promise.all(
      [...paired].map(
        async (rename) =>
          [rename, this.count(await reader.read(rename.oldBlob ?? '')), this.count(await reader.read(rename.newBlob ?? ''))] as const,
      ),
    );
    const changed = counts.filter(([, before, after]) => before !== after).map(([rename]) => rename);
    const lines = changed.length > 0 ? await renameNumstat(this.mirror, commit, changed) : new Map<string, FileChange>();
    const kept = listed.flatMap((file) => {
      if (!paired.has(file)) return [file];
      if (!changed.includes(file)) return [];
      const counted = lines.get(file.path);
      return [
        {
          ...file,
          ...(counted?.added !== undefined ? { added: counted.added } : {}),
          ...(counted?.removed !== undefined ? { removed: counted.removed } : {}),
        },
      ];
    });
    return kept.length > 0 ? { ...commit, files: kept } : null;
  }

  /** Git failed (or its output could not be read): the walk stops, the waiters get the error, and the scan is of no more use. */
  private breakDown(error: unknown): void {
    this.failure = { error };
    const walk = this.walk;
    this.walk = null;
    walk?.process.stop();
    this.files.stop();
    this.blobs?.stop();
    this.fail(error);
  }

  private fail(error: unknown): void {
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters.clear();
  }
}

/**
 * Lines added and removed for each rename of `renames` (all from `commit`), by new path:
 * `git diff-tree -r -z --numstat -M <first parent> <commit>` limited to the renamed files,
 * so Git pairs them as it did over the whole commit. A rename Git does not pair again gets
 * no counts.
 */
async function renameNumstat(mirror: Mirror, commit: LogCommit, renames: readonly FileChange[]): Promise<Map<string, FileChange>> {
  const parent = commit.parents[0];
  if (parent === undefined) return new Map();
  const paths = renames.flatMap((rename) => [rename.oldPath ?? '', rename.path]).map(literalPathspec);
  const { stdout } = await mirrorGit(mirror, ['diff-tree', '-r', '-z', '--numstat', '-M', parent, commit.commit, '--', ...paths]);
  const counts = new Map<string, FileChange>();
  const tokens = stdout.toString('utf8').split('\0');
  for (let i = 0; i < tokens.length; i += 1) {
    const match = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(tokens[i] ?? '');
    if (match === null) continue;
    const renamed = match[3] === '';
    const oldPath = renamed ? (tokens[i + 1] ?? '') : (match[3] ?? '');
    const path = renamed ? (tokens[i + 2] ?? '') : oldPath;
    if (renamed) i += 2;
    const rename = renames.find((candidate) => candidate.path === path && candidate.oldPath === oldPath);
    if (rename === undefined) continue;
    counts.set(path, {
      ...rename,
      ...(match[1] !== '-' ? { added: Number(match[1]) } : {}),
      ...(match[2] !== '-' ? { removed: Number(match[2]) } : {}),
    });
  }
  return counts;
}

/** A stand-in for a walk about to start (its rev-list is being read): stopping it stops nothing. */
function placeholder(): GitProcess {
  const nothing = () => undefined;
  return {
    write: nothing,
    end: nothing,
    stop: nothing,
    background: nothing,
    holdOpen: nothing,
    done: Promise.resolve({ code: 0, stderr: '', stopped: false }),
  };
}
