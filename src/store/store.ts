// The Store port (DESIGN.md "Ports and adapters"): what the front and the jobs keep between
// requests: short-lived records (a used authorization code, a refresh's grace answer) and the
// installations the operator switched on. Local: the index database; hosted: the front's
// Postgres. One SQL adapter serves both (note-index/sql-store.ts).

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

/** The Store: short records and installations. */
export interface Store {
  readonly records: ShortRecords;
  readonly installations: Installations;
}
