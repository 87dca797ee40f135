// Composition root of the embedded default: local Git repositories, PGlite (or a Postgres
// server), the installation and its HTTP front, in one process. One of the only two modules
// that read the environment (DATABASE_URL, and MAJOR_VAULT_INDEX_LENT_BY below).
//
// The one job that runs apart (DESIGN.md "Jobs", embedded): a large first build of the
// PGlite index runs in a child process, `major-vault index` on the same folder, and the
// server opens the result when it is done. PGlite's WebAssembly memory never shrinks, so a
// build in the server would keep its peak (hundreds of MB for thousands of notes) for the
// server's life; a child gives it back to the operating system. The server holds the
// folder's lock throughout and lends the folder to its child (index-lock.ts). Later
// changes are small and are indexed in the server.
import { spawn } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { loadUsersFile, type UsersFile } from '../config/users-file.ts';
import { isLoopback } from '../front/is-loopback.ts';
import { implementedTools, preloadToolHandlers } from '../instance/all-tools.ts';
import type { IndexProgress, Installation } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import { readVaults } from '../instance/read-vaults.ts';
import type { Tool } from '../instance/tool.ts';
import { startWorkerPool } from '../pool/worker-pool.ts';
import { openPgliteThread } from '../note-index/pglite-thread.ts';
import type { SqlClient } from '../note-index/sql-client.ts';
import { holdGitRunnerUntil } from '../repo-host/git/git-runner.ts';
import { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';
import type { RepoHost } from '../repo-host/repo-host.ts';
import type { SignIn } from '../repo-host/sign-in.ts';
import { takeEarlyIndex } from './early-index.ts';
import { lockIndexDir, lockOptionsFromEnvironment, type IndexLock } from './index-lock.ts';
import { processLogger } from './logger.ts';
import { checkInstallationName } from './installation-name.ts';

/** Where the installation lives and what it is called; every command takes these. */
export interface LocalSettings {
  /** The folder whose sub-folders are the repositories. */
  reposDir: string;
  /** The installation's name (the address's path); default: the folder name of `reposDir`. */
  name?: string;
  /** Where the PGlite index is kept; default `<reposDir>/.major-vault`. */
  dataDir?: string;
  /** A users file: people, tokens and rights. Without one, one person reads and writes everything. */
  usersFile?: string;
  /** A Postgres server instead of PGlite; default `DATABASE_URL` from the environment. */
  databaseUrl?: string;
  /** The Postgres schema; default the installation's name as an identifier ({@link schemaName}). */
  schema?: string;
}

/** An opened installation and the parts it owns. */
export interface LocalInstallation {
  name: string;
  installation: Installation;
  host: LocalRepoHost;
  /** Who a bearer token belongs to: the users file, or one local person. */
  signIn: SignIn;
  users: UsersFile | null;
  /** A sentence for the operator when the index is not the persistent one (e.g. it was in use). */
  indexNote: string | null;
  close(): Promise<void>;
}

/** How long to wait for another process to let go of the PGlite folder before using a temporary index. */
const lockWaitMs = 5_000;

/** A first build of at least this many files (all repositories) runs in a child process. */
const childBuildFiles = 2_000;

/**
 * `serve`: how long after listening the installation begins to open when no tool call asked
 * for it before (ms): time for a client's first initialize and tools/list (see serveLocal).
 */
const openingDelayMs = 1_000;

/** The `major-vault` command, for the child process that builds the index. */
const cliPath = join(import.meta.dirname, '..', '..', 'bin', 'major-vault.js');

/**
 * The installation's name: `name`, or the folder name of `reposDir`. Must be usable as a
 * path segment of the address (letters, digits, `.`, `_`, `-`); throws an Error saying so.
 */
export function installationName(settings: LocalSettings): string {
  return checkInstallationName(settings.name ?? basename(resolve(settings.reposDir)));
}

/** What is read before the index: the folder checked, the name, the users file and the repository host. */
export interface PreparedLocal {
  reposDir: string;
  name: string;
  users: UsersFile | null;
  /** The installation's host; owned by the installation opened with it (its `close` closes it). */
  host: LocalRepoHost;
}

/**
 * The first, quick part of opening: checks the folder and the installation's name, reads the
 * users file, makes the repository host and finishes or drops commits a killed server left
 * half-placed (before anything reads a work tree). Enough to answer `initialize` and
 * `tools/list` ({@link readVaults}); the index is opened by {@link openLocalInstallation}.
 * Throws an Error with a sentence for the operator when the folder or the users file is not usable.
 */
export async function prepareLocal(settings: LocalSettings, log: Logger): Promise<PreparedLocal> {
  const reposDir = resolve(settings.reposDir);
  if (!existsSync(reposDir)) throw new Error(`The repositories folder ${reposDir} does not exist.`);
  const name = installationName(settings);
  const users = settings.usersFile ? await loadUsersFile(resolve(settings.usersFile)) : null;
  const host = new LocalRepoHost({ reposDir, users, log, onRecovery: (sentence) => log.warn({ event: 'recovered' }, sentence) });
  try {
    await host.recoverInterruptedCommits();
  } catch (error) {
    await host.close();
    throw error;
  }
  return { reposDir, name, users, host };
}

/**
 * Opens the installation: the users file, the repository host (both from `prepared` when
 * given, see {@link prepareLocal}), the index (migrated) and the Installation, then indexes
 * every repository (`onProgress` reports it). `poll: false` leaves the poll of the repositories
 * off (the `index` command). `waitForIndex: false` resolves once the repositories are listed
 * and their `.vault/` read, while the indexing goes on (tool calls wait for it:
 * `installation.ready()`). `snapshotsAhead` takes each repository's snapshot while the index
 * opens (see snapshotsAhead below): `stdio` asks for it, its first answers being out by then;
 * `serve` does not (measured when it began this at once on listening, the snapshot's watch and
 * git status slowed its first `initialize` and `tools/list` by about 100 ms in an A/B without
 * making the first call sooner). Throws an Error with a sentence for the operator when the
 * folder, the users file or the database is not usable.
 *
 * `childBuildFiles`: a new PGlite index whose first build has at least this many files is
 * built by a child process (see the module header); default 2,000 when the installation
 * keeps running (`poll`), never for the `index` command (it is that child).
 */
export async function openLocalInstallation(
  settings: LocalSettings,
  options: {
    log?: Logger;
    onProgress?: IndexProgress;
    poll?: boolean;
    as?: string;
    childBuildFiles?: number;
    sharedIndexOnly?: boolean;
    matchBudgetMs?: number;
    prepared?: PreparedLocal;
    waitForIndex?: boolean;
    snapshotsAhead?: boolean;
  } = {},
): Promise<LocalInstallation> {
  const log = options.log ?? processLogger();
  const { reposDir, name, users, host } = options.prepared ?? (await prepareLocal(settings, log));
  const childFiles = options.childBuildFiles ?? (options.poll === false ? Infinity : childBuildFiles);
  const ahead = options.snapshotsAhead ? snapshotsAhead(host) : Promise.resolve();
  // The installation's modules (the index's code, the indexer, the notes' parsing) load while
  // the index opens, not with every start: the first answers of `serve` and `stdio` need none.
  const parts = installationParts();
  parts.catch(() => undefined);
  let index: OpenedIndex;
  try {
    index = await openIndex(
      {
        name,
        dataDir: resolve(settings.dataDir ?? join(reposDir, '.major-vault')),
        ...(settings.databaseUrl !== undefined ? { databaseUrl: settings.databaseUrl } : {}),
        ...(settings.schema !== undefined ? { schema: settings.schema } : {}),
      },
      log,
      { sharedIndexOnly: options.sharedIndexOnly ?? false, childBuild: { reposDir, host, files: childFiles } },
    );
  } catch (error) {
    await ahead;
    await host.close();
    throw error;
  }
  let installation: Installation | null = null;
  try {
    const { Installation, migrate, ChangesPoll, InProcessQueue } = await parts;
    await migrate(index.sql);
    // Changes arrive by polling the work trees and branch heads; index updates run as jobs in this process.
    installation = Installation.open({
      name,
      host,
      sql: index.sql,
      log,
      changes: new ChangesPoll(),
      queue: new InProcessQueue(),
      ...(options.matchBudgetMs !== undefined ? { matchBudgetMs: options.matchBudgetMs } : {}),
    });
    const startOptions = { ...(options.onProgress ? { onProgress: options.onProgress } : {}), poll: options.poll ?? true };
    if (options.waitForIndex === false) await installation.startInBackground(startOptions);
    else await installation.start(startOptions);
  } catch (error) {
    await installation?.close();
    await index.close();
    await ahead;
    await host.close();
    throw error;
  }
  const opened = installation;
  return {
    name,
    installation: opened,
    host,
    // The local adapter answers sign-in itself (its users file), beside repository access.
    signIn: host,
    users,
    indexNote: index.note,
    async close() {
      await opened.close();
      await index.close();
      await host.close();
    },
  };
}

/** The modules {@link openLocalInstallation} opens an installation with, loaded when it does. */
async function installationParts() {
  const [{ Installation }, { migrate }, { ChangesPoll }, { InProcessQueue }] = await Promise.all([
    import('../instance/installation.ts'),
    import('../note-index/migrate.ts'),
    import('../repo-host/local/changes-poll.ts'),
    import('../jobs/in-process-queue.ts'),
  ]);
  return { Installation, migrate, ChangesPoll, InProcessQueue };
}

/**
 * Takes the snapshot of every repository `host` lists (for a work tree: its `git status`,
 * `git ls-files` and the start of its watch; 250-500 ms on obsidian-help's 6,289 files) while
 * the index opens on its own thread, instead of after it: the startup's check of each
 * repository asks the host for the same snapshot, which it keeps while nothing it rests on
 * moved (or joins while it is still being taken), so the first tool call no longer waits for
 * the index and then for git. Resolves when done; never rejects (the check itself takes the
 * snapshot again, and reports what fails).
 */
async function snapshotsAhead(host: RepoHost): Promise<void> {
  try {
    await Promise.all((await host.listRepos()).map((repo) => host.snapshot(repo.name).catch(() => undefined)));
  } catch {
    // Listed again by the startup, which says what failed.
  }
}

/** Options of {@link serveLocal}. */
export interface ServeSettings extends LocalSettings {
  port: number;
  /** The interface to listen on; without a users file only a loopback address is allowed. */
  hostname: string;
}

/** A running `serve`: the MCP address, the installation as it opens, and how to stop. */
export interface LocalServer {
  url: URL;
  /** The installation's name (the address's path). */
  name: string;
  /**
   * The installation, once its index is open and its repositories listed (indexing may still
   * run: `installation.ready()`); rejects when the index could not be opened (tool calls then
   * answer `index_unavailable`).
   */
  opened: Promise<LocalInstallation>;
  /** Stops serving, letting calls in progress finish for up to `drainMs` (default 0), then closes the installation. */
  close(options?: { drainMs?: number }): Promise<void>;
}

/**
 * `major-vault serve`: serves the installation over HTTP at `/<name>`. It listens as soon as
 * the folder and the users file are read: `initialize` and `tools/list` are answered from the
 * repositories and their `.vault/` read straight from Git ({@link readVaults}) while the index
 * opens (PGlite, migrations, the startup's check of each repository); tool calls wait for it.
 * PGlite opens on its own thread from the start; the rest of the opening begins on the first
 * tool call, or `options.openingDelayMs` (ms, default 1,000) after listening, so that it does
 * not slow the first `initialize` and `tools/list`. Without a users file it listens on
 * loopback only (anyone who can reach the port would
 * otherwise read and write as the one local person); a non-loopback `hostname` is refused
 * with an Error saying why, as are a missing folder and an unusable users file. A failure to
 * open the index later is logged, and tool calls answer it.
 */
export async function serveLocal(
  settings: ServeSettings,
  options: { log?: Logger; onProgress?: IndexProgress; tools?: readonly Tool[]; matchBudgetMs?: number; openingDelayMs?: number } = {},
): Promise<LocalServer> {
  const log = options.log ?? processLogger();
  if (!settings.usersFile && !isLoopback(settings.hostname)) {
    throw new Error(
      `Without a users file, Major Vault answers everyone who reaches it as you, with your rights to read and write; so it listens on this computer only (127.0.0.1). ` +
        `To serve ${settings.hostname}, give --users FILE with a token for each person.`,
    );
  }
  const prepared = await prepareLocal(settings, log);
  // The local person's git configuration, read while the front's modules load rather than
  // on the first request.
  prepared.host.signInAhead();
  // The installation's own start (the startup check of each repository: git status of the
  // whole work tree, git ls-files, the start of its watch) holds the main thread for a few
  // hundred ms; begun at once, it ran beside the first initialize and tools/list, which need
  // only `.vault/` read from Git. It begins on the first request that needs the installation
  // (a tool call), else openingDelayMs after listening. PGlite keeps opening on its own
  // thread meanwhile (early-index.ts).
  let startOpening!: () => void;
  let openingTimer: NodeJS.Timeout | undefined;
  const start = new Promise<void>((resolve) => {
    startOpening = () => {
      clearTimeout(openingTimer);
      resolve();
    };
  });
  const opened = start.then(() =>
    openLocalInstallation(settings, {
      log,
      prepared,
      waitForIndex: false,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.matchBudgetMs !== undefined ? { matchBudgetMs: options.matchBudgetMs } : {}),
    }),
  );
  // The search threads start once the index is open: on two processors, starting them while
  // it opens slows the first answers (a call that needs one before starts them itself).
  void opened.then(startWorkerPool, () => undefined);
  opened.catch((error: unknown) => log.error({ err: error }, 'opening the index failed; tool calls will say so until restarted'));
  const closeOpened = async () => {
    // Not begun yet: begin, so that the index taken early is closed with the rest.
    startOpening();
    const local = await opened.catch(() => null);
    // Never opened: the host is still this function's to close.
    if (local) await local.close();
    else await prepared.host.close();
  };
  try {
    // The HTTP front's modules load only for `serve` (a `stdio` start never listens).
    const { serveInstallation } = await import('./serve-installation.ts');
    const served = await serveInstallation({
      name: prepared.name,
      installation: opened.then((local) => local.installation),
      earlyVaults: (access) => readVaults(prepared.host, access),
      installationWanted: startOpening,
      // The local adapter answers sign-in itself (its users file), before the index is open too.
      signIn: prepared.host,
      hostname: settings.hostname,
      port: settings.port,
      tools: options.tools ?? implementedTools,
      log,
    });
    openingTimer = setTimeout(startOpening, options.openingDelayMs ?? openingDelayMs);
    // The tools' handlers load once the startup is done, between calls (a call before loads its own): loaded
    // earlier, they hold the main thread while the first answers and the index's start need it.
    // The git runner's fork waits for all of that.
    holdGitRunnerUntil(opened.then((local) => local.installation.ready()).then(preloadToolHandlers, () => undefined));
    return {
      url: served.url,
      name: prepared.name,
      opened,
      async close(closeOptions = {}) {
        await served.close(closeOptions);
        await closeOpened();
      },
    };
  } catch (error) {
    await closeOpened();
    throw error;
  }
}

