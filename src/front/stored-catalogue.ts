// The hosted front's catalogue (issue 13, "The front"; DESIGN.md "How one call travels", step
// 4): `initialize`, `server/discover` and `tools/list` answered from the catalogue store, at
// once and without the instance, for the sorted set of repositories the caller can read.
import { catalogueFor, type ListedTool } from '../catalogue/catalogue.ts';
import type { CatalogueStore } from '../store/store.ts';
import type { ToolDefinition } from '../tools/tool.ts';
import type { CatalogueAnswer, CatalogueSource } from './http-front.ts';

/** What {@link storedCatalogue} reads from and builds with. */
export interface StoredCatalogueOptions {
  catalogues: CatalogueStore;
  installationId: number;
  /** The registry the answers are built from (tools/all-tools.ts): the same the instance and the builder use. */
  tools: readonly ToolDefinition[];
  /**
   * How often, at most, a set's use is written to the store, in ms; default one hour. The
   * builder rebuilds the sets used in the last 30 days (catalogue-builder.ts), so the hour
   * changes nothing there, and a `tools/list` does not write to the database each time.
   */
  touchEveryMs?: number;
  /** How many answers (version and set) are kept in memory, the least recently used dropped first; default 8. */
  keepAnswers?: number;
  /** The clock, in ms since the epoch (tests); default `Date.now`. */
  now?: () => number;
}

/** An answer kept in memory, and when its use was last written to the store. */
interface KeptAnswer {
  answer: CatalogueAnswer;
  touchedAt: number;
}

/**
 * The catalogue source of one installation over the catalogue store. The caller's readable
 * repositories, sorted, are the key: the answer stored for the installation's current
 * configuration version and that set; when none is stored yet it is built here from the
 * stored source with the same code as the builder's (catalogue/catalogue.ts) and stored, so
 * the next person with the same rights gets it from the store. Null (the front then forwards
 * the request to the instance, which reads `.vault/` itself) when the builder has written no
 * source for the installation yet, or the caller can read a repository the source does not
 * name (one added since it was built).
 *
 * The source is read on every call, so a new version is answered at once; an answer, which
 * never changes for its version and set, is kept in memory ({@link
 * StoredCatalogueOptions.keepAnswers}) and its use written back at most every {@link
 * StoredCatalogueOptions.touchEveryMs}: a warm `tools/list` costs one read by primary key.
 */
export function storedCatalogue(options: StoredCatalogueOptions): CatalogueSource {
  const { catalogues, installationId, tools } = options;
  const touchEveryMs = options.touchEveryMs ?? 60 * 60 * 1000;
  const keepAnswers = options.keepAnswers ?? 8;
  const now = options.now ?? Date.now;
  /** By version and set, least recently used first (a Map keeps insertion order). */
  const kept = new Map<string, KeptAnswer>();
  const keep = (key: string, answer: CatalogueAnswer) => {
    kept.delete(key);
    kept.set(key, { answer, touchedAt: now() });
    while (kept.size > keepAnswers) kept.delete(kept.keys().next().value!);
  };
  return async (access): Promise<CatalogueAnswer | null> => {
    const source = await catalogues.source(installationId);
    if (source === null) return null;
    const byName = new Map(source.repos.map((repo) => [repo.name, repo]));
    const readable = [...access.read].sort();
    if (readable.some((name) => !byName.has(name))) return null;
    const key = `${source.version}\n${readable.join('/')}`;
    const known = kept.get(key);
    if (known !== undefined && now() - known.touchedAt < touchEveryMs) {
      kept.delete(key);
      kept.set(key, known);
      return known.answer;
    }
    // Not kept, or its use is due to be written: `answer` marks it used now.
    const stored = await catalogues.answer(installationId, source.version, readable);
    // Stored by this code or the builder's, from the same registry: the listed JSON as sent.
    if (stored !== null) {
      const answer: CatalogueAnswer = { instructions: stored.instructions, tools: stored.tools as ListedTool[] };
      keep(key, answer);
      return answer;
    }
    const built = catalogueFor(
      tools,
      readable.map((name) => byName.get(name)!),
    );
    await catalogues.putAnswer(installationId, source.version, readable, { instructions: built.instructions, tools: [...built.tools] });
    const answer: CatalogueAnswer = { instructions: built.instructions, tools: built.tools };
    keep(key, answer);
    return answer;
  };
}
