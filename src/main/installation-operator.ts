// Composition root of the operator's `major-vault installation on|off|list` (spec: "Wait until
// we switch it on"): the App's installations in the Store, where serve-github keeps them.
// Reads DATABASE_URL from the environment when no --database-url is given. On a Postgres
// server (the hosted processes, issue 13), switching an installation on also creates and
// migrates its own database and asks the worker to index it.
import type { InstallationRecord, Store } from '../store/store.ts';
import { createInstallationDatabase, installationDatabaseName } from './installation-database.ts';
import { checkInstallationName } from './installation-name.ts';
import { openOperatorStore, type StorePlace } from './open-store.ts';
import { openJobSender, queuePlace } from './queue-settings.ts';
import { terminalText } from './terminal-text.ts';

/**
 * Where the operator's command finds the Store; `env` (default the process's) gives
 * DATABASE_URL when `databaseUrl` is absent, and MAJOR_VAULT_QUEUE_DATABASE_URL when
 * `queueDatabaseUrl` is. The queue (hosted: where `installation on` sends the worker its job)
 * is in `queueSchema` (default `major_vault_queue`).
 */
export type OperatorPlace = StorePlace & { env?: NodeJS.ProcessEnv; queueDatabaseUrl?: string; queueSchema?: string };

/** Opens the Store at `place` (DATABASE_URL when it names no server), runs `work` with it and the server's URL (absent: a PGlite data folder), and closes it. */
async function withStore<T>(place: OperatorPlace, work: (store: Store, databaseUrl: string | undefined) => Promise<T>): Promise<T> {
  const databaseUrl = place.databaseUrl || (place.env ?? process.env)['DATABASE_URL'] || undefined;
  const opened = await openOperatorStore({ ...place, ...(databaseUrl !== undefined ? { databaseUrl } : {}) });
  try {
    return await work(opened.store, databaseUrl);
  } finally {
    await opened.close();
  }
}

/** The refusal for an id the Store has never been told of. */
function unknownInstallation(id: number): Error {
  return new Error(
    `No installation ${id} is known here. An installation is recorded when GitHub sends its admin to the Setup URL (/github/setup) or its installation webhook arrives, and serve-github records its own at start; \`major-vault installation list\` shows the known ones.`,
  );
}

/** An installation switched on, and what was done for the hosted processes. */
export type SwitchedOn = InstallationRecord & {
  /** On a Postgres server: the installation's own database, created (when missing) and migrated; null on a PGlite data folder. */
  database: string | null;
  /** Whether `refresh-installation` was sent to the worker (on a Postgres server): it indexes the repositories and builds the catalogue. */
  refreshQueued: boolean;
};

/**
 * `installation on <id> --name <name>`: switches a known installation on under `name` (the
 * path of its address; renames one that is on already). On a Postgres server it first creates
 * and migrates the installation's own database (`major_vault_installation_<id>`: the role
 * needs CREATEDB), and then sends `refresh-installation` to the worker's queue. Throws a
 * sentence for an unknown id, a name that cannot be an address, a name another installation
 * has, a Store that cannot be opened (see {@link openOperatorStore}), or a database that
 * cannot be created.
 */
export async function switchInstallationOn(place: OperatorPlace, id: number, name: string): Promise<SwitchedOn> {
  checkInstallationName(name);
  return withStore(place, async (store, databaseUrl) => {
    if ((await store.installations.get(id)) === null) throw unknownInstallation(id);
    if (databaseUrl === undefined) return { ...(await store.installations.switchOn(id, name)), database: null, refreshQueued: false };
    // The database first, so an installation that is on always has one; not for a name that
    // is taken (switchOn refuses it below, saying whose it is).
    const holder = await store.installations.byName(name);
    if (holder === null || holder.id === id) await createInstallationDatabase(databaseUrl, id);
    const record = await store.installations.switchOn(id, name);
    const jobs = await openJobSender(
      queuePlace(databaseUrl, {
        ...(place.queueDatabaseUrl !== undefined ? { queueDatabaseUrl: place.queueDatabaseUrl } : {}),
        ...(place.queueSchema !== undefined ? { queueSchema: place.queueSchema } : {}),
        ...(place.env !== undefined ? { env: place.env } : {}),
      }),
    );
    try {
      await jobs.send({ name: 'refresh-installation', installationId: id });
    } finally {
      await jobs.close({ timeoutMs: 0 });
    }
    return { ...record, database: installationDatabaseName(id), refreshQueued: true };
  });
}

/** `installation off <id>`: switches a known installation off (its name stays reserved to it). Throws for an unknown id. */
export async function switchInstallationOff(place: OperatorPlace, id: number): Promise<InstallationRecord> {
  return withStore(place, async (store) => {
    const record = await store.installations.switchOff(id);
    if (record === null) throw unknownInstallation(id);
    return record;
  });
}

/** `installation list`: every installation the Store knows, by id. */
export async function listInstallations(place: OperatorPlace): Promise<InstallationRecord[]> {
  return withStore(place, (store) => store.installations.list());
}

/**
 * The records as a table for a terminal: id, status, name, account, last change (UTC). Names
 * and accounts come from webhooks and are escaped ({@link terminalText}), so none can drive the
 * terminal.
 */
export function installationTable(records: readonly InstallationRecord[]): string {
  if (records.length === 0) return 'No installations are known yet.';
  const rows = [
    ['ID', 'STATUS', 'NAME', 'ACCOUNT', 'CHANGED'],
    ...records.map((record) => [
      String(record.id),
      record.status,
      record.name === null ? '-' : terminalText(record.name),
      record.account === null ? '-' : terminalText(record.account),
      record.updatedAt.toISOString().slice(0, 16).replace('T', ' '),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
