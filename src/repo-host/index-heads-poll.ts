// The hosted instance's Changes adapter (issue 13, "The instance"): the worker indexes each
// push into the installation's database; the instance, while awake, compares the heads that
// database holds with its own mirrors' about once a second, fetches a mirror that is behind,
// and says the repository moved, so its Installation takes in the new tree and `.vault/` (a
// no-op diff of the index when the worker got there first).
import type { ChangeNotice, Changes } from './changes.ts';

/** What {@link IndexHeadsPoll} compares and acts on; main/ wires it to the database and the GitHub host. */
export interface IndexHeadsPollOptions {
  /** The heads the installation's database holds, by repository (note-index/index-heads.ts). */
  indexHeads(): Promise<Map<string, string | null>>;
  /** The heads of this process's mirrors, by repository (the host's listing). */
  mirrorHeads(): Promise<Map<string, string | null>>;
  /** Fetches `repo`'s mirror from the host. */
  fetchMirror(repo: string): Promise<void>;
  /** Asks the host again which repositories the installation has (one came or went). */
  reloadRepos(): Promise<void>;
  /** Told when the repositories came or went (e.g. to forget who may read what). */
  onListed?: () => void;
  /** Told of a failure (the database or the host unreachable); the next round tries again. */
  onError?: (error: unknown) => void;
  /** How often to compare, in ms; default 1,000. */
  intervalMs?: number;
  /** How long a difference that acting did not settle waits before it is acted on again, in ms; default 10,000. */
  retryMs?: number;
}

/**
 * Changes from the installation's database. Each round: when the database names other
 * repositories than the mirrors, the list is reloaded and `listed` noticed; for each repository
 * whose database head differs from its mirror's, the mirror is fetched and `moved` noticed
 * (the Installation then syncs the index from the mirror). A difference is acted on when the
 * database's head is new to the poll, and again after `retryMs` while it stays (a fetch that
 * failed, or an index an older mirror wrote over: the sync from the fetched mirror mends it),
 * so the index and the mirror converge on what was pushed last. Rounds never overlap, and
 * notices are handed on one at a time (the Changes contract).
 */
export class IndexHeadsPoll implements Changes {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Per repository: the database head last acted on, and when. */
  private readonly acted = new Map<string, { head: string | null; at: number }>();
  private listedActed: { names: string; at: number } | null = null;

  private readonly options: IndexHeadsPollOptions;

  constructor(options: IndexHeadsPollOptions) {
    this.options = options;
  }

  start(onNotice: (notice: ChangeNotice) => Promise<void>): void {
    if (this.timer !== null || this.stopped) throw new Error('The index heads poll is started already.');
    const interval = this.options.intervalMs ?? 1000;
    const next = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.round = this.compare(onNotice).finally(next);
      }, interval);
      this.timer.unref();
    };
    next();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.round;
  }

  /** One round (see the class). Never rejects. */
  private async compare(onNotice: (notice: ChangeNotice) => Promise<void>): Promise<void> {
    const { options } = this;
    const retryMs = options.retryMs ?? 10_000;
    try {
      const indexed = await options.indexHeads();
      let mirrored = await options.mirrorHeads();
      const now = Date.now();
      const indexedNames = [...indexed.keys()].sort().join('\n');
      if (indexedNames !== [...mirrored.keys()].sort().join('\n')) {
        const last = this.listedActed;
        if (last === null || last.names !== indexedNames || now - last.at >= retryMs) {
          this.listedActed = { names: indexedNames, at: now };
          await options.reloadRepos();
          options.onListed?.();
          if (this.stopped) return;
          await onNotice({ kind: 'listed' });
          mirrored = await options.mirrorHeads();
        }
      }
      for (const [repo, head] of indexed) {
        if (this.stopped) return;
        if (!mirrored.has(repo) || mirrored.get(repo) === head) continue;
        const last = this.acted.get(repo);
        if (last !== undefined && last.head === head && now - last.at < retryMs) continue;
        this.acted.set(repo, { head, at: now });
        try {
          await options.fetchMirror(repo);
        } catch (error) {
          options.onError?.(error);
          continue;
        }
        await onNotice({ kind: 'moved', repo });
      }
    } catch (error) {
      options.onError?.(error);
    }
  }
}
