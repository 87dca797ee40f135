// Where a search's later pages can start (issue 14): a search pages through its matches in
// (repository, path, line) order, and without a place to start from, the page at offset
// 45,000 matched every note before it again (about 500 ms in obsidian-help, growing with the
// offset). A checkpoint says "the notes up to this one hold the first N matches"; the next
// page starts after the nearest checkpoint at or before its offset and matches only the
// notes from there. Checkpoints are kept by index, query, scopes and the index state of every
// repository searched: any change of the index (a write, an outside commit, a rebuild) gives
// a new state, and pages are matched from the start again.
import { byteCache } from '../../byte-cache.ts';
import type { NoteIndex, RepoIndexState, ScanPosition, Scope } from '../../note-index/note-index.ts';

/** A place a search can go on from: the notes up to and including `after` hold its first `count` matches. */
export interface SearchCheckpoint {
  after: ScanPosition;
  count: number;
}

/** What one search is, for its checkpoints: the query as matched and where it looks. */
export interface CheckpointQuery {
  regex: boolean;
  query: string;
  caseSensitive: boolean;
  scopes: readonly Scope[];
}

/** The bound of the checkpoints kept per index, in bytes (README "Memory"). */
export const SEARCH_CHECKPOINTS_CACHE_BYTES = 256 * 1024;

/** At most this many checkpoints are kept per search: the ones of the deepest pages. */
const CHECKPOINTS_PER_SEARCH = 32;

interface Kept {
  state: string;
  points: SearchCheckpoint[];
}

const byIndex = new WeakMap<NoteIndex, ReturnType<typeof newCache>>();

function newCache() {
  return byteCache<string, Kept>({
    maxBytes: SEARCH_CHECKPOINTS_CACHE_BYTES,
    sizeOf: (kept, key) =>
      64 +
      2 * (key.length + kept.state.length) +
      kept.points.reduce((sum, point) => sum + 64 + 2 * (point.after.repo.length + point.after.path.length), 0),
  });
}

/**
 * The checkpoints of one search at one state of the index: {@link SearchCheckpoints.open}
 * reads the state, {@link SearchCheckpoints.nearest} finds where a page can start, and
 * {@link SearchCheckpoints.keep} records what a page found, once the index is known not to
 * have moved under it.
 */
export class SearchCheckpoints {
  private readonly key: string;

  private readonly state: string;

  private readonly index: NoteIndex;

  private readonly repos: readonly string[];

  private readonly found: SearchCheckpoint[] = [];

  private constructor(index: NoteIndex, key: string, state: string, repos: readonly string[]) {
    this.index = index;
    this.key = key;
    this.state = state;
    this.repos = repos;
  }

  /**
   * The checkpoints of `query` in `index` at the index's current state; null when a
   * repository searched is not indexed (nothing is kept then).
   */
  static async open(index: NoteIndex, query: CheckpointQuery): Promise<SearchCheckpoints | null> {
    const repos = [...new Set(query.scopes.map((scope) => scope.repo))].sort();
    const state = await stateOf(index, repos);
    if (state === null) return null;
    const key = JSON.stringify([query.regex, query.caseSensitive, query.query, query.scopes]);
    return new SearchCheckpoints(index, key, state, repos);
  }

  /** The kept checkpoint with the largest count not above `offset`, or null (start at the first note). */
  nearest(offset: number): SearchCheckpoint | null {
    const kept = byIndex.get(this.index)?.get(this.key);
    if (kept === undefined || kept.state !== this.state) return null;
    let best: SearchCheckpoint | null = null;
    for (const point of kept.points) if (point.count <= offset && (best === null || point.count > best.count)) best = point;
    return best;
  }

  /** Notes a checkpoint found by this page (kept by {@link keep}). */
  add(point: SearchCheckpoint): void {
    this.found.push(point);
  }

  /**
   * Keeps the checkpoints this page found, if the index still has the state it had when
   * this search began (else they may mix two states, and are dropped).
   */
  async keep(): Promise<void> {
    if (this.found.length === 0 || (await stateOf(this.index, this.repos)) !== this.state) return;
    let cache = byIndex.get(this.index);
    if (cache === undefined) {
      cache = newCache();
      byIndex.set(this.index, cache);
    }
    const kept = cache.get(this.key);
    const earlier = kept !== undefined && kept.state === this.state ? kept.points : [];
    const points = new Map<number, SearchCheckpoint>();
    for (const point of [...earlier, ...this.found]) points.set(point.count, point);
    const sorted = [...points.values()].sort((x, y) => x.count - y.count).slice(-CHECKPOINTS_PER_SEARCH);
    cache.set(this.key, { state: this.state, points: sorted });
  }
}

/** The index states of `repos` as one text; null when one is not indexed. */
async function stateOf(index: NoteIndex, repos: readonly string[]): Promise<string | null> {
  const states = await Promise.all(repos.map((repo) => index.repoState(repo)));
  if (states.some((state) => state === null)) return null;
  return JSON.stringify((states as RepoIndexState[]).map((state) => [state.head, state.fingerprint, state.indexedAt.getTime()]));
}
