// Recovery from a commit a crashed server left unfinished, run before a read, the poll or a write goes on.
import { recoverInterruptedCommit, needsRecovery } from './interrupted-commit.ts';
import type { LocalRepo, ObjectFormats } from './local-repo.ts';

/**
 * Runs {@link recoverInterruptedCommit} when a repository needs it, one recovery per repository
 * at a time (concurrent callers share it), and reports what it did through `tell`, one sentence
 * each; a failure is reported once per repository and cause.
 */
export class CommitRecovery {
  /** Per repository (git dir): the recovery running now, so concurrent calls share it. */
  private readonly recoveries = new Map<string, Promise<void>>();
  /** Per repository (git dir): the cause of the last failed recovery, reported once. */
  private readonly failures = new Map<string, string>();

  private readonly formats: ObjectFormats;
  /** Told, one sentence each, what recovery did (see interrupted-commit.ts). */
  readonly tell: (sentence: string) => void;

  constructor(formats: ObjectFormats, tell: (sentence: string) => void) {
    this.formats = formats;
    this.tell = tell;
  }

  /**
   * When a server that is gone left its journal or its index.lock in `repo` (work trees only),
   * recovers before going on: its commit finished or dropped, its lock and temporaries removed.
   * A failure is reported (once per repository and cause) and, `forWrite`, thrown, so no
   * commit starts from a work tree that lags the branch; a read goes on with what is there.
   */
  async ifNeeded(repo: LocalRepo, forWrite = false): Promise<void> {
    if (repo.workTree === null) return;
    let recovery = this.recoveries.get(repo.gitDir);
    if (recovery === undefined) {
      if (!(await needsRecovery(repo.gitDir))) return;
      recovery = this.recover(repo);
      this.recoveries.set(repo.gitDir, recovery);
      void recovery.finally(() => this.recoveries.delete(repo.gitDir)).catch(() => undefined);
    }
    try {
      await recovery;
    } catch (error) {
      if (forWrite) throw error;
    }
  }

  private async recover(repo: LocalRepo): Promise<void> {
    try {
      const done = await recoverInterruptedCommit({
        name: repo.name,
        gitDir: repo.gitDir,
        workTree: repo.workTree!,
        format: await this.formats.of(repo),
      });
      for (const sentence of done) this.tell(sentence);
      this.failures.delete(repo.gitDir);
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      if (this.failures.get(repo.gitDir) !== cause)
        this.tell(
          `recovering "${repo.name}" from an interrupted Major Vault write failed (writes are refused until it succeeds): ${cause}`,
        );
      this.failures.set(repo.gitDir, cause);
      throw error;
    }
  }
}
