// Puts a commit's files into a work tree in two steps: everything that can fail before the branch moves, only renames after.
import { chmod, lstat, mkdir, rename, rmdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { eachSettled } from './settle-each.ts';

/** What Git saw at a path before the write (see readAsGitSeesIt), to put back if the commit is undone. */
export type DiskBefore = { kind: 'file' | 'symlink'; content: Buffer } | { kind: 'directory' } | null;

/** One path to write (`content` with its Git mode) or delete (`content: null`). */
export interface WorkTreeFileWrite {
  path: string;
  content: Buffer | null;
  mode: string;
}

/**
 * The files of one commit, staged beside their places in the work tree:
 * 1. {@link WorkTreeWrite.stage} creates the missing folders and writes each new content to a
 *    short temporary name in its own folder (`tempName(path)`, see commit-journal.ts: named
 *    after the commit's journal, so a crashed server's temporaries are found); a failure there (no space, no permission, a name too long) undoes
 *    what it did and throws, before anything is committed;
 * 2. after `update-ref`, {@link place} renames each over its path (atomic: an editor sees the old
 *    or the new note, never half of one) and removes the deleted files;
 * 3. {@link discard} (the branch did not move) or {@link restore} (undo after a failure) clean up.
 */
export class WorkTreeWrite {
  /** Temporary file per written path, until placed. */
  private readonly temps = new Map<string, string>();
  /** Folders this write created, deepest last. */
  private readonly createdFolders: string[] = [];
  /** Paths already changed on disk by {@link place}. */
  private readonly placed: string[] = [];

  private readonly workTree: string;
  private readonly files: readonly WorkTreeFileWrite[];
  private readonly tempName: (path: string) => string;

  private constructor(workTree: string, files: readonly WorkTreeFileWrite[], tempName: (path: string) => string) {
    this.workTree = workTree;
    this.files = files;
    this.tempName = tempName;
  }

  static async stage(workTree: string, files: readonly WorkTreeFileWrite[], tempName: (path: string) => string): Promise<WorkTreeWrite> {
    const write = new WorkTreeWrite(workTree, files, tempName);
    try {
      // The folders first, one by one (few, and nested ones must not race); then the files side by side.
      const written = files.filter((file) => file.content !== null);
      for (const folder of new Set(written.map((file) => dirname(write.full(file.path))))) {
        const created = await mkdir(folder, { recursive: true });
        if (created !== undefined) write.noteCreated(created, folder);
      }
      await eachSettled(written, async (file) => {
        const temp = join(dirname(write.full(file.path)), tempName(file.path));
        const mode = file.mode === '100755' ? 0o755 : 0o644;
        await writeFile(temp, file.content!, { flag: 'wx', mode });
        write.temps.set(file.path, temp);
        await chmod(temp, mode); // the umask may have taken bits away
      });
    } catch (error) {
      await write.discard();
      throw error;
    }
    return write;
  }

  /**
   * Renames every staged file over its path and deletes the deleted ones, side by side (each
   * path is another file; settle-each.ts `DISK_STEPS_AT_ONCE` at a time), then removes folders left empty. A failure is thrown once every
   * other path has settled, so {@link restore} knows each path placed.
   */
  async place(): Promise<void> {
    await eachSettled(this.files, async (file) => {
      const full = this.full(file.path);
      if (file.content === null) {
        const existing = await lstat(full).catch(() => null);
        if (existing !== null && !existing.isDirectory()) await unlink(full);
        this.placed.push(file.path);
        return;
      }
      await rename(this.temps.get(file.path)!, full);
      this.temps.delete(file.path);
      this.placed.push(file.path);
    });
    for (const file of this.files) if (file.content === null) await this.removeEmptyFolders(dirname(this.full(file.path)));
  }

  /** Removes the temporary files not placed yet and the folders this write created (when still empty). */
  async discard(): Promise<void> {
    for (const temp of this.temps.values()) await unlink(temp).catch(() => undefined);
    this.temps.clear();
    for (const folder of [...this.createdFolders].reverse()) await rmdir(folder).catch(() => undefined);
  }

  /** Puts back what was on disk before at every path already placed, then {@link discard}s. Best effort: every path is tried. */
  async restore(before: ReadonlyMap<string, DiskBefore>): Promise<void> {
    for (const path of this.placed) {
      const full = this.full(path);
      const old = before.get(path) ?? null;
      try {
        if (old === null || old.kind === 'directory') {
          const now = await lstat(full).catch(() => null);
          if (now !== null && !now.isDirectory()) await unlink(full);
          continue;
        }
        await mkdir(dirname(full), { recursive: true });
        if (old.kind === 'symlink') {
          await unlink(full).catch(() => undefined);
          await symlink(old.content.toString('utf8'), full);
        } else {
          const temp = join(dirname(full), this.tempName(path));
          await writeFile(temp, old.content, { flag: 'wx' });
          await rename(temp, full);
        }
      } catch {
        // Keep going: every other path is still worth putting back.
      }
    }
    this.placed.length = 0;
    await this.discard();
  }

  private full(path: string): string {
    return join(this.workTree, ...path.split('/'));
  }

  /** Records the folders `mkdir -p` made: from `first` (the top one it created) down to `folder`. */
  private noteCreated(first: string, folder: string): void {
    const chain: string[] = [];
    for (let at = folder; at.length >= first.length; at = dirname(at)) {
      chain.unshift(at);
      if (at === first || dirname(at) === at) break;
    }
    this.createdFolders.push(...chain);
  }

  private async removeEmptyFolders(folder: string): Promise<void> {
    while (folder.startsWith(this.workTree) && folder.length > this.workTree.length) {
      try {
        await rmdir(folder);
      } catch {
        return; // not empty (or gone): stop climbing
      }
      folder = dirname(folder);
    }
  }
}