/** Where an installation's index lives: a Postgres server's schema, or PGlite in `<dataDir>/index`. */
export interface IndexPlace {
  /** The installation's name: the default schema ({@link schemaName}). */
  name: string;
  /** The data folder of the installation (absolute); PGlite's folder and its lock are in it. */
  dataDir: string;
  /** A Postgres server instead of PGlite; default `DATABASE_URL` from the environment. */
  databaseUrl?: string;
  schema?: string;
}

/** An opened index database and how to close it (and let go of its folder). */
export interface OpenedIndex {
  sql: SqlClient;
  /** A sentence for the operator when the index is not the persistent one (e.g. it was in use). */
  note: string | null;
  close(): Promise<void>;
}

/**
 * The index database: a Postgres server's schema, or PGlite in the data folder (or in memory
 * when another process holds that folder, unless `sharedIndexOnly`: then an Error says so).
 * `childBuild` (local repositories only): a new PGlite index with at least `files` files is
 * built by `major-vault index` in a child process first (see the module header).
 */
export async function openIndex(
  place: IndexPlace,
  log: Logger,
  options: { sharedIndexOnly?: boolean; childBuild?: { reposDir: string; host: RepoHost; files: number } } = {},
): Promise<OpenedIndex> {
  const { name, dataDir } = place;
  const databaseUrl = place.databaseUrl ?? process.env['DATABASE_URL'];
  if (databaseUrl) {
    // Loaded only here: the Postgres client (and PGlite in process, below) are not on the way to a start's first answers.
    const { openPostgres } = await import('../note-index/postgres-client.ts');
    const sql = await openPostgres(databaseUrl, place.schema ?? schemaName(name));
    return { sql, note: null, close: () => sql.close() };
  }
  const early = await takeEarlyIndex(dataDir, indexThreadStopped(log));
  if (early) {
    return {
      sql: early.sql,
      note: null,
      async close() {
        await early.sql.close();
        early.lock.release();
      },
    };
  }
  const lock = await lockIndexDir(dataDir, lockWaitMs, lockOptionsFromEnvironment());
  if (!lock) {
    // `major-vault index` exists to update the folder's index: one in memory would be thrown away.
    if (options.sharedIndexOnly) {
      throw new Error(
        `The index in ${dataDir} is in use by a running major-vault server, which keeps it up to date itself; nothing to do. Stop that server first to rebuild the index by hand.`,
      );
    }
    const { openPglite } = await import('../note-index/pglite-client.ts');
    const sql = await openPglite(null);
    const note = `The index in ${dataDir} is in use by another major-vault process; this one keeps a temporary index in memory.`;
    return { sql, note, close: () => sql.close() };
  }
  const dir = join(dataDir, 'index');
  const build = options.childBuild;
  if (build && !existsSync(join(dir, 'PG_VERSION')) && (await filesToIndex(build.host, build.files)) >= build.files) {
    await buildInChild({ reposDir: build.reposDir, dataDir, name, log });
  }
  const sql = await openPgliteRebuilding(dir, log, lock);
  return {
    sql,
    note: null,
    async close() {
      await sql.close();
      lock.release();
    },
  };
}

