// Notices that anything in a work tree changed, without asking git: one inotify watch per
// folder (fs.watch), counting events, so the once-a-second poll can skip `git status`.
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** Above this many folders the work tree is not watched: every check runs `git status`. */
const maxFolders = 20_000;

/** How many of the last changes' paths are kept at least (see WorkTreeWatch.pathsSince). */
const LOG_SIZE = 4096;

/**
 * Watches every folder of a work tree (not `.git`, not through symbolic links) and counts
 * the changes seen: a file written, created, deleted, renamed or its mode changed, in any
 * folder. A folder created later is watched as soon as its creation is seen, and counted
 * again once watched, so a file written into it before the watch still shows as a change.
 *
 * Used as a gate, never as the truth: when {@link changes} has not moved since the last
 * `git status` (and {@link healthy} holds), nothing in the work tree changed. Not healthy:
 * not started yet, more than {@link maxFolders} folders, or a watch could not be set up
 * (the inotify limit); then the caller must ask git every time.
 */
export class WorkTreeWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private count = 0;
  /** Where each of the last changes was (absolute paths; entry i is change `logStart + i + 1`), for {@link pathsSince}. */
  private log: string[] = [];
  private logStart = 0;
  private broken = false;
  private closed = false;
  private started: Promise<void> | null = null;
  /** The looks at what an event named (and the watches they start) not finished yet. */
  private readonly inFlight = new Set<Promise<void>>();

  private readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  /** How many changes were seen so far (only ever grows). */
  get changes(): number {
    return this.count;
  }

  /**
   * Where the changes after the `mark`-th were seen, as absolute paths (the file or folder an
   * event named, or a folder newly watched or lost): what {@link changes} counted since it
   * was `mark`. Null when those are no longer all kept (only the last {@link LOG_SIZE} are).
   */
  pathsSince(mark: number): string[] | null {
    if (mark < this.logStart || mark > this.count) return null;
    return this.log.slice(mark - this.logStart);
  }

  /** Whether every folder is watched, so an unchanged {@link changes} means an unchanged work tree. */
  get healthy(): boolean {
    return this.started !== null && !this.broken && !this.closed && this.watchers.has(this.root);
  }

  /** Watches the work tree's folders (once); resolves when all of them are watched, or the watch gave up. */
  start(): Promise<void> {
    this.started ??= this.watchTree(this.root);
    return this.started;
  }

  /**
   * Resolves after the event loop has polled for I/O at least once: an inotify event for a
   * write that finished before this call has then reached {@link changes}. (Two `setImmediate`
   * hops: an immediate queued during the check phase runs only after the next poll phase.)
   */
  async settle(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * As {@link settle}, and then until the watches that the events seen so far start (a new
   * folder's) are in place and have counted: {@link changes} then holds still until something
   * else changes.
   */
  async quiet(): Promise<void> {
    await this.settle();
    while (this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight]);
      await this.settle();
    }
  }

  /** Stops every watch. */
  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private async watchTree(folder: string): Promise<void> {
    // A level of folders at a time, each level's listings read at once (not one after the
    // other): the watch of a large work tree is on the way to a start's first tool call.
    let level = [folder];
    while (level.length > 0 && !this.broken && !this.closed) {
      const watched = level.filter((current) => this.watchFolder(current));
      const listings = await Promise.all(watched.map((current) => readdir(current, { withFileTypes: true }).catch(() => [])));
      level = [];
      watched.forEach((current, i) => {
        for (const entry of listings[i]!) {
          // Git's own folders (this repository's, a nested one's) are not the work tree.
          if (entry.isDirectory() && entry.name !== '.git') level.push(join(current, entry.name));
        }
      });
    }
  }

  /** Starts watching one folder; false when it is already watched, gone, or the watch failed. */
  private watchFolder(folder: string): boolean {
    if (this.watchers.has(folder) || this.closed) return false;
    if (this.watchers.size >= maxFolders) {
      this.giveUp();
      return false;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: false }, (_event, name) => this.onEvent(folder, name));
    } catch (error) {
      // A folder removed meanwhile is no loss; anything else (ENOSPC: the inotify limit) is.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.giveUp();
      return false;
    }
    watcher.on('error', () => {
      // The folder went away (or its watch broke): stop watching it; its parent saw the change.
      watcher.close();
      if (this.watchers.get(folder) === watcher) this.watchers.delete(folder);
      this.note(folder);
    });
    this.watchers.set(folder, watcher);
    // Anything written into the folder before this watch existed counts as a change.
    this.note(folder);
    return true;
  }

  private onEvent(folder: string, name: string | Buffer | null): void {
    if (name === null || name === undefined) return this.note(folder);
    const path = join(folder, name.toString());
    this.note(path);
    if (name.toString() === '.git') return;
    // A new or renamed folder is watched too; a removed one lets go of its watch.
    const looking: Promise<void> = lstat(path)
      .then(
        (info) => {
          if (info.isDirectory() && !this.watchers.has(path)) return this.watchTree(path);
        },
        () => this.forget(path),
      )
      .finally(() => this.inFlight.delete(looking));
    this.inFlight.add(looking);
  }

  /**
   * Closes the watches of a removed folder and of everything that was below it. Called for
   * every path an event names that is gone (each removed file, each temporary a write renamed
   * away), so it compares strings: both sides are joined from the root, hence normalized
   * (path.relative here cost a move of 31 notes ~35 ms of the main thread in a tree of 600 folders).
   */
  private forget(path: string): void {
    const below = `${path}${sep}`;
    for (const [folder, watcher] of this.watchers) {
      if (folder === path || folder.startsWith(below)) {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
  }

  /** Counts one change, seen at `path`. */
  private note(path: string): void {
    this.count += 1;
    this.log.push(path);
    if (this.log.length > 2 * LOG_SIZE) {
      this.log = this.log.slice(-LOG_SIZE);
      this.logStart = this.count - LOG_SIZE;
    }
  }

  private giveUp(): void {
    this.broken = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
