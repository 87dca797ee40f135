// Keeps each repository's commit-graph (with changed-path Bloom filters) up to date, as
// `git maintenance` would, so that Git's history walks read commits and paths quickly.
import { headCommit } from '../git/head-commit.ts';
import { GitError, startGit, type GitProcess } from '../git/run-git.ts';

/** How often, at most, one repository's head is looked at for a new commit-graph. */
const CHECK_EVERY_MS = 1_000;

interface Kept {
  /** The head the graph was last written for. */
  head: string | null;
  checkedAt: number;
  writing: GitProcess | null;
}

/**
 * Writes `git commit-graph write --reachable --changed-paths --split` for a repository
 * whenever its head has moved since the last write, in the background at low priority
 * (nice 10); never more than one at a time per repository, and the head is looked at no
 * more than once a second (in Git's files, without starting git). The commit-graph is Git's own cache (`.git/objects/info/`):
 * Git checks it and reads around it where it is stale, so writing it never changes an
 * answer, only how fast walks such as `git log -- <path>` (Bloom filters) and
 * `git log --follow` run. A write that fails (a shallow clone, a lock held by `git gc`) is
 * let go: it is tried again at the next head.
 */
export class CommitGraphKeeper {
  private readonly repos = new Map<string, Kept>();
  private closed = false;

  /** Looks at the repository in `gitDir` and starts a write if its head moved; returns at once. */
  refresh(gitDir: string): void {
    if (this.closed) return;
    let kept = this.repos.get(gitDir);
    if (kept === undefined) {
      kept = { head: null, checkedAt: 0, writing: null };
      this.repos.set(gitDir, kept);
    }
    const now = Date.now();
    if (kept.writing !== null || now - kept.checkedAt < CHECK_EVERY_MS) return;
    kept.checkedAt = now;
    void this.writeIfMoved(gitDir, kept);
  }

  /** Stops the writes under way and takes no more. */
  async close(): Promise<void> {
    this.closed = true;
    const writing = [...this.repos.values()].flatMap((kept) => (kept.writing !== null ? [kept.writing] : []));
    for (const process of writing) process.stop();
    await Promise.allSettled(writing.map((process) => process.done));
  }

  private async writeIfMoved(gitDir: string, kept: Kept): Promise<void> {
    try {
      const head = await headCommit(gitDir);
      if (head === null || head === kept.head || this.closed) return;
      const writing = startGit(['commit-graph', 'write', '--reachable', '--changed-paths', '--split', '--no-progress'], {
        gitDir,
        timeoutMs: 10 * 60_000,
        onStdout: () => undefined,
      });
      kept.writing = writing;
      writing.background();
      writing.end();
      const { stopped } = await writing.done;
      if (!stopped) kept.head = head;
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
    } finally {
      kept.writing = null;
    }
  }
}
