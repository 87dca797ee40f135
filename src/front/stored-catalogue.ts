// The hosted front's catalogue (issue 13, "The front"; DESIGN.md "How one call travels", step
// 4): `initialize`, `server/discover` and `tools/list` answered from the catalogue store, at
// once and without the instance, for the sorted set of repositories the caller can read.
import { catalogueFor, type CatalogueRepo, type ListedTool } from '../catalogue/catalogue.ts';
import type { Logger } from 'pino';
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
   * The versions of the sources as the front last read them ({@link watchSourceVersions}): when
   * given, the source is kept in memory and read again only when its version differs from the
   * one seen there, so a warm or cold call reads nothing from the store and a new version is
   * answered within a read of the versions (a second). Absent: the source is read on every call.
   */
  versions?: Pick<SourceVersions, 'current'>;
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
 * The source is read on every call, so a new version is answered at once, unless {@link
 * StoredCatalogueOptions.versions} says which version is current: then it is read when that
 * changes. An answer, which never changes for its version and set, is kept in memory ({@link
 * StoredCatalogueOptions.keepAnswers}) and its use written back, without waiting for it, at
 * most every {@link StoredCatalogueOptions.touchEveryMs}: with `versions`, a known caller's
 * `tools/list` is a lookup in memory, the same object for the same version and set.
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
  /** The source last read, by repository name. */
  let keptSource: { version: string; byName: Map<string, CatalogueRepo> } | null = null;
  const currentSource = async () => {
    const seen = options.versions?.current(installationId);
    if (keptSource !== null && seen !== undefined && keptSource.version === seen) return keptSource;
    const source = await catalogues.source(installationId);
    keptSource = source === null ? null : { version: source.version, byName: new Map(source.repos.map((repo) => [repo.name, repo])) };
    return keptSource;
  };
  return async (access): Promise<CatalogueAnswer | null> => {
    const source = await currentSource();
    if (source === null) return null;
    const { byName } = source;
    const readable = [...access.read].sort();
    if (readable.some((name) => !byName.has(name))) return null;
    const key = `${source.version}\n${readable.join('/')}`;
    const known = kept.get(key);
    if (known !== undefined) {
      kept.delete(key);
      kept.set(key, known);
      if (now() - known.touchedAt >= touchEveryMs) {
        // Its use is due to be written (`answer` marks it used now): in the background, as it
        // only keeps the set among those the builder builds again for a new version.
        known.touchedAt = now();
        void catalogues.answer(installationId, source.version, readable).catch(() => undefined);
      }
      return known.answer;
    }
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

/** The versions of the installations' catalogue sources, as a front last read them from the store. */
export interface SourceVersions {
  /** The version of the installation's source last read; undefined when none was seen yet. */
  current(installationId: number): string | undefined;
  /** Resolves once the first read is done (failed reads are logged, not thrown). */
  ready: Promise<void>;
  /** Stops reading; resolves once a read in progress is done. */
  close(): Promise<void>;
}

/**
 * How far before the latest write seen each read of the versions looks, in ms: a source's
 * `updated_at` is its statement's start, and a write committed after a read may carry an
 * earlier time than one that read saw.
 */
const versionsOverlapMs = 60_000;

/**
 * Reads the versions of every installation's catalogue source from `catalogues` now and then
 * every `everyMs` (default 1,000): all of them first, then those written since the latest
 * seen (less {@link versionsOverlapMs}). What {@link StoredCatalogueOptions.versions} needs; a
 * failed read is logged (`catalogue_versions_unreadable`) and the next one tries again.
 */
export function watchSourceVersions(catalogues: CatalogueStore, options: { everyMs?: number; log?: Logger } = {}): SourceVersions {
  const versions = new Map<number, string>();
  let latest: number | null = null;
  let reading: Promise<void> | null = null;
  const read = (): Promise<void> =>
    (reading ??= (async () => {
      try {
        const rows = await catalogues.sourceVersions(latest === null ? null : new Date(latest - versionsOverlapMs));
        for (const row of rows) {
          versions.set(row.installationId, row.version);
          latest = Math.max(latest ?? 0, row.updatedAt.getTime());
        }
        // Nothing written yet: from now on, only what is written from the start of time is new.
        latest ??= 0;
      } catch (error) {
        options.log?.warn({ event: 'catalogue_versions_unreadable', err: error }, 'could not read the catalogue versions');
      } finally {
        reading = null;
      }
    })());
  const timer = setInterval(() => void read(), options.everyMs ?? 1000);
  timer.unref();
  return {
    current: (installationId) => versions.get(installationId),
    ready: read(),
    close: async () => {
      clearInterval(timer);
      await reading;
    },
  };
}
