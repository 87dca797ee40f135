// The Store port (DESIGN.md "Ports and adapters"): what the front and the jobs keep between
// requests: short-lived records (a used authorization code, a refresh's grace answer) and the
// installations the operator switched on. Local: the index database; hosted: the front's
// Postgres. One SQL adapter serves both (note-index/sql-store.ts).
import type { SpecialToolSpec } from '../special-tools/engine.ts';

/**
 * Short-lived records under string keys, each with its own lifetime. The front's only state
 * (issue 12): a record is sealed by its writer where it holds a secret, and keyed by a hash
 * where the key would be one. An expired record reads as absent.
 */
export interface ShortRecords {
  /**
   * Keeps `value` under `key` for `ttlMs` milliseconds unless a live record is there already.
   * True when this call put it (atomic across processes: two callers never both win).
   */
  putIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Keeps `value` under `key` for `ttlMs` milliseconds, replacing any record there. */
  put(key: string, value: string, ttlMs: number): Promise<void>;
  /** The live record under `key`, else null. */
  get(key: string): Promise<string | null>;
  delete(key: string): Promise<void>;
}

/**
 * Where an installation of the GitHub App stands with us (spec: "Wait until we switch it on"):
 * `pending` until the operator switches it on and names it; `on` is served at `/<name>`;
 * `off` was switched off again (its name stays reserved to it).
 */
export type InstallationStatus = 'pending' | 'on' | 'off';

/** An installation as the store knows it. */
export interface InstallationRecord {
  /** GitHub's installation id. */
  id: number;
  /** The account it is installed on (organisation or user login), when known. */
  account: string | null;
  /** The name of its address (`/<name>`), once the operator gave one. */
  name: string | null;
  status: InstallationStatus;
  updatedAt: Date;
}

/** The installations of the App, by id and by name. */
export interface Installations {
  get(id: number): Promise<InstallationRecord | null>;
  /** The installation that has `name` (compared without case), else null. */
  byName(name: string): Promise<InstallationRecord | null>;
  /** Every installation, by id. */
  list(): Promise<InstallationRecord[]>;
  /**
   * Records an installation GitHub told us of (its setup redirect, or an `installation`
   * webhook): new ones are `pending`; a known one keeps its status and name, its account
   * is updated when given.
   */
  seen(id: number, account: string | null): Promise<InstallationRecord>;
  /**
   * The operator switches an installation on under `name` (the address's path). Throws an
   * Error that says so when another installation has that name (compared without case).
   */
  switchOn(id: number, name: string): Promise<InstallationRecord>;
  /** The operator switches it off; null when the store has no such installation. */
  switchOff(id: number): Promise<InstallationRecord | null>;
}

/**
 * When each person last asked a "since you last looked" tool (the `changes` engine, issue 15),
 * per installation (its name), person (their login) and tool (its listed name,
 * `<repo>__<name>`). Kept until replaced.
 */
export interface LastLooks {
  /** The moment `person` last asked `tool` in `installation`; null when never. */
  get(installation: string, person: string, tool: string): Promise<Date | null>;
  /** Records that `person` asked `tool` at `at`; an earlier `at` than the one kept never moves it back. */
  put(installation: string, person: string, tool: string, at: Date): Promise<void>;
}

/** The Store: short records, installations, the catalogue store and the last looks. */
export interface Store {
  readonly records: ShortRecords;
  readonly installations: Installations;
  readonly catalogues: CatalogueStore;
  readonly lastLooks: LastLooks;
}

/** One readable repository as the catalogue needs it (catalogue/catalogue.ts `CatalogueRepo`): what its `.vault/` says. */
export interface CatalogueSourceRepo {
  name: string;
  /** The settings' `summary`; null when none. */
  summary: string | null;
  /** `.vault/instructions.md`; null when none. */
  instructions: string | null;
  /** Its special tools, resolved; absent: none. */
  specialTools?: readonly SpecialToolSpec[];
}

/**
 * What the catalogue builder read from an installation's repositories (issue 13): every
 * repository with its catalogue inputs, under a configuration version (a hash the builder
 * computes over the repositories' inputs and the tool registry), sorted by name.
 */
export interface CatalogueSource {
  version: string;
  repos: CatalogueSourceRepo[];
  updatedAt: Date;
}

/** An installation's source version, and when the builder wrote it (see {@link CatalogueStore.sourceVersions}). */
export interface SourceVersion {
  installationId: number;
  version: string;
  updatedAt: Date;
}

/** The answers of `initialize` and `tools/list` for one set of readable repositories, as sent: JSON. */
export interface StoredCatalogue {
  /** The `initialize` and `server/discover` instructions. */
  instructions: string;
  /** The `tools/list` result's `tools`, exactly as listed. */
  tools: unknown[];
}

/**
 * The catalogue store (DESIGN.md "The parts"; issue 13): the front answers `initialize` and
 * `tools/list` from it at once, without waking the instance. The builder (a job) writes each
 * installation's {@link CatalogueSource}; answers are kept per configuration version and
 * sorted set of readable repository names, and pruned when no one can reach them any more.
 */
export interface CatalogueStore {
  /** The installation's source as the builder last wrote it; null before its first run. */
  source(installationId: number): Promise<CatalogueSource | null>;
  /**
   * The version of every installation's source written at or after `since` (all of them when
   * null), with when it was written (the database's clock): what a front reads every second
   * to see a new version without reading each source on each call.
   */
  sourceVersions(since: Date | null): Promise<SourceVersion[]>;
  /** Replaces the installation's source; true when its version differs from the one kept. */
  putSource(installationId: number, version: string, repos: readonly CatalogueSourceRepo[]): Promise<boolean>;
  /** The answer kept for `version` and the set `repos` (any order), else null; marks it used now. */
  answer(installationId: number, version: string, repos: readonly string[]): Promise<StoredCatalogue | null>;
  /**
   * Keeps the answer for `version` and the set `repos` (any order), replacing one there, as
   * used now; with `rebuilt` (the builder answering a set again for a new version), as used
   * when the set was last used under any version, so a set no one asks for still ages out.
   */
  putAnswer(
    installationId: number,
    version: string,
    repos: readonly string[],
    answer: StoredCatalogue,
    options?: { rebuilt?: boolean },
  ): Promise<void>;
  /** The sets (sorted names) whose answer, of any version, was used at or after `since`: what to build again for a new version. */
  setsUsedSince(installationId: number, since: Date): Promise<string[][]>;
  /** Drops the answers of other versions than `keepVersion`, and of sets unused since `unusedSince`; resolves to how many. */
  prune(installationId: number, keepVersion: string, unusedSince: Date): Promise<number>;
  /** Drops everything kept for the installation (uninstalled). */
  drop(installationId: number): Promise<void>;
}