/** How many files the repositories have, counted up to `enough` (0 when they cannot be listed: the build in process reports why). */
async function filesToIndex(host: RepoHost, enough: number): Promise<number> {
  if (!Number.isFinite(enough)) return 0;
  let files = 0;
  try {
    for (const info of await host.listRepos()) {
      if (files >= enough) break;
      files += (await host.snapshot(info.name)).files.length;
    }
  } catch {
    return 0;
  }
  return files;
}

/**
 * Runs `major-vault index` on the data folder in a child process, which borrows this
 * process's lock (MAJOR_VAULT_INDEX_LENT_BY), and waits for it. Its output goes to standard
 * error (standard output may be the MCP connection of `stdio`), its progress bars included.
 * A failed build is logged; the index is then built in this process.
 */
async function buildInChild(settings: { reposDir: string; dataDir: string; name: string; log: Logger }): Promise<void> {
  const args = [
    cliPath,
    'index',
    '--repos',
    settings.reposDir,
    '--data',
    settings.dataDir,
    '--name',
    settings.name,
    '--log-level',
    settings.log.level,
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, MAJOR_VAULT_INDEX_LENT_BY: String(process.pid) },
    stdio: ['ignore', 2, 2],
  });
  // The child must not write on after this process has gone.
  const stop = () => child.kill();
  process.once('exit', stop);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode) => resolve(exitCode));
    });
    if (code !== 0) settings.log.warn(`building the index in a child process failed (exit code ${code}); building it in this process`);
  } catch (error) {
    settings.log.warn({ err: error }, 'building the index in a child process failed; building it in this process');
  } finally {
    process.off('exit', stop);
  }
}

/**
 * PGlite in `dir`, on a thread of its own (pglite-thread.ts: its statements never hold the
 * event loop; a thread that dies is logged and reopened by the next call); when the folder does not open (a process killed mid-write), it is moved
 * aside and a new index is built: the index is derived from Git and can always be rebuilt.
 */
async function openPgliteRebuilding(dir: string, log: Logger, lock: IndexLock): Promise<SqlClient> {
  const open = () => openPgliteThread(dir, { onExit: indexThreadStopped(log) });
  try {
    return await open();
  } catch (error) {
    if (!existsSync(dir)) {
      lock.release();
      throw error;
    }
    const aside = `${dir}.broken-${Date.now()}`;
    log.warn({ err: error }, `the index in ${dir} does not open; moved it to ${aside} and building a new one`);
    renameSync(dir, aside);
    return open();
  }
}

/** What the log hears when the index thread stops on its own. */
function indexThreadStopped(log: Logger): (reason: string) => void {
  return (reason) => log.error(`the index thread stopped (${reason}); reopening it on the next call`);
}

/** The Postgres schema of an installation: its name as a plain identifier. */
export function schemaName(name: string): string {
  const identifier = name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return /^[a-z_]/.test(identifier) ? identifier : `mv_${identifier}`;
}
