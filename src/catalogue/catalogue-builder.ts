// The catalogue builder (issue 13; DESIGN.md "The parts": the catalogue): from what an
// installation's repositories say in `.vault/`, the configuration version and the stored answers
// of `initialize` and `tools/list` for every set of readable repositories someone used lately,
// made with the same code the instance runs (catalogueFor), so the front can answer from the
// store without waking the instance. It prunes what no one can reach any more.
import { createHash } from 'node:crypto';
import type { CatalogueStore, StoredCatalogue } from '../store/store.ts';
import type { ToolDefinition } from '../tools/tool.ts';
import { catalogueFor, catalogueInputs, type CatalogueRepo } from './catalogue.ts';

/** How long an answer nobody asked for is kept, and how far back a used set is built again for a new version: 30 days. */
export const catalogueKeepMs = 30 * 24 * 60 * 60 * 1000;

const registryKeys = new WeakMap<readonly ToolDefinition[], string>();

/** What the registry lists whatever the repositories (every tool's listed entry, the service's paragraph), as text: a change to a tool is a new version. */
function registryKey(tools: readonly ToolDefinition[]): string {
  let key = registryKeys.get(tools);
  if (key === undefined) {
    const bare = catalogueFor(tools, []);
    key = JSON.stringify({ tools: bare.tools, instructions: bare.instructions });
    registryKeys.set(tools, key);
  }
  return key;
}

/** `repos` sorted by name (byte order), as the store keeps them. */
function sortedRepos(repos: readonly CatalogueRepo[]): CatalogueRepo[] {
  return [...repos].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The configuration version of an installation: the SHA-256 (hex) of its repositories'
 * catalogue inputs (name, summary, instructions, special tools; sorted by name) and of what the registry
 * `tools` lists, so a changed `.vault/`, a repository added or removed, or a new release whose
 * tools read differently each make a new version, and nothing else does.
 */
export function catalogueVersion(tools: readonly ToolDefinition[], repos: readonly CatalogueRepo[]): string {
  const inputs = sortedRepos(repos).map(catalogueInputs);
  return createHash('sha256').update(JSON.stringify(inputs)).update('\0').update(registryKey(tools)).digest('hex');
}

/**
 * The stored answer for a person who can read the repositories named `readable` (any order)
 * out of `repos`: the instructions and the `tools/list` tools exactly as the instance lists
 * them for that set. A name `repos` does not have is left out (it is no longer there to read).
 */
export function storedCatalogueFor(
  tools: readonly ToolDefinition[],
  repos: readonly CatalogueRepo[],
  readable: readonly string[],
): StoredCatalogue {
  const wanted = new Set(readable);
  const catalogue = catalogueFor(
    tools,
    sortedRepos(repos).filter((repo) => wanted.has(repo.name)),
  );
  return { instructions: catalogue.instructions, tools: [...catalogue.tools] };
}

/** What one {@link buildStoredCatalogues} did. */
export interface CatalogueBuild {
  version: string;
  /** Whether the version differs from the one the store had (then the answers were built again). */
  changed: boolean;
  /** How many answers were built and stored. */
  answers: number;
  /** How many stored answers were dropped (other versions, sets unused for {@link catalogueKeepMs}). */
  pruned: number;
}

/**
 * Brings installation `installationId`'s catalogue in `store` up to `repos` (every repository
 * of the installation, with what its `.vault/` says): when the version ({@link catalogueVersion})
 * differs from the stored source's, builds the answer of every set of readable repositories
 * used in the last 30 days under the new version, then stores the new source, then prunes the
 * answers of other versions and of sets unused for 30 days. In that order, so the front always
 * finds the answers of the version it reads, and a run cut short is done again whole by the
 * next (idempotent). `now` is for tests.
 */
export async function buildStoredCatalogues(options: {
  store: CatalogueStore;
  installationId: number;
  tools: readonly ToolDefinition[];
  repos: readonly CatalogueRepo[];
  now?: Date;
}): Promise<CatalogueBuild> {
  const { store, installationId, tools } = options;
  const repos = sortedRepos(options.repos);
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - catalogueKeepMs);
  const version = catalogueVersion(tools, repos);
  const before = await store.source(installationId);
  if (before?.version === version) return { version, changed: false, answers: 0, pruned: 0 };
  const names = new Set(repos.map((repo) => repo.name));
  const built = new Set<string>();
  for (const used of await store.setsUsedSince(installationId, since)) {
    // A repository that left is no longer in anyone's readable set: the set without it is what will be asked.
    const set = used.filter((name) => names.has(name)).sort();
    const key = set.join('/');
    if (built.has(key)) continue;
    built.add(key);
    await store.putAnswer(installationId, version, set, storedCatalogueFor(tools, repos, set), { rebuilt: true });
  }
  await store.putSource(installationId, version, repos);
  const pruned = await store.prune(installationId, version, since);
  return { version, changed: true, answers: built.size, pruned };
}
