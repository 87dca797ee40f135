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
 */
export function storedCatalogue(options: StoredCatalogueOptions): CatalogueSource {
  const { catalogues, installationId, tools } = options;
  return async (access): Promise<CatalogueAnswer | null> => {
    const source = await catalogues.source(installationId);
    if (source === null) return null;
    const byName = new Map(source.repos.map((repo) => [repo.name, repo]));
    const readable = [...access.read].sort();
    if (readable.some((name) => !byName.has(name))) return null;
    const stored = await catalogues.answer(installationId, source.version, readable);
    // Stored by this code or the builder's, from the same registry: the listed JSON as sent.
    if (stored !== null) return { instructions: stored.instructions, tools: stored.tools as ListedTool[] };
    const built = catalogueFor(
      tools,
      readable.map((name) => byName.get(name)!),
    );
    await catalogues.putAnswer(installationId, source.version, readable, { instructions: built.instructions, tools: [...built.tools] });
    return built;
  };
}
